/**
 * Limited-memory BFGS minimiser for smooth unconstrained problems (Nocedal & Wright, "Numerical Optimization",
 * 2nd ed.: two-loop recursion, Algorithm 7.4; line search satisfying the strong Wolfe conditions with
 * c1 = 1e−4, c2 = 0.9, Algorithms 3.5–3.6 with safeguarded cubic interpolation).
 *
 * Deterministic: no randomness, fixed iteration caps; the same objective and start give bit-identical results.
 * The initial inverse-Hessian scaling is γ = sᵀy / yᵀy of the latest pair; the first step has length
 * min(1, 1/‖g‖∞) along −g. Pairs with sᵀy ≤ 1e−12 · ‖s‖‖y‖ are skipped, keeping the approximation positive
 * definite. A non-finite objective value at a trial point counts as +∞ (the step is shortened).
 */
import { optimizerFraction } from '../fit-progress.js';

/**
 * Default gradient tolerance of the calibrator fits on mean losses: scikit-learn's `tol` of
 * `LogisticRegression(solver='lbfgs')` (1e−4 on ‖∇f‖ of the mean loss, with a relative reduction test of 64·ε).
 * The NLL of matrix/Dirichlet scaling on well-trained models is flat and nearly separable: a 1e−8 gradient is
 * reached after thousands of iterations, if ever, while the objective at 1e−4 is within ~1e−3 relative of it.
 */
export const CALIBRATION_GRADIENT_TOLERANCE = 1e-4;
export const CALIBRATION_RELATIVE_TOLERANCE = 64 * Number.EPSILON;

/** Objective: returns f(x) and writes ∇f(x) into `gradient` (same length as x). */
export type Objective = (x: Float64Array, gradient: Float64Array) => number;

export interface LbfgsOptions {
  /** Maximum number of iterations (default 1000). */
  readonly maxIterations?: number;
  /** Number of correction pairs kept (default 10). */
  readonly memory?: number;
  /** Converged when ‖∇f‖∞ ≤ this (default 1e−9). */
  readonly gradientTolerance?: number;
  /** Converged when f_prev − f ≤ this · max(|f_prev|, |f|, 1) (default 1e−13). */
  readonly relativeTolerance?: number;
  /** Maximum objective evaluations per line search (default 40). */
  readonly maxLineSearchEvaluations?: number;
  /** Called after each iteration with an estimate of the fraction done (fit-progress.ts `optimizerFraction`). */
  readonly onProgress?: (fraction: number) => void;
}

export type LbfgsStopReason = 'gradient' | 'relative-reduction' | 'max-iterations' | 'line-search-failed';

export interface LbfgsResult {
  /** The final point (the best point found). */
  readonly x: Float64Array;
  /** f(x). */
  readonly f: number;
  /** ∇f(x). */
  readonly gradient: Float64Array;
  /** ‖∇f(x)‖∞. */
  readonly gradientNorm: number;
  readonly iterations: number;
  readonly evaluations: number;
  /** True when stopped by the gradient or relative-reduction test. */
  readonly converged: boolean;
  readonly reason: LbfgsStopReason;
}

/** Minimise `objective` from `x0` (not modified). */
export function lbfgs(objective: Objective, x0: Float64Array, options: LbfgsOptions = {}): LbfgsResult {
  const n = x0.length;
  const maxIterations = options.maxIterations ?? 1000;
  const memory = options.memory ?? 10;
  const gtol = options.gradientTolerance ?? 1e-9;
  const ftol = options.relativeTolerance ?? 1e-13;
  const maxLs = options.maxLineSearchEvaluations ?? 40;

  const x = Float64Array.from(x0);
  const g = new Float64Array(n);
  let evaluations = 1;
  let f = objective(x, g);
  if (!Number.isFinite(f)) throw new RangeError(`lbfgs: the objective is not finite at the starting point (${f})`);

  const S: Float64Array[] = [];
  const Y: Float64Array[] = [];
  const rho: number[] = [];
  const alpha = new Float64Array(memory);
  const d = new Float64Array(n);
  const xt = new Float64Array(n);
  const gt = new Float64Array(n);

  let gnorm = normInf(g);
  if (gnorm <= gtol) return done('gradient', 0);
  const startNorm = gnorm;
  const onProgress = options.onProgress;

  let iteration = 0;
  let steepestRetry = false;
  while (iteration < maxIterations) {
    // Search direction d = −H g by the two-loop recursion (or −g with no pairs / after a failed search).
    for (let i = 0; i < n; i++) d[i] = -g[i]!;
    const m = steepestRetry ? 0 : S.length;
    for (let j = m - 1; j >= 0; j--) {
      const a = rho[j]! * dot(S[j]!, d);
      alpha[j] = a;
      axpy(-a, Y[j]!, d);
    }
    if (m > 0) {
      const s = S[m - 1]!;
      const y = Y[m - 1]!;
      scale(d, dot(s, y) / dot(y, y));
    }
    for (let j = 0; j < m; j++) {
      const b = rho[j]! * dot(Y[j]!, d);
      axpy(alpha[j]! - b, S[j]!, d);
    }
    let dphi0 = dot(g, d);
    if (!(dphi0 < 0)) {
      // Not a descent direction (numerical trouble): fall back to steepest descent.
      for (let i = 0; i < n; i++) d[i] = -g[i]!;
      dphi0 = dot(g, d);
      S.length = 0;
      Y.length = 0;
      rho.length = 0;
    }
    const firstStep = S.length === 0 ? Math.min(1, 1 / normInf(g)) : 1;

    const ls = lineSearch(firstStep, f, dphi0);
    evaluations += ls.evaluations;
    if (!ls.ok) {
      if (!steepestRetry && S.length > 0) {
        steepestRetry = true;
        S.length = 0;
        Y.length = 0;
        rho.length = 0;
        continue;
      }
      return done('line-search-failed', iteration);
    }
    steepestRetry = false;
    iteration++;
    // Accept: s = xt − x, y = gt − g.
    const s = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      s[i] = xt[i]! - x[i]!;
      y[i] = gt[i]! - g[i]!;
    }
    const fPrev = f;
    x.set(xt);
    g.set(gt);
    f = ls.f;
    gnorm = normInf(g);
    const sy = dot(s, y);
    if (sy > 1e-12 * Math.sqrt(dot(s, s) * dot(y, y))) {
      if (S.length === memory) {
        S.shift();
        Y.shift();
        rho.shift();
      }
      S.push(s);
      Y.push(y);
      rho.push(1 / sy);
    }
    onProgress?.(optimizerFraction(iteration, maxIterations, gnorm, startNorm, gtol));
    if (gnorm <= gtol) return done('gradient', iteration);
    if (fPrev - f <= ftol * Math.max(Math.abs(fPrev), Math.abs(f), 1)) return done('relative-reduction', iteration);
  }
  return done('max-iterations', iteration);

  function done(reason: LbfgsStopReason, iterations: number): LbfgsResult {
    return {
      x,
      f,
      gradient: g,
      gradientNorm: gnorm,
      iterations,
      evaluations,
      converged: reason === 'gradient' || reason === 'relative-reduction',
      reason,
    };
  }

  /** φ(a) = f(x + a d) into xt/gt; returns [φ, φ'] (φ = +∞ when not finite). */
  function phi(a: number): [number, number] {
    for (let i = 0; i < n; i++) xt[i] = x[i]! + a * d[i]!;
    const v = objective(xt, gt);
    if (!Number.isFinite(v)) return [Infinity, NaN];
    return [v, dot(gt, d)];
  }

  /**
   * Strong-Wolfe line search. On success xt/gt hold the accepted point. If the zoom phase runs out of
   * evaluations, the best point with sufficient decrease (if any) is re-evaluated and accepted.
   */
  function lineSearch(a1: number, f0: number, dphi0: number): { ok: boolean; f: number; evaluations: number } {
    const c1 = 1e-4;
    const c2 = 0.9;
    let evals = 0;
    let aPrev = 0;
    let fPrev = f0;
    let dPrev = dphi0;
    let a = a1;
    for (;;) {
      const [fa, da] = phi(a);
      evals++;
      if (fa > f0 + c1 * a * dphi0 || (evals > 1 && fa >= fPrev)) return zoom(aPrev, fPrev, dPrev, a, fa, da, evals);
      if (Math.abs(da) <= -c2 * dphi0) return { ok: true, f: fa, evaluations: evals };
      if (da >= 0) return zoom(a, fa, da, aPrev, fPrev, dPrev, evals);
      if (evals >= maxLs) return { ok: true, f: fa, evaluations: evals }; // sufficient decrease holds here
      aPrev = a;
      fPrev = fa;
      dPrev = da;
      a *= 4;
    }

    function zoom(lo: number, flo: number, dlo: number, hi: number, fhi: number, dhi: number, used: number): { ok: boolean; f: number; evaluations: number } {
      let e = used;
      while (e < maxLs) {
        const a = interpolate(lo, flo, dlo, hi, fhi, dhi);
        if (a === lo || a === hi) break; // interval collapsed to rounding
        const [fa, da] = phi(a);
        e++;
        if (fa > f0 + c1 * a * dphi0 || fa >= flo) {
          hi = a;
          fhi = fa;
          dhi = da;
        } else {
          if (Math.abs(da) <= -c2 * dphi0) return { ok: true, f: fa, evaluations: e };
          if (da * (hi - lo) >= 0) {
            hi = lo;
            fhi = flo;
            dhi = dlo;
          }
          lo = a;
          flo = fa;
          dlo = da;
        }
      }
      if (lo > 0 && flo < f0) {
        const [fa] = phi(lo);
        return { ok: true, f: fa, evaluations: e + 1 };
      }
      return { ok: false, f: f0, evaluations: e };
    }
  }
}

/**
 * Minimiser of the cubic interpolating (a, fa, da) and (b, fb, db) (Nocedal & Wright eq. 3.59), kept at least
 * 10% of the interval away from either end; bisection when the cubic is unusable.
 */
function interpolate(a: number, fa: number, da: number, b: number, fb: number, db: number): number {
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  const w = hi - lo;
  let t = NaN;
  if (Number.isFinite(fb) && Number.isFinite(db)) {
    const d1 = da + db - (3 * (fa - fb)) / (a - b);
    const disc = d1 * d1 - da * db;
    if (disc >= 0) {
      const d2 = Math.sign(b - a) * Math.sqrt(disc);
      t = b - (b - a) * ((db + d2 - d1) / (db - da + 2 * d2));
    }
  }
  if (!Number.isFinite(t) || t < lo + 0.1 * w || t > hi - 0.1 * w) t = lo + 0.5 * w;
  return t;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function axpy(a: number, x: Float64Array, y: Float64Array): void {
  for (let i = 0; i < x.length; i++) y[i] = y[i]! + a * x[i]!;
}

function scale(x: Float64Array, a: number): void {
  for (let i = 0; i < x.length; i++) x[i] = x[i]! * a;
}

function normInf(x: Float64Array): number {
  let m = 0;
  for (let i = 0; i < x.length; i++) {
    const v = Math.abs(x[i]!);
    if (v > m || Number.isNaN(v)) m = v;
  }
  return m;
}
