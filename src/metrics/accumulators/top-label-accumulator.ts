import type { BinConvention, ReliabilityData } from '../binned/reliability-types.js';
import { type AdaptiveScheme, requireAdaptiveScheme } from '../binned/adaptive-ece.js';
import { binLowerClosed, binUpperClosed, DEFAULT_CONVENTION, equalWidthEdges, requireBins, requireConvention } from '../binned/binning.js';
import type { BinSums } from '../binned/bin-statistics.js';
import { additionError, compensatedValues } from '../numeric/compensated-sum.js';
import { MetricContext } from '../record/metric-context.js';
import { TOP_LABEL_METRICS, type TopLabelMetricName } from '../record/metric-registry.js';
import { MetricState, type StateSnapshot, type StateSpec } from './metric-state.js';
import { reliabilityFromBinSums } from '../binned/reliability-diagram.js';
import { requireStateObject } from './accumulator-state.js';
import { requireTopLabel } from '../validation.js';
import { invalidArgument, requireNumber } from '../../util/errors.js';
import type { FloatArray } from '../../util/matrix.js';

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
 * The top-label state, declared once (metric-state.ts: from it come merge, snapshot/restore and the plain data of
 * `toState` / `fromState`): per sample c_i and a_i, whether every confidence came from a float32 input, per
 * equal-width bin n_m, the compensated Σc and Σa, and the totals Σc (compensated) and Σa.
 */
function topLabelSpec(bins: number): StateSpec {
  return {
    confidence: { merge: 'concat' },
    correct: { merge: 'concat', type: 'uint8' },
    allFloat32: { merge: 'all' },
    counts: { merge: 'sum', length: bins },
    sumConfidence: { merge: 'compensated-sum', length: bins },
    sumCorrect: { merge: 'sum', length: bins },
    totalConfidence: { merge: 'compensated-sum' },
    totalCorrect: { merge: 'sum' },
  };
}

/**
 * Streaming top-label state. Per sample it keeps the confidence c_i (Float64Array: exact for float32 and
 * float64 inputs) and correctness a_i (Uint8Array) — 9 bytes per sample, O(N) not O(N·C) — for the metrics that
 * need sorting; per equal-width bin it keeps n_m, Σc (compensated) and Σa. `merge` appends the other state's
 * samples and adds its sums, so update(A); update(B) and update(A) ∪ merge(update(B)) hold the same samples in
 * the same order and the same sums (counts exactly, Σc up to compensated-sum rounding).
 *
 * The fields are those of `topLabelSpec`; the hot path (`push`) writes into live views of them and keeps the sample
 * count and the float32 flag in `n` and `allFloat32`, which `sync` hands to the state before it is merged, saved or
 * serialised.
 */
export class TopLabelAccumulator {
  readonly bins: number;
  readonly convention: BinConvention;
  readonly adaptive: AdaptiveScheme;
  readonly labelBinnedP: number;
  readonly sweepMaxBins: number;
  private readonly state: MetricState;
  private n = 0;
  private allFloat32 = true;
  private confidence: Float64Array;
  private correct: Uint8Array;
  private readonly counts: Float64Array;
  private readonly sumConfidence: Float64Array;
  private readonly sumConfidenceError: Float64Array;
  private readonly sumCorrect: Float64Array;
  private readonly totalConfidence: Float64Array;
  private readonly totalConfidenceError: Float64Array;
  private readonly totalCorrect: Float64Array;
  private readonly edges: Float64Array;
  private readonly upper: boolean;

  /** `state`: a state of this shape to adopt (`fromState`); default empty. */
  constructor(options: TopLabelOptions = {}, state?: MetricState) {
    this.bins = requireBins(options.bins ?? 15);
    this.convention = requireConvention(options.convention ?? DEFAULT_CONVENTION);
    this.adaptive = requireAdaptiveScheme(options.adaptive ?? 'equal-mass', 'adaptive');
    this.labelBinnedP = requireNumber('labelBinnedP', options.labelBinnedP ?? 2, { min: 1 });
    this.sweepMaxBins = options.sweepMaxBins === undefined ? Infinity : requireNumber('sweepMaxBins', options.sweepMaxBins, { integer: true, min: 1 });
    this.edges = equalWidthEdges(this.bins);
    this.upper = this.convention === '(l,u]';
    this.state = state ?? new MetricState(topLabelSpec(this.bins));
    this.confidence = this.state.reserveSamples('confidence', 0) as Float64Array;
    this.correct = this.state.reserveSamples('correct', 0) as Uint8Array;
    this.counts = this.state.values('counts');
    this.sumConfidence = this.state.values('sumConfidence');
    this.sumConfidenceError = this.state.errorsOf('sumConfidence');
    this.sumCorrect = this.state.values('sumCorrect');
    this.totalConfidence = this.state.values('totalConfidence');
    this.totalConfidenceError = this.state.errorsOf('totalConfidence');
    this.totalCorrect = this.state.values('totalCorrect');
    this.load();
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
    this.sync();
    this.confidence = this.state.reserveSamples('confidence', need) as Float64Array;
    this.correct = this.state.reserveSamples('correct', need) as Uint8Array;
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
    const total = this.totalConfidence[0]!;
    const next = total + c;
    this.totalConfidenceError[0]! += additionError(total, c, next);
    this.totalConfidence[0] = next;
    this.totalCorrect[0]! += a;
  }

  /** Hand the sample count and the float32 flag of the hot path to the declared state. */
  private sync(): void {
    this.state.setSamples('confidence', this.n);
    this.state.setSamples('correct', this.n);
    if (!this.allFloat32) this.state.clearFlag('allFloat32');
  }

  /** Read the sample count, the flag and the (possibly regrown) sample columns back from the declared state. */
  private load(): void {
    this.n = this.state.column('confidence').length;
    this.allFloat32 = this.state.flag('allFloat32');
    this.confidence = this.state.reserveSamples('confidence', this.n) as Float64Array;
    this.correct = this.state.reserveSamples('correct', this.n) as Uint8Array;
  }

  /** Append another state (same options) after this one's samples. */
  merge(other: TopLabelAccumulator): void {
    if (other.bins !== this.bins || other.convention !== this.convention)
      invalidArgument('other', `a top-label state with ${this.bins} bins, ${this.convention}`, `${other.bins} bins, ${other.convention}`);
    this.sync();
    other.sync();
    this.state.merge(other.state);
    this.load();
  }

  /** Copy of the state for `restore` (O(M); the samples are restored by truncation). */
  snapshot(): TopLabelSnapshot {
    this.sync();
    return this.state.snapshot();
  }

  /** Return to a state saved by `snapshot` (samples added since are dropped). */
  restore(saved: TopLabelSnapshot): void {
    this.state.restore(saved);
    this.load();
  }

  /**
   * The whole state as plain data (copies: samples of shape [N], bin arrays of shape [M], compensated sums as
   * [s, c] pairs or `name` and `nameError` arrays, and the options); `TopLabelAccumulator.fromState` rebuilds an
   * identical accumulator, bit for bit.
   */
  toState(): TopLabelState {
    this.sync();
    return { options: this.toOptions(), n: this.n, ...this.state.toState() } as TopLabelState;
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
    const options = requireStateObject('state.options', state.options) as TopLabelOptions;
    const bins = new TopLabelAccumulator(options).bins;
    const n = requireNumber('state.n', state.n, { integer: true, min: 0 });
    const restored = MetricState.fromState(topLabelSpec(bins), state as unknown as Record<string, unknown>, 'state', n);
    requireNumber('state.totalCorrect', restored.scalar('totalCorrect'), { integer: true, min: 0, max: n });
    return new TopLabelAccumulator(options, restored);
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
    return this.totalCorrect[0]!;
  }

  /** Σ_i c_i (compensated). */
  confidenceSum(): number {
    return this.totalConfidence[0]! + this.totalConfidenceError[0]!;
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

/**
 * Plain-data state of a `TopLabelAccumulator` (`toState` / `fromState`; structured-clonable): its options, the
 * sample count and the fields of `topLabelSpec`.
 */
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
export type TopLabelSnapshot = StateSnapshot;
