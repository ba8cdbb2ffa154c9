/**
 * Maroñas et al. (2021, "On calibration of mixup training for deep neural networks"): the baseline B and B+M
 * (mixup), MMCE and MMCE+M, ARC alone (A) and with mixup (A+M) — on the two source images x1, x2 or on the mixup image
 * x̃, V1 or V2. The claims, read from the paper claim by claim, are maronas-claims.ts.
 *
 * Hyperparameters by the paper's rules and its official code (github.com/jmaronas/calibration_MixupDNN_ARCLoss.pytorch):
 * - ARC's β ("established with a validation set", §4) searched for every ARC method over {1, 4, 16, 42} — a ×4 grid
 *   from 1 plus 42, the optimum the paper reports for its ResNet-18 search (App. D); every optimum of its GitHub
 *   appendix (0.5 … 46) is within a factor 2 of a grid value — and chosen by the paper's rule, "the value of β that
 *   provides good accuracy with low calibration error" (App. D): the lowest mean validation ECE among the values
 *   within 1 % (relative) of the best mean validation accuracy (`ece-near-best-accuracy`);
 * - ARC V1 with M = 1 (App. D: "V1 and bins M = 1 are a reliable choice"), on x1 and x2 for A+M (every CIFAR-10 A+M
 *   model of the appendix); the mixup-image placement and V2 are the variants the §5 claims compare with;
 * - mixup α = 1, the paper's CIFAR-10 value ("taken from the original work"); MMCE as the code computes it (Kumar et
 *   al.'s weighted MMCE, each block normalised once, `mmce-weighted` with `normalisation: 'kumar'`), λ = 0.5 alone and
 *   0.4 on x1, x2 with mixup, its CIFAR-10 values (appendix);
 * - the code's WRN-28-10 CIFAR-10 schedule (η₀ = 0.1, × 0.2 after 60, 120, 160 of 200 epochs), as fractions of the epochs;
 * - the last epoch's weights: the code saves the final model and one at the lowest *test* error; selecting on test
 *   would leak, so the final weights are kept (as the machine scale does anyway). No temperature scaling in the
 *   paper: TS is fitted only for the suite's own check.
 * Deviations: the machine scale's model and data (a 512-unit MLP on Fashion-MNIST, 30 epochs, no weight decay); α
 * is not re-searched on Fashion-MNIST (the paper's rule for datasets the mixup paper did not use), because the chosen
 * α would have to be carried into every mixup method's runs; the M ∈ {15, {5, 15, 30}} variants are not searched
 * (run count: each ARC method costs |grid| × seeds runs).
 */
import { BASE, CIFAR_RECIPE, MACHINE, QUICK } from './scales.js';
import { MARONAS_CLAIMS } from './maronas-claims.js';
import type { ScheduleText } from '../../train/lr-schedule-spec.js';
import type { BuiltinSuite, SettingsInput } from '../suite-schema.js';

/** The official code's WRN-28-10 CIFAR-10 schedule (SGD.py): η₀ = 0.1 × 0.2 after epochs 60, 120 and 160 of 200. */
export const MARONAS_SCHEDULE: ScheduleText = 'multistep:0.3,0.6,0.8:0.2';

/** Mixup α (the paper's CIFAR-10 value). */
const ALPHA = 1;

/** The β grid every ARC method is searched over on validation. */
export const MARONAS_ARC_BETAS = [1, 4, 16, 42];

const ARC_V1: SettingsInput = { secondary: 'arc', secondaryOptions: { version: 'v1', bins: [1] } };

/** The paper's MMCE baseline as its code computes it (MMCE_net.cost_MMCE: Kumar et al.'s weighted MMCE, normalised once). */
const MMCE_ARC_CODE: SettingsInput = { secondary: 'mmce-weighted', secondaryOptions: { normalisation: 'kumar' } };

export const MARONAS_SUITE = {
  summary: 'Maroñas et al. 2021: B, B+M, MMCE(+M), ARC and ARC+M (on x1, x2 or on x̃; V1 or V2), β searched on validation',
  suite: {
    name: 'maronas',
    description:
      "Maroñas et al. 2021, Tables 1–4: does mixup (α = 1) degrade calibration, does ARC added to mixup (on the source images, V1, M = 1) correct it — better than B, MMCE and MMCE+M — while ARC alone gives no significant gain, and is ARC better on the sources than on the mixup image, and as V1 than V2? Every ARC method's β searched over {1, 4, 16, 42} by the paper's rule (lowest validation ECE within 1 % of the best validation accuracy). quick: MNIST MLP smoke test; machine: a 512-unit MLP on 10,000 Fashion-MNIST images (5,000 more validate), 30 epochs with the code's WRN schedule (η × 0.2 at 30/60/80 %), no weight decay (so that CE ends overconfident; the code: 5e-4), last epoch (the code's final model), 5 seeds (100 runs); paper: CIFAR-10 wide ResNet-28-10, 200 epochs.",
    base: BASE,
    scales: {
      quick: QUICK,
      // MACHINE's 10,000 training images and 5,000-image validation split (β is chosen on it; TS, the suite's own check, is fitted on it).
      machine: { ...MACHINE, schedule: MARONAS_SCHEDULE },
      paper: { ...CIFAR_RECIPE, model: 'wrn-28-10', epochs: 200, schedule: MARONAS_SCHEDULE, select: 'last' },
    },
    methods: [
      { name: 'b', label: 'B', loss: 'ce' },
      { name: 'bm', label: 'B+M', loss: 'ce', mixup: ALPHA },
      { name: 'mmce', label: 'MMCE λ=0.5', loss: 'ce', ...MMCE_ARC_CODE, weight: 0.5 },
      { name: 'mmce-m', label: 'MMCE+M λ=0.4 (x1, x2)', loss: 'ce', ...MMCE_ARC_CODE, weight: 0.4, mixup: ALPHA, arcPlacement: 'sources' },
      { name: 'arc', label: 'A: ARC V1 M=1', loss: 'ce', ...ARC_V1 },
      { name: 'arc-m', label: 'A+M: ARC V1 M=1 (x1, x2)', loss: 'ce', ...ARC_V1, mixup: ALPHA, arcPlacement: 'sources' },
      { name: 'arc-m-mixed', label: 'A+M: ARC V1 M=1 (x̃)', loss: 'ce', ...ARC_V1, mixup: ALPHA },
      { name: 'arc-m-v2', label: 'A+M: ARC V2 M=1 (x1, x2)', loss: 'ce', secondary: 'arc', secondaryOptions: { version: 'v2', bins: [1] }, mixup: ALPHA, arcPlacement: 'sources' },
    ],
    sweeps: [{ key: 'weight', values: MARONAS_ARC_BETAS, methods: ['arc', 'arc-m', 'arc-m-mixed', 'arc-m-v2'], label: 'ARC β' }],
    seeds: [0, 1, 2, 3, 4],
    posthoc: ['temperature'],
    select: 'ece-near-best-accuracy',
    claims: MARONAS_CLAIMS,
  },
} satisfies BuiltinSuite;
