/**
 * Temperature fitted by the Brier score ("TS with MSE loss", Zhang, Kailkhura & Han 2020, "Mix-n-Match", ICML;
 * the first stage of their ensemble temperature scaling; METHODS.md § Post-hoc calibrators): T > 0 minimising
 *   B(β) = mean_i Σ_k (p_ik − q_ik)²,  p_i = softmax(β z_i), β = 1/T, q_i the one-hot label
 * (METHODS.md's Brier; the official code's `mse_t` averages over the N·C entries instead, i.e. B / C: same minimiser).
 * With t_ik = z_ik − max_k z_ik, t̄_i = Σ_k p_ik t_ik, d_ik = t_ik − t̄_i and V_i = Σ_k p_ik d_ik² (dp_k/dβ = p_k d_k,
 * dt̄/dβ = V):
 *   B_i = Σ_k p_ik² − 2 p_iy + 1,
 *   dB_i/dβ = 2 [Σ_k p_ik² d_ik − p_iy d_iy],
 *   d²B_i/dβ² = 2 [2 Σ_k p_ik² d_ik² − V_i Σ_k p_ik² − p_iy d_iy² + p_iy V_i],
 * one pass over the logits (exp arguments ≤ 0: logits of magnitude 1e3 are safe; d is formed after t̄, not by
 * expanding the squares).
 *
 * B is not convex in β, so the search is global then local, over u = log(T/s) in [log 1e−4, log 1e4] (the range
 * of temperature.ts; the official code bounds T to [0.05, 5] and starts L-BFGS-B at T = 1). s is temperature.ts's
 * scaled parametrisation (`logitScale`: 1 for ordinary logits, else the power of two nearest to the mean row
 * spread): the passes run on t/s and β·s, so logits of magnitude 1e4–1e30 (or 1e−3) fit as ordinary ones do and
 * T = s·T'. A row spread beyond float64's range (max − min = ∞) is refused naming that limit.
 * 1. B on 33 log-spaced temperatures (4 per decade), on a strided subsample of 4096 rows when N > 8192; the first
 *    smallest value is kept. If it is an end of the range, the minimum may lie outside it (all predictions correct:
 *    B falls as T → 0; uninformative predictions: B falls as T → ∞) and a `CalibrationFitError` is thrown.
 * 2. On all rows, from that grid point, grid points are visited downhill (the sign of dB/du) until dB/du changes
 *    sign (reaching an end of the range throws as above); in that cell the root of dB/du is found by Newton's
 *    method in u safeguarded by bisection (rtsafe), stopped after a Newton step below 1e−9 (error O(step²)) or a
 *    bracket below 1e−13: T to ~1e−15 relative in typically 4–6 passes.
 * Two minima within one grid cell (a factor 10^¼ in T) are not told apart.
 */
import { rowMax } from '../../metrics/numeric/softmax.js';
import type { FloatArray } from '../../util/matrix.js';
import { expNonPositive } from '../solvers/fast-exp.js';
import { CalibrationFitError } from '../fit-error.js';
import { logitScale, MAX_TEMPERATURE, MIN_TEMPERATURE } from './temperature.js';

/** Mean Brier score of softmax(β z) against `labels` and its first two derivatives in β. */
export interface BrierInBeta {
  readonly brier: number;
  readonly d1: number;
  readonly d2: number;
}

/** Grid points per decade of T in the global stage. */
const POINTS_PER_DECADE = 4;
/** Rows of the subsample used by the global stage when N > 2 × SUBSAMPLE. */
const SUBSAMPLE = 4096;

/**
 * Mean Brier score Σ_k (softmax(β z_i)_k − q_ik)² over the rows of `logits` (N × C row-major) and its first two
 * derivatives with respect to β (see the file comment), in one pass. With `scale` s the logits are taken as z/s
 * (β in units of 1/s).
 */
export function temperatureBrier(logits: FloatArray, rows: number, cols: number, labels: Int32Array, beta: number, scale = 1): BrierInBeta {
  const e = new Float64Array(cols);
  const invScale = 1 / scale;
  let f = 0;
  let d1 = 0;
  let d2 = 0;
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    const m = rowMax(logits, o, cols);
    let s0 = 0;
    let s1 = 0;
    for (let k = 0; k < cols; k++) {
      const t = (logits[o + k]! - m) * invScale;
      const v = expNonPositive(beta * t);
      e[k] = v;
      s0 += v;
      s1 += v * t;
    }
    const inv = 1 / s0;
    const tBar = s1 * inv;
    // Σ p², Σ p² d, Σ p² d², V = Σ p d².
    let p2 = 0;
    let p2d = 0;
    let p2dd = 0;
    let variance = 0;
    for (let k = 0; k < cols; k++) {
      const p = e[k]! * inv;
      const d = (logits[o + k]! - m) * invScale - tBar;
      const pd = p * d;
      p2 += p * p;
      p2d += p * pd;
      p2dd += pd * pd;
      variance += pd * d;
    }
    const y = labels[i]!;
    const py = e[y]! * inv;
    const dy = (logits[o + y]! - m) * invScale - tBar;
    f += p2 - 2 * py + 1;
    d1 += 2 * (p2d - py * dy);
    d2 += 2 * (2 * p2dd - variance * p2 - py * dy * dy + py * variance);
  }
  return { brier: f / rows, d1: d1 / rows, d2: d2 / rows };
}

/** T minimising the mean Brier score of softmax(z / T) (see the file comment). Logits N × C, labels N. */
export function brierTemperature(logits: FloatArray, rows: number, cols: number, labels: Int32Array, method = 'ensemble-temperature'): number {
  const spread = meanRowSpread(logits, rows, cols);
  if (spread === 0) {
    throw new CalibrationFitError(method, 'the Brier score does not depend on T (every row of logits is constant)');
  }
  if (!Number.isFinite(spread)) {
    throw new CalibrationFitError(method, `the logits' mean row spread (max − min) is ${spread}: it exceeds float64's range (about 1.8e308)`);
  }
  const s = logitScale(spread);
  const range = s === 1 ? '' : ` (the range 1e-4–1e4 × s for the logits' scale s = ${s})`;
  const toZero = () =>
    new CalibrationFitError(
      method,
      `the validation Brier score keeps decreasing as T → 0 (down to T = ${MIN_TEMPERATURE * s}${range}): the validation predictions are ` +
        '(nearly) all correct, so it has no minimum; use a larger validation split',
    );
  const toInfinity = () =>
    new CalibrationFitError(method, `the validation Brier score keeps decreasing as T → ∞ (up to T = ${MAX_TEMPERATURE * s}${range}): the predictions carry no information about the labels`);
  const uMin = Math.log(MIN_TEMPERATURE);
  const uMax = Math.log(MAX_TEMPERATURE);
  const points = Math.round(POINTS_PER_DECADE * Math.log10(MAX_TEMPERATURE / MIN_TEMPERATURE)) + 1;
  const grid = Array.from({ length: points }, (_, j) => (j === points - 1 ? uMax : uMin + ((uMax - uMin) * j) / (points - 1)));

  // 1. Global stage (on a subsample for large N).
  const sample = rows > 2 * SUBSAMPLE ? subsample(logits, rows, cols, labels) : { logits, rows, labels };
  let best = 0;
  let bestValue = Infinity;
  for (let j = 0; j < points; j++) {
    const v = temperatureBrier(sample.logits, sample.rows, cols, sample.labels, Math.exp(-grid[j]!), s).brier;
    if (v < bestValue) {
      bestValue = v;
      best = j;
    }
  }
  if (!Number.isFinite(bestValue)) throw new CalibrationFitError(method, 'the Brier score is not finite');
  if (best === 0) throw toZero();
  if (best === points - 1) throw toInfinity();

  // 2. Local stage on all rows, in u = log(T/s): dB/du = −β B_β, d²B/du² = β B_β + β² B_ββ (β in units of 1/s).
  const at = (u: number) => {
    const beta = Math.exp(-u);
    const r = temperatureBrier(logits, rows, cols, labels, beta, s);
    return { g: -beta * r.d1, h: beta * r.d1 + beta * beta * r.d2 };
  };
  let j = best;
  let here = at(grid[j]!);
  if (here.g === 0) return s * Math.exp(grid[j]!);
  const direction = here.g < 0 ? 1 : -1; // downhill
  for (;;) {
    const next = j + direction;
    if (next < 0) throw toZero();
    if (next >= points) throw toInfinity();
    const there = at(grid[next]!);
    if (there.g === 0) return s * Math.exp(grid[next]!);
    if (there.g < 0 !== here.g < 0) {
      const [l, r] = direction > 0 ? [grid[j]!, grid[next]!] : [grid[next]!, grid[j]!];
      return s * Math.exp(safeguardedNewton(at, l, r, method));
    }
    j = next;
    here = there;
  }
}

/** Mean over rows of max_k z_ik − min_k z_ik (0 when every row is constant; ∞ or NaN for non-finite logits). */
function meanRowSpread(logits: FloatArray, rows: number, cols: number): number {
  let sum = 0;
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    let lo = logits[o]!;
    let hi = lo;
    for (let k = 1; k < cols; k++) {
      const v = logits[o + k]!;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    sum += hi - lo;
  }
  return sum / rows;
}

/** SUBSAMPLE rows, evenly strided, in the input's array type (so the inner loop stays monomorphic). */
function subsample(logits: FloatArray, rows: number, cols: number, labels: Int32Array) {
  const out = logits instanceof Float32Array ? new Float32Array(SUBSAMPLE * cols) : new Float64Array(SUBSAMPLE * cols);
  const outLabels = new Int32Array(SUBSAMPLE);
  for (let j = 0; j < SUBSAMPLE; j++) {
    const i = Math.floor((j * rows) / SUBSAMPLE);
    out.set(logits.subarray(i * cols, (i + 1) * cols), j * cols);
    outLabels[j] = labels[i]!;
  }
  return { logits: out, rows: SUBSAMPLE, labels: outLabels };
}

/**
 * Root of g in [l, r] with g(l) < 0 < g(r) (a minimum of B): Newton steps on g (derivative h) while they stay in
 * the bracket and shrink by half, bisection otherwise (Numerical Recipes' rtsafe).
 */
function safeguardedNewton(at: (u: number) => { g: number; h: number }, l: number, r: number, method: string): number {
  let x = 0.5 * (l + r);
  let previousStep = r - l;
  for (let iteration = 0; iteration < 100; iteration++) {
    const { g, h } = at(x);
    if (g === 0) return x;
    if (g < 0) l = x;
    else r = x;
    const step = -g / h;
    const next = x + step;
    if (h > 0 && next > l && next < r && Math.abs(step) <= 0.5 * Math.abs(previousStep)) {
      if (Math.abs(step) <= 1e-9) return next;
      previousStep = step;
      x = next;
    } else {
      previousStep = 0.5 * (r - l);
      x = 0.5 * (l + r);
      if (r - l <= 1e-13) return x;
    }
  }
  throw new CalibrationFitError(method, 'the Brier-score minimisation over log T did not converge in 100 iterations');
}
