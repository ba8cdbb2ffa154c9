import { interpolateGrid, reflectedConvolve, roundResidualsAndCounts, roundToGrid, smootherGridSize, unitMesh } from './reflected-gaussian-smoother.js';
import { requireTopLabel } from '../validation.js';
import { invalidArgument, requireNumber } from '../../util/errors.js';
import type { FloatArray } from '../../util/matrix.js';
import { defineMetric } from '../record/metric-definition.js';
import type { MetricContext } from '../record/metric-context.js';

/**
 * Smooth ECE (Błasiok & Nakkiran 2023, "Smooth ECE: principled reliability diagrams via kernel smoothing";
 * reference code relplot, apple/ml-calibration `relplot/metrics.py`): with residuals r_i = f_i − y_i,
 * kernel-smoothed residual r̂(t) = Σ K_σ(t, f_i) r_i / Σ K_σ(t, f_i) and density δ̂(t) = Σ K_σ(t, f_i),
 *   smECE_σ = ∫ |r̂(t)| δ̂(t) dt / ∫ δ̂(t) dt,
 * K_σ the Gaussian kernel reflected at 0 and 1 (reflected-gaussian-smoother.ts), the integral a sum over
 * T = max(200, round(10/σ)) equally spaced points, δ̂ + 1e−4 as in relplot. The bandwidth is chosen
 * automatically as the fixed point σ* = smECE_σ* (smECE_σ decreases in σ): σ = 1 if 1 ≥ smECE_1, else 10
 * bisection steps on [0, 1] keeping the upper end (relplot's `search_param`, ε = 0.001); the reported value is
 * smECE_σ*. Top-label use: f = c_i, y = a_i. Streaming: the grid sums add, but σ* depends on all data, so the
 * metric is computed from the O(N) samples the top-label state keeps (and merges); ~22 O(N) passes.
 */

export interface SmoothEceResult {
  readonly value: number;
  readonly bandwidth: number;
}

/** Evaluates smECE_σ for one sample set, caching the grid sums per grid size. */
export class SmoothEceEvaluator {
  private readonly grids = new Map<number, { residual: Float64Array; count: Float64Array }>();

  constructor(
    private readonly f: FloatArray,
    private readonly y: ArrayLike<number>,
  ) {}

  private gridSums(size: number): { residual: Float64Array; count: Float64Array } {
    let g = this.grids.get(size);
    if (!g) {
      g = roundResidualsAndCounts(this.f, this.y, size);
      this.grids.set(size, g);
    }
    return g;
  }

  /** Kernel-smoothed grid sums of the residuals and of the counts at bandwidth σ, on the mesh t. */
  smoothed(sigma: number, t: FloatArray, weights: 'residual' | 'outcome' = 'residual'): { numerator: Float64Array; density: Float64Array } {
    const size = smootherGridSize(sigma);
    const g = this.gridSums(size);
    const count = interpolateGrid(reflectedConvolve(g.count, sigma), t);
    let numerator: Float64Array;
    if (weights === 'residual') numerator = interpolateGrid(reflectedConvolve(g.residual, sigma), t);
    else {
      const { f, y } = this;
      const [outcome] = roundToGrid(f, [y], size);
      numerator = interpolateGrid(reflectedConvolve(outcome!, sigma), t);
    }
    return { numerator, density: count };
  }

  /** smECE at bandwidth σ. */
  at(sigma: number): number {
    const t = unitMesh(Math.max(Math.round(10 / sigma), 200));
    const { numerator, density } = this.smoothed(sigma, t);
    let num = 0;
    let den = 0;
    for (let j = 0; j < t.length; j++) {
      const d = density[j]! + 1e-4;
      num += Math.abs(numerator[j]! / d) * d;
      den += d;
    }
    return num / den;
  }

  /** relplot's bandwidth search: the fixed point of σ = smECE_σ (ε = 0.001, 10 bisection steps). */
  bandwidth(eps = 0.001): number {
    const tooSmall = (alpha: number): boolean => alpha < eps || alpha < this.at(alpha);
    if (tooSmall(1)) return 1;
    let hi = 1;
    let lo = 0;
    for (let step = 0; step < 10; step++) {
      const mid = (hi + lo) / 2;
      if (tooSmall(mid)) lo = mid;
      else hi = mid;
    }
    return hi;
  }
}

function requireSamples(f: FloatArray, y: Uint8Array): void {
  requireTopLabel(f, y, 'f');
  if (f.length === 0) invalidArgument('f', 'at least one sample', '0 samples');
}

/** smECE of forecasts f [N] in [0, 1] and outcomes y [N] ∈ {0, 1}; σ chosen automatically unless given. */
export function smoothEce(f: FloatArray, y: Uint8Array, options: { bandwidth?: number } = {}): SmoothEceResult {
  requireSamples(f, y);
  const evaluator = new SmoothEceEvaluator(f, y);
  const bandwidth = options.bandwidth === undefined ? evaluator.bandwidth() : requireNumber('bandwidth', options.bandwidth, { min: 0, exclusiveMin: true, max: 1 });
  return { value: evaluator.at(bandwidth), bandwidth };
}

/** smECE and σ* of the top-label samples (in arrival order, as relplot sums them), once per compute. */
function topLabelSmoothEce(context: MetricContext): SmoothEceResult {
  return context.shared('smooth-ece', () => {
    const { confidence, correct } = context.top.views();
    const evaluator = new SmoothEceEvaluator(confidence, correct);
    const bandwidth = evaluator.bandwidth();
    return { value: evaluator.at(bandwidth), bandwidth };
  });
}

export const smoothEceMetric = defineMetric({
  key: 'smooth_ece',
  label: 'smooth ECE (%)',
  percent: true,
  better: 'lower',
  scope: 'top-label',
  description: 'smooth ECE with the automatic bandwidth σ* (Błasiok & Nakkiran 2023; relplot)',
  compute: (context) => topLabelSmoothEce(context).value,
});

export const smoothEceBandwidth = defineMetric({
  key: 'smooth_ece_bandwidth',
  label: 'smooth ECE bandwidth σ*',
  percent: false,
  better: 'none',
  scope: 'top-label',
  description: 'the kernel bandwidth σ* = smECE_σ* chosen for `smooth_ece`',
  compute: (context) => topLabelSmoothEce(context).bandwidth,
});
