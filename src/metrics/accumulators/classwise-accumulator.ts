import type { BinConvention } from '../binned/reliability-types.js';
import { binLowerClosed, binUpperClosed, DEFAULT_CONVENTION, equalWidthEdges, requireBins, requireConvention } from '../binned/binning.js';
import { type BinSums, binnedErrorPower } from '../binned/bin-statistics.js';
import { addFast2Sum, compensatedValues } from '../numeric/compensated-sum.js';
import { requireStateObject } from './accumulator-state.js';
import { debiasedSquaredError } from '../binned/debiased-ece.js';
import { MetricState, type StateSnapshot, type StateSpec } from './metric-state.js';
import { expShifted, rowMax } from '../numeric/softmax.js';
import { type Labels, type PredictionKind, requirePredictionKind, requirePredictionsAndLabels } from '../validation.js';
import { describe, invalidArgument, requireNumber } from '../../util/errors.js';
import type { FloatArray, Matrix } from '../../util/matrix.js';

export interface ClasswiseOptions {
  /** Number of classes C ≥ 2. */
  readonly classes: number;
  /** Equal-width bins M per class (default 15). */
  readonly bins?: number;
  /** Bin convention (default '(l,u]'). */
  readonly convention?: BinConvention;
}

/**
 * The classwise state, declared once (metric-state.ts: from it come merge, snapshot/restore and the plain data of
 * `toState` / `fromState`): the sample count and, per class k and bin m (index k·M + m), n_km, the compensated
 * Σ p_ik and Σ 1[y_i = k].
 */
function classwiseSpec(size: number): StateSpec {
  return {
    count: { merge: 'sum' },
    counts: { merge: 'sum', length: size },
    sumProbability: { merge: 'compensated-sum', length: size },
    sumLabel: { merge: 'sum', length: size },
  };
}

/**
 * Streaming classwise state: for every class k and equal-width bin m (binning p_ik of every sample, not only
 * the top label), n_km = |B_km|, Σ_{i∈B_km} p_ik and Σ_{i∈B_km} 1[y_i = k] (arrays of shape [C × M],
 * class-major: index k·M + m). O(C·M) memory whatever N. Σp is a compensated sum (Kahan's Fast2Sum error
 * term per element, `addFast2Sum`; Neumaier when merging); `merge` adds states (counts exactly),
 * so merged chunks equal one big update (bit for bit in the tests).
 */
export class ClasswiseAccumulator {
  readonly classes: number;
  readonly bins: number;
  readonly convention: BinConvention;
  /** The declared state (`classwiseSpec`); the arrays below are live views of its fields. */
  private readonly state: MetricState;
  readonly counts: Float64Array;
  readonly sumProbability: Float64Array;
  readonly sumProbabilityError: Float64Array;
  readonly sumLabel: Float64Array;
  /** Equal-width edges m/M (shape [M + 1]). */
  readonly edges: Float64Array;
  private readonly upper: boolean;
  private readonly scratch: Float64Array;
  private readonly countCell: Float64Array;

  /** `state`: a state of this shape to adopt (`fromState`); default empty. */
  constructor(options: ClasswiseOptions, state?: MetricState) {
    this.classes = requireNumber('classes', options.classes, { integer: true, min: 2 });
    this.bins = requireBins(options.bins ?? 15);
    this.convention = requireConvention(options.convention ?? DEFAULT_CONVENTION);
    this.edges = equalWidthEdges(this.bins);
    this.upper = this.convention === '(l,u]';
    this.state = state ?? new MetricState(classwiseSpec(this.classes * this.bins));
    this.countCell = this.state.values('count');
    this.counts = this.state.values('counts');
    this.sumProbability = this.state.values('sumProbability');
    this.sumProbabilityError = this.state.errorsOf('sumProbability');
    this.sumLabel = this.state.values('sumLabel');
    this.scratch = new Float64Array(this.classes);
  }

  /** Samples seen. */
  get count(): number {
    return this.countCell[0]!;
  }

  set count(n: number) {
    this.countCell[0] = n;
  }

  /** Add a chunk: predictions N × C (logits or probabilities), labels [N]. Validated before any state changes. */
  update(predictions: Matrix, labels: Labels, input: PredictionKind = 'probabilities'): void {
    requirePredictionKind(input);
    requirePredictionsAndLabels(predictions, labels, input, { classes: this.classes });
    const { rows, cols, data } = predictions;
    for (let i = 0; i < rows; i++) {
      const off = i * cols;
      if (input === 'probabilities') {
        this.addRow(data, off, labels[i]!);
      } else {
        const s = expShifted(data, off, cols, rowMax(data, off, cols), this.scratch);
        const inv = 1 / s;
        for (let k = 0; k < cols; k++) this.scratch[k] = this.scratch[k]! * inv;
        this.addRow(this.scratch, 0, labels[i]!);
      }
    }
  }

  /**
   * Add one probability row p = values[offset .. offset + C) with label y. Unchecked fast path used by
   * `CalibrationAccumulator` (callers validate).
   */
  addRow(values: FloatArray, offset: number, label: number): void {
    const { bins, edges, counts, sumProbability, sumProbabilityError } = this;
    const classes = this.classes;
    if (this.upper) {
      for (let k = 0, base = 0; k < classes; k++, base += bins) {
        const p = values[offset + k]!;
        const j = base + binUpperClosed(p, bins, edges);
        counts[j]!++;
        addFast2Sum(sumProbability, sumProbabilityError, j, p);
      }
    } else {
      for (let k = 0, base = 0; k < classes; k++, base += bins) {
        const p = values[offset + k]!;
        const j = base + binLowerClosed(p, bins, edges);
        counts[j]!++;
        addFast2Sum(sumProbability, sumProbabilityError, j, p);
      }
    }
    const py = values[offset + label]!;
    const b = this.upper ? binUpperClosed(py, bins, edges) : binLowerClosed(py, bins, edges);
    this.sumLabel[label * bins + b]!++;
    this.count++;
  }

  /** Add another accumulator's state (same classes, bins and convention). */
  merge(other: ClasswiseAccumulator): void {
    if (other.classes !== this.classes || other.bins !== this.bins || other.convention !== this.convention)
      invalidArgument('other', `a classwise state with ${this.classes} classes, ${this.bins} bins, ${this.convention}`, `${other.classes} classes, ${other.bins} bins, ${other.convention}`);
    this.state.merge(other.state);
  }

  /** Copy of the state, for `restore` (O(C·M)). */
  snapshot(): ClasswiseSnapshot {
    return this.state.snapshot();
  }

  /** Return to a state saved by `snapshot`. */
  restore(saved: ClasswiseSnapshot): void {
    this.state.restore(saved);
  }

  /** The whole state as plain data (copies; arrays of shape [C × M]); `fromState` rebuilds it bit for bit. */
  toState(): ClasswiseState {
    return { options: { classes: this.classes, bins: this.bins, convention: this.convention }, ...this.state.toState() } as ClasswiseState;
  }

  /** Rebuild an accumulator from `toState` output (validated; arrays copied). */
  static fromState(state: ClasswiseState): ClasswiseAccumulator {
    requireStateObject('state', state);
    const options = requireStateObject('state.options', state.options) as unknown as ClasswiseOptions;
    const { classes, bins } = new ClasswiseAccumulator(options);
    const restored = MetricState.fromState(classwiseSpec(classes * bins), state as unknown as Record<string, unknown>, 'state');
    requireNumber('state.count', restored.scalar('count'), { integer: true, min: 0 });
    return new ClasswiseAccumulator(options, restored);
  }

  /** Bin sums of class k (views; shapes [M]): counts, Σ p_ik, Σ 1[y_i = k]. */
  classSums(k: number, sumP: Float64Array = compensatedValues(this.sumProbability, this.sumProbabilityError)): BinSums {
    const from = k * this.bins;
    const to = from + this.bins;
    return {
      counts: this.counts.subarray(from, to),
      sumConfidence: sumP.subarray(from, to),
      sumCorrect: this.sumLabel.subarray(from, to),
    };
  }

  /**
   * Classwise ECE / SCE (Nixon et al. 2019; the MbLS/ACLS `ClasswiseECELoss`):
   * (1/C) Σ_k Σ_m (|B_km|/N) |freq_k(B_km) − mean p_k(B_km)| = (1/(C·N)) Σ_k Σ_m |Σ 1[y=k] − Σ p_k|.
   * C is the number of columns (the papers' code uses max(label) + 1 and so drops trailing classes that
   * never occur as labels).
   */
  classwiseEce(): number {
    requireSamples(this.count);
    const sumP = compensatedValues(this.sumProbability, this.sumProbabilityError);
    let acc = 0;
    for (let j = 0; j < sumP.length; j++) acc += Math.abs(this.sumLabel[j]! - sumP[j]!);
    return acc / (this.classes * this.count);
  }

  /**
   * Marginal calibration error (Kumar et al. 2019) over these equal-width bins:
   * (1/C Σ_k CE_k^p)^{1/p}, CE_k^p = max(debiased squared error of class k, 0) when `debias` (p must be 2;
   * `unbiased_l2_ce` of uncertainty-calibration) or the plug-in Σ_m (n_km/N) |gap_km|^p otherwise.
   * This equals the library's `get_calibration_error(probs, labels, p, debias, mode='marginal')` with
   * `binning_scheme=get_equal_prob_bins`; see marginal-ece.ts for its default equal-mass bins.
   */
  marginalEce(options: { debias?: boolean; p?: number } = {}): number {
    requireSamples(this.count);
    const debias = options.debias ?? true;
    const p = requireNumber('p', options.p ?? 2, { min: 1 });
    if (debias && p !== 2) invalidArgument('p', '2 when debias is true (the debiased estimator is the ℓ2 one)', describe(p));
    const sumP = compensatedValues(this.sumProbability, this.sumProbabilityError);
    let acc = 0;
    for (let k = 0; k < this.classes; k++) acc += classPower(this.classSums(k, sumP), this.count, p, debias);
    return Math.pow(acc / this.classes, 1 / p);
  }
}

/**
 * Plain-data state of a `ClasswiseAccumulator` (`toState` / `fromState`; structured-clonable): its options and the
 * fields of `classwiseSpec` (the compensated Σp as `sumProbability` and `sumProbabilityError`).
 */
export interface ClasswiseState {
  readonly options: ClasswiseOptions;
  readonly count: number;
  readonly counts: Float64Array;
  readonly sumProbability: Float64Array;
  readonly sumProbabilityError: Float64Array;
  readonly sumLabel: Float64Array;
}

/** A saved `ClasswiseAccumulator` state. */
export type ClasswiseSnapshot = StateSnapshot;

/** CE_k^p of one class's bin sums (see `ClasswiseAccumulator.marginalEce`). */
export function classPower(sums: BinSums, total: number, p: number, debias: boolean): number {
  return debias ? Math.max(debiasedSquaredError(sums, total), 0) : binnedErrorPower(sums, total, p);
}

function requireSamples(n: number): void {
  if (n < 1) invalidArgument('accumulator', 'at least one sample before compute', '0 samples');
}
