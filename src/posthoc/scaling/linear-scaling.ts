/**
 * The shared core of vector scaling, matrix scaling and Dirichlet calibration: a linear map of per-class
 * features x_i ∈ ℝ^C followed by a softmax,
 *   q_i = softmax(W x_i + b),  W ∈ ℝ^{C×C} ('full') or diag(w) ('diagonal'), b ∈ ℝ^C,
 * fitted by minimising mean_i [log Σ_k exp(W x_i + b)_k − (W x_i + b)_{y_i}] + penalty(W, b) with L-BFGS from
 * the identity (W = I, b = 0, i.e. q = softmax(x)). The features are logits (vector, matrix scaling; Guo et
 * al. 2017) or log-probabilities (Dirichlet calibration; Kull et al. 2019).
 *
 * Gradient of the NLL term: with R = (Q − onehot(y)) / N (N × C), ∂/∂W = Rᵀ X (full) or column sums of R ⊙ X
 * (diagonal), ∂/∂b = column sums of R. Parameter vector layout: [W row-major (C² or C values), b (C values)].
 *
 * Conditioning: the NLL is exactly invariant under W ← W + 1vᵀ ('full') and b ← b + c1, so a penalty alone
 * fixes the solution along these C + 1 directions, with curvature as small as λ/(C(C−1)) (ODIR) — hopeless
 * for L-BFGS. We therefore minimise NLL(θ) + penalty(P(θ)), where P applies the penalty-minimising invariant
 * shift (closed form): the NLL is unchanged by P, the objective is flat along the invariant directions, its
 * gradient ∇NLL(θ) + ∇penalty(P(θ)) (envelope theorem) has no component along them, and the minimum value
 * and P(θ*) are those of the original problem. The result returned is P(θ*).
 */
import type { FitOptions } from '../fit-progress.js';
import type { CalibratorJSON, Predictions } from '../calibrator.js';
import { AffineCalibrator, linearLogit, linearLogits, readAffineParameters, weightCount, type LinearStructure } from './affine-calibrator.js';
import { CalibrationFitError } from '../fit-error.js';
import { invalidArgument } from '../../util/errors.js';
import { jsonHeader, readHeader } from '../json.js';
import type { OptionSpecs, SettingsOf } from '../options.js';
import { CALIBRATION_RELATIVE_TOLERANCE, lbfgs } from '../solvers/lbfgs.js';
import { checkLabels, checkPredictions, logitsOf, logProbabilitiesOf, softmaxRowsInPlace, type CheckedPredictions } from '../predictions.js';

export type LinearKind = 'vector' | 'matrix' | 'dirichlet';
export type LinearFeatures = 'logits' | 'log-probabilities';

/**
 * A quadratic penalty on the parameter vector θ. `value` returns its value and adds its gradient into
 * `gradient`; `project` applies, in place, the softmax-invariant shift (W ← W + 1vᵀ for 'full', b ← b + c1)
 * that minimises the penalty.
 */
export interface Penalty {
  value(theta: Float64Array, gradient: Float64Array): number;
  project(theta: Float64Array): void;
  /**
   * The diagonal of the penalty's Hessian at parameter `index` (2λ for a ridge term λ r²), used by the curvature
   * scaling of `fitLinear` (`LinearSolverOptions.curvatureScaling`); absent counts as 0.
   */
  curvature?(index: number): number;
}

/** The identity parameters θ₀ (W = I, b = 0). */
export function identityParameters(structure: LinearStructure, classes: number): Float64Array {
  const theta = new Float64Array(weightCount(structure, classes) + classes);
  for (let k = 0; k < classes; k++) theta[structure === 'full' ? k * classes + k : k] = 1;
  return theta;
}

/**
 * Mean NLL of softmax(W x_i + b) against `labels` plus penalty(P(θ)) (see above); writes the gradient.
 * `weights` (N values ≥ 0, not all zero): the weighted mean Σ_i w_i NLL_i / Σ_i w_i instead, with gradient rows
 * R_i = w_i (q_i − onehot(y_i)) / Σ w (all ones gives the unweighted objective bit for bit). Exposed for gradient checks.
 */
export function linearObjective(
  features: Float64Array,
  rows: number,
  classes: number,
  labels: Int32Array,
  structure: LinearStructure,
  penalty: Penalty | undefined,
  theta: Float64Array,
  gradient: Float64Array,
  scratch: Float64Array = new Float64Array(classes),
  weights?: Float64Array,
): number {
  const C = classes;
  const bOff = weightCount(structure, C);
  gradient.fill(0);
  const invN = 1 / (weights ? sumOf(weights) : rows);
  if (structure === 'full') {
    const f = fullNll(features, rows, C, labels, theta, gradient, invN, weights);
    return penalty ? f + projectedPenalty(penalty, theta, gradient) : f;
  }
  let nll = 0;
  const z = scratch;
  for (let i = 0; i < rows; i++) {
    const wi = weights === undefined ? 1 : weights[i]!;
    if (wi === 0) continue;
    const o = i * C;
    let max = -Infinity;
    for (let k = 0; k < C; k++) {
      const v = linearLogit(theta, features, o, k, C, false, bOff);
      z[k] = v;
      if (v > max) max = v;
    }
    const y = labels[i]!;
    const zy = z[y]!;
    let sum = 0;
    for (let k = 0; k < C; k++) {
      const e = Math.exp(z[k]! - max);
      sum += e;
      z[k] = e;
    }
    nll += wi * (max + Math.log(sum) - zy);
    const invSum = 1 / sum;
    const scale = wi * invN;
    for (let k = 0; k < C; k++) {
      const r = (z[k]! * invSum - (k === y ? 1 : 0)) * scale;
      if (r === 0) continue;
      gradient[bOff + k] = gradient[bOff + k]! + r;
      gradient[k] = gradient[k]! + r * features[o + k]!;
    }
  }
  const f = nll * invN;
  return penalty ? f + projectedPenalty(penalty, theta, gradient) : f;
}

/** penalty(P(θ)), its gradient added into `gradient` (see the file comment). */
function projectedPenalty(penalty: Penalty, theta: Float64Array, gradient: Float64Array): number {
  const projected = Float64Array.from(theta);
  penalty.project(projected);
  return penalty.value(projected, gradient);
}

/** Rows per block of `fullNll`: a block of X and of R (2 × 64 × C float64) stays in cache while W and ∇W stream. */
const ROW_BLOCK = 64;

/**
 * The NLL term of a 'full' map as blocked matrix products (same formula as `linearObjective`): per block of rows,
 * Z = X Wᵀ + 1bᵀ (an i-j-k loop over Wᵀ, so the innermost loop runs along contiguous memory), softmax and
 * R = w ⊙ (Q − onehot(y)) / Σw in place, then ∇W += Rᵀ X (k-i-j: rows of ∇W stay in cache over the block)
 * and ∇b += column sums of R. Register tiles: the product runs 2 rows of Z × 4 columns of X per pass (each loaded
 * W value used twice) and the gradient 2 rows of ∇W × 4 rows of X (each loaded X value used twice) — 1.7× faster
 * than 1-row tiles at 5,000 × 100 and bit-identical to them (every sum keeps its order). Writes ∇ into `gradient`
 * (zeroed by the caller) and returns the weighted mean NLL.
 */
function fullNll(features: Float64Array, rows: number, C: number, labels: Int32Array, theta: Float64Array, gradient: Float64Array, invN: number, weights: Float64Array | undefined): number {
  const bOff = C * C;
  const wT = new Float64Array(C * C);
  for (let k = 0; k < C; k++) for (let j = 0; j < C; j++) wT[j * C + k] = theta[k * C + j]!;
  const block = new Float64Array(ROW_BLOCK * C);
  let nll = 0;
  for (let i0 = 0; i0 < rows; i0 += ROW_BLOCK) {
    const n = Math.min(ROW_BLOCK, rows - i0);
    let r = 0;
    for (; r + 2 <= n; r += 2) {
      const za = r * C;
      const zb = za + C;
      const xa = (i0 + r) * C;
      const xb = xa + C;
      for (let k = 0; k < C; k++) {
        block[za + k] = theta[bOff + k]!;
        block[zb + k] = theta[bOff + k]!;
      }
      let j = 0;
      for (; j + 4 <= C; j += 4) {
        const a0 = features[xa + j]!,
          a1 = features[xa + j + 1]!,
          a2 = features[xa + j + 2]!,
          a3 = features[xa + j + 3]!;
        const b0 = features[xb + j]!,
          b1 = features[xb + j + 1]!,
          b2 = features[xb + j + 2]!,
          b3 = features[xb + j + 3]!;
        const w0 = j * C,
          w1 = w0 + C,
          w2 = w1 + C,
          w3 = w2 + C;
        for (let k = 0; k < C; k++) {
          const v0 = wT[w0 + k]!,
            v1 = wT[w1 + k]!,
            v2 = wT[w2 + k]!,
            v3 = wT[w3 + k]!;
          block[za + k] = block[za + k]! + a0 * v0 + a1 * v1 + a2 * v2 + a3 * v3;
          block[zb + k] = block[zb + k]! + b0 * v0 + b1 * v1 + b2 * v2 + b3 * v3;
        }
      }
      for (; j < C; j++) {
        const a = features[xa + j]!;
        const b = features[xb + j]!;
        const w = j * C;
        for (let k = 0; k < C; k++) {
          block[za + k] = block[za + k]! + a * wT[w + k]!;
          block[zb + k] = block[zb + k]! + b * wT[w + k]!;
        }
      }
      nll += residualRow(block, za, C, labels[i0 + r]!, weights === undefined ? 1 : weights[i0 + r]!, invN);
      nll += residualRow(block, zb, C, labels[i0 + r + 1]!, weights === undefined ? 1 : weights[i0 + r + 1]!, invN);
    }
    for (; r < n; r++) {
      const z = r * C;
      const x = (i0 + r) * C;
      for (let k = 0; k < C; k++) block[z + k] = theta[bOff + k]!;
      let j = 0;
      for (; j + 4 <= C; j += 4) {
        const x0 = features[x + j]!,
          x1 = features[x + j + 1]!,
          x2 = features[x + j + 2]!,
          x3 = features[x + j + 3]!;
        const w0 = j * C,
          w1 = w0 + C,
          w2 = w1 + C,
          w3 = w2 + C;
        for (let k = 0; k < C; k++) {
          block[z + k] = block[z + k]! + x0 * wT[w0 + k]! + x1 * wT[w1 + k]! + x2 * wT[w2 + k]! + x3 * wT[w3 + k]!;
        }
      }
      for (; j < C; j++) {
        const xj = features[x + j]!;
        const w = j * C;
        for (let k = 0; k < C; k++) block[z + k] = block[z + k]! + xj * wT[w + k]!;
      }
      nll += residualRow(block, z, C, labels[i0 + r]!, weights === undefined ? 1 : weights[i0 + r]!, invN);
    }
    let k = 0;
    for (; k + 2 <= C; k += 2) {
      const g = k * C;
      const h = g + C;
      let gb = 0;
      let hb = 0;
      let r = 0;
      for (; r + 4 <= n; r += 4) {
        const r0 = block[r * C + k]!,
          r1 = block[(r + 1) * C + k]!,
          r2 = block[(r + 2) * C + k]!,
          r3 = block[(r + 3) * C + k]!;
        const s0 = block[r * C + k + 1]!,
          s1 = block[(r + 1) * C + k + 1]!,
          s2 = block[(r + 2) * C + k + 1]!,
          s3 = block[(r + 3) * C + k + 1]!;
        gb += r0 + r1 + r2 + r3;
        hb += s0 + s1 + s2 + s3;
        const x0 = (i0 + r) * C,
          x1 = x0 + C,
          x2 = x1 + C,
          x3 = x2 + C;
        for (let j = 0; j < C; j++) {
          const f0 = features[x0 + j]!,
            f1 = features[x1 + j]!,
            f2 = features[x2 + j]!,
            f3 = features[x3 + j]!;
          gradient[g + j] = gradient[g + j]! + r0 * f0 + r1 * f1 + r2 * f2 + r3 * f3;
          gradient[h + j] = gradient[h + j]! + s0 * f0 + s1 * f1 + s2 * f2 + s3 * f3;
        }
      }
      for (; r < n; r++) {
        const rk = block[r * C + k]!;
        const sk = block[r * C + k + 1]!;
        gb += rk;
        hb += sk;
        const x = (i0 + r) * C;
        for (let j = 0; j < C; j++) {
          gradient[g + j] = gradient[g + j]! + rk * features[x + j]!;
          gradient[h + j] = gradient[h + j]! + sk * features[x + j]!;
        }
      }
      gradient[bOff + k] = gradient[bOff + k]! + gb;
      gradient[bOff + k + 1] = gradient[bOff + k + 1]! + hb;
    }
    for (; k < C; k++) {
      const g = k * C;
      let gb = 0;
      let r = 0;
      for (; r + 4 <= n; r += 4) {
        const r0 = block[r * C + k]!,
          r1 = block[(r + 1) * C + k]!,
          r2 = block[(r + 2) * C + k]!,
          r3 = block[(r + 3) * C + k]!;
        gb += r0 + r1 + r2 + r3;
        const x0 = (i0 + r) * C,
          x1 = x0 + C,
          x2 = x1 + C,
          x3 = x2 + C;
        for (let j = 0; j < C; j++) {
          gradient[g + j] = gradient[g + j]! + r0 * features[x0 + j]! + r1 * features[x1 + j]! + r2 * features[x2 + j]! + r3 * features[x3 + j]!;
        }
      }
      for (; r < n; r++) {
        const rk = block[r * C + k]!;
        gb += rk;
        const x = (i0 + r) * C;
        for (let j = 0; j < C; j++) gradient[g + j] = gradient[g + j]! + rk * features[x + j]!;
      }
      gradient[bOff + k] = gradient[bOff + k]! + gb;
    }
  }
  return nll * invN;
}

/**
 * One row of `fullNll`'s block: logits z (C values at `z`) → R row w (softmax(z) − onehot(y)) / Σw in place;
 * returns the row's weighted loss w (logsumexp(z) − z_y). A row of weight 0 becomes zeros and adds 0.
 */
function residualRow(block: Float64Array, z: number, C: number, y: number, wi: number, invN: number): number {
  if (wi === 0) {
    block.fill(0, z, z + C);
    return 0;
  }
  let max = -Infinity;
  for (let k = 0; k < C; k++) if (block[z + k]! > max) max = block[z + k]!;
  const zy = block[z + y]!;
  let sum = 0;
  for (let k = 0; k < C; k++) {
    const e = Math.exp(block[z + k]! - max);
    sum += e;
    block[z + k] = e;
  }
  const loss = wi * (max + Math.log(sum) - zy);
  const scale = wi * invN;
  const invSum = scale / sum;
  for (let k = 0; k < C; k++) block[z + k] = block[z + k]! * invSum;
  block[z + y] = block[z + y]! - scale;
  return loss;
}

/** Σ_i w_i (plain left-to-right sum, as every weighted total of the fit). */
function sumOf(weights: Float64Array): number {
  let total = 0;
  for (let i = 0; i < weights.length; i++) total += weights[i]!;
  return total;
}

/** Most classes of a 'full' fit: C² + C parameters, and L-BFGS keeps 2 × 10 vectors of them (~170 MB at 1000). */
export const MAX_FULL_CLASSES = 1000;

/**
 * Fit θ by L-BFGS from the identity until ‖∇‖∞ ≤ `gradientTolerance` (in the standardised coordinates below) or
 * the relative reduction test; throws CalibrationFitError if it does not converge.
 *
 * Preconditioning: L-BFGS runs on standardised coordinates φ, with θ = T φ given by W_kj = φ_kj / σ_j and
 * b_k = s_k φ_b,k − Σ_j W_kj μ_j (diagonal: w_k = φ_k / σ_k, b_k = s_k φ_b,k − w_k μ_k), μ_j and σ_j the mean and
 * standard deviation of feature j (σ_j = 1 if 0), s_k = 1. This is the same model (T is linear and invertible), but
 * the Hessian is far better conditioned when features are large and uncentred (log-probabilities of confident
 * models average around −10). Gradients map back as ∇_φ = Tᵀ ∇_θ.
 *
 * The diagonal structure (vector scaling) whitens each class's 2 × 2 Hessian block at the start instead
 * (`curvatureStandardisation`): μ_k and σ_k weighted by the curvature q_ik (1 − q_ik) of the start's softmax q, and
 * σ_k, s_k scaled by the mean curvature. Unweighted moments are dominated by rows where class k is hopeless
 * (log q_ik down to −85 on CIFAR-100 probabilities), which carry no curvature: on netcal's DenseNet-BC-100
 * CIFAR-100 probabilities L-BFGS then needed ~700 evaluations to reach a 1e−9 gradient, and stopped 5.8e−4 nats
 * short of the optimum at the 1e−4 tolerance; whitened, it reaches the optimum (to 2e−8 nats) in under 100.
 */
export function fitLinear(
  /** The method's name, for error messages (a LinearKind, or 'svs' / 'sms' of structured-scaling.ts). */
  method: string,
  features: Float64Array,
  rows: number,
  classes: number,
  labels: Int32Array,
  structure: LinearStructure,
  penalty: Penalty | undefined,
  maxIterations: number,
  gradientTolerance: number,
  fit: FitOptions = {},
  solver: LinearSolverOptions = {},
): Float64Array {
  const C = classes;
  const full = structure === 'full';
  if (full && C > MAX_FULL_CLASSES) {
    invalidArgument(
      `${method} classes`,
      `at most ${MAX_FULL_CLASSES.toLocaleString('en-US')} classes (a full C × C weight matrix; use vector or temperature scaling beyond)`,
      `${C.toLocaleString('en-US')} classes (${(C * C).toExponential(1)} weights)`,
    );
  }
  const nw = weightCount(structure, C);
  // θ = T φ: W_i = φ_i / scale_i, b_k = biasScale_k φ_b,k − Σ_{i in row k} W_i centre_i.
  const centre = new Float64Array(nw);
  const scale = new Float64Array(nw);
  const biasScale = new Float64Array(C).fill(1);
  const column = (index: number) => (full ? index % C : index);
  const rowOf = (index: number) => (full ? Math.floor(index / C) : index);
  const start = solver.start ?? identityParameters(structure, C);
  if (start.length !== nw + C) throw new RangeError(`fitLinear: start has ${start.length} values, expected ${nw + C}`);
  // Sample weights (fit.sampleWeights) weight the objective and the standardisation's moments alike, so integer
  // weights run the same iteration as repeated rows.
  const weights = fit.sampleWeights;
  if (full && solver.curvatureScaling) {
    fullCurvatureScaling(features, rows, C, start, penalty, centre, scale, biasScale, weights);
  } else {
    const mean = new Float64Array(C);
    const sd = new Float64Array(C);
    const weightOf = (i: number) => (weights === undefined ? 1 : weights[i]!);
    const total = weights ? sumOf(weights) : rows;
    for (let i = 0; i < rows; i++) {
      const w = weightOf(i);
      if (w === 0) continue;
      for (let j = 0; j < C; j++) mean[j] = mean[j]! + w * features[i * C + j]!;
    }
    for (let j = 0; j < C; j++) mean[j] = mean[j]! / total;
    for (let i = 0; i < rows; i++) {
      const w = weightOf(i);
      if (w === 0) continue;
      for (let j = 0; j < C; j++) {
        const d = features[i * C + j]! - mean[j]!;
        sd[j] = sd[j]! + w * d * d;
      }
    }
    for (let j = 0; j < C; j++) {
      const v = Math.sqrt(sd[j]! / total);
      sd[j] = v > 0 && Number.isFinite(v) ? v : 1;
    }
    if (!full) curvatureStandardisation(features, rows, C, mean, sd, biasScale, weights);
    for (let i = 0; i < nw; i++) {
      centre[i] = mean[column(i)]!;
      scale[i] = sd[column(i)]!;
    }
  }
  const toTheta = (phi: Float64Array, theta: Float64Array) => {
    for (let k = 0; k < C; k++) theta[nw + k] = biasScale[k]! * phi[nw + k]!;
    for (let i = 0; i < nw; i++) {
      const w = phi[i]! / scale[i]!;
      theta[i] = w;
      const k = rowOf(i);
      theta[nw + k] = theta[nw + k]! - w * centre[i]!;
    }
  };
  const theta = new Float64Array(nw + C);
  const gTheta = new Float64Array(nw + C);
  const scratch = new Float64Array(C);
  // φ₀ = T⁻¹ θ₀.
  const phi0 = new Float64Array(nw + C);
  for (let k = 0; k < C; k++) phi0[nw + k] = start[nw + k]!;
  for (let i = 0; i < nw; i++) {
    const w = start[i]!;
    phi0[i] = w * scale[i]!;
    phi0[nw + rowOf(i)] = phi0[nw + rowOf(i)]! + w * centre[i]!;
  }
  for (let k = 0; k < C; k++) phi0[nw + k] = phi0[nw + k]! / biasScale[k]!;
  const result = lbfgs(
    (phi, gPhi) => {
      toTheta(phi, theta);
      const f = linearObjective(features, rows, C, labels, structure, penalty, theta, gTheta, scratch, weights);
      for (let k = 0; k < C; k++) gPhi[nw + k] = biasScale[k]! * gTheta[nw + k]!;
      for (let i = 0; i < nw; i++) gPhi[i] = (gTheta[i]! - gTheta[nw + rowOf(i)]! * centre[i]!) / scale[i]!;
      return f;
    },
    phi0,
    {
      maxIterations,
      gradientTolerance,
      relativeTolerance: solver.relativeTolerance ?? CALIBRATION_RELATIVE_TOLERANCE,
      ...(solver.memory !== undefined && { memory: solver.memory }),
      onProgress: fit.onProgress,
    },
  );
  fit.onSolved?.({
    iterations: result.iterations,
    evaluations: result.evaluations,
    reason: result.reason,
    converged: result.converged,
    objective: result.f,
    gradientNorm: result.gradientNorm,
  });
  if (!result.converged) {
    throw new CalibrationFitError(
      method,
      `L-BFGS did not converge (${result.reason} after ${result.iterations} iterations, ‖gradient‖∞ = ` +
        `${result.gradientNorm.toExponential(2)}); raise maxIterations or tolerance, or add regularisation`,
    );
  }
  toTheta(result.x, theta);
  penalty?.project(theta);
  return theta;
}

/** How `fitLinear` runs L-BFGS beyond its tolerances (all optional; the defaults are those of vector/matrix/Dirichlet). */
export interface LinearSolverOptions {
  /** θ to start from (default the identity W = I, b = 0). */
  readonly start?: Float64Array;
  /** Stop when an iteration lowers the objective by at most this · max(|f|, 1) (default CALIBRATION_RELATIVE_TOLERANCE). */
  readonly relativeTolerance?: number;
  /** L-BFGS correction pairs kept (default 10). */
  readonly memory?: number;
  /** 'full' structure: scale each weight by its curvature at the start, ridge included (`fullCurvatureScaling`). */
  readonly curvatureScaling?: boolean;
}

/**
 * Curvature scaling of a 'full' fit (`LinearSolverOptions.curvatureScaling`), the full-matrix analogue of
 * `curvatureStandardisation`: with q_i = softmax(W₀ x_i + b₀) at the start θ₀ and ω_ik = q_ik (1 − q_ik), the NLL's
 * Hessian in row k of W is (1/N) Σ_i ω_ik x_i x_iᵀ (cross-class terms ignored). Per weight W_kj, μ_kj and v_kj are
 * the ω_·k-weighted mean and standard deviation of feature j, d_k = (1/N) Σ_i ω_ik, and h_kj = d_k v_kj² + c_kj, c the
 * penalty's curvature (`Penalty.curvature`, 2λ of a ridge). Coordinates W_kj = φ_kj / √h_kj,
 * b_k = φ_b,k / √(d_k + c_b,k) − Σ_j W_kj μ_kj then have unit diagonal curvature and no bias–weight coupling. At
 * C = 100 the off-diagonal ridge (λ_o = C(C − 1)/N ≈ 2 at N = 5,000) dominates its entries while the diagonal ones
 * carry the data's curvature, spread over orders of magnitude between classes: without the scaling L-BFGS crawls.
 * Writes `centre` (μ), `scale` (√h) and `biasScale`; entries whose values are not positive and finite keep 0 / 1 / 1.
 */
function fullCurvatureScaling(
  features: Float64Array,
  rows: number,
  C: number,
  start: Float64Array,
  penalty: Penalty | undefined,
  centre: Float64Array,
  scale: Float64Array,
  biasScale: Float64Array,
  sampleWeights?: Float64Array,
): void {
  const nw = C * C;
  const q = linearLogits(features, rows, C, 'full', start);
  softmaxRowsInPlace(q, rows, C);
  const sw = new Float64Array(C);
  const swx = new Float64Array(nw);
  const swxx = new Float64Array(nw);
  const total = sampleWeights ? sumOf(sampleWeights) : rows;
  for (let i = 0; i < rows; i++) {
    const r = sampleWeights === undefined ? 1 : sampleWeights[i]!;
    if (r === 0) continue;
    const o = i * C;
    for (let k = 0; k < C; k++) {
      const p = q[o + k]!;
      const w = r * p * (1 - p);
      if (!(w > 0)) continue;
      sw[k] = sw[k]! + w;
      const g = k * C;
      for (let j = 0; j < C; j++) {
        const x = features[o + j]!;
        const wx = w * x;
        swx[g + j] = swx[g + j]! + wx;
        swxx[g + j] = swxx[g + j]! + wx * x;
      }
    }
  }
  const curvature = (index: number) => penalty?.curvature?.(index) ?? 0;
  for (let k = 0; k < C; k++) {
    const d = sw[k]! / total;
    for (let j = 0; j < C; j++) {
      const i = k * C + j;
      const mu = sw[k]! > 0 ? swx[i]! / sw[k]! : 0;
      const variance = sw[k]! > 0 ? Math.max(0, swxx[i]! / sw[k]! - mu * mu) : 0;
      const h = d * variance + curvature(i);
      if (h > 0 && Number.isFinite(h) && Number.isFinite(mu)) {
        centre[i] = mu;
        scale[i] = Math.sqrt(h);
      } else {
        centre[i] = 0;
        scale[i] = 1;
      }
    }
    const hb = d + curvature(nw + k);
    biasScale[k] = hb > 0 && Number.isFinite(hb) ? 1 / Math.sqrt(hb) : 1;
  }
}

/**
 * Curvature-weighted standardisation of a diagonal fit (see `fitLinear`): with q_i = softmax(x_i) (the start,
 * w = 1, b = 0) and weights ω_ik = q_ik (1 − q_ik) — the diagonal of the NLL's Hessian in z_ik — the Hessian block of
 * class k in (w_k, b_k) is (1/N) Σ_i ω_ik [x_ik², x_ik; x_ik, 1]. With d_k = (1/N) Σ_i ω_ik and μ_k, v_k the
 * ω-weighted mean and standard deviation of x_·k, the coordinates w_k = φ_k / (v_k √d_k), b_k = φ_b,k / √d_k − w_k μ_k
 * turn that block into the identity. Overwrites `mean`, `sd` (with v_k √d_k) and `biasScale` (1/√d_k) for each class
 * whose d_k and v_k are positive and finite; the other classes keep the plain standardisation.
 */
function curvatureStandardisation(features: Float64Array, rows: number, C: number, mean: Float64Array, sd: Float64Array, biasScale: Float64Array, sampleWeights?: Float64Array): void {
  const q = new Float64Array(C);
  const sw = new Float64Array(C);
  const swx = new Float64Array(C);
  const total = sampleWeights ? sumOf(sampleWeights) : rows;
  for (let pass = 0; pass < 2; pass++) {
    const swxx = new Float64Array(C);
    for (let i = 0; i < rows; i++) {
      const r = sampleWeights === undefined ? 1 : sampleWeights[i]!;
      if (r === 0) continue;
      const o = i * C;
      let max = -Infinity;
      for (let k = 0; k < C; k++) if (features[o + k]! > max) max = features[o + k]!;
      let sum = 0;
      for (let k = 0; k < C; k++) sum += q[k] = Math.exp(features[o + k]! - max);
      for (let k = 0; k < C; k++) {
        const p = q[k]! / sum;
        const w = r * (p * (1 - p));
        const x = features[o + k]!;
        if (pass === 0) {
          sw[k] = sw[k]! + w;
          swx[k] = swx[k]! + w * x;
        } else {
          const d = x - swx[k]! / sw[k]!;
          swxx[k] = swxx[k]! + w * d * d;
        }
      }
    }
    if (pass === 0) continue;
    for (let k = 0; k < C; k++) {
      const d = sw[k]! / total;
      const v = Math.sqrt(swxx[k]! / sw[k]!);
      if (!(d > 0 && v > 0 && Number.isFinite(v))) continue;
      mean[k] = swx[k]! / sw[k]!;
      sd[k] = v * Math.sqrt(d);
      biasScale[k] = 1 / Math.sqrt(d);
    }
  }
}

/** The features a linear calibrator uses, from validated predictions. */
export function linearFeatures(checked: CheckedPredictions, features: LinearFeatures): Float64Array {
  return features === 'logits' ? logitsOf(checked) : logProbabilitiesOf(checked);
}

/** How vector scaling, matrix scaling and Dirichlet calibration differ: structure, features and penalty. */
export interface LinearMethod {
  readonly kind: LinearKind;
  readonly structure: LinearStructure;
  readonly features: LinearFeatures;
}

/**
 * Fit the linear calibrator `method` on validation predictions and labels with validated `settings` (their
 * `maxIterations` and `tolerance` drive L-BFGS) and the method's penalty for C classes.
 */
export function fitLinearCalibrator(
  method: LinearMethod,
  input: Predictions,
  labels: Int32Array,
  settings: Readonly<Record<string, unknown>> & { readonly maxIterations: number; readonly tolerance: number },
  penalty: (classes: number) => Penalty | undefined,
  fit: FitOptions,
): LinearCalibrator {
  const checked = checkPredictions('input', input);
  const { rows, cols } = checked.matrix;
  checkLabels('labels', labels, rows, cols);
  const x = linearFeatures(checked, method.features);
  if (fit.sampleWeights && fit.sampleWeights.length !== rows) invalidArgument('sampleWeights', `${rows} weights, one per row`, `${fit.sampleWeights.length}`);
  const theta = fitLinear(method.kind, x, rows, cols, labels, method.structure, penalty(cols), settings.maxIterations, settings.tolerance, fit);
  return new LinearCalibrator(method.kind, cols, method.structure, method.features, theta, settings);
}

/** Rebuild the linear calibrator `method` from its JSON (`weights`: C values or C × C rows, `bias`: C values). */
export function linearCalibratorFromJSON<S extends OptionSpecs>(method: LinearMethod, json: unknown, spec: S): LinearCalibrator {
  const { record, classes: C, settings } = readHeader(json, method.kind, spec);
  return new LinearCalibrator(method.kind, C, method.structure, method.features, readAffineParameters(record, method.structure, C), settings as SettingsOf<S>);
}

/** A fitted vector / matrix / Dirichlet calibrator: q = softmax(W x + b), x = logits or log-probabilities per method. Immutable. */
export class LinearCalibrator extends AffineCalibrator {
  readonly kind: LinearKind;
  readonly features: LinearFeatures;

  constructor(kind: LinearKind, classes: number, structure: LinearStructure, features: LinearFeatures, parameters: Float64Array, settings: Readonly<Record<string, unknown>>) {
    super(classes, structure, parameters, settings);
    this.kind = kind;
    this.features = features;
    Object.freeze(this);
  }

  protected featuresOf(checked: CheckedPredictions): Float64Array {
    return linearFeatures(checked, this.features);
  }

  toJSON(): CalibratorJSON {
    return { ...jsonHeader(this.kind, this.classes, this.settings), ...this.affineJSON() };
  }
}
