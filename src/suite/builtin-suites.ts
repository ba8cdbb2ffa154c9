/**
 * The built-in suites (`calib suite list`, `calib suite show NAME`, `calib suite run NAME`), written as the same
 * JSON a user would put in a file.
 *
 * `demo` — the front door (`calib demo`): CE, label smoothing, focal loss, MbLS and input mixup on the embedded
 * MNIST digits, one seed, temperature scaling after training. The quick scale is chosen so that CE is measurably
 * overconfident in a few seconds per run: an MLP with one 512-unit hidden layer, 1,000 training images (a 2,000-image
 * stratified subset minus a 1,000-image validation split), 40 epochs at η₀ = 0.1 without weight decay, and the last
 * epoch's weights (`select: last`), so the network fits its training set and keeps sharpening its softmax (measured:
 * test accuracy 90.9 %, mean confidence 95.3 %, T = 1.74). The methods' strengths are set for this small problem
 * (LS ε = 0.02, focal γ = 1, mixup α = 0.1: at ε = 0.05, γ = 3, α = 0.2 they overshoot into underconfidence by
 * 3–9 points here; MbLS keeps the papers' m = 10).
 * `machine` trains on all 7,000 training images for 60 epochs; `paper` uses LeNet (with batch norm, its default) with
 * weight decay 5e-4 as in the papers' recipes (epoch chosen by validation accuracy).
 *
 * The five paper suites (`maronas`, `thulasidasan`, `mbls`, `acls`, `karandikar`) live in papers/, one file each (each
 * also at the shared `deep` scale, `withDeepScale`), with
 * `mbls-segmentation` (MbLS Table 5 on mnist-seg pixels, papers/mbls-segmentation.ts) and the text rows of two of them
 * as their own suites (`thulasidasan-text`, `mbls-text`: a text CNN on Debian package descriptions at machine scale,
 * 20 Newsgroups at paper scale; papers/text-scales.ts).
 *
 * `demo-margin` — a sweep: MbLS margin m ∈ {0, 2, 4, 6, 8, 10} against CE, two seeds, m chosen on validation NLL.
 */
import { ACLS_SUITE } from './papers/acls.js';
import { KARANDIKAR_SUITE } from './papers/karandikar.js';
import { MARONAS_SUITE } from './papers/maronas.js';
import { MBLS_SUITE } from './papers/mbls.js';
import { MBLS_SEGMENTATION_SUITE } from './papers/mbls-segmentation.js';
import { MBLS_TEXT_SUITE } from './papers/mbls-text.js';
import { THULASIDASAN_SUITE } from './papers/thulasidasan.js';
import { THULASIDASAN_TEXT_SUITE } from './papers/thulasidasan-text.js';
import { ACLS_DEEP_GRID, KARANDIKAR_DEEP_GRID, MARONAS_DEEP_GRID, MBLS_DEEP_GRID, THULASIDASAN_DEEP_GRID } from './papers/deep-grids.js';
import { DEEP } from './papers/scales.js';
import type { BuiltinSuite, SettingsInput, SuiteGridInput, SuiteScale } from './suite-schema.js';
import { defineRegistry } from '../util/registry.js';

const DEMO_BASE: SettingsInput = {
  dataset: 'mnist',
  model: 'mlp',
  modelOptions: { hidden: [512] },
  validation: 1000,
  batch: 64,
  lr: 0.1,
  weightDecay: 0,
  select: 'last',
  threads: 2,
};

const DEMO_SCALES: Partial<Record<SuiteScale, SettingsInput>> = {
  quick: { subset: 2000, epochs: 40 },
  machine: { epochs: 60 },
  paper: { model: 'lenet', modelOptions: {}, epochs: 60, weightDecay: 5e-4, select: 'accuracy' },
};

/**
 * A paper suite with the shared `deep` scale (papers/scales.ts DEEP over the suite's base) when it declares no
 * `deep` of its own (a suite that declares one, e.g. the paper's selection rule, keeps it), and `grid` as its
 * trimmed deep grid (papers/deep-grids.ts) unless it declares one.
 */
export function withDeepScale(entry: BuiltinSuite, grid?: SuiteGridInput): BuiltinSuite {
  const scales = (entry.suite['scales'] ?? {}) as Record<string, unknown>;
  const grids = (entry.suite['grids'] ?? {}) as Record<string, unknown>;
  const withGrid = grid === undefined || grids['deep'] !== undefined ? {} : { grids: { ...grids, deep: grid } };
  if (scales['deep'] !== undefined) return grid === undefined || grids['deep'] !== undefined ? entry : { ...entry, suite: { ...entry.suite, ...withGrid } };
  return { ...entry, suite: { ...entry.suite, scales: { ...scales, deep: DEEP }, ...withGrid } };
}

/** A built-in suite registered under the `name` its JSON states (written once, in the suite). */
function named(entry: BuiltinSuite): BuiltinSuite & { readonly name: string } {
  const name = entry.suite['name'];
  if (typeof name !== 'string' || name === '') throw new Error('built-in suite without a name');
  return { name, ...entry };
}

const DEMO: BuiltinSuite = {
  summary: 'CE, LS, focal, MbLS and mixup on the embedded MNIST digits, before and after temperature scaling (1 seed; quick scale ≈ 1.5 CPU-minutes)',
  suite: {
    name: 'demo',
    description:
      'Five training objectives on the embedded MNIST digits (an MLP that fits its 1,000 training images): does cross-entropy end overconfident, and which of label smoothing, focal loss, margin-based label smoothing and mixup fixes it, before and after temperature scaling?',
    base: DEMO_BASE,
    scales: DEMO_SCALES,
    methods: [
      { name: 'ce', label: 'CE', loss: 'ce' },
      { name: 'ls', label: 'LS ε=0.02', loss: 'ls', lossOptions: { epsilon: 0.02 } },
      { name: 'focal', label: 'Focal γ=1', loss: 'focal', lossOptions: { gamma: 1 } },
      { name: 'mbls', label: 'MbLS m=10', loss: 'mbls', lossOptions: { margin: 10 } },
      { name: 'mixup', label: 'Mixup α=0.1', loss: 'ce', mixup: 0.1 },
    ],
    seeds: [0],
    posthoc: ['temperature'],
    compare: ['mbls < ce on ece', 'ls < ce on ece', 'focal < ce on ece', 'mixup < ce on ece', 'mbls < ce on ece after temperature'],
  },
};

const DEMO_MARGIN: BuiltinSuite = {
  summary: 'MbLS margin sweep m = 0…10 against CE on MNIST, 2 seeds, m chosen on validation NLL',
  suite: {
    name: 'demo-margin',
    description: 'How the margin m of MbLS trades accuracy for calibration (Liu et al. 2022, Fig. 3), on the embedded MNIST digits.',
    base: DEMO_BASE,
    scales: DEMO_SCALES,
    methods: [
      { name: 'ce', label: 'CE', loss: 'ce' },
      { name: 'mbls', label: 'MbLS', loss: 'mbls' },
    ],
    sweeps: [{ key: 'lossOptions.margin', values: [0, 2, 4, 6, 8, 10], methods: ['mbls'], label: 'margin m' }],
    seeds: [0, 1],
    posthoc: ['temperature'],
    select: 'nll',
    compare: ['mbls < ce on ece', 'mbls < ce on nll'],
  },
};

/**
 * Every built-in suite, in the order `calib suite list` and the README list them, by the name its JSON states
 * (`calib suite run NAME` looks it up with typo hints). To add one: write `src/suite/papers/<name>.ts` exporting
 * `<NAME>_SUITE = { summary, suite }`, list it here and test it (test/suite/builtin-suite-registry.test.ts already
 * checks that every suite file is listed and parses).
 */
export const SUITES = defineRegistry(
  'built-in suite',
  [
    DEMO,
    DEMO_MARGIN,
    withDeepScale(MARONAS_SUITE, MARONAS_DEEP_GRID),
    withDeepScale(THULASIDASAN_SUITE, THULASIDASAN_DEEP_GRID),
    withDeepScale(MBLS_SUITE, MBLS_DEEP_GRID),
    MBLS_SEGMENTATION_SUITE,
    withDeepScale(ACLS_SUITE, ACLS_DEEP_GRID),
    withDeepScale(KARANDIKAR_SUITE, KARANDIKAR_DEEP_GRID),
    THULASIDASAN_TEXT_SUITE,
    MBLS_TEXT_SUITE,
  ].map(named),
);

/** The built-in suites by name. */
export const BUILTIN_SUITES: Readonly<Record<string, BuiltinSuite>> = Object.freeze(Object.fromEntries(SUITES.definitions.map(({ name, ...entry }) => [name, entry])));

/** Names of the built-in suites. */
export const BUILTIN_SUITE_NAMES: readonly string[] = SUITES.names;
