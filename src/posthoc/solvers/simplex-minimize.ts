/**
 * Exact minimisation of a smooth convex function over the probability simplex Δ = {w ∈ ℝ^d : w ≥ 0, Σ w = 1}
 * for small d (the weights of ensemble temperature scaling, d = 3), by enumerating its faces.
 *
 * The minimum of a convex f over Δ lies in the relative interior of some face F (the vertices where w > 0), and
 * there it is a minimiser of f over the affine hull of F. So the faces are visited from the sparsest (vertices,
 * then edges, …, the interior: 2^d − 1 faces); on each, f is minimised over the affine hull,
 * w = e_{s0} + Σ_a θ_a (e_{sa} − e_{s0}), by the damped Newton method of newton.ts (gradient and Hessian projected
 * on the face), and the point is a candidate when Newton converged and every weight of the face is > 0. The first
 * candidate that satisfies the KKT conditions of the simplex is returned: with λ the mean of ∂f/∂w_j over the
 * face, |∂f/∂w_j − λ| ≤ τ on the face and ∂f/∂w_j ≥ λ − τ off it, τ = 1e−12 · max(1, max_j |∂f/∂w_j|). For a convex f
 * a KKT point is a minimiser, and visiting sparse faces first makes ties at rounding level resolve to exact zeros
 * (a weight the optimum does not need is 0, not 3e−16). If no candidate passes (badly conditioned f), the
 * candidate with the smallest f is returned. f may return +∞ where it is undefined (e.g. a log of a non-positive
 * mixture); a face whose centre has infinite f is skipped. The result is the constrained optimum to the precision of
 * Newton's method (~1e−12 in w for well-conditioned problems), where SLSQP (the official ensemble-temperature
 * code) stops ~1e−6 away and leaves small non-zero weights.
 */
import { newtonMinimize } from './newton.js';

/** f(w) for w ∈ ℝ^d; writes ∇f into `gradient` (d) and ∇²f into `hessian` (d × d row-major). May return +∞. */
export type SimplexObjective = (w: Float64Array, gradient: Float64Array, hessian: Float64Array) => number;

export interface SimplexMinimum {
  /** The minimiser (d weights ≥ 0 summing to 1 up to rounding; weights outside the optimal face are exactly 0). */
  readonly weights: Float64Array;
  /** f at the minimiser. */
  readonly value: number;
}

/** Minimise a convex `objective` over the (d − 1)-simplex, 1 ≤ d ≤ 8 (see the file comment). */
export function minimizeOnSimplex(objective: SimplexObjective, d: number): SimplexMinimum {
  if (!Number.isInteger(d) || d < 1 || d > 8) throw new RangeError(`minimizeOnSimplex: dimension ${d} is not in 1 … 8`);
  const faces: number[][] = [];
  for (let mask = 1; mask < 1 << d; mask++) {
    faces.push(Array.from({ length: d }, (_, j) => j).filter((j) => (mask >> j) & 1));
  }
  faces.sort((a, b) => a.length - b.length); // stable: vertices, then edges, …
  const gw = new Float64Array(d);
  const hw = new Float64Array(d * d);
  let best: SimplexMinimum = { weights: new Float64Array(d), value: Infinity };
  for (const face of faces) {
    const candidate = faceMinimizer(objective, d, face, gw, hw);
    if (!candidate) continue;
    const value = objective(candidate, gw, hw);
    if (!(value < Infinity)) continue;
    if (satisfiesKkt(face, gw)) return { weights: candidate, value };
    if (value < best.value) best = { weights: candidate, value };
  }
  return best;
}

/** The minimiser of f over the affine hull of `face` if Newton converges to a point with every face weight > 0. */
function faceMinimizer(objective: SimplexObjective, d: number, face: readonly number[], gw: Float64Array, hw: Float64Array): Float64Array | null {
  const m = face.length - 1; // free parameters θ_1 … θ_m
  const s0 = face[0]!;
  const weightsOf = (theta: Float64Array, w: Float64Array) => {
    w.fill(0);
    let rest = 1;
    for (let a = 0; a < m; a++) {
      w[face[a + 1]!] = theta[a]!;
      rest -= theta[a]!;
    }
    w[s0] = rest;
    return w;
  };
  const w = new Float64Array(d);
  if (m === 0) {
    w[s0] = 1;
    return w;
  }
  const start = new Float64Array(m).fill(1 / face.length);
  if (!(objective(weightsOf(start, w), gw, hw) < Infinity)) return null;
  const result = newtonMinimize(
    (theta, g, h) => {
      const value = objective(weightsOf(theta, w), gw, hw);
      // Chain rule through w = e_{s0} + Σ_a θ_a (e_{sa} − e_{s0}).
      for (let a = 0; a < m; a++) {
        const sa = face[a + 1]!;
        g[a] = gw[sa]! - gw[s0]!;
        for (let b = 0; b < m; b++) {
          const sb = face[b + 1]!;
          h[a * m + b] = hw[sa * d + sb]! - hw[sa * d + s0]! - hw[s0 * d + sb]! + hw[s0 * d + s0]!;
        }
      }
      return Number.isNaN(value) ? Infinity : value;
    },
    start,
    { maxIterations: 100, gradientTolerance: 1e-13 },
  );
  if (!result.converged) return null;
  const candidate = weightsOf(result.x, new Float64Array(d));
  return face.every((j) => candidate[j]! > 0) ? candidate : null;
}

/** KKT conditions of min f on the simplex at a point supported on `face`, from its gradient (see the file comment). */
function satisfiesKkt(face: readonly number[], gradient: Float64Array): boolean {
  let scale = 1;
  for (const v of gradient) scale = Math.max(scale, Math.abs(v));
  const tolerance = 1e-12 * scale;
  let lambda = 0;
  for (const j of face) lambda += gradient[j]!;
  lambda /= face.length;
  for (let j = 0; j < gradient.length; j++) {
    const onFace = face.includes(j);
    if (onFace ? !(Math.abs(gradient[j]! - lambda) <= tolerance) : !(gradient[j]! >= lambda - tolerance)) return false;
  }
  return true;
}
