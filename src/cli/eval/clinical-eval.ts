/**
 * `calib eval --clinical`: the clinical / tabular calibration statistics (src/metrics/clinical/) of binary risk
 * predictions, added to `calib eval`'s table and --json. Which probability is the "risk":
 *   --positive-probs p        p itself against the 0/1 labels;
 *   --probs / --logits, 2 columns   the class-1 probability against label = 1;
 *   --probs / --logits, C > 2 columns and --confidence   the top-label confidence against correctness.
 */
import { clinicalJson, clinicalStatistics, requireBinaryOutcomes, type ClinicalStatistics } from '../../metrics/clinical/index.js';
import { topLabel } from '../../metrics/top-label.js';
import type { Matrix } from '../../util/matrix.js';
import type { CliIO } from '../command.js';
import type { Flag } from '../flag.js';
import { flag } from '../flag.js';
import { boolean, number, optional } from '../../util/schema.js';

export const CLINICAL_FLAGS = {
  clinical: flag(optional(boolean(), false, 'add calibration slope/intercept, Hosmer–Lemeshow, ICI/E50/E90/Emax and the SKCE test')),
  'hl-groups': flag(optional(number({ integer: true, min: 3 }), 10, 'Hosmer–Lemeshow groups (deciles of risk: 10; df = G − 2)'), { valueName: 'G' }),
  'loess-span': flag(optional(number({ min: 0, exclusiveMin: true, max: 1 }), 2 / 3, 'lowess span of the ICI / E50 / E90 / Emax curve'), { valueName: 'F' }),
  'skce-resamples': flag(optional(number({ integer: true, min: 0, max: 1_000_000 }), 1000, 'Monte Carlo resamples of the SKCE test (0: no p-value)'), { valueName: 'B' }),
} as const satisfies Record<string, Flag>;

export const CLINICAL_DESCRIPTION = [
  '--clinical adds the clinical / tabular statistics of the risk p (p of --positive-probs; the class-1 probability of',
  'two-column --probs/--logits; the top-label confidence against correctness otherwise): calibration_in_the_large',
  '(mean y − mean p); calibration_slope b of logit P(y=1) = a + b·logit(p) and calibration_intercept a₀ of',
  'logit P(y=1) = a₀ + logit(p) (offset, slope fixed at 1), maximum likelihood with Wald intervals at --level',
  '(p clipped to [1e-15, 1 − 1e-15]); hosmer_lemeshow_p with --hl-groups G equal-size groups of sorted p, df = G − 2;',
  'ici, e50, e90, emax (Austin & Steyerberg 2019) from the lowess curve of y on p (degree 1, span --loess-span,',
  'no robustness iterations); skce, the unbiased SKCE (Widmann et al. 2019) with the kernel exp(−‖P − P′‖/ν),',
  'ν the median pairwise distance, and skce_p from --skce-resamples draws y* ~ Bernoulli(p) (seeded by --seed).',
];

export interface ClinicalFlags {
  clinical?: boolean | undefined;
  'hl-groups': number;
  'loess-span': number;
  'skce-resamples': number;
  level: number;
  seed: number;
}

/** The risk p and outcome y of predictions N × C: class 1 of two columns, else the top label. */
export function riskOf(predictions: Matrix, labels: Int32Array, kind: 'logits' | 'probabilities'): { p: Float64Array; y: Uint8Array } {
  if (predictions.cols !== 2) {
    const { confidence, correct } = topLabel(predictions, labels, kind);
    return { p: confidence, y: correct };
  }
  const p = new Float64Array(predictions.rows);
  const y = new Uint8Array(predictions.rows);
  for (let i = 0; i < predictions.rows; i++) {
    const a = predictions.data[2 * i]!;
    const b = predictions.data[2 * i + 1]!;
    p[i] = kind === 'logits' ? 1 / (1 + Math.exp(a - b)) : b;
    y[i] = labels[i] === 1 ? 1 : 0;
  }
  return { p, y };
}

/** The statistics of risks p and outcomes y, with the CLI's argument names in errors. */
export function clinicalFor(p: ArrayLike<number>, y: ArrayLike<number>, flags: ClinicalFlags, names: { p: string; y: string }): ClinicalStatistics {
  requireBinaryOutcomes(p, y, names, flags['hl-groups']);
  return clinicalStatistics(p, y, {
    level: flags.level,
    groups: flags['hl-groups'],
    span: flags['loess-span'],
    resamples: flags['skce-resamples'],
    seed: flags.seed,
  });
}

export { clinicalJson };

/** The table lines of the statistics. */
export function writeClinicalTable(stats: ClinicalStatistics, risk: string, io: CliIO): void {
  const f = (v: number, digits = 4): string => (Number.isFinite(v) ? v.toFixed(digits) : String(v));
  const r = stats.recalibration;
  const level = `${Math.round(r.level * 1000) / 10}%`;
  const hl = stats.hosmerLemeshow;
  io.stdout.write(
    [
      '',
      `clinical statistics of ${risk} (${stats.n.toLocaleString('en-US')} rows):`,
      `  calibration-in-the-large (mean y − mean p): ${f(stats.calibrationInTheLarge)} (mean p ${f(stats.meanPredicted)}, mean y ${f(stats.meanObserved)})`,
      `  calibration slope:     ${f(r.slope.estimate)}  ${level} Wald CI [${f(r.slope.lower)}, ${f(r.slope.upper)}]  (ideal 1)`,
      `  calibration intercept: ${f(r.intercept.estimate)}  ${level} Wald CI [${f(r.intercept.lower)}, ${f(r.intercept.upper)}]  (ideal 0; logit(p) as offset)` +
        (r.converged ? '' : '  — the logistic fit did not converge (separation?)'),
      `  Hosmer–Lemeshow: Ĉ = ${f(hl.statistic, 3)}, df = ${hl.degreesOfFreedom} (${hl.groups} groups − 2), p = ${hl.pValue.toPrecision(4)}`,
      `  lowess curve (span ${f(stats.loess.span, 3)}): ICI ${f(stats.loess.ici)}, E50 ${f(stats.loess.e50)}, E90 ${f(stats.loess.e90)}, Emax ${f(stats.loess.emax)}`,
      `  SKCE (unbiased): ${stats.skce.skce.toPrecision(4)}, p = ${Number.isNaN(stats.skce.pValue) ? 'not tested' : stats.skce.pValue.toPrecision(4)}` +
        ` (${stats.skce.resamples} Monte Carlo draws; kernel exp(−|p − p′| / ${stats.skce.bandwidth.toPrecision(4)}))`,
      '',
    ].join('\n'),
  );
}
