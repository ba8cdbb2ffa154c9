import type { BinConvention, ReliabilityData } from './reliability-types.js';
import { type AdaptiveScheme, requireAdaptiveScheme } from './adaptive-ece.js';
import { binLowerClosed, binUpperClosed, DEFAULT_CONVENTION, equalWidthEdges, requireBins, requireConvention } from './binning.js';
import type { BinSums } from './bin-statistics.js';
import { additionError, compensatedValues, CompensatedSum, mergeCompensated } from './compensated-sum.js';
import { MetricContext } from './metric-context.js';
import { TOP_LABEL_METRICS, type TopLabelMetricName } from './metric-registry.js';
import { MetricState } from './metric-state.js';
import { reliabilityFromBinSums } from './reliability-diagram.js';
import { requireStateArray, requireStateObject, requireStatePair } from './accumulator-state.js';
import { requireTopLabel } from './validation.js';
import { invalidArgument, requireNumber } from '../util/errors.js';
import type { FloatArray } from '../util/matrix.js';

export interface TopLabelOptions {
  /** Bins M for every binned metric (equal-width and equal-mass; default 15). */
  readonly bins?: number;
  /** Equal-width convention (default '(l,u]'). */
  readonly convention?: BinConvention;
  /** Equal-mass scheme of `adaece` (default 'equal-mass'; 'interp' reproduces the MbLS/ACLS code). */
  readonly adaptive?: AdaptiveScheme;
  /** Norm p of `ece_lb` (default 2). */
  readonly labelBinnedP?: number;
  /** Limit on the bins the sweep tries (default none). */
  readonly sweepMaxBins?: number;
}

/**
 * Top-label metrics, as fractions (the declarations with `scope: 'top-label'` in metric-registry.ts), with the
 * settings they were computed with. Names are the CLI's `--json` keys.
 */
export type TopLabelMetrics = { readonly [K in TopLabelMetricName]: number } & {
  /** Number of samples N. */
  readonly n: number;
  /** Norm p of `ece_lb`. */
  readonly ece_lb_p: number;
  /** Equal-mass scheme of `adaece` and `adaece_l2`. */
  readonly adaptive_binning: AdaptiveScheme;
  /** Number of bins the monotonic sweep chose. */
  readonly sweep_bins: number;
};

/**
 * Streaming top-label state. Per sample it keeps the confidence c_i (Float64Array: exact for float32 and
 * float64 inputs) and correctness a_i (Uint8Array) — 9 bytes per sample, O(N) not O(N·C) — for the metrics that
 * need sorting; per equal-width bin it keeps n_m, Σc (compensated) and Σa. `merge` appends the other state's
 * samples and adds its sums, so update(A); update(B) and update(A) ∪ merge(update(B)) hold the same samples in
 * the same order and the same sums (counts exactly, Σc up to compensated-sum rounding).
 */
export class TopLabelAccumulator {
  readonly bins: number;
  readonly convention: BinConvention;
  readonly adaptive: AdaptiveScheme;
  readonly labelBinnedP: number;
  readonly sweepMaxBins: number;
  private n = 0;
  private confidence = new Float64Array(1024);
  private correct = new Uint8Array(1024);
  private allFloat32 = true;
  private readonly counts: Float64Array;
  private readonly sumConfidence: Float64Array;
  private readonly sumConfidenceError: Float64Array;
  private readonly sumCorrect: Float64Array;
  private totalConfidence = new CompensatedSum();
  private totalCorrect = 0;
  private readonly edges: Float64Array;
  private readonly upper: boolean;

  constructor(options: TopLabelOptions = {}) {
    this.bins = requireBins(options.bins ?? 15);
    this.convention = requireConvention(options.convention ?? DEFAULT_CONVENTION);
    this.adaptive = requireAdaptiveScheme(options.adaptive ?? 'equal-mass', 'adaptive');
    this.labelBinnedP = requireNumber('labelBinnedP', options.labelBinnedP ?? 2, { min: 1 });
    this.sweepMaxBins =
      options.sweepMaxBins === undefined ? Infinity : requireNumber('sweepMaxBins', options.sweepMaxBins, { integer: true, min: 1 });
    this.edges = equalWidthEdges(this.bins);
    this.upper = this.convention === '(l,u]';
    this.counts = new Float64Array(this.bins);
    this.sumConfidence = new Float64Array(this.bins);
    this.sumConfidenceError = new Float64Array(this.bins);
    this.sumCorrect = new Float64Array(this.bins);
  }

  /** Number of samples seen. */
  get count(): number {
    return this.n;
  }

  /** Add samples: confidence c_i ∈ [0, 1] (shape [N]) and correctness a_i ∈ {0, 1} (shape [N]). */
  update(confidence: FloatArray, correct: Uint8Array): void {
    if (confidence.length === 0 && correct instanceof Uint8Array && correct.length === 0) return;
    requireTopLabel(confidence, correct);
    const float32 = confidence instanceof Float32Array;
    this.reserve(confidence.length);
    for (let i = 0; i < confidence.length; i++) this.push(confidence[i]!, correct[i]!, float32);
  }

  /** Make room for `extra` more samples. */
  reserve(extra: number): void {
    const need = this.n + extra;
    if (need <= this.confidence.length) return;
    let capacity = this.confidence.length;
    while (capacity < need) capacity *= 2;
    const c = new Float64Array(capacity);
    c.set(this.confidence.subarray(0, this.n));
    const a = new Uint8Array(capacity);
    a.set(this.correct.subarray(0, this.n));
    this.confidence = c;
    this.correct = a;
  }

  /**
   * Add one sample without validation (fast path for `CalibrationAccumulator`). `float32`: c is a float32
   * value (affects only the 'interp' edge precision).
   */
  push(c: number, a: number, float32: boolean): void {
    if (this.n === this.confidence.length) this.reserve(1);
    this.confidence[this.n] = c;
    this.correct[this.n] = a;
    this.n++;
    if (!float32) this.allFloat32 = false;
    const b = this.upper ? binUpperClosed(c, this.bins, this.edges) : binLowerClosed(c, this.bins, this.edges);
    this.counts[b]!++;
    const s = this.sumConfidence[b]!;
    const t = s + c;
    this.sumConfidenceError[b]! += additionError(s, c, t);
    this.sumConfidence[b] = t;
    this.sumCorrect[b]! += a;
    this.totalConfidence.add(c);
    this.totalCorrect += a;
  }

  /** Append another state (same options) after this one's samples. */
  merge(other: TopLabelAccumulator): void {
    if (other.bins !== this.bins || other.convention !== this.convention)
      invalidArgument('other', `a top-label state with ${this.bins} bins, ${this.convention}`, `${other.bins} bins, ${other.convention}`);
    this.reserve(other.n);
    this.confidence.set(other.confidence.subarray(0, other.n), this.n);
    this.correct.set(other.correct.subarray(0, other.n), this.n);
    this.n += other.n;
    if (!other.allFloat32) this.allFloat32 = false;
    for (let m = 0; m < this.bins; m++) {
      this.counts[m] = this.counts[m]! + other.counts[m]!;
      this.sumCorrect[m] = this.sumCorrect[m]! + other.sumCorrect[m]!;
    }
    mergeCompensated(this.sumConfidence, this.sumConfidenceError, other.sumConfidence, other.sumConfidenceError);
    this.totalConfidence.addSum(other.totalConfidence);
    this.totalCorrect += other.totalCorrect;
  }

  /** Copy of the state for `restore` (O(M); the samples are restored by truncation). */
  snapshot(): TopLabelSnapshot {
    return {
      n: this.n,
      allFloat32: this.allFloat32,
      counts: this.counts.slice(),
      sumConfidence: this.sumConfidence.slice(),
      sumConfidenceError: this.sumConfidenceError.slice(),
      sumCorrect: this.sumCorrect.slice(),
      totalConfidence: this.totalConfidence.clone(),
      totalCorrect: this.totalCorrect,
    };
  }

  /** Return to a state saved by `snapshot` (samples added since are dropped). */
  restore(saved: TopLabelSnapshot): void {
    this.n = saved.n;
    this.allFloat32 = saved.allFloat32;
    this.counts.set(saved.counts);
    this.sumConfidence.set(saved.sumConfidence);
    this.sumConfidenceError.set(saved.sumConfidenceError);
    this.sumCorrect.set(saved.sumCorrect);
    this.totalConfidence = saved.totalConfidence.clone();
    this.totalCorrect = saved.totalCorrect;
  }

  /**
   * The whole state as plain data (copies: samples of shape [N], bin arrays of shape [M], compensated sums as
   * [s, c] pairs, and the options); `TopLabelAccumulator.fromState` rebuilds an identical accumulator, bit for bit.
   */
  toState(): TopLabelState {
    return {
      options: this.toOptions(),
      n: this.n,
      confidence: this.confidence.slice(0, this.n),
      correct: this.correct.slice(0, this.n),
      allFloat32: this.allFloat32,
      counts: this.counts.slice(),
      sumConfidence: this.sumConfidence.slice(),
      sumConfidenceError: this.sumConfidenceError.slice(),
      sumCorrect: this.sumCorrect.slice(),
      totalConfidence: this.totalConfidence.toPair(),
      totalCorrect: this.totalCorrect,
    };
  }

  /** The options this accumulator was made with (sweepMaxBins omitted when unlimited). */
  toOptions(): TopLabelOptions {
    return {
      bins: this.bins,
      convention: this.convention,
      adaptive: this.adaptive,
      labelBinnedP: this.labelBinnedP,
      ...(this.sweepMaxBins === Infinity ? {} : { sweepMaxBins: this.sweepMaxBins }),
    };
  }

  /** Rebuild an accumulator from `toState` output (validated; the arrays are copied, not adopted). */
  static fromState(state: TopLabelState): TopLabelAccumulator {
    requireStateObject('state', state);
    const out = new TopLabelAccumulator(requireStateObject('state.options', state.options) as TopLabelOptions);
    const n = requireNumber('state.n', state.n, { integer: true, min: 0 });
    const m = out.bins;
    const confidence = requireStateArray('state.confidence', state.confidence, Float64Array, n);
    const correct = requireStateArray('state.correct', state.correct, Uint8Array, n);
    out.reserve(n);
    out.confidence.set(confidence);
    out.correct.set(correct);
    out.n = n;
    if (typeof state.allFloat32 !== 'boolean') invalidArgument('state.allFloat32', 'a boolean', String(state.allFloat32));
    out.allFloat32 = state.allFloat32;
    out.counts.set(requireStateArray('state.counts', state.counts, Float64Array, m));
    out.sumConfidence.set(requireStateArray('state.sumConfidence', state.sumConfidence, Float64Array, m));
    out.sumConfidenceError.set(requireStateArray('state.sumConfidenceError', state.sumConfidenceError, Float64Array, m));
    out.sumCorrect.set(requireStateArray('state.sumCorrect', state.sumCorrect, Float64Array, m));
    out.totalConfidence = CompensatedSum.fromPair(requireStatePair('state.totalConfidence', state.totalConfidence));
    out.totalCorrect = requireNumber('state.totalCorrect', state.totalCorrect, { integer: true, min: 0, max: n });
    return out;
  }

  /** Samples in arrival order (copies; shapes [N]). */
  samples(): { confidence: Float64Array; correct: Uint8Array } {
    return { confidence: this.confidence.slice(0, this.n), correct: this.correct.slice(0, this.n) };
  }

  /** Equal-width bin sums (copies; shapes [M]). */
  binSums(): BinSums {
    return {
      counts: this.counts.slice(),
      sumConfidence: compensatedValues(this.sumConfidence, this.sumConfidenceError),
      sumCorrect: this.sumCorrect.slice(),
    };
  }

  /** Reliability-diagram data over the equal-width bins. */
  reliability(): ReliabilityData {
    return reliabilityFromBinSums(this.binSums(), this.n, this.convention);
  }

  /** Live views of the samples (shapes [N]) and whether every confidence came from a float32 input. */
  views(): { confidence: Float64Array; correct: Uint8Array; allFloat32: boolean } {
    return { confidence: this.confidence.subarray(0, this.n), correct: this.correct.subarray(0, this.n), allFloat32: this.allFloat32 };
  }

  /** Σ_i a_i. */
  correctCount(): number {
    return this.totalCorrect;
  }

  /** Σ_i c_i (compensated). */
  confidenceSum(): number {
    return this.totalConfidence.value;
  }

  /** All top-label metrics. O(N) (one radix sort) plus O(b*²) for the sweep. */
  compute(): TopLabelMetrics {
    const context = new MetricContext(this);
    const out: Record<string, unknown> = { n: context.n };
    for (const metric of TOP_LABEL_METRICS) out[metric.key] = metric.compute(context, EMPTY_STATE);
    out['ece_lb_p'] = this.labelBinnedP;
    out['adaptive_binning'] = this.adaptive;
    out['sweep_bins'] = context.sweep().bins;
    return out as TopLabelMetrics;
  }
}

/** The (empty) own state of metrics that declare none. */
const EMPTY_STATE = new MetricState({});

/** Plain-data state of a `TopLabelAccumulator` (`toState` / `fromState`; structured-clonable). */
export interface TopLabelState {
  readonly options: TopLabelOptions;
  readonly n: number;
  /** c_i, shape [N]. */
  readonly confidence: Float64Array;
  /** a_i ∈ {0, 1}, shape [N]. */
  readonly correct: Uint8Array;
  readonly allFloat32: boolean;
  /** Equal-width bin arrays, shape [M]. */
  readonly counts: Float64Array;
  readonly sumConfidence: Float64Array;
  readonly sumConfidenceError: Float64Array;
  readonly sumCorrect: Float64Array;
  /** Compensated Σc as [s, c]. */
  readonly totalConfidence: [number, number];
  readonly totalCorrect: number;
}

/** A saved `TopLabelAccumulator` state. */
export interface TopLabelSnapshot {
  readonly n: number;
  readonly allFloat32: boolean;
  readonly counts: Float64Array;
  readonly sumConfidence: Float64Array;
  readonly sumConfidenceError: Float64Array;
  readonly sumCorrect: Float64Array;
  readonly totalConfidence: CompensatedSum;
  readonly totalCorrect: number;
}
