import type { BinConvention, ReliabilityBin, ReliabilityData } from './reliability-types.js';
import { DEFAULT_CONVENTION, equalWidthEdges, requireBins, requireConvention } from './binning.js';
import { type BinSums, binnedCalibrationError, equalWidthBinSums } from './bin-statistics.js';
import type { EqualWidthOptions } from './ece.js';
import { requireTopLabel } from '../validation.js';
import type { FloatArray } from '../../util/matrix.js';

/**
 * Reliability-diagram data (Guo et al. 2017, Fig. 1; DeGroot & Fienberg 1983): for each of M equal-width bins,
 * its edges, count, mean confidence, accuracy and gap = accuracy − mean confidence (NaN for empty bins), plus
 * the equal-width ECE over the same bins, overall accuracy and mean confidence. The counts are the confidence
 * histogram. Shapes: confidence [N] in [0, 1], correct [N] (0/1).
 */
export function reliabilityDiagram(confidence: FloatArray, correct: Uint8Array, options: EqualWidthOptions = {}): ReliabilityData {
  const bins = requireBins(options.bins ?? 15);
  const convention = requireConvention(options.convention ?? DEFAULT_CONVENTION);
  requireTopLabel(confidence, correct);
  return reliabilityFromBinSums(equalWidthBinSums(confidence, correct, bins, convention), confidence.length, convention);
}

/** Reliability data from equal-width bin sums over `total` samples (total ≥ Σ counts). */
export function reliabilityFromBinSums(sums: BinSums, total: number, convention: BinConvention): ReliabilityData {
  const bins = sums.counts.length;
  const edges = equalWidthEdges(bins);
  const out: ReliabilityBin[] = [];
  let sumCorrect = 0;
  let sumConfidence = 0;
  for (let m = 0; m < bins; m++) {
    const count = sums.counts[m]!;
    const meanConfidence = count > 0 ? sums.sumConfidence[m]! / count : Number.NaN;
    const accuracy = count > 0 ? sums.sumCorrect[m]! / count : Number.NaN;
    out.push({ lower: edges[m]!, upper: edges[m + 1]!, count, meanConfidence, accuracy, gap: accuracy - meanConfidence });
    sumCorrect += sums.sumCorrect[m]!;
    sumConfidence += sums.sumConfidence[m]!;
  }
  return {
    bins: out,
    total,
    ece: total > 0 ? binnedCalibrationError(sums, total, 1) : 0,
    accuracy: total > 0 ? sumCorrect / total : Number.NaN,
    meanConfidence: total > 0 ? sumConfidence / total : Number.NaN,
    convention,
  };
}
