import { quantile } from '../bootstrap.js';
import { unitMesh } from './reflected-gaussian-smoother.js';
import { SmoothEceEvaluator } from './smooth-ece.js';
import { requireTopLabel } from '../validation.js';
import { requireNumber } from '../../util/errors.js';
import type { FloatArray } from '../../util/matrix.js';
import { Random } from '../../util/random.js';

/**
 * The smoothed reliability diagram of Błasiok & Nakkiran 2023 (relplot `prepare_rel_diagram`): on a mesh of
 * T points t ∈ [0, 1], the kernel regression μ(t) = Σ K_σ(t, f_i) y_i / (Σ K_σ(t, f_i) + 1e−4) with the
 * reflected Gaussian kernel at the smECE bandwidth σ*, the kernel density δ(t) = Σ K_σ(t, f_i)/N, and a
 * percentile-bootstrap band: μ refitted on B resamples (with replacement, seeded), band = the (1 ± level)/2
 * quantiles per mesh point. relplot draws μ as the mean of the bootstrap fits; here μ is the fit on all
 * samples (deterministic without resampling). Cost: (B + 1) · O(N + G·σG).
 */
export interface SmoothedReliability {
  readonly mesh: Float64Array;
  readonly mu: Float64Array;
  readonly density: Float64Array;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  readonly bandwidth: number;
  readonly smoothEce: number;
  readonly resamples: number;
  readonly level: number;
}

export interface SmoothedReliabilityOptions {
  /** Mesh points T (default 200, relplot's `plot_mesh_pts`). */
  readonly points?: number;
  /** Bootstrap resamples B of the band (default 200, relplot's `num_bootstrap`; 0: no band). */
  readonly resamples?: number;
  readonly level?: number;
  readonly seed?: number;
  /** Bandwidth σ (default: the smECE fixed point). */
  readonly bandwidth?: number;
}

function regression(evaluator: SmoothEceEvaluator, sigma: number, mesh: Float64Array): { mu: Float64Array; count: Float64Array } {
  const { numerator, density } = evaluator.smoothed(sigma, mesh, 'outcome');
  const mu = new Float64Array(mesh.length);
  for (let j = 0; j < mesh.length; j++) mu[j] = numerator[j]! / (density[j]! + 1e-4);
  return { mu, count: density };
}

/** Smoothed reliability diagram of forecasts f [N] and outcomes y [N] ∈ {0, 1}. */
export function smoothedReliability(f: FloatArray, y: Uint8Array, options: SmoothedReliabilityOptions = {}): SmoothedReliability {
  requireTopLabel(f, y, 'f');
  const points = requireNumber('points', options.points ?? 200, { integer: true, min: 2 });
  const resamples = requireNumber('resamples', options.resamples ?? 200, { integer: true, min: 0 });
  const level = requireNumber('level', options.level ?? 0.95, { min: 0, exclusiveMin: true, max: 0.999999 });
  const seed = requireNumber('seed', options.seed ?? 0, { integer: true });
  const evaluator = new SmoothEceEvaluator(f, y);
  const bandwidth = options.bandwidth === undefined ? evaluator.bandwidth() : requireNumber('bandwidth', options.bandwidth, { min: 0, exclusiveMin: true, max: 1 });
  const mesh = unitMesh(points);
  const { mu, count } = regression(evaluator, bandwidth, mesh);
  const n = f.length;
  const density = count.map((v) => v / n);
  const lower = new Float64Array(points).fill(Number.NaN);
  const upper = new Float64Array(points).fill(Number.NaN);
  if (resamples > 0) {
    const fits = Array.from({ length: points }, () => new Float64Array(resamples));
    const rng = new Random(seed);
    const fb = new Float64Array(n);
    const yb = new Uint8Array(n);
    for (let b = 0; b < resamples; b++) {
      for (let i = 0; i < n; i++) {
        const j = rng.int(n);
        fb[i] = f[j]!;
        yb[i] = y[j]!;
      }
      const fit = regression(new SmoothEceEvaluator(fb, yb), bandwidth, mesh).mu;
      for (let j = 0; j < points; j++) fits[j]![b] = fit[j]!;
    }
    const alpha = (1 - level) / 2;
    for (let j = 0; j < points; j++) {
      const sorted = fits[j]!.sort();
      lower[j] = quantile(sorted, alpha);
      upper[j] = quantile(sorted, 1 - alpha);
    }
  }
  return { mesh, mu, density, lower, upper, bandwidth, smoothEce: evaluator.at(bandwidth), resamples, level };
}
