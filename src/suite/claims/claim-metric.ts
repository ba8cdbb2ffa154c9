/**
 * The metrics a suite comparison (comparison.ts) can name, and where a run's value of each is read
 * (report/claim-value.ts):
 *
 * - a test metric under its `calib eval --json` key (ece, nll, accuracy, …): posthoc.json `test`
 *   (after a calibrator: `calibrators[kind].test`);
 * - `noise_auroc`, `noise_confidence`, `ood_auroc`, `ood_confidence`: AUROC of in-distribution vs out-of-distribution
 *   max-softmax confidences, and the mean confidence on the OOD set — Gaussian noise or the second dataset
 *   (Thulasidasan et al. 2019, §7 and Table 1): ood.json `noise` / `ood_dataset` (after a calibrator: posthoc.json
 *   `calibrators[kind].shift`, the same shape, train/evaluation/shift-metrics.ts);
 * - `shift_M` with M ∈ accuracy, nll, ece, adaece, adaece_l2, confidence: M averaged over every corruption × severity of the
 *   shift report (equal weight per corrupted set; the thulasidasan suite's corruption checks are its own: that paper has
 *   no corruption experiment, its Fig. 5 is the training-label entropy histogram); `shift_M_sK` over severity K ∈ 1..5;
 * - `fg_M` for a test metric M: M over the test pixels without background (segmentation runs; posthoc.json
 *   `foreground`, MbLS Table 5's "w/o bg" columns);
 * - `miou`: a segmentation run's mean IoU over its test images (summary.json `test.miou`; argmax only, so no
 *   calibrator: temperature scaling leaves it unchanged);
 * - `train_M` for a test metric M: M over the training split (summary.json `train`, runs with `evaluateTrain`; the
 *   trained model's own predictions, no calibrator — Karandikar et al. 2021 Table 3 compares train and test ECE).
 *
 * Claims are "A < B" or "A > B" on the metric's value: for AUROC and accuracy (higher is better) a claim that A is
 * better is written "A > B".
 */
import type { MetricDirection } from '../../metrics/record/metric-definition.js';
import { METRIC_NAMES, metricDefinition, type MetricName } from '../../metrics/record/metric-registry.js';

/** The per-corruption fields of a shift report a `shift_` metric averages (`confidence` = `mean_confidence`). */
export const SHIFT_FIELDS = { accuracy: 'accuracy', nll: 'nll', ece: 'ece', adaece: 'adaece', adaece_l2: 'adaece_l2', confidence: 'mean_confidence' } as const;
export type ShiftField = (typeof SHIFT_FIELDS)[keyof typeof SHIFT_FIELDS];

export type ClaimMetric =
  | { readonly family: 'test'; readonly metric: MetricName }
  | { readonly family: 'ood'; readonly set: 'noise' | 'ood_dataset'; readonly field: 'auroc' | 'mean_confidence' }
  | { readonly family: 'shift'; readonly field: ShiftField; readonly severity?: number }
  | { readonly family: 'foreground'; readonly metric: MetricName }
  | { readonly family: 'miou' }
  | { readonly family: 'train'; readonly metric: MetricName };

/** The metric families, as listed in errors and the README. */
export const CLAIM_METRIC_FAMILIES =
  'a test metric (calib eval --json key: ece, nll, accuracy, …), noise_auroc, noise_confidence, ood_auroc, ood_confidence, shift_accuracy|nll|ece|adaece|adaece_l2|confidence (mean over every corruption × severity; _s1 … _s5 for one severity, e.g. shift_ece_s5), fg_<test metric> (segmentation without background, e.g. fg_ece), miou, train_<test metric> (training split, raw only; needs evaluateTrain, e.g. train_ece)';

const OOD: Readonly<Record<string, ClaimMetric>> = {
  noise_auroc: { family: 'ood', set: 'noise', field: 'auroc' },
  noise_confidence: { family: 'ood', set: 'noise', field: 'mean_confidence' },
  ood_auroc: { family: 'ood', set: 'ood_dataset', field: 'auroc' },
  ood_confidence: { family: 'ood', set: 'ood_dataset', field: 'mean_confidence' },
};

const isTestMetric = (name: string): name is MetricName => (METRIC_NAMES as readonly string[]).includes(name);

/** The claim metric named `name`, or undefined for a name outside every family. */
export function parseClaimMetric(name: string): ClaimMetric | undefined {
  if (isTestMetric(name)) return { family: 'test', metric: name };
  if (OOD[name]) return OOD[name];
  if (name === 'miou') return { family: 'miou' };
  if (name.startsWith('fg_')) {
    const m = name.slice(3);
    return isTestMetric(m) ? { family: 'foreground', metric: m } : undefined;
  }
  if (name.startsWith('train_')) {
    const m = name.slice(6);
    return isTestMetric(m) ? { family: 'train', metric: m } : undefined;
  }
  const s = /^shift_([a-z][a-z0-9_]*?)(?:_s([1-5]))?$/.exec(name);
  if (s && Object.hasOwn(SHIFT_FIELDS, s[1]!)) {
    const field = SHIFT_FIELDS[s[1] as keyof typeof SHIFT_FIELDS];
    return s[2] === undefined ? { family: 'shift', field } : { family: 'shift', field, severity: Number(s[2]) };
  }
  return undefined;
}

/** Whether the report shows differences of `name` in points of % (fractions: accuracy, ECE, AUROC, confidence, mIoU). */
export function claimMetricPercent(name: string): boolean {
  const m = parseClaimMetric(name);
  if (m === undefined) return false;
  switch (m.family) {
    case 'test':
    case 'foreground':
    case 'train':
      return metricDefinition(m.metric).percent;
    case 'shift':
      return m.field !== 'nll';
    default:
      return true;
  }
}

/**
 * Which values of claim metric `name` are better: the metric record's direction (metrics/record/metric-definition.ts) for
 * test, foreground, training-split and shift metrics; higher for the OOD AUROCs and mIoU; 'none' for the OOD mean
 * confidences and names outside every family.
 */
export function claimMetricDirection(name: string): MetricDirection {
  const m = parseClaimMetric(name);
  if (m === undefined) return 'none';
  switch (m.family) {
    case 'test':
    case 'foreground':
    case 'train':
      return metricDefinition(m.metric).better;
    case 'shift':
      return metricDefinition(m.field).better;
    case 'ood':
      return m.field === 'auroc' ? 'higher' : 'none';
    case 'miou':
      return 'higher';
  }
}

/** How the binned test metrics bin and norm (B: the number of bins). */
const BINNED: Readonly<Record<string, string>> = {
  ece: 'top-label ECE, ℓ1 norm, B equal-width bins (l,u]',
  ece_l2: 'top-label ECE, ℓ2 norm, B equal-width bins (l,u]',
  ece_lb: 'label-binned top-label ECE, B equal-width bins',
  adaece: 'top-label ECE, ℓ1 norm, B equal-mass bins',
  adaece_l2: 'top-label ECE, ℓ2 norm, B equal-mass bins',
  mce: 'maximum calibration error, B equal-width bins',
  oe: 'overconfidence error, B equal-width bins',
  classwise_ece: 'classwise ECE, ℓ1 norm, B equal-width bins per class, averaged over classes',
  debiased_ece: 'debiased ℓ2 ECE, B equal-mass bins',
};

/** A test metric's description with its bins: the binned ECEs state norm, binning and count. */
function testMetricText(metric: MetricName, bins: number): string {
  return BINNED[metric]?.replace('B', String(bins)) ?? metricDefinition(metric).description;
}

/**
 * What claim metric `name` measures, with the bins, norm and binning of its ECE (a claim's metric name fixes them:
 * `ece` is ℓ1 over equal-width bins, `adaece` ℓ1 over equal-mass bins, `adaece_l2` ℓ2 over equal-mass bins — the ECE
 * of Karandikar et al. 2021 —, `classwise_ece` per class; the number of bins is the suite's `bins`, or for OOD and
 * corruption metrics the bins of the runs' shift evaluation).
 */
export function claimMetricDescription(name: string, bins: number): string {
  const m = parseClaimMetric(name);
  if (m === undefined) return name;
  switch (m.family) {
    case 'test':
      return testMetricText(m.metric, bins);
    case 'foreground':
      return `${testMetricText(m.metric, bins)}, over the labelled test pixels without background`;
    case 'train':
      return `${testMetricText(m.metric, bins)}, over the training split (the trained model's own predictions)`;
    case 'miou':
      return 'mean intersection over union of the argmax segmentation over the test images';
    case 'ood':
      return `${m.field === 'auroc' ? 'AUROC of the max-softmax confidence, test set vs' : 'mean max-softmax confidence on'} ${m.set === 'noise' ? 'Gaussian-noise images' : 'the second (out-of-distribution) dataset'}`;
    case 'shift': {
      const field = m.field === 'mean_confidence' ? 'mean confidence' : m.field === 'nll' ? 'NLL' : m.field === 'accuracy' ? 'accuracy' : testMetricText(m.field, bins);
      return `${field}, mean over every corruption kind at ${m.severity === undefined ? 'every severity 1–5' : `severity ${m.severity}`}`;
    }
  }
}
