/**
 * Experiment suites: a comparison written as one JSON file (the papers' tables as data). A suite names a base
 * training configuration, per-scale overrides (`quick` smoke test, `machine`-scale study, the `deep` scale where
 * cross-entropy memorises as in the papers, the `paper` recipe),
 * named methods (each a partial training configuration), one-dimensional sweeps of a configuration key over
 * values (`lossOptions.margin: [0, 2, 4]`), seeds, the post-hoc calibrators fitted on the validation split and
 * applied to the test split, whether to run the OOD / corruption evaluation, the validation metric that picks a
 * swept value (the papers choose β, α, m on validation and report test at that value), the paper's claims whose
 * verdicts the report states (`claims`, claim-schema.ts) and the suite's own comparisons ("mbls < ce on ece").
 *
 * The schema is built with the same machinery as `calib train --config` (util/schema.ts): every part of a
 * configuration is checked key by key where it is written, so an unknown key names its path
 * (`suite.methods[2].lossOptoins: expected a known key (did you mean lossOptions?)`), and each expanded run is
 * validated in full by `resolveTrainConfig` before anything trains.
 */
import { evaluateLoss } from '../losses/evaluate-loss.js';
import { DIRECTIONAL_METRIC_NAMES } from '../metrics/record/metric-display.js';
import { RECORD_METRIC_NAMES, type MetricName } from '../metrics/record/metric-registry.js';
import { resolveOptions } from '../losses/options.js';
import { LOSS_NAMES, lossDefinition } from '../losses/registry.js';
import { CALIBRATOR_KINDS, type CalibratorKind } from '../posthoc/calibrators.js';
import { describe, invalidArgument } from '../util/errors.js';
import { boolean, type Infer, list, number, object, optional, options, partial, record, scalar, string, type Schema } from '../util/schema.js';
import { SHIFT_METRIC_KEYS } from '../train/evaluation/shift-metrics.js';
import { TRAIN_CONFIG_SCHEMA } from '../train/train-config.js';
import { checkClaims, CLAIM_SCHEMA } from './claims/claim-schema.js';
import { parseComparison } from './claims/comparison.js';
import { checkGrid } from './scale-grid.js';
import { checkSuiteRunCount, MAX_SUITE_BINS } from './suite-limits.js';
import { SUITE_SCALES, type SuiteScale } from './suite-scales.js';

export type { SuiteClaim, SuiteClaimInput } from './claims/claim-schema.js';

export { SUITE_SCALES, type SuiteScale } from './suite-scales.js';

/** The named rules choosing a swept value on validation (see report/sweep-selection.ts). */
export const NAMED_SELECTION_RULES = ['nll', 'ece', 'adaece-l2', 'ece-near-best-accuracy', 'adaece-l2-near-best-accuracy', 'accuracy', 'refinement'] as const;

/**
 * Rules choosing a swept value on validation: the named rules, then every metric of the record with a better
 * direction under its `calib eval --json` key (the best mean validation value in its direction, e.g. "brier").
 */
export const SELECTION_RULES: readonly SelectionRule[] = Object.freeze([
  ...NAMED_SELECTION_RULES,
  ...DIRECTIONAL_METRIC_NAMES.filter((k) => !(NAMED_SELECTION_RULES as readonly string[]).includes(k)),
]);
export type SelectionRule = (typeof NAMED_SELECTION_RULES)[number] | MetricName;

/** Names used in run-directory names: lower-case letters, digits and dashes. */
const NAME = /^[a-z0-9][a-z0-9-]*$/;

function name(): Schema<string> {
  return {
    expected: 'a name of lower-case letters, digits and dashes',
    parse(value, path) {
      if (typeof value !== 'string' || !NAME.test(value) || value.length > 40) invalidArgument(path, 'a name of lower-case letters, digits and dashes (at most 40)', describe(value));
      return value;
    },
  };
}

/** A partial training configuration: the keys of `calib train --config` except `out` (the runner places runs). */
export const PARTIAL_CONFIG_SCHEMA = partial(TRAIN_CONFIG_SCHEMA, ['out']);
export type PartialConfig = Infer<typeof PARTIAL_CONFIG_SCHEMA>;

/**
 * Training settings as a suite's base, scale or method writes them: every key optional, each name typed by the
 * training configuration's schema (`loss: LossName`, `model: ModelName`, `schedule: ScheduleText`, …), so that a
 * misspelt name in a built-in suite (src/suite/papers) is a compile error.
 */
export type SettingsInput = { readonly [K in Exclude<keyof PartialConfig, 'mcDropout'>]?: PartialConfig[K] } & {
  readonly mcDropout?: Partial<NonNullable<PartialConfig['mcDropout']>>;
};

/**
 * A built-in suite: a one-line summary for `calib suite list` and the suite's JSON (its `name` is the suite's name);
 * the settings parts are type-checked (SettingsInput), the rest by the suite schema when the suite is parsed.
 */
export type BuiltinSuite = {
  readonly summary: string;
  readonly suite: {
    readonly name: string;
    readonly base?: SettingsInput;
    readonly scales?: Partial<Record<SuiteScale, SettingsInput>>;
    readonly methods?: readonly (SettingsInput & { readonly name: string; readonly label?: string; readonly seeds?: readonly number[] })[];
    readonly posthoc?: readonly CalibratorKind[];
    readonly regulariserHistogram?: Partial<SuiteRegulariserHistogram>;
    readonly [key: string]: unknown;
  };
};

const METHOD_SCHEMA = object({
  /** Name of the method (run directories start with it; comparisons refer to it). */
  name: name(),
  /** Label in the report (default: the name). */
  label: optional(string()),
  /** Seeds of this method's runs (default: the suite's `seeds`); a scale's grid sets them per method (scale-grid.ts). */
  seeds: optional(list(number({ integer: true, min: 0 }))),
  ...PARTIAL_CONFIG_SCHEMA.shape,
});
export type SuiteMethod = Infer<typeof METHOD_SCHEMA>;

/** Configuration keys a sweep may vary: a top-level key, or `<x>Options.<key>`. */
function sweepKey(): Schema<string> {
  return {
    expected: 'a configuration key such as "mixup", "weight" or "lossOptions.margin"',
    parse(value, path) {
      if (typeof value !== 'string') invalidArgument(path, 'a configuration key such as "mixup" or "lossOptions.margin"', describe(value));
      const [head, rest, more] = value.split('.');
      const keys = Object.keys(PARTIAL_CONFIG_SCHEMA.shape);
      if (head === undefined || !keys.includes(head) || head === 'seed')
        invalidArgument(path, `a configuration key (${keys.filter((k) => k !== 'seed').join(', ')}) or <x>Options.<key>`, describe(value));
      if (rest !== undefined && (!head.endsWith('Options') || rest === '' || more !== undefined)) invalidArgument(path, 'KEY or <x>Options.KEY (one level)', describe(value));
      if (rest === undefined && head.endsWith('Options')) invalidArgument(path, `${head}.KEY (an option inside ${head})`, describe(value));
      return value;
    },
  };
}

const SWEEP_SCHEMA = object({
  /** The swept key ("lossOptions.margin", "mixup", "weight", …). */
  key: sweepKey(),
  /** Its values (one run per value, method and seed). */
  values: list(scalar()),
  /** Methods the sweep applies to (default: all). */
  methods: optional(list(name())),
  /** Name in the report (default: the key's last part). */
  label: optional(string()),
});
export type SuiteSweep = Infer<typeof SWEEP_SCHEMA>;

/**
 * The report's per-sample regulariser histogram (ACLS, Park et al. 2023, Fig. 3: the distribution over samples of
 * L_REG): one per-sample quantity of one per-example loss, evaluated on every method's test logits
 * (report/regulariser-histogram.ts).
 */
const REGULARISER_HISTOGRAM_SCHEMA = object({
  /** The per-example loss whose quantity is evaluated (e.g. 'acls'). */
  loss: string(LOSS_NAMES),
  /** Its options (as `lossOptions`; default the loss's defaults). */
  options: optional(options(), {}),
  /** 'regulariser' (R_i of a CE + R method: ACLS α·reg, the paper's L_REG), 'loss' (ℓ_i) or a term's name. */
  quantity: optional(string(), 'regulariser'),
  /** Equal-width bins between min and max (the paper: 20 over [0, 0.1]). */
  bins: optional(number({ integer: true, min: 1, max: MAX_SUITE_BINS }), 20),
  /** Range of the bins; values outside count in the end bins (the paper clips to [0, 0.1]). Default: min(0, smallest value) … largest value. */
  min: optional(number()),
  max: optional(number()),
});
export type SuiteRegulariserHistogram = Infer<typeof REGULARISER_HISTOGRAM_SCHEMA>;

/**
 * A scale's grid (scale-grid.ts): which methods run at that scale, with which seeds and which values of their sweep
 * — a trimmed grid for a costly scale. Run names and settings are those of the full grid, so a run of the trimmed
 * grid is the same run (same identity) as in the full one.
 */
const GRID_METHOD_SCHEMA = object({
  /** Seeds of the method at this scale (default: the grid's `seeds`). */
  seeds: optional(list(number({ integer: true, min: 0 }))),
  /** Values of the method's sweep run at this scale (a subset of the sweep's values; default: all). */
  values: optional(list(scalar())),
});

const GRID_SCHEMA = object({
  /** Why the grid is trimmed (the report and the budget state it beside what was trimmed). */
  reason: string(),
  /** Seeds of every method at this scale unless `methods` says otherwise (default: the suite's `seeds`). */
  seeds: optional(list(number({ integer: true, min: 0 }))),
  /** Per method: its seeds and sweep values at this scale. */
  methods: optional(record(GRID_METHOD_SCHEMA), {}),
  /** Methods not run at this scale: the claims that read them are reported as not tested at this scale. */
  drop: optional(list(name(), 0), []),
});
export type SuiteGrid = Infer<typeof GRID_SCHEMA>;
/** A grid as written in a suite (optional keys may be left out). */
export interface SuiteGridInput {
  readonly reason: string;
  readonly seeds?: readonly number[];
  readonly methods?: Readonly<Record<string, { readonly seeds?: readonly number[]; readonly values?: readonly (number | string | boolean)[] }>>;
  readonly drop?: readonly string[];
}

/** The suite file. */
export const SUITE_SCHEMA = object({
  name: name(),
  description: optional(string()),
  /** The configuration every run starts from. */
  base: PARTIAL_CONFIG_SCHEMA,
  /** Overrides per scale (dataset subset, model width, epochs, …), applied over `base`. */
  scales: optional(object({ quick: optional(PARTIAL_CONFIG_SCHEMA), machine: optional(PARTIAL_CONFIG_SCHEMA), deep: optional(PARTIAL_CONFIG_SCHEMA), paper: optional(PARTIAL_CONFIG_SCHEMA) }), {
    quick: undefined,
    machine: undefined,
    deep: undefined,
    paper: undefined,
  }),
  /** Trimmed grids per scale (methods, seeds per method, sweep values; scale-grid.ts). */
  grids: optional(object({ quick: optional(GRID_SCHEMA), machine: optional(GRID_SCHEMA), deep: optional(GRID_SCHEMA), paper: optional(GRID_SCHEMA) }), {
    quick: undefined,
    machine: undefined,
    deep: undefined,
    paper: undefined,
  }),
  /** Scale used when `--scale` is not given. */
  defaultScale: optional(string(SUITE_SCALES), 'quick'),
  methods: list(METHOD_SCHEMA),
  sweeps: optional(list(SWEEP_SCHEMA, 0), []),
  seeds: optional(list(number({ integer: true, min: 0 })), [0]),
  /** Calibrators fitted on the validation logits and applied to the test logits (calib fit methods). */
  posthoc: optional(list(string(CALIBRATOR_KINDS), 0), ['temperature']),
  /** Run the OOD / dataset-shift evaluation of every run (`calib train --ood`). */
  ood: optional(boolean(), false),
  /** Validation rule choosing a swept value (per method, mean over seeds; report/sweep-selection.ts): nll, ece, adaece-l2, accuracy, refinement, or ece / adaece-l2 within 1 % of the best accuracy. */
  select: optional(string(SELECTION_RULES), 'nll'),
  /** What "±" shows in the report's tables and sweep figures: std over seeds, or the standard error of the mean (std/√n, as Karandikar et al. report). */
  spread: optional(string(['std', 'sem'] as const), 'std'),
  /**
   * The number the report's "… vs corruption severity" table, figure and calibrator − TS differences show (a key of
   * ood.json's per-set metrics): 'ece' (equal-width), 'adaece' (equal-mass ℓ1), 'adaece_l2' (equal-mass ℓ2, the ECE of
   * Karandikar et al. 2021), 'nll' or 'accuracy'.
   */
  shiftMetric: optional(string(SHIFT_METRIC_KEYS), 'ece'),
  /**
   * More metrics of the record as columns of the report's tables (before and after each calibrator), e.g.
   * [prr, auarc, calibration_slope_error, ici]: names of the default list are read from posthoc.json; opt-in ones
   * (metrics/record/opt-in-metrics.ts) are computed by the post-hoc step (a run whose posthoc.json lacks them is refitted).
   */
  metrics: optional(list(string(RECORD_METRIC_NAMES), 0), []),
  /** Bins of the report's ECE / reliability diagrams ((l,u] convention); at most MAX_SUITE_BINS. */
  bins: optional(number({ integer: true, min: 1, max: MAX_SUITE_BINS }), 15),
  /**
   * Comparisons to decide, e.g. "mbls < ce on ece" or "mbls < ce on ece after temperature": the suite's own checks
   * (a paper's claims go under `claims`).
   */
  compare: optional(list(string(), 0), []),
  /** The paper's claims (and the suite's own checks, origin 'suite'), each decided by the report (claim-schema.ts). */
  claims: optional(list(CLAIM_SCHEMA, 0), []),
  /** The report's histogram of a loss's per-sample regulariser over every method's test samples (see above). */
  regulariserHistogram: optional(REGULARISER_HISTOGRAM_SCHEMA),
});
export type Suite = Infer<typeof SUITE_SCHEMA>;

/** Validate a parsed suite file; `path` prefixes messages (default 'suite'). Checks names and references too. */
export function parseSuite(raw: unknown, path = 'suite'): Suite {
  const suite = SUITE_SCHEMA.parse(raw, path);
  checkSuiteRunCount(suite, path);
  const names = suite.methods.map((m) => m.name);
  suite.methods.forEach((m, i) => {
    if (names.indexOf(m.name) !== i) invalidArgument(`${path}.methods[${i}].name`, 'a name not used by another method', describe(m.name));
  });
  suite.sweeps.forEach((s, i) => {
    s.methods?.forEach((m, j) => {
      if (!names.includes(m)) invalidArgument(`${path}.sweeps[${i}].methods[${j}]`, `a method of the suite (${names.join(', ')})`, describe(m));
    });
    if (new Set(s.values.map((v) => JSON.stringify(v))).size !== s.values.length) invalidArgument(`${path}.sweeps[${i}].values`, 'distinct values', JSON.stringify(s.values));
  });
  if (new Set(suite.seeds).size !== suite.seeds.length) invalidArgument(`${path}.seeds`, 'distinct seeds', JSON.stringify(suite.seeds));
  suite.methods.forEach((m, i) => {
    if (m.seeds !== undefined && new Set(m.seeds).size !== m.seeds.length) invalidArgument(`${path}.methods[${i}].seeds`, 'distinct seeds', JSON.stringify(m.seeds));
  });
  for (const scale of SUITE_SCALES) {
    const grid = suite.grids[scale];
    if (grid) checkGrid(grid, suite, `${path}.grids.${scale}`);
  }
  if (new Set(suite.posthoc).size !== suite.posthoc.length) invalidArgument(`${path}.posthoc`, 'distinct calibrators', JSON.stringify(suite.posthoc));
  if (new Set(suite.metrics).size !== suite.metrics.length) invalidArgument(`${path}.metrics`, 'distinct metric names', JSON.stringify(suite.metrics));
  suite.compare.forEach((text, i) => parseComparison(text, names, suite.posthoc, `${path}.compare[${i}]`));
  checkClaims(suite.claims, { methods: names, calibrators: suite.posthoc, sweeps: suite.sweeps }, `${path}.claims`);
  if (suite.regulariserHistogram) checkRegulariserHistogram(suite.regulariserHistogram, `${path}.regulariserHistogram`);
  return suite;
}

/**
 * The histogram's loss must be a per-example loss with these options and name the quantity: checked by evaluating
 * it on one 3-class row (float64), so a wrong name fails when the suite is read, not when the report is drawn.
 */
function checkRegulariserHistogram(h: SuiteRegulariserHistogram, path: string): void {
  const def = lossDefinition(h.loss, `${path}.loss`);
  if (!def.perExample) invalidArgument(`${path}.loss`, `a per-example loss (${def.name} is batch-level: it has no per-sample value)`, describe(h.loss));
  resolveOptions(`${path}.options`, def.options, h.options);
  evaluateLoss(
    { logits: { data: [1, 0, -1], shape: [1, 3] }, labels: { data: [0], shape: [1] } },
    { name: h.loss, options: h.options, perSample: h.quantity, dtype: 'float64', argumentNames: { perSample: `${path}.quantity` } },
  );
  if (h.min !== undefined && h.max !== undefined && !(h.max > h.min)) invalidArgument(`${path}.max`, `a number > min (${h.min})`, describe(h.max));
}
