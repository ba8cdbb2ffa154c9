import { normalQuantile } from './normal-quantile.js';

/**
 * Logistic recalibration of binary risk predictions (Cox 1958; Steyerberg, "Clinical Prediction Models", 2nd ed.,
 * §15.2; Van Calster et al. 2016 "A calibration hierarchy for risk models", J. Clin. Epidemiol. 74):
 *
 *   calibration slope b:      logit P(y = 1) = a + b · logit(p)      (logit(p) the only covariate),
 *   calibration intercept a₀: logit P(y = 1) = a₀ + logit(p)         (logit(p) an offset, slope fixed at 1;
 *                                                                       "calibration-in-the-large" on the logit scale),
 *
 * both by maximum likelihood (Newton–Raphson with step halving), with Wald intervals est ± z_{(1+level)/2} · SE,
 * SE from the inverse observed information. Ideal: b = 1, a₀ = 0; b < 1 means predictions too extreme, a₀ > 0
 * means risks under-predicted on average. p is clipped to [ε, 1 − ε] with ε = 1e−15 before the logit, so p = 0
 * and p = 1 are usable (logit ±34.5). A fit that does not converge (separation) gives NaN with `converged: false`.
 */
export interface WaldEstimate {
  readonly estimate: number;
  readonly standardError: number;
  readonly lower: number;
  readonly upper: number;
}

export interface LogisticRecalibration {
  readonly slope: WaldEstimate;
  /** The intercept of the slope model (a above), reported for completeness. */
  readonly slopeModelIntercept: number;
  readonly intercept: WaldEstimate;
  readonly level: number;
  readonly converged: boolean;
}

export const LOGIT_CLIP = 1e-15;

/** logit(clip(p, ε, 1 − ε)). */
export function clippedLogit(p: number): number {
  const q = Math.min(1 - LOGIT_CLIP, Math.max(LOGIT_CLIP, p));
  return Math.log(q) - Math.log1p(-q);
}

/** log(1 + e^η), stable for |η| large. */
function softplus(eta: number): number {
  return eta > 0 ? eta + Math.log1p(Math.exp(-eta)) : Math.log1p(Math.exp(eta));
}

function sigmoid(eta: number): number {
  return eta >= 0 ? 1 / (1 + Math.exp(-eta)) : Math.exp(eta) / (1 + Math.exp(eta));
}

/** Negative log-likelihood Σ softplus(η) − y η of η_i = a + b x_i (+ offset). */
function negativeLogLikelihood(x: Float64Array, y: ArrayLike<number>, a: number, b: number): number {
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    const eta = a + b * x[i]!;
    sum += softplus(eta) - y[i]! * eta;
  }
  return sum;
}

const MAX_ITERATIONS = 100;

/**
 * Fit η = a + b x (b free) or η = a + x (b fixed at 1) by Newton's method on the negative log-likelihood;
 * returns the estimates and the inverse information matrix.
 */
function fitLogistic(x: Float64Array, y: ArrayLike<number>, freeSlope: boolean): { a: number; b: number; covariance: [number, number, number]; converged: boolean } {
  // Start at the null model (b = 0) when the slope is free: for extreme logits (|x| ≈ 34.5 from p ∈ {0, 1}) the
  // information at b = 1 is ~1e−15 and Newton's first step would be meaningless.
  let a = 0;
  let b = freeSlope ? 0 : 1;
  let loss = negativeLogLikelihood(x, y, a, b);
  let converged = false;
  let haa = 0;
  let hab = 0;
  let hbb = 0;
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    let ga = 0;
    let gb = 0;
    haa = 0;
    hab = 0;
    hbb = 0;
    for (let i = 0; i < x.length; i++) {
      const mu = sigmoid(a + b * x[i]!);
      const r = mu - y[i]!;
      const w = mu * (1 - mu);
      ga += r;
      gb += r * x[i]!;
      haa += w;
      hab += w * x[i]!;
      hbb += w * x[i]! * x[i]!;
    }
    let da: number;
    let db = 0;
    if (freeSlope) {
      const det = haa * hbb - hab * hab;
      if (!(det > 0)) break;
      da = (hbb * ga - hab * gb) / det;
      db = (haa * gb - hab * ga) / det;
    } else {
      if (!(haa > 0)) break;
      da = ga / haa;
    }
    // Newton decrement g·H⁻¹g: near the optimum the step is taken and the fit stops (quadratic convergence).
    const decrement = ga * da + gb * db;
    if (decrement <= 1e-20 * (1 + loss)) {
      a -= da;
      b -= db;
      converged = true;
      break;
    }
    let step = 1;
    let next = Infinity;
    for (let halving = 0; halving < 60; halving++) {
      next = negativeLogLikelihood(x, y, a - step * da, b - step * db);
      if (next <= loss) break;
      step /= 2;
    }
    if (!(next <= loss)) {
      // No decrease left within rounding: converged if the decrement is at the level of rounding of the loss.
      converged = decrement <= 1e-10 * (1 + loss);
      break;
    }
    a -= step * da;
    b -= step * db;
    const change = loss - next;
    loss = next;
    if (Math.abs(step * da) < 1e-10 * (1 + Math.abs(a)) && Math.abs(step * db) < 1e-10 * (1 + Math.abs(b)) && change < 1e-12 * (1 + loss)) {
      converged = true;
      break;
    }
  }
  // Information at the final estimate.
  haa = 0;
  hab = 0;
  hbb = 0;
  for (let i = 0; i < x.length; i++) {
    const mu = sigmoid(a + b * x[i]!);
    const w = mu * (1 - mu);
    haa += w;
    hab += w * x[i]!;
    hbb += w * x[i]! * x[i]!;
  }
  if (!freeSlope) return { a, b, covariance: [1 / haa, 0, 0], converged: converged && haa > 0 };
  const det = haa * hbb - hab * hab;
  return { a, b, covariance: [hbb / det, -hab / det, haa / det], converged: converged && det > 0 };
}

function wald(estimate: number, variance: number, z: number): WaldEstimate {
  const standardError = Math.sqrt(variance);
  return { estimate, standardError, lower: estimate - z * standardError, upper: estimate + z * standardError };
}

const NOT_CONVERGED: WaldEstimate = { estimate: Number.NaN, standardError: Number.NaN, lower: Number.NaN, upper: Number.NaN };

/** Calibration slope and intercept of risks p [N] for outcomes y [N] ∈ {0, 1} (validated by the caller). */
export function logisticRecalibration(p: ArrayLike<number>, y: ArrayLike<number>, level = 0.95): LogisticRecalibration {
  const x = new Float64Array(p.length);
  for (let i = 0; i < p.length; i++) x[i] = clippedLogit(p[i]!);
  const z = normalQuantile(0.5 + level / 2);
  const slopeFit = fitLogistic(x, y, true);
  const interceptFit = fitLogistic(x, y, false);
  return {
    slope: slopeFit.converged ? wald(slopeFit.b, slopeFit.covariance[2], z) : NOT_CONVERGED,
    slopeModelIntercept: slopeFit.converged ? slopeFit.a : Number.NaN,
    intercept: interceptFit.converged ? wald(interceptFit.a, interceptFit.covariance[0], z) : NOT_CONVERGED,
    level,
    converged: slopeFit.converged && interceptFit.converged,
  };
}
