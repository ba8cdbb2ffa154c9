/**
 * Damped Newton minimiser for small, smooth, convex problems (a handful of parameters: Platt and beta
 * calibration). Each iteration solves (H + λI) d = −g by Cholesky, with λ = 0 unless H is not numerically
 * positive definite (then λ grows from 1e−12·max(1, max_i H_ii) by ×10), and backtracks (halving, Armijo
 * constant 1e−4, with an allowance of 8 ulps of f for rounding) until f decreases. Stops when ‖g‖∞ ≤ gradientTolerance (converged), when no decrease is
 * possible and the Newton decrement −gᵀd is at rounding level (converged), or at the iteration cap.
 * Deterministic.
 */

/** Returns f(θ) and writes ∇f into `gradient` (length d) and ∇²f into `hessian` (d × d row-major). */
export type NewtonObjective = (theta: Float64Array, gradient: Float64Array, hessian: Float64Array) => number;

export interface NewtonResult {
  readonly x: Float64Array;
  readonly f: number;
  readonly gradientNorm: number;
  readonly iterations: number;
  readonly converged: boolean;
}

export function newtonMinimize(objective: NewtonObjective, theta0: Float64Array, options: { maxIterations?: number; gradientTolerance?: number } = {}): NewtonResult {
  const d = theta0.length;
  const maxIterations = options.maxIterations ?? 100;
  const gtol = options.gradientTolerance ?? 1e-10;
  const x = Float64Array.from(theta0);
  const g = new Float64Array(d);
  const H = new Float64Array(d * d);
  const gt = new Float64Array(d);
  const Ht = new Float64Array(d * d);
  const step = new Float64Array(d);
  const xt = new Float64Array(d);
  let f = objective(x, g, H);
  if (!Number.isFinite(f)) throw new RangeError(`newton: the objective is not finite at the starting point (${f})`);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    const gnorm = normInf(g);
    if (gnorm <= gtol) return { x, f, gradientNorm: gnorm, iterations: iteration, converged: true };
    solveDamped(H, g, d, step);
    let slope = 0;
    for (let i = 0; i < d; i++) slope += g[i]! * step[i]!;
    let alpha = 1;
    let accepted = false;
    const noise = 8 * Number.EPSILON * Math.max(1, Math.abs(f));
    for (let k = 0; k < 60; k++) {
      for (let i = 0; i < d; i++) xt[i] = x[i]! + alpha * step[i]!;
      const ft = objective(xt, gt, Ht);
      // Armijo test with an allowance for rounding in f: at the optimum, f(x + d) can exceed f(x) by a few ulps
      // although the step shrinks the gradient by orders of magnitude.
      if (Number.isFinite(ft) && ft <= f + 1e-4 * alpha * slope + noise) {
        x.set(xt);
        g.set(gt);
        H.set(Ht);
        f = ft;
        accepted = true;
        break;
      }
      alpha *= 0.5;
    }
    if (!accepted) {
      const converged = -slope <= 1e-14 * Math.max(1, Math.abs(f));
      return { x, f, gradientNorm: gnorm, iterations: iteration, converged };
    }
  }
  const gnorm = normInf(g);
  return { x, f, gradientNorm: gnorm, iterations: maxIterations, converged: gnorm <= gtol };
}

/** step = −(H + λI)⁻¹ g with the smallest λ in {0, 1e−12·s, 1e−11·s, …} for which Cholesky succeeds. */
function solveDamped(H: Float64Array, g: Float64Array, d: number, step: Float64Array): void {
  let scale = 1;
  for (let i = 0; i < d; i++) scale = Math.max(scale, Math.abs(H[i * d + i]!));
  const L = new Float64Array(d * d);
  for (let lambda = 0; ; lambda = lambda === 0 ? 1e-12 * scale : lambda * 10) {
    if (cholesky(H, d, lambda, L)) {
      // Solve L Lᵀ s = −g.
      for (let i = 0; i < d; i++) {
        let v = -g[i]!;
        for (let k = 0; k < i; k++) v -= L[i * d + k]! * step[k]!;
        step[i] = v / L[i * d + i]!;
      }
      for (let i = d - 1; i >= 0; i--) {
        let v = step[i]!;
        for (let k = i + 1; k < d; k++) v -= L[k * d + i]! * step[k]!;
        step[i] = v / L[i * d + i]!;
      }
      return;
    }
    if (lambda > 1e12 * scale) {
      for (let i = 0; i < d; i++) step[i] = -g[i]! / scale;
      return;
    }
  }
}

/** Cholesky factor L of H + λI (lower triangular, row-major); false if not positive definite. */
function cholesky(H: Float64Array, d: number, lambda: number, L: Float64Array): boolean {
  L.fill(0);
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let s = H[i * d + j]! + (i === j ? lambda : 0);
      for (let k = 0; k < j; k++) s -= L[i * d + k]! * L[j * d + k]!;
      if (i === j) {
        if (!(s > 0)) return false;
        L[i * d + i] = Math.sqrt(s);
      } else {
        L[i * d + j] = s / L[j * d + j]!;
      }
    }
  }
  return true;
}

function normInf(x: Float64Array): number {
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]!));
  return m;
}
