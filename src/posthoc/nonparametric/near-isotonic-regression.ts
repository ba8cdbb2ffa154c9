/**
 * The solution path of nearly-isotonic regression (Tibshirani, Hoefling & Tibshirani 2011, "Nearly-isotonic
 * regression", Technometrics 53(1), algorithm "modified PAVA"): for outcomes t_1..t_n ordered by their score,
 *   β̂(λ) = argmin_β ½ Σ_i (t_i − β_i)² + λ Σ_i (β_i − β_{i+1})₊,
 * piecewise linear in λ. Between knots the fitted values are constant on groups A_j and move with slope
 *   dβ_j/dλ = (1[β_{j−1} > β_j] − 1[β_j > β_{j+1}]) / |A_j|;
 * two neighbours collide at λ + (β_{j+1} − β_j) / (s_j − s_{j+1}) and are merged. The path starts (λ = 0) from
 * the runs of equal consecutive outcomes (netcal's `quick_init`, which gives the same λ = 0 solution as one group
 * per sample) and stops when no pair collides any more (the isotonic fit) or the next collision time is below
 * the current λ (netcal's rule). Ties among equal scores are ordered outcome 0 first (netcal keeps numpy's
 * unstable argsort order). A group covers the scores (l_j, u_j] with l_0 = 0 and u_last = 1; inner bounds are
 * midpoints between the last score of a group and the first of the next, as in netcal's
 * NearIsotonicRegression (EFS-OpenSource/calibration-framework). Where several neighbours collide at exactly
 * the same λ, all of them are merged into one group (netcal merges only pairs and drops the third group's range).
 */

/** The fit at one knot of the path: groups with upper bounds, values, sizes and the slopes dβ/dλ. */
export interface NearIsotonicKnot {
  readonly lambda: number;
  /** Upper bound u_j of each group (the last is 1). */
  readonly upper: Float64Array;
  readonly values: Float64Array;
  readonly sizes: Float64Array;
  readonly slopes: Float64Array;
}

function slopesOf(values: Float64Array, sizes: Float64Array): Float64Array {
  const g = values.length;
  const out = new Float64Array(g);
  for (let j = 0; j < g; j++) {
    const left = j > 0 && values[j - 1]! > values[j]! ? 1 : 0;
    const right = j < g - 1 && values[j]! > values[j + 1]! ? 1 : 0;
    out[j] = (left - right) / sizes[j]!;
  }
  return out;
}

/**
 * The knots of the modified-PAVA path for scores s (any order) and outcomes t ∈ {0, 1}: knot 0 is λ = 0
 * (groups = runs of equal outcomes), each next knot merges the neighbours that collide first. Length ≥ 1.
 */
export function nearIsotonicPath(scores: Float64Array, outcomes: Float64Array): NearIsotonicKnot[] {
  const n = scores.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[a]! - scores[b]! || outcomes[a]! - outcomes[b]! || a - b);
  const upper: number[] = [];
  const values: number[] = [];
  const sizes: number[] = [];
  for (let r = 0; r < n; r++) {
    const t = outcomes[order[r]!]!;
    if (r > 0 && t === values[values.length - 1]) {
      sizes[sizes.length - 1]!++;
      continue;
    }
    if (r > 0) upper[upper.length - 1] = (scores[order[r - 1]!]! + scores[order[r]!]!) / 2;
    upper.push(1);
    values.push(t);
    sizes.push(1);
  }
  let knot: NearIsotonicKnot = {
    lambda: 0,
    upper: Float64Array.from(upper),
    values: Float64Array.from(values),
    sizes: Float64Array.from(sizes),
    slopes: slopesOf(Float64Array.from(values), Float64Array.from(sizes)),
  };
  const path = [knot];
  for (;;) {
    const { lambda, slopes } = knot;
    const v = knot.values;
    const g = v.length;
    const times = new Float64Array(Math.max(0, g - 1));
    let next = Infinity;
    for (let j = 0; j + 1 < g; j++) {
      const ds = slopes[j]! - slopes[j + 1]!;
      times[j] = (ds !== 0 ? (v[j + 1]! - v[j]!) / ds : Infinity) + lambda;
      if (times[j]! < next) next = times[j]!;
    }
    if (next < lambda || next === Infinity) break;
    const moved = Float64Array.from(v, (x, j) => x + slopes[j]! * (next - lambda));
    const nu: number[] = [];
    const nv: number[] = [];
    const ns: number[] = [];
    for (let j = 0; j < g; j++) {
      if (j > 0 && times[j - 1] === next) {
        nu[nu.length - 1] = knot.upper[j]!;
        ns[ns.length - 1]! += knot.sizes[j]!;
        continue;
      }
      nu.push(knot.upper[j]!);
      nv.push(moved[j]!);
      ns.push(knot.sizes[j]!);
    }
    const nextValues = Float64Array.from(nv);
    const nextSizes = Float64Array.from(ns);
    knot = { lambda: next, upper: Float64Array.from(nu), values: nextValues, sizes: nextSizes, slopes: slopesOf(nextValues, nextSizes) };
    path.push(knot);
  }
  return path;
}

/**
 * β̂(λ) on the path: the last knot with λ_k ≤ λ moved along its slopes, β_j = β_kj + s_kj (λ − λ_k), clipped to
 * [0, 1]; beyond the last knot the last knot's values. Returns the groups' upper bounds and values.
 */
export function nearIsotonicAt(path: readonly NearIsotonicKnot[], lambda: number): { upper: Float64Array; values: Float64Array } {
  let k = 0;
  while (k + 1 < path.length && path[k + 1]!.lambda <= lambda) k++;
  const knot = path[k]!;
  const last = k === path.length - 1;
  const values = Float64Array.from(knot.values, (v, j) => Math.min(1, Math.max(0, last ? v : v + knot.slopes[j]! * (lambda - knot.lambda))));
  return { upper: Float64Array.from(knot.upper), values };
}
