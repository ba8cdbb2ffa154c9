/**
 * Multi-label calibration: N samples × L labels, each label an independent binary forecast p_il = σ(z_il) (or a
 * given probability) with outcome y_il ∈ {0, 1}. Per label l, the binary metrics of the column (p_·l, y_·l):
 * - ece: torchmetrics' binary calibration error (binary-calibration-error.ts: [l, u) bins over p itself, M bins);
 * - smooth_ece: smECE(p, y) of Błasiok & Nakkiran (smooth-ece.ts, bandwidth chosen per label);
 * - brier: (1/N) Σ_i (p_il − y_il)² (scikit-learn's brier_score_loss);
 * - nll: (1/N) Σ_i −[y log p + (1 − y) log(1 − p)] (scikit-learn's log_loss without its clipping): from logits the
 *   exact softplus(z) − y z; from probabilities −log max(p_y, 5e−324), p_y the probability of the outcome.
 * Summaries: macro = the plain mean over labels; support-weighted = Σ_l s_l m_l / Σ_l s_l with the support s_l =
 * Σ_i y_il (scikit-learn's average='weighted'; labels without positives get weight 0); micro = the metric of all
 * N·L (p, y) pairs pooled (scikit-learn's average='micro').
 */
import { invalidArgument } from '../util/errors.js';
import type { Matrix } from '../util/matrix.js';
import { binaryCalibrationError } from './binned/binary-calibration-error.js';
import { smoothEce } from './smooth/smooth-ece.js';

export const MULTILABEL_METRICS = ['ece', 'smooth_ece', 'brier', 'nll'] as const;
export type MultilabelMetric = (typeof MULTILABEL_METRICS)[number];
export type MultilabelValues = Record<MultilabelMetric, number>;

export interface MultilabelResult {
  readonly n: number;
  /** Per label: its support (number of positives) and metrics. */
  readonly labels: readonly (MultilabelValues & { readonly label: number; readonly support: number })[];
  readonly macro: MultilabelValues;
  readonly micro: MultilabelValues;
  readonly weighted: MultilabelValues;
  readonly bins: number;
}

/** Positive-class probability σ(z) of a logit, stable for any z. */
export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/** softplus(z) = log(1 + e^z), stable. */
function softplus(z: number): number {
  return Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z)));
}

/** Check an N × L 0/1 label matrix against N × L predictions (errors name `argName` and the position). */
export function requireMultilabelTargets(labels: Matrix, rows: number, cols: number, argName = 'labels'): Uint8Array {
  if (labels.rows !== rows || labels.cols !== cols) invalidArgument(argName, `an N × L matrix of 0/1 of the predictions' shape ${rows} × ${cols}`, `${labels.rows} × ${labels.cols}`);
  const out = new Uint8Array(rows * cols);
  for (let i = 0; i < out.length; i++) {
    const v = labels.data[i]!;
    if (v !== 0 && v !== 1) invalidArgument(argName, '0/1 labels', `${v} at row ${Math.floor(i / cols)}, label ${i % cols}`);
    out[i] = v;
  }
  return out;
}

/** Binary metrics of (p, y) with per-pair NLL terms. */
function binaryMetrics(p: Float64Array, y: Uint8Array, nllTerms: Float64Array, bins: number): MultilabelValues {
  let brier = 0;
  let nll = 0;
  for (let i = 0; i < p.length; i++) {
    brier += (p[i]! - y[i]!) ** 2;
    nll += nllTerms[i]!;
  }
  return { ece: binaryCalibrationError(p, y, bins), smooth_ece: smoothEce(p, y).value, brier: brier / p.length, nll: nll / p.length };
}

/** Per-label, macro, micro and support-weighted binary metrics of N × L predictions. */
export function multilabelMetrics(predictions: Matrix, kind: 'logits' | 'probabilities', targets: Uint8Array, options: { bins?: number } = {}): MultilabelResult {
  const bins = options.bins ?? 15;
  const { rows: n, cols: L, data } = predictions;
  if (n < 1 || L < 1) invalidArgument('predictions', 'at least one row and one label', `${n} × ${L}`);
  if (targets.length !== n * L) invalidArgument('labels', `${n * L} values`, `${targets.length}`);
  const allP = new Float64Array(n * L);
  const allNll = new Float64Array(n * L);
  for (let i = 0; i < n * L; i++) {
    const v = data[i]!;
    if (!Number.isFinite(v)) invalidArgument(kind === 'logits' ? 'logits' : 'probabilities', 'finite values', `${v} at row ${Math.floor(i / L)}, label ${i % L}`);
    if (kind === 'probabilities' && !(v >= 0 && v <= 1)) invalidArgument('probabilities', 'probabilities in [0, 1]', `${v} at row ${Math.floor(i / L)}, label ${i % L}`);
    const y = targets[i]!;
    if (kind === 'logits') {
      allP[i] = sigmoid(v);
      allNll[i] = softplus(v) - y * v;
    } else {
      allP[i] = v;
      allNll[i] = -Math.log(Math.max(y === 1 ? v : 1 - v, 5e-324));
    }
  }
  // Column-major copies: label l's pairs are [l·N, (l + 1)·N).
  const p = new Float64Array(n * L);
  const y = new Uint8Array(n * L);
  const t = new Float64Array(n * L);
  for (let i = 0; i < n; i++)
    for (let l = 0; l < L; l++) {
      p[l * n + i] = allP[i * L + l]!;
      y[l * n + i] = targets[i * L + l]!;
      t[l * n + i] = allNll[i * L + l]!;
    }
  const labels = Array.from({ length: L }, (_, l) => {
    const range = [l * n, (l + 1) * n] as const;
    const yl = y.subarray(...range);
    let support = 0;
    for (let i = 0; i < n; i++) support += yl[i]!;
    return { label: l, support, ...binaryMetrics(p.subarray(...range), yl, t.subarray(...range), bins) };
  });
  const summary = (weight: (l: (typeof labels)[number]) => number): MultilabelValues => {
    const total = labels.reduce((s, l) => s + weight(l), 0);
    return Object.fromEntries(MULTILABEL_METRICS.map((m) => [m, total > 0 ? labels.reduce((s, l) => s + weight(l) * l[m], 0) / total : NaN])) as MultilabelValues;
  };
  return { n, labels, macro: summary(() => 1), weighted: summary((l) => l.support), micro: binaryMetrics(p, y, t, bins), bins };
}
