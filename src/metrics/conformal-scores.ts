import { invalidArgument } from '../util/errors.js';

/**
 * Non-conformity scores s(x, k) of split-conformal classification, from the probability row p ∈ Δ^C of x,
 * computed for every class k at once (shape [C]); the prediction set is {k : s(x, k) ≤ q̂}.
 * - `lac` (least ambiguous set-valued classifier, Sadinle, Lei & Wasserman 2019; "THR" in TorchUncertainty,
 *   "lac" in MAPIE): s = 1 − p_k.
 * - `aps` (adaptive prediction sets, Romano, Sesia & Candès 2020), non-randomised: with the classes ranked by
 *   decreasing p (ties by class index), s(x, k) = Σ_{j ranked at or above k} p_j — the mass down to and
 *   including k (MAPIE's `include_last_label=True` form).
 * - `raps` (regularised APS, Angelopoulos, Bates, Malik & Jordan 2021): s = aps + λ · max(0, o(k) − k_reg),
 *   o(k) the 1-based rank of k. Defaults λ = 0.01, k_reg = 5 (the paper's ImageNet setting).
 * The randomised variants (subtracting u · p_k, u ~ U(0, 1)) are not offered.
 */
export const CONFORMAL_METHODS = ['lac', 'aps', 'raps'] as const;
export type ConformalMethod = (typeof CONFORMAL_METHODS)[number];

export interface ConformalScoreOptions {
  readonly method: ConformalMethod;
  /** RAPS penalty λ ≥ 0. */
  readonly lambda?: number;
  /** RAPS rank k_reg ≥ 0 below which no penalty applies. */
  readonly kReg?: number;
}

export function requireConformalMethod(value: unknown, argument = 'method'): ConformalMethod {
  if (!(CONFORMAL_METHODS as readonly unknown[]).includes(value)) invalidArgument(argument, `one of ${CONFORMAL_METHODS.join(', ')}`, String(value));
  return value as ConformalMethod;
}

/**
 * Scores of every class of one row: `p` the row (length C), written into `out` (length C). `order` is scratch
 * of length C.
 */
export function classScores(p: ArrayLike<number>, offset: number, cols: number, options: ConformalScoreOptions, out: Float64Array, order: Uint32Array): void {
  if (options.method === 'lac') {
    for (let k = 0; k < cols; k++) out[k] = 1 - p[offset + k]!;
    return;
  }
  for (let k = 0; k < cols; k++) order[k] = k;
  order.sort((a, b) => p[offset + b]! - p[offset + a]! || a - b);
  const lambda = options.method === 'raps' ? (options.lambda ?? 0.01) : 0;
  const kReg = options.kReg ?? 5;
  let mass = 0;
  for (let r = 0; r < cols; r++) {
    const k = order[r]!;
    mass += p[offset + k]!;
    out[k] = mass + lambda * Math.max(0, r + 1 - kReg);
  }
}
