/**
 * A run's value of a claim metric (claim-metric.ts) for a verdict, raw or after a post-hoc calibrator: test metrics
 * from posthoc.json (`test`, `calibrators[kind].test`), OOD and corruption numbers from ood.json (raw) or
 * posthoc.json `calibrators[kind].shift` (calibrated), foreground metrics from posthoc.json `foreground`, mIoU from
 * summary.json `test.miou`, training-split metrics from summary.json `train` (raw only). NaN where the run lacks the
 * number (no OOD evaluation, not a segmentation run, no `evaluateTrain`, …).
 * `shift_M` is the mean of M over the report's corrupted sets (every corruption × severity, or severity K only for
 * `shift_M_sK`), each set weighted equally.
 */
import type { ClaimMetric } from '../claims/claim-metric.js';
import { corruptionMean, shiftOf } from './shift-tables.js';
import { foregroundMetric, testMetric, trainMetric, type RunResult } from './suite-results.js';

/** The value of `metric` for run `r`, after calibrator `after` (undefined: the trained model's own predictions). */
export function claimValue(r: RunResult, metric: ClaimMetric, after?: string): number {
  switch (metric.family) {
    case 'test':
      return testMetric(r, metric.metric, after);
    case 'foreground':
      return foregroundMetric(r, metric.metric, after);
    case 'train':
      return after === undefined ? trainMetric(r, metric.metric) : Number.NaN;
    case 'miou': {
      const v = (r.summary['test'] as Record<string, unknown> | undefined)?.['miou'];
      return after === undefined && typeof v === 'number' ? v : Number.NaN;
    }
    case 'ood': {
      const v = shiftOf(r, after)?.[metric.set]?.[metric.field];
      return typeof v === 'number' ? v : Number.NaN;
    }
    case 'shift':
      return corruptionMean(shiftOf(r, after), metric.field, metric.severity);
  }
}
