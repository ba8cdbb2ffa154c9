import { aurocFromSorted } from '../selective/auroc.js';
import { binnedCalibrationError, maximumBinGap, overconfidenceFromBins } from '../binned/bin-statistics.js';
import { debiasedFromSorted } from '../binned/debiased-ece.js';
import { ksFromSorted, weightedKsError } from '../statistical-tests/ks-error.js';
import { labelBinnedFromSums } from '../binned/label-binned-ece.js';
import { defineMetric } from './metric-definition.js';
import { equalMassOnly, WEIGHTS_REFUSED_RANK } from '../weighted/weighted-context.js';

/**
 * The metrics computed from the top-label state alone (confidence c_i = p_ŷ and correctness a_i of every sample,
 * equal-width bin sums): METHODS.md § Metrics. Each one's math lives in its functional file; these declarations
 * only say how `CalibrationAccumulator` and `TopLabelAccumulator` report it.
 */

export const accuracy = defineMetric({
  key: 'accuracy',
  label: 'accuracy (%)',
  short: 'Acc.',
  percent: true,
  better: 'higher',
  weighted: { scope: 'top-label', compute: (w) => w.mean(w.correct) },
  scope: 'top-label',
  description: 'fraction of samples whose argmax is the label',
  compute: (context) => context.top.correctCount() / context.n,
});

export const meanConfidence = defineMetric({
  key: 'mean_confidence',
  label: 'mean confidence (%)',
  short: 'Mean conf.',
  percent: true,
  better: 'none',
  weighted: { scope: 'top-label', compute: (w) => w.mean(w.confidence) },
  scope: 'top-label',
  description: 'mean top-label confidence (1/N) Σ_i c_i',
  compute: (context) => context.top.confidenceSum() / context.n,
});

export const ece = defineMetric({
  key: 'ece',
  label: 'ECE (%)',
  percent: true,
  better: 'lower',
  weighted: { scope: 'top-label', compute: (w) => binnedCalibrationError(w.equalWidth(), w.weightSum, 1) },
  scope: 'top-label',
  description: 'expected calibration error, M equal-width bins, ℓ1 (Guo et al. 2017)',
  compute: (context) => binnedCalibrationError(context.binSums(), context.n, 1),
});

export const eceL2 = defineMetric({
  key: 'ece_l2',
  label: 'ECE l2 (%)',
  short: 'ECE ℓ2',
  percent: true,
  better: 'lower',
  weighted: { scope: 'top-label', compute: (w) => binnedCalibrationError(w.equalWidth(), w.weightSum, 2) },
  scope: 'top-label',
  description: 'equal-width ECE with the ℓ2 norm',
  compute: (context) => binnedCalibrationError(context.binSums(), context.n, 2),
});

export const eceLb = defineMetric({
  key: 'ece_lb',
  label: 'ECE label-binned (%)',
  short: 'ECE lb',
  percent: true,
  better: 'lower',
  scope: 'top-label',
  description: 'label-binned equal-width ECE with norm `ece_lb_p` (Roelofs et al. 2020; Karandikar et al. 2021)',
  compute: (context) => labelBinnedFromSums(context.top.views().confidence, context.binSums(), context.top.convention, context.top.labelBinnedP),
});

export const adaece = defineMetric({
  key: 'adaece',
  label: 'AdaECE equal-mass (%)',
  short: 'AdaECE',
  percent: true,
  better: 'lower',
  weighted: { scope: 'top-label', compute: (w) => binnedCalibrationError(w.equalMass(), w.weightSum, 1), refusal: equalMassOnly },
  scope: 'top-label',
  description: 'ECE over M equal-mass bins, ℓ1 (scheme `adaptive_binning`; Nguyen & O’Connor 2015, Mukhoti et al. 2020)',
  compute: (context) => binnedCalibrationError(context.adaptive(), context.n, 1),
});

export const adaeceL2 = defineMetric({
  key: 'adaece_l2',
  label: 'AdaECE l2 (%)',
  short: 'ECE ℓ2 equal-mass',
  percent: true,
  better: 'lower',
  weighted: { scope: 'top-label', compute: (w) => binnedCalibrationError(w.equalMass(), w.weightSum, 2), refusal: equalMassOnly },
  scope: 'top-label',
  description: 'equal-mass ECE with the ℓ2 norm (the "ECE" of Karandikar et al. 2021’s tables)',
  compute: (context) => binnedCalibrationError(context.adaptive(), context.n, 2),
});

export const mce = defineMetric({
  key: 'mce',
  label: 'MCE (%)',
  percent: true,
  better: 'lower',
  weighted: { scope: 'top-label', compute: (w) => maximumBinGap(w.equalWidth()) },
  scope: 'top-label',
  description: 'maximum calibration error: the largest equal-width bin gap (Naeini et al. 2015)',
  compute: (context) => maximumBinGap(context.binSums()),
});

export const oe = defineMetric({
  key: 'oe',
  label: 'OE overconfidence (%)',
  short: 'OE',
  percent: true,
  better: 'lower',
  weighted: { scope: 'top-label', compute: (w) => overconfidenceFromBins(w.equalWidth(), w.weightSum) },
  scope: 'top-label',
  description: 'overconfidence error Σ_m (n_m/N) conf_m · max(conf_m − acc_m, 0) (Thulasidasan et al. 2019)',
  compute: (context) => overconfidenceFromBins(context.binSums(), context.n),
});

export const ks = defineMetric({
  key: 'ks',
  label: 'KS error (%)',
  short: 'KS',
  percent: true,
  better: 'lower',
  weighted: { scope: 'top-label', compute: (w) => weightedKsError(w.confidence, w.correct, w.weights, w.weightSum) },
  scope: 'top-label',
  description: 'Kolmogorov–Smirnov calibration error, binning-free (Gupta et al. 2021)',
  compute: (context) => ksFromSorted(context.sorted()),
});

export const debiasedEce = defineMetric({
  key: 'debiased_ece',
  label: 'debiased ECE l2 (%)',
  short: 'Debiased ECE',
  percent: true,
  better: 'lower',
  weighted: { refused: 'a debiased estimator: its bias correction assumes N independent unweighted samples' },
  scope: 'top-label',
  description: 'debiased ℓ2 ECE over M equal-mass bins (Kumar et al. 2019)',
  compute: (context) => debiasedFromSorted(context.sorted(), context.top.bins),
});

export const sweepEce = defineMetric({
  key: 'sweep_ece',
  label: 'sweep ECE l2 (%)',
  short: 'Sweep ECE',
  percent: true,
  better: 'lower',
  scope: 'top-label',
  description: 'monotonic-sweep ECE, equal-mass, ℓ2 (Roelofs et al. 2020); `sweep_bins` is the number of bins chosen',
  compute: (context) => context.sweep().value,
});

export const errorAuroc = defineMetric({
  key: 'error_auroc',
  label: 'error AUROC (%)',
  short: 'Error AUROC',
  percent: true,
  better: 'higher',
  weighted: { refused: WEIGHTS_REFUSED_RANK },
  scope: 'top-label',
  nullable: true,
  description: 'AUROC of the confidence separating correct from incorrect predictions (null when all or none are correct)',
  compute: (context) => aurocFromSorted(context.sorted().confidence, context.sorted().correct),
});
