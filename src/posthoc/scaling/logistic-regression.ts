/**
 * Binary logistic regression with soft targets, the core of Platt and beta calibration:
 *   minimise  mean_i [softplus(s_i) − t_i s_i] + Σ_j ρ_j θ_j² / 2,   s_i = Σ_j X_ij θ_j,
 * i.e. the mean cross-entropy −t log σ(s) − (1 − t) log(1 − σ(s)) with targets t_i ∈ [0, 1], plus an optional
 * per-coefficient L2 term. Gradient mean_i (σ(s_i) − t_i) X_i + ρ ⊙ θ; Hessian mean_i σ(1 − σ) X_i X_iᵀ + diag(ρ).
 * Solved by damped Newton (newton.ts). Features X are N × d row-major (include a column of ones for an
 * intercept). softplus and σ are evaluated stably for |s| in the thousands.
 * With sample weights w_i ≥ 0 the mean becomes Σ_i w_i […] / Σ_i w_i (gradient and Hessian rows times w_i), so
 * integer weights equal repeated rows and weights of all ones give the unweighted fit bit for bit.
 */
import { newtonMinimize } from '../solvers/newton.js';

/** log(1 + e^s), stable. */
export function softplus(s: number): number {
  return s > 0 ? s + Math.log1p(Math.exp(-s)) : Math.log1p(Math.exp(s));
}

/** 1 / (1 + e^−s), stable. */
export function sigmoid(s: number): number {
  if (s >= 0) return 1 / (1 + Math.exp(-s));
  const e = Math.exp(s);
  return e / (1 + e);
}

/** The objective above with its gradient and Hessian (exposed for gradient checks). */
export function logisticObjective(
  X: Float64Array,
  rows: number,
  d: number,
  targets: Float64Array,
  rho: Float64Array,
  theta: Float64Array,
  gradient: Float64Array,
  hessian: Float64Array,
  weights?: Float64Array,
): number {
  gradient.fill(0);
  hessian.fill(0);
  let f = 0;
  let total = 0;
  for (let i = 0; i < rows; i++) {
    const wi = weights === undefined ? 1 : weights[i]!;
    total += wi;
    if (wi === 0) continue;
    const o = i * d;
    let s = 0;
    for (let j = 0; j < d; j++) s += X[o + j]! * theta[j]!;
    const t = targets[i]!;
    f += weights === undefined ? softplus(s) - t * s : wi * (softplus(s) - t * s);
    const q = sigmoid(s);
    const r = wi * (q - t);
    const w = wi * q * (1 - q);
    for (let j = 0; j < d; j++) {
      const xj = X[o + j]!;
      gradient[j] = gradient[j]! + r * xj;
      for (let k = 0; k <= j; k++) hessian[j * d + k] = hessian[j * d + k]! + w * xj * X[o + k]!;
    }
  }
  const inv = 1 / (weights === undefined ? rows : total);
  f *= inv;
  for (let j = 0; j < d; j++) {
    gradient[j] = gradient[j]! * inv + rho[j]! * theta[j]!;
    f += 0.5 * rho[j]! * theta[j]! * theta[j]!;
    for (let k = 0; k <= j; k++) {
      const v = hessian[j * d + k]! * inv + (j === k ? rho[j]! : 0);
      hessian[j * d + k] = v;
      hessian[k * d + j] = v;
    }
  }
  return f;
}

/** Fit θ (length d) from `theta0`; returns the Newton result (check `converged`). */
export function fitLogistic(X: Float64Array, rows: number, d: number, targets: Float64Array, rho: Float64Array, theta0: Float64Array, weights?: Float64Array) {
  return newtonMinimize((theta, gradient, hessian) => logisticObjective(X, rows, d, targets, rho, theta, gradient, hessian, weights), theta0, { maxIterations: 200, gradientTolerance: 1e-12 });
}
