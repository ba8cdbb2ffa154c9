import type { BinConvention, ReliabilityData } from './reliability-types.js';
import { requireStateArray, requireStateObject, requireStatePair } from './accumulator-state.js';
import { ClasswiseAccumulator, type ClasswiseSnapshot, type ClasswiseState } from './classwise-accumulator.js';
import { CompensatedSum } from './compensated-sum.js';
import { type MarginalBinning, marginalEqualMass, requireMarginalBinning } from './marginal-ece.js';
import { probabilityRows, type RowResults, rowResults } from './probability-kernel.js';
import { expShifted, rowMax } from './softmax.js';
import {
  TopLabelAccumulator,
  type TopLabelMetrics,
  type TopLabelOptions,
  type TopLabelSnapshot,
  type TopLabelState,
} from './top-label-accumulator.js';
import {
  type Labels,
  type PredictionKind,
  requireLabels,
  requireMatrix,
  requirePredictionKind,
  requirePredictionValues,
} from './validation.js';
import { describe, invalidArgument, requireNumber } from '../util/errors.js';
import type { Matrix } from '../util/matrix.js';

export { NLL_CLIP } from './probability-kernel.js';

/** Rows per block of the probability kernel (row results are buffered per block). */
const BLOCK_ROWS = 4096;
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
}

/** Every metric of METHODS.md § Metrics as fractions, with the settings they were computed with. */
export interface CalibrationMetrics extends TopLabelMetrics {
  readonly classes: number;
  readonly bins: number;
  readonly convention: BinConvention;
  /** Mean −log p_y (natural log). */
  readonly nll: number;
  /** Mean Σ_k (p_k − q_k)². */
  readonly brier: number;
  /** Classwise ECE / SCE (ℓ1, equal-width, averaged over the C classes). */
  readonly classwise_ece: number;
  /** Marginal calibration error (Kumar et al. 2019; ℓ2, debiased unless `marginal_debiased` is false). */
  readonly marginal_ece: number;
  readonly marginal_binning: MarginalBinning;
  readonly marginal_debiased: boolean;
  /** Mean −Σ_k p_k log p_k (natural log, 0 · log 0 = 0). */
  readonly mean_entropy: number;
}

/**
 * Streaming, mergeable state of every calibration metric. `update(chunk, labels)` makes one pass over an N × C
 * chunk of logits or probabilities (float32 or float64): per row the numerically stable softmax (logits),
 * argmax ŷ (first maximal index), confidence c = p_ŷ, correctness, −log p_y, Brier, entropy, and the classwise
 * bins of every p_k. State: O(N) for the top-label samples + O(C·M) (+ O(N·C) only with equal-mass marginal
 * bins). `merge(other)` combines two states as if their chunks had been given to one accumulator in order:
 * counts and per-sample arrays exactly, floating sums as compensated (Neumaier) sums, so the merged metrics
 * equal those of one big update to the last bit in practice (tested bit for bit). `compute()` returns
 * `CalibrationMetrics`. A chunk that fails validation leaves the state unchanged: small chunks are checked
 * before processing, large ones inside the one-pass kernel, restoring an O(C·M) snapshot on error.
 *
 * Probability inputs are used as given (rows summing to 1 within 1e−3, not renormalised), except that the
 * top-label confidence is clipped to ≤ 1 and NLL uses min(max(p_y, 1e−12), 1).
 */
export class CalibrationAccumulator {
  readonly input: PredictionKind;
  readonly marginalBinning: MarginalBinning;
  readonly marginalDebias: boolean;
  readonly top: TopLabelAccumulator;
  private classwiseState: ClasswiseAccumulator | null = null;
  private classCount: number | null;
  private nll = new CompensatedSum();
  private brier = new CompensatedSum();
  private entropy = new CompensatedSum();
  private rowBuffer: RowResults | null = null;
  private scratch = new Float64Array(0);
  private kept: Float64Array | null = null;
  private keptLabels: Int32Array | null = null;

  constructor(options: CalibrationOptions) {
    if (options === null || typeof options !== 'object') invalidArgument('options', 'an options object', describe(options));
    this.input = requirePredictionKind(options.input, 'input');
    this.marginalBinning = requireMarginalBinning(options.marginalBinning ?? 'equal-width', 'marginalBinning');
    this.marginalDebias = options.marginalDebias ?? true;
    if (typeof this.marginalDebias !== 'boolean') invalidArgument('marginalDebias', 'a boolean', describe(this.marginalDebias));
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
    if (this.classwiseState === null && this.classCount !== null) this.classwiseState = this.newClasswise(this.classCount);
    return this.classwiseState;
  }

  /**
   * Add a chunk: `predictions` N × C (row-major, float32 or float64) and `labels` [N] in [0, C).
   * Throws InvalidArgumentError (state unchanged) on NaN/±Infinity, negative probabilities, probability rows not
   * summing to 1 within 1e−3, a column count different from C, C < 2, or bad labels.
   */
  update(predictions: Matrix, labels: Labels): this {
    requireMatrix(predictions);
    if (this.classCount !== null && predictions.cols !== this.classCount)
      invalidArgument('predictions.cols', `${this.classCount} classes`, describe(predictions.cols));
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
    if (this.marginalBinning === 'equal-mass') this.keep(predictions, labels, offset);
    return this;
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
      for (let r = 0; r < to - from; r++) {
        top.push(out.confidence[r]!, out.correct[r]!, float32);
        this.nll.add(out.nll[r]!);
        this.brier.add(out.brier[r]!);
        this.entropy.add(out.entropy[r]!);
      }
    }
    return -1;
  }

  private snapshot(): AccumulatorSnapshot {
    return {
      classCount: this.classCount,
      top: this.top.snapshot(),
      classwise: this.classwiseState === null ? null : this.classwiseState.snapshot(),
      nll: this.nll.clone(),
      brier: this.brier.clone(),
      entropy: this.entropy.clone(),
    };
  }

  private restore(saved: AccumulatorSnapshot): void {
    this.classCount = saved.classCount;
    this.top.restore(saved.top);
    if (saved.classwise === null) this.classwiseState = null;
    else this.classwiseState!.restore(saved.classwise);
    this.nll = saved.nll.clone();
    this.brier = saved.brier.clone();
    this.entropy = saved.entropy.clone();
  }

  private updateLogits(predictions: Matrix, labels: Labels, classwise: ClasswiseAccumulator): void {
    const { rows, cols, data } = predictions;
    if (this.scratch.length !== cols) this.scratch = new Float64Array(cols);
    const p = this.scratch;
    const top = this.top;
    for (let i = 0, off = 0; i < rows; i++, off += cols) {
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
      top.push(inv, arg === y ? 1 : 0, false); // p_ŷ = exp(0)/s
      this.nll.add(logS - (data[off + y]! - m)); // −log p_y = log s − (z_y − m)
      this.brier.add(sq - py * py + (1 - py) * (1 - py));
      this.entropy.add(logS - dot); // H = −Σ p (z − m − log s), well conditioned
      classwise.addRow(p, 0, y);
    }
  }

  private keep(predictions: Matrix, labels: Labels, n: number): void {
    const { rows, cols, data } = predictions;
    const need = (n + rows) * cols;
    if (this.kept === null || this.kept.length < need) {
      const capacityRows = Math.max(n + rows, this.kept === null ? 0 : (2 * this.kept.length) / cols);
      const grown = new Float64Array(capacityRows * cols);
      const grownLabels = new Int32Array(capacityRows);
      if (this.kept !== null) grown.set(this.kept.subarray(0, n * cols));
      if (this.keptLabels !== null) grownLabels.set(this.keptLabels.subarray(0, n));
      this.kept = grown;
      this.keptLabels = grownLabels;
    }
    const kept = this.kept;
    if (this.input === 'probabilities') {
      kept.set(data, n * cols);
    } else {
      const row = new Float64Array(cols);
      for (let i = 0; i < rows; i++) {
        const off = i * cols;
        const inv = 1 / expShifted(data, off, cols, rowMax(data, off, cols), row);
        for (let k = 0; k < cols; k++) kept[(n + i) * cols + k] = row[k]! * inv;
      }
    }
    for (let i = 0; i < rows; i++) this.keptLabels![n + i] = labels[i]!;
  }

  /** Add another accumulator's state after this one's (same classes and options). */
  merge(other: CalibrationAccumulator): this {
    if (!(other instanceof CalibrationAccumulator)) invalidArgument('other', 'a CalibrationAccumulator', describe(other));
    if (other.count === 0) return this;
    if (this.classCount !== null && other.classCount !== null && other.classCount !== this.classCount)
      invalidArgument('other', `a state with ${this.classCount} classes`, `${other.classCount} classes`);
    if (other.marginalBinning !== this.marginalBinning || other.top.adaptive !== this.top.adaptive)
      invalidArgument('other', 'a state with the same binning options', 'different options');
    if (this.classCount === null) this.classCount = other.classCount;
    const n = this.count;
    if (this.marginalBinning === 'equal-mass') {
      const cols = this.classCount!;
      const merged = new Float64Array((n + other.count) * cols);
      if (this.kept !== null) merged.set(this.kept.subarray(0, n * cols));
      merged.set(other.kept!.subarray(0, other.count * cols), n * cols);
      const mergedLabels = new Int32Array(n + other.count);
      if (this.keptLabels !== null) mergedLabels.set(this.keptLabels.subarray(0, n));
      mergedLabels.set(other.keptLabels!.subarray(0, other.count), n);
      this.kept = merged;
      this.keptLabels = mergedLabels;
    }
    this.top.merge(other.top);
    this.classwise!.merge(other.classwise!);
    this.nll.addSum(other.nll);
    this.brier.addSum(other.brier);
    this.entropy.addSum(other.entropy);
    return this;
  }

  /**
   * The whole state as plain data — numbers, strings, booleans and typed arrays only (copies), so it can be
   * `postMessage`d between worker threads with its buffers transferred. Size: 9·N bytes of top-label samples +
   * 32·C·M bytes of classwise bins (+ 8·N·C + 4·N with equal-mass marginal bins). `fromState(toState())` is an
   * accumulator whose every later update, merge and compute equals this one's bit for bit.
   */
  toState(): CalibrationAccumulatorState {
    const n = this.count;
    const kept = this.kept === null ? null : this.kept.slice(0, n * (this.classCount ?? 0));
    return {
      input: this.input,
      marginalBinning: this.marginalBinning,
      marginalDebias: this.marginalDebias,
      classes: this.classCount,
      top: this.top.toState(),
      classwise: this.classwiseState === null ? null : this.classwiseState.toState(),
      nll: this.nll.toPair(),
      brier: this.brier.toPair(),
      entropy: this.entropy.toPair(),
      kept,
      keptLabels: this.keptLabels === null ? null : this.keptLabels.slice(0, n),
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
      out.classwiseState = classwise;
    }
    out.nll = CompensatedSum.fromPair(requireStatePair('state.nll', state.nll));
    out.brier = CompensatedSum.fromPair(requireStatePair('state.brier', state.brier));
    out.entropy = CompensatedSum.fromPair(requireStatePair('state.entropy', state.entropy));
    if (out.marginalBinning === 'equal-mass' && n > 0) {
      out.kept = requireStateArray('state.kept', state.kept, Float64Array, n * out.classCount!).slice();
      out.keptLabels = requireStateArray('state.keptLabels', state.keptLabels, Int32Array, n).slice();
    }
    return out;
  }

  /** Reliability-diagram data of the top-label equal-width bins. */
  reliability(): ReliabilityData {
    return this.top.reliability();
  }

  /** Compute every metric (throws if no sample was added). */
  compute(): CalibrationMetrics {
    const n = this.count;
    if (n < 1) invalidArgument('predictions', 'at least one sample', '0 samples');
    const classwise = this.classwise!;
    const top = this.top.compute();
    const marginal =
      this.marginalBinning === 'equal-width'
        ? classwise.marginalEce({ debias: this.marginalDebias })
        : marginalEqualMass(this.kept!, n, this.classCount!, this.keptLabels!, this.top.bins, 2, this.marginalDebias);
    return {
      ...top,
      classes: this.classCount!,
      bins: this.top.bins,
      convention: this.top.convention,
      nll: this.nll.value / n,
      brier: this.brier.value / n,
      classwise_ece: classwise.classwiseEce(),
      marginal_ece: marginal,
      marginal_binning: this.marginalBinning,
      marginal_debiased: this.marginalDebias,
      mean_entropy: this.entropy.value / n,
    };
  }

  private newClasswise(classes: number): ClasswiseAccumulator {
    return new ClasswiseAccumulator({ classes, bins: this.top.bins, convention: this.top.convention });
  }
}

/** Plain-data state of a `CalibrationAccumulator` (`toState` / `fromState`; structured-clonable). */
export interface CalibrationAccumulatorState {
  readonly input: PredictionKind;
  readonly marginalBinning: MarginalBinning;
  readonly marginalDebias: boolean;
  /** C, or null before the first chunk when not given. */
  readonly classes: number | null;
  /** Top-label samples and bins (also holds bins, convention and the other top-label options). */
  readonly top: TopLabelState;
  readonly classwise: ClasswiseState | null;
  /** Compensated sums [s, c] of −log p_y, Brier and entropy. */
  readonly nll: [number, number];
  readonly brier: [number, number];
  readonly entropy: [number, number];
  /** Equal-mass marginal bins only: probabilities N × C (row-major) and labels [N]; else null. */
  readonly kept: Float64Array | null;
  readonly keptLabels: Int32Array | null;
}

interface AccumulatorSnapshot {
  readonly classCount: number | null;
  readonly top: TopLabelSnapshot;
  readonly classwise: ClasswiseSnapshot | null;
  readonly nll: CompensatedSum;
  readonly brier: CompensatedSum;
  readonly entropy: CompensatedSum;
}
