import type { BinConvention, ReliabilityData } from '../binned/reliability-types.js';
import { requireStateObject } from './accumulator-state.js';
import { ClasswiseAccumulator, type ClasswiseSnapshot, type ClasswiseState } from './classwise-accumulator.js';
import { type MarginalBinning, requireMarginalBinning } from '../binned/marginal-ece.js';
import { type RefinementSetting, requireRefinementSetting } from '../calibration-refinement.js';
import { MetricContext } from '../record/metric-context.js';
import type { MetricDefinition, MetricShape, RowBlock } from '../record/metric-definition.js';
import { METRICS, type MetricName } from '../record/metric-registry.js';
import { MetricState, type StateSnapshot } from './metric-state.js';
import { probabilityRows, type RowResults, rowResults } from './probability-kernel.js';
import { expShifted, rowMax } from '../numeric/softmax.js';
import { TopLabelAccumulator, type TopLabelMetrics, type TopLabelOptions, type TopLabelSnapshot, type TopLabelState } from './top-label-accumulator.js';
import { type Labels, type PredictionKind, requireLabels, requireMatrix, requirePredictionKind, requirePredictionValues } from '../validation.js';
import { describe, invalidArgument, requireNumber } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';

export { NLL_CLIP } from './probability-kernel.js';

/** Rows per block of the probability kernel (row results are buffered per block). */
const BLOCK_ROWS = 4096;
/** Values (rows × C) of the probability block the logits path fills when a metric reads the probabilities. */
const PROBABILITY_BLOCK_VALUES = 1 << 20;
/** Chunks with fewer rows are validated in a separate pass; larger ones in the kernel, restoring a snapshot on error. */
const PREVALIDATE_BELOW_ROWS = 256;

export interface CalibrationOptions extends TopLabelOptions {
  /** What the prediction matrices hold: 'logits' (softmax applied here, stably) or 'probabilities' (as given). */
  readonly input: PredictionKind;
  /** Number of classes C ≥ 2 (default: the column count of the first chunk). */
  readonly classes?: number;
  /**
   * Bins of `marginal_ece`: 'equal-width' (default; streams in O(C·M) memory) or 'equal-mass' (Kumar et al.'s
   * library default; keeps every probability: 8·N·C bytes).
   */
  readonly marginalBinning?: MarginalBinning;
  /** Debiased marginal estimator (default true, as uncertainty-calibration). */
  readonly marginalDebias?: boolean;
  /**
   * Recalibrator of the calibration–refinement split (`refinement_nll`, `calibration_nll`, …;
   * calibration-refinement.ts): 'temperature', 'isotonic', or 'none' (default: not computed, the metrics are NaN —
   * the split costs ~20 passes over the rows; `calib eval` asks for 'temperature').
   */
  readonly refinementCalibrator?: RefinementSetting;
}

/**
 * Every metric of METHODS.md § Metrics as fractions (one per declaration in metric-registry.ts, under its key),
 * with the settings they were computed with.
 */
export type CalibrationMetrics = { readonly [K in MetricName]: number } & TopLabelMetrics & {
    readonly classes: number;
    readonly bins: number;
    readonly convention: BinConvention;
    readonly marginal_binning: MarginalBinning;
    readonly marginal_debiased: boolean;
    readonly refinement_calibrator: RefinementSetting;
  };

/**
 * Streaming, mergeable state of every calibration metric. `update(chunk, labels)` makes one pass over an N × C
 * chunk of logits or probabilities (float32 or float64): per row the numerically stable softmax (logits),
 * argmax ŷ (first maximal index), confidence c = p_ŷ, correctness, −log p_y, Brier, entropy, and the classwise
 * bins of every p_k; then each metric of metric-registry.ts that keeps its own state gets the block of row
 * results. State: O(N) for the top-label samples + O(C·M) (+ O(N·C) only with equal-mass marginal bins). `merge(other)` combines two states as if their chunks had been given to one accumulator in order:
 * counts and per-sample arrays exactly, floating sums as compensated (Neumaier) sums, so the merged metrics
 * equal those of one big update to the last bit in practice (tested bit for bit). `compute()` returns
 * `CalibrationMetrics`. A chunk that fails validation leaves the state unchanged: small chunks are checked
 * before processing, large ones inside the one-pass kernel, restoring an O(C·M) snapshot on error.
 *
 * Probability inputs are used as given (rows summing to 1 within 1e−3, not renormalised), except that the
 * top-label confidence is clipped to ≤ 1 and NLL uses min(max(p_y, 5e−324), 1): only p_y = 0 is clipped.
 */
export class CalibrationAccumulator {
  readonly input: PredictionKind;
  readonly marginalBinning: MarginalBinning;
  readonly marginalDebias: boolean;
  readonly refinementCalibrator: RefinementSetting;
  readonly top: TopLabelAccumulator;
  private classwiseState: ClasswiseAccumulator | null = null;
  /** The own state of each metric of `METRICS` (index-aligned), created with the classwise state. */
  private metricStates: MetricState[] | null = null;
  private needsProbabilities = false;
  private classCount: number | null;
  private rowBuffer: RowResults | null = null;
  private scratch = new Float64Array(0);
  private probabilityBuffer = new Float64Array(0);
  /** Observer of every validated row block (`observeRows`), or null. */
  private rowObserver: ((block: RowBlock) => void) | null = null;

  constructor(options: CalibrationOptions) {
    if (options === null || typeof options !== 'object') invalidArgument('options', 'an options object', describe(options));
    this.input = requirePredictionKind(options.input, 'input');
    this.marginalBinning = requireMarginalBinning(options.marginalBinning ?? 'equal-width', 'marginalBinning');
    this.marginalDebias = options.marginalDebias ?? true;
    if (typeof this.marginalDebias !== 'boolean') invalidArgument('marginalDebias', 'a boolean', describe(this.marginalDebias));
    this.refinementCalibrator = requireRefinementSetting(options.refinementCalibrator ?? 'none');
    this.classCount = options.classes === undefined ? null : requireNumber('classes', options.classes, { integer: true, min: 2 });
    this.top = new TopLabelAccumulator(options);
  }

  /** Samples seen so far. */
  get count(): number {
    return this.top.count;
  }

  /** Number of classes (null before the first chunk when not given). */
  get classes(): number | null {
    return this.classCount;
  }

  /** The classwise state (null before the first chunk when `classes` was not given). */
  get classwise(): ClasswiseAccumulator | null {
    if (this.classwiseState === null && this.classCount !== null) this.createStates(this.classCount);
    return this.classwiseState;
  }

  /** The settings and class count that size the metrics' own states. */
  private shape(classes: number): MetricShape {
    const { bins, convention, adaptive } = this.top;
    return { classes, input: this.input, bins, convention, adaptive, marginalBinning: this.marginalBinning, marginalDebias: this.marginalDebias, refinementCalibrator: this.refinementCalibrator };
  }

  private createStates(classes: number, states?: MetricState[]): void {
    this.classwiseState = new ClasswiseAccumulator({ classes, bins: this.top.bins, convention: this.top.convention });
    const shape = this.shape(classes);
    this.metricStates = states ?? METRICS.map((m: MetricDefinition) => new MetricState(m.state?.(shape) ?? {}));
    this.needsProbabilities = this.rowObserver !== null || METRICS.some((m: MetricDefinition, i) => m.needsProbabilities === true && stateful(this.metricStates![i]!));
  }

  /**
   * Call `observer` with every validated block of row results that later updates produce, probabilities
   * included (the row-level input of the sample-weighted metrics, weighted-evaluate.ts). The block's arrays are
   * reused afterwards: copy what you keep. Must be called before the first update.
   */
  observeRows(observer: (block: RowBlock) => void): this {
    if (this.count > 0 || this.metricStates !== null) invalidArgument('observeRows', 'a call before the first update', 'an accumulator with state');
    this.rowObserver = observer;
    return this;
  }

  /**
   * Add a chunk: `predictions` N × C (row-major, float32 or float64) and `labels` [N] in [0, C).
   * Throws InvalidArgumentError (state unchanged) on NaN/±Infinity, negative probabilities, probability rows not
   * summing to 1 within 1e−3, a column count different from C, C < 2, or bad labels.
   */
  update(predictions: Matrix, labels: Labels): this {
    requireMatrix(predictions);
    if (this.classCount !== null && predictions.cols !== this.classCount) invalidArgument('predictions.cols', `${this.classCount} classes`, describe(predictions.cols));
    requireLabels(labels, predictions.rows, predictions.cols, 'labels', this.count);
    const rows = predictions.rows;
    if (rows === 0) return this;
    const prevalidate = this.input === 'logits' || rows < PREVALIDATE_BELOW_ROWS;
    if (prevalidate) requirePredictionValues(predictions, this.input, 'predictions', this.count);
    const saved = prevalidate ? null : this.snapshot();
    if (this.classCount === null) this.classCount = predictions.cols;
    const classwise = this.classwise!;
    const offset = this.count;
    this.top.reserve(rows);
    if (this.input === 'logits') {
      this.updateLogits(predictions, labels, classwise);
    } else {
      const bad = this.updateProbabilities(predictions, labels, classwise);
      if (bad >= 0) {
        if (saved !== null) this.restore(saved);
        const { cols, data } = predictions;
        const row = { rows: 1, cols, data: data.subarray(bad * cols, (bad + 1) * cols) };
        requirePredictionValues(row, 'probabilities', 'predictions', offset + bad);
        throw new Error(`probability kernel rejected row ${offset + bad} that the validator accepts`); // a bug
      }
    }
    return this;
  }

  /** Give a validated block of rows to the metrics that keep their own state. */
  private feed(block: RowBlock): void {
    const states = this.metricStates!;
    for (let i = 0; i < METRICS.length; i++) {
      const metric: MetricDefinition = METRICS[i]!;
      if (metric.update !== undefined && stateful(states[i]!)) metric.update(states[i]!, block);
    }
    this.rowObserver?.(block);
  }

  /** One pass of the probability kernel, block by block; returns −1 or the first invalid row. */
  private updateProbabilities(predictions: Matrix, labels: Labels, classwise: ClasswiseAccumulator): number {
    const { rows, cols, data } = predictions;
    const float32 = data instanceof Float32Array;
    const bits = float32 ? new Uint32Array(data.buffer, data.byteOffset, data.length) : null;
    const out = (this.rowBuffer ??= rowResults(BLOCK_ROWS));
    const top = this.top;
    for (let from = 0; from < rows; from += BLOCK_ROWS) {
      const to = Math.min(rows, from + BLOCK_ROWS);
      const bad = probabilityRows(data, bits, cols, labels, from, to, classwise, out);
      if (bad >= 0) return bad;
      for (let r = 0; r < to - from; r++) top.push(out.confidence[r]!, out.correct[r]!, float32);
      this.feed({ ...out, rows: to - from, classes: cols, labels, labelOffset: from, probabilities: data.subarray(from * cols, to * cols) });
    }
    return -1;
  }

  private snapshot(): AccumulatorSnapshot {
    return {
      classCount: this.classCount,
      top: this.top.snapshot(),
      classwise: this.classwiseState === null ? null : this.classwiseState.snapshot(),
      metrics: this.metricStates === null ? null : this.metricStates.map((m) => m.snapshot()),
    };
  }

  private restore(saved: AccumulatorSnapshot): void {
    this.classCount = saved.classCount;
    this.top.restore(saved.top);
    if (saved.classwise === null) {
      this.classwiseState = null;
      this.metricStates = null;
    } else {
      this.classwiseState!.restore(saved.classwise);
      this.metricStates!.forEach((m, i) => m.restore(saved.metrics![i]!));
    }
  }

  /** The logits path: per row the stable softmax and the row results, in blocks of rows for the metrics. */
  private updateLogits(predictions: Matrix, labels: Labels, classwise: ClasswiseAccumulator): void {
    const { rows, cols, data } = predictions;
    if (this.scratch.length !== cols) this.scratch = new Float64Array(cols);
    const p = this.scratch;
    const top = this.top;
    const out = (this.rowBuffer ??= rowResults(BLOCK_ROWS));
    const keepProbabilities = this.needsProbabilities;
    const blockRows = keepProbabilities ? Math.max(1, Math.min(BLOCK_ROWS, Math.floor(PROBABILITY_BLOCK_VALUES / cols))) : BLOCK_ROWS;
    const probabilities = keepProbabilities ? this.probabilityBlock(blockRows * cols) : this.probabilityBuffer.subarray(0, 0);
    for (let from = 0; from < rows; from += blockRows) {
      const to = Math.min(rows, from + blockRows);
      for (let i = from, off = from * cols; i < to; i++, off += cols) {
        const r = i - from;
        const y = labels[i]!;
        const m = rowMax(data, off, cols);
        const s = expShifted(data, off, cols, m, p); // s ∈ [1, C]
        const inv = 1 / s;
        const logS = Math.log(s);
        let arg = -1;
        let sq = 0;
        let dot = 0; // Σ_k p_k (z_k − m) ≤ 0
        for (let k = 0; k < cols; k++) {
          const zk = data[off + k]! - m;
          if (arg < 0 && zk === 0) arg = k;
          const pk = p[k]! * inv;
          p[k] = pk;
          sq += pk * pk;
          dot += pk * zk;
        }
        const py = p[y]!;
        const correct = arg === y ? 1 : 0;
        top.push(inv, correct, false); // p_ŷ = exp(0)/s
        out.confidence[r] = inv;
        out.correct[r] = correct;
        out.nll[r] = logS - (data[off + y]! - m); // −log p_y = log s − (z_y − m)
        out.brier[r] = sq - py * py + (1 - py) * (1 - py);
        out.entropy[r] = logS - dot; // H = −Σ p (z − m − log s), well conditioned
        classwise.addRow(p, 0, y);
        if (keepProbabilities) probabilities.set(p, r * cols);
      }
      const count = to - from;
      this.feed({ ...out, rows: count, classes: cols, labels, labelOffset: from, probabilities: probabilities.subarray(0, keepProbabilities ? count * cols : 0) });
    }
  }

  private probabilityBlock(size: number): Float64Array {
    if (this.probabilityBuffer.length < size) this.probabilityBuffer = new Float64Array(size);
    return this.probabilityBuffer;
  }

  /** Add another accumulator's state after this one's (same classes and options). */
  merge(other: CalibrationAccumulator): this {
    if (!(other instanceof CalibrationAccumulator)) invalidArgument('other', 'a CalibrationAccumulator', describe(other));
    if (other.count === 0) return this;
    if (this.classCount !== null && other.classCount !== null && other.classCount !== this.classCount)
      invalidArgument('other', `a state with ${this.classCount} classes`, `${other.classCount} classes`);
    if (other.marginalBinning !== this.marginalBinning || other.top.adaptive !== this.top.adaptive) invalidArgument('other', 'a state with the same binning options', 'different options');
    if (this.classCount === null) this.classCount = other.classCount;
    this.top.merge(other.top);
    this.classwise!.merge(other.classwise!);
    this.metricStates!.forEach((m, i) => m.merge(other.metricStates![i]!));
    return this;
  }

  /**
   * The whole state as plain data — numbers, strings, booleans and typed arrays only (copies), so it can be
   * `postMessage`d between worker threads with its buffers transferred: the settings, the top-label and
   * classwise states and the fields every metric declares (metric-state.ts). Size: 9·N bytes of top-label samples +
   * 32·C·M bytes of classwise bins (+ 8·N·C + 4·N with equal-mass marginal bins). `fromState(toState())` is an
   * accumulator whose every later update, merge and compute equals this one's bit for bit.
   */
  toState(): CalibrationAccumulatorState {
    const fields: Record<string, unknown> = {};
    if (this.metricStates !== null) for (const m of this.metricStates) Object.assign(fields, m.toState());
    return {
      input: this.input,
      marginalBinning: this.marginalBinning,
      marginalDebias: this.marginalDebias,
      refinementCalibrator: this.refinementCalibrator,
      classes: this.classCount,
      top: this.top.toState(),
      classwise: this.classwiseState === null ? null : this.classwiseState.toState(),
      ...fields,
    };
  }

  /** Rebuild an accumulator from `toState` output (validated: throws InvalidArgumentError naming the field). */
  static fromState(state: CalibrationAccumulatorState): CalibrationAccumulator {
    requireStateObject('state', state);
    requireStateObject('state.top', state.top);
    const top = TopLabelAccumulator.fromState(state.top);
    const out = new CalibrationAccumulator({
      ...top.toOptions(),
      input: state.input,
      marginalBinning: state.marginalBinning,
      marginalDebias: state.marginalDebias,
      refinementCalibrator: state.refinementCalibrator ?? 'none',
      ...(state.classes === null ? {} : { classes: state.classes }),
    });
    (out as { top: TopLabelAccumulator }).top = top;
    const n = top.count;
    if (state.classwise === null) {
      if (n > 0) invalidArgument('state.classwise', 'a classwise state', 'null');
    } else {
      const classwise = ClasswiseAccumulator.fromState(state.classwise);
      if (classwise.classes !== out.classCount || classwise.bins !== top.bins || classwise.convention !== top.convention)
        invalidArgument('state.classwise', `${out.classCount} classes, ${top.bins} bins, ${top.convention}`, `${classwise.classes} classes, ${classwise.bins} bins, ${classwise.convention}`);
      if (classwise.count !== n) invalidArgument('state.classwise.count', `${n} (the top-label count)`, String(classwise.count));
      const shape = out.shape(classwise.classes);
      const record = state as unknown as Record<string, unknown>;
      out.createStates(
        classwise.classes,
        METRICS.map((m: MetricDefinition) => MetricState.fromState(m.state?.(shape) ?? {}, record, 'state', n)),
      );
      out.classwiseState = classwise;
    }
    return out;
  }

  /** Reliability-diagram data of the top-label equal-width bins. */
  reliability(): ReliabilityData {
    return this.top.reliability();
  }

  /** Compute every metric of `METRICS` (throws if no sample was added). */
  compute(): CalibrationMetrics {
    const n = this.count;
    if (n < 1) invalidArgument('predictions', 'at least one sample', '0 samples');
    const classwise = this.classwise!;
    const context = new MetricContext(this.top, {
      classes: this.classCount!,
      classwise,
      marginalBinning: this.marginalBinning,
      marginalDebias: this.marginalDebias,
      refinementCalibrator: this.refinementCalibrator,
    });
    const out: Record<string, unknown> = { n };
    METRICS.forEach((m: MetricDefinition, i) => (out[m.key] = m.compute(context, this.metricStates![i]!)));
    return {
      ...(out as { [K in MetricName]: number } & { n: number }),
      classes: this.classCount!,
      bins: this.top.bins,
      convention: this.top.convention,
      ece_lb_p: this.top.labelBinnedP,
      adaptive_binning: this.top.adaptive,
      sweep_bins: context.sweep().bins,
      marginal_binning: this.marginalBinning,
      marginal_debiased: this.marginalDebias,
      refinement_calibrator: this.refinementCalibrator,
    };
  }
}

/** Whether a metric state has any field (metrics without one need no updates). */
function stateful(state: MetricState): boolean {
  return Object.keys(state.spec).length > 0;
}

/**
 * Plain-data state of a `CalibrationAccumulator` (`toState` / `fromState`; structured-clonable): the settings,
 * the top-label and classwise states, and (once the class count is known) the fields each metric declares, by
 * their names (e.g. `nll: [s, c]`; `kept` and `keptLabels` with equal-mass marginal bins).
 */
export interface CalibrationAccumulatorState {
  readonly input: PredictionKind;
  readonly marginalBinning: MarginalBinning;
  readonly marginalDebias: boolean;
  /** Absent in states written before the calibration–refinement split ('temperature'). */
  readonly refinementCalibrator?: RefinementSetting;
  /** C, or null before the first chunk when not given. */
  readonly classes: number | null;
  /** Top-label samples and bins (also holds bins, convention and the other top-label options). */
  readonly top: TopLabelState;
  readonly classwise: ClasswiseState | null;
  /** The metrics' own fields. */
  readonly [field: string]: unknown;
}

interface AccumulatorSnapshot {
  readonly classCount: number | null;
  readonly top: TopLabelSnapshot;
  readonly classwise: ClasswiseSnapshot | null;
  readonly metrics: StateSnapshot[] | null;
}
