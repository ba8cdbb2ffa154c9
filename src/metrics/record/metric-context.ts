import { adaptiveBinSums } from '../binned/adaptive-ece.js';
import type { BinSums } from '../binned/bin-statistics.js';
import type { ClasswiseAccumulator } from '../accumulators/classwise-accumulator.js';
import type { MarginalBinning } from '../binned/marginal-ece.js';
import type { RefinementSetting } from '../calibration-refinement.js';
import { type SortedTopLabel, sortTopLabel } from '../numeric/sorted-top-label.js';
import { ScratchPool } from '../numeric/scratch-pool.js';
import { type SweepResult, sweepFromSorted } from '../binned/sweep-ece.js';
import type { TopLabelAccumulator } from '../accumulators/top-label-accumulator.js';
import { invalidArgument } from '../../util/errors.js';

/** The class-level part of a context (absent when a `TopLabelAccumulator` computes alone). */
export interface ClassStatistics {
  readonly classes: number;
  readonly classwise: ClasswiseAccumulator;
  readonly marginalBinning: MarginalBinning;
  readonly marginalDebias: boolean;
  /** The recalibrator of the calibration–refinement split (calibration-refinement.ts). */
  readonly refinementCalibrator: RefinementSetting;
}

/**
 * The shared statistics the metrics are computed from, each derived at most once per `compute()`: the top-label
 * equal-width bin sums, the samples sorted by confidence (one radix sort), the equal-mass bin sums and the
 * monotonic sweep; and, in a `CalibrationAccumulator`, the classwise bins.
 */
export class MetricContext {
  readonly top: TopLabelAccumulator;
  private readonly classStatistics: ClassStatistics | null;
  private sums: BinSums | null = null;
  private sortedSamples: SortedTopLabel | null = null;
  private adaptiveSums: BinSums | null = null;
  private sweepResult: SweepResult | null = null;
  private readonly memo = new Map<string, unknown>();
  /** Reusable memory for the O(N) temporaries of the metrics (scratch-pool.ts); dropped with the context. */
  readonly scratch = new ScratchPool();

  constructor(top: TopLabelAccumulator, classStatistics: ClassStatistics | null = null) {
    if (top.count < 1) invalidArgument('accumulator', 'at least one sample before compute', '0 samples');
    this.top = top;
    this.classStatistics = classStatistics;
  }

  /** Number of samples N. */
  get n(): number {
    return this.top.count;
  }

  /** Top-label equal-width bin sums (shapes [M]). */
  binSums(): BinSums {
    return (this.sums ??= this.top.binSums());
  }

  /** The top-label samples sorted by confidence (stable). */
  sorted(): SortedTopLabel {
    if (this.sortedSamples === null) {
      const { confidence, correct, allFloat32 } = this.top.views();
      this.sortedSamples = sortTopLabel(confidence, correct, allFloat32);
    }
    return this.sortedSamples;
  }

  /** Equal-mass bin sums with the accumulator's scheme (`adaptive`). */
  adaptive(): BinSums {
    return (this.adaptiveSums ??= adaptiveBinSums(this.sorted(), this.top.bins, this.top.adaptive));
  }

  /** The monotonic sweep (ℓ2, at most `sweepMaxBins` bins). */
  sweep(): SweepResult {
    return (this.sweepResult ??= sweepFromSorted(this.sorted(), 2, this.top.sweepMaxBins, this.scratch));
  }

  /**
   * A value several metrics derive from (e.g. the smooth ECE and its bandwidth, AURC and E-AURC), computed at
   * most once per `compute()`; `key` names it uniquely (by convention the file that defines it).
   */
  shared<T>(key: string, compute: () => T): T {
    if (!this.memo.has(key)) this.memo.set(key, compute());
    return this.memo.get(key) as T;
  }

  /** The classwise statistics (only in a `CalibrationAccumulator`). */
  classes(): ClassStatistics {
    if (this.classStatistics === null) invalidArgument('metric', 'a metric of top-label scope in a TopLabelAccumulator', 'a metric that needs classwise statistics');
    return this.classStatistics;
  }
}
