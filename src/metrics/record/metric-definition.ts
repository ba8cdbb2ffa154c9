import type { BinConvention } from '../binned/reliability-types.js';
import type { AdaptiveScheme } from '../binned/adaptive-ece.js';
import type { MarginalBinning } from '../binned/marginal-ece.js';
import type { RefinementSetting } from '../calibration-refinement.js';
import type { MetricContext } from './metric-context.js';
import type { MetricState, StateSpec } from '../accumulators/metric-state.js';
import type { Labels, PredictionKind } from '../validation.js';
import type { WeightedContext, WeightSettings } from '../weighted/weighted-context.js';
import type { FloatArray } from '../../util/matrix.js';

/**
 * The declaration of one streaming metric of `CalibrationAccumulator` (and so of `evaluate`, `calib eval`'s
 * table and `--json` keys, the bootstrap intervals and the README's metric table), and everything the rest of the
 * toolkit knows about it: which direction is better (best-value marks of report and suite tables, the worst group
 * of `calib eval --groups`, best-epoch and sweep selection, claim directions), how it is labelled and printed, and
 * whether and how it is computed with sample weights (`evaluateWeighted`, `calib eval --weights`). See
 * metric-registry.ts for how to add one.
 */
export interface MetricDefinition<K extends string = string> {
  /** Snake_case name: the key in `CalibrationMetrics` and in `calib eval --json`. */
  readonly key: K;
  /** Row label of the human table, with its unit, e.g. 'ECE (%)'. */
  readonly label: string;
  /**
   * The name in table headers and figure titles, without its unit (default: `label` without a trailing ' (%)'),
   * e.g. 'Acc.' for accuracy; tables add ' (%)' for percentages.
   */
  readonly short?: string;
  /** Whether tables show the value ×100 (a fraction shown as a percentage) or as a plain number. */
  readonly percent: boolean;
  /** Decimals of a value in report tables (default 2 for percentages, 4 for plain numbers). */
  readonly digits?: number;
  /**
   * Which values are better: 'lower' (errors, losses, risks), 'higher' (accuracy, AUROC-type scores) or 'none'
   * (a description or test statistic with no better direction: mean confidence, p-values, a bandwidth).
   */
  readonly better: MetricDirection;
  /** One line for the docs: what it measures and its source. */
  readonly description: string;
  /**
   * 'top-label': computed from the top-label state alone (confidence and correctness samples, equal-width bins),
   * so `TopLabelAccumulator.compute` reports it too; 'rows' (default): may also use the classwise bins and its
   * own state.
   */
  readonly scope?: 'top-label' | 'rows';
  /**
   * The value may be NaN (null in JSON) on degenerate inputs — e.g. an AUROC or FPR when every prediction is
   * correct, a test statistic with zero variance, an area with a single sample. Other metrics must be finite.
   */
  readonly nullable?: boolean;
  /** The metric's own per-sample state: its fields and how each merges (metric-state.ts). */
  readonly state?: (shape: MetricShape) => StateSpec;
  /** Whether `update` reads `block.probabilities` (for logit inputs they are then computed per block). */
  readonly needsProbabilities?: boolean;
  /** Add a block of rows to the metric's state (called in row order; the block is validated already). */
  readonly update?: (state: MetricState, block: RowBlock) => void;
  /** The value from the shared statistics (`context`) and the metric's own state. */
  readonly compute: (context: MetricContext, state: MetricState) => number;
  /**
   * The metric with sample weights (weighted-evaluate.ts): how it is computed — from the top label alone
   * (`scope: 'top-label'`, so `evaluateWeightedTopLabel` reports it too) or from the whole rows, with an optional
   * `refusal` under settings it does not support — or why it refuses weights by definition (`refused`). Absent:
   * "not implemented with sample weights yet".
   */
  readonly weighted?: WeightedDefinition;
}

/** Which values of a metric are better; 'none' for descriptive quantities and test statistics. */
export type MetricDirection = 'lower' | 'higher' | 'none';

/** How a metric is computed with sample weights, or why it refuses them (see `MetricDefinition.weighted`). */
export type WeightedDefinition =
  | {
      readonly scope: 'top-label' | 'rows';
      /** The weighted value (weighted-context.ts: W = Σ w, weighted means and bin sums). */
      readonly compute: (context: WeightedContext) => number;
      /** Why the metric cannot be weighted under `settings` (null when it can). */
      readonly refusal?: (settings: WeightSettings) => string | null;
    }
  | { readonly refused: string };

/** A metric declaration with its literal key and scope kept (for the derived name types). */
export function defineMetric<const D extends MetricDefinition>(definition: D): D {
  return definition;
}

/** The normalised settings of a `CalibrationAccumulator` and its class count, for sizing metric states. */
export interface MetricShape {
  readonly classes: number;
  readonly input: PredictionKind;
  readonly bins: number;
  readonly convention: BinConvention;
  readonly adaptive: AdaptiveScheme;
  readonly marginalBinning: MarginalBinning;
  readonly marginalDebias: boolean;
  /** The calibration–refinement split's recalibrator, or 'none' (not computed: its metrics keep no state). */
  readonly refinementCalibrator: RefinementSetting;
}

/**
 * A validated block of rows as the one-pass kernels see it: per row r < `rows` (shapes [≥ rows]) the top-label
 * confidence c = p_ŷ and correctness, −log p_y, the Brier score Σ_k (p_k − 1[k = y])² and the entropy −Σ p log p;
 * the label of row r is `labels[labelOffset + r]`; `probabilities` holds the rows' p (rows × C, row-major) when
 * a metric asked for them (`needsProbabilities`), else it is empty.
 */
export interface RowBlock {
  readonly rows: number;
  readonly classes: number;
  readonly labels: Labels;
  readonly labelOffset: number;
  readonly confidence: Float64Array;
  readonly correct: Uint8Array;
  readonly nll: Float64Array;
  readonly brier: Float64Array;
  readonly entropy: Float64Array;
  readonly probabilities: FloatArray;
}
