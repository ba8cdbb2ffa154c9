/**
 * The shared core of structured vector scaling (SVS, svs.ts) and structured matrix scaling (SMS, sms.ts), as in
 * probmetrics (dholzmueller/probmetrics calibrators.py, SVSCalibrator / SMSCalibrator with their default 'bfgs'
 * optimiser and 'ridge' penalty; benchmarked in eugeneberta/LogisticCalibrationBenchmark):
 *
 * 1. ts-mix first (ts-mix.ts): x = log((1 − ε) softmax(z / T) + ε / C), T by exact NLL, ε = c / (N + 1).
 * 2. Then an affine map of x near the identity, q = softmax(W x + b), fitted by
 *      mean NLL + λ_b Σ_k b_k² + λ_d Σ_k (W_kk − 1)² + λ_o Σ_{k≠j} W_kj²
 *    with W = diag(w) (SVS, no λ_o) or a full C × C matrix (SMS), from W = I, b = 0, and the ridge strengths
 *    scaled with the number of classes C and validation rows N as the reference does:
 *      λ_b = lambdaIntercept · C^ρ / N^τ,  λ_d = lambdaDiagonal · C^ρ / N^τ,  λ_o = lambdaOffDiagonal · (C(C − 1))^ρ / N^τ
 *    (defaults 1, 1, 1, ρ = τ = 1: the reference's defaults, tuned by its authors on their search datasets).
 *    The shrinkage toward the identity is what keeps SMS from collapsing at C = 100 where unregularised matrix
 *    scaling does (test log loss 11–39 in the benchmark's results/ComputerVision/results.csv).
 *
 * Solved with the toolkit's preconditioned L-BFGS (linear-scaling.ts `fitLinear`) instead of the reference's
 * torchmin BFGS, in float64 (the reference casts the log-probabilities to float32). The NLL is invariant under
 * b ← b + c1 and (full W) W ← W + 1vᵀ; `project` applies the penalty-minimising shift in closed form, so the
 * optimum found is the reference's unique one.
 */
import type { CalibratorJSON, Predictions } from '../calibrator.js';
import { AffineCalibrator, readAffineParameters, weightCount, type LinearStructure } from './affine-calibrator.js';
import type { FitOptions } from '../fit-progress.js';
import { progressPart } from '../fit-progress.js';
import { CalibrationFitError } from '../fit-error.js';
import { jsonHeader, readHeader } from '../json.js';
import { fitLinear, type Penalty } from './linear-scaling.js';
import type { OptionSpecs, SettingsOf } from '../options.js';
import { checkLabels, checkPredictions, type CheckedPredictions } from '../predictions.js';
import { centre } from './vector.js';
import { fitMixedTemperature, logInPlace, mixedProbabilities, readMixedTemperature, type MixedTemperature } from '../temperature/ts-mix.js';

export type StructuredKind = 'svs' | 'sms';

/** Ridge strengths of one fit (already scaled by C and N). */
export interface RidgeStrengths {
  readonly intercept: number;
  readonly diagonal: number;
  readonly offDiagonal: number;
}

/** The settings every structured fit has. */
export interface StructuredSettings {
  readonly lambdaIntercept: number;
  readonly lambdaDiagonal: number;
  readonly lambdaOffDiagonal?: number;
  readonly rho: number;
  readonly tau: number;
  readonly mixtureConstant: number;
  readonly maxIterations: number;
  readonly tolerance: number;
  readonly objectiveTolerance: number;
  /** SMS only: start from the identity or from the SVS fit on the same features (default 'identity'). */
  readonly start?: 'svs' | 'identity';
}

/** λ_b, λ_d, λ_o for C classes and N validation rows (see the file comment). */
export function ridgeStrengths(settings: Pick<StructuredSettings, 'lambdaIntercept' | 'lambdaDiagonal' | 'lambdaOffDiagonal' | 'rho' | 'tau'>, classes: number, rows: number): RidgeStrengths {
  const perClass = classes ** settings.rho / rows ** settings.tau;
  return {
    intercept: settings.lambdaIntercept * perClass,
    diagonal: settings.lambdaDiagonal * perClass,
    offDiagonal: ((settings.lambdaOffDiagonal ?? 0) * (classes * (classes - 1)) ** settings.rho) / rows ** settings.tau,
  };
}

/**
 * λ_b Σ b² + λ_d Σ (W_kk − 1)² + λ_o Σ_{k≠j} W_kj² on θ = [W (C values 'diagonal' or C² row-major 'full'), b].
 * `project`: b centred (λ_b > 0); for 'full', each column j shifted by
 * v_j = −[λ_d (W_jj − 1) + λ_o Σ_{k≠j} W_kj] / (λ_d + (C − 1) λ_o), the minimiser along W ← W + 1vᵀ.
 */
export function structuredPenalty(structure: LinearStructure, classes: number, ridge: RidgeStrengths): Penalty | undefined {
  const { intercept, diagonal, offDiagonal } = ridge;
  const C = classes;
  const full = structure === 'full';
  if (intercept === 0 && diagonal === 0 && (!full || offDiagonal === 0)) return undefined;
  const nw = weightCount(structure, C);
  return {
    value(theta, gradient) {
      let f = 0;
      for (let i = 0; i < nw; i++) {
        const onDiagonal = !full || i % (C + 1) === 0;
        const r = theta[i]! - (onDiagonal ? 1 : 0);
        const lambda = onDiagonal ? diagonal : offDiagonal;
        f += lambda * r * r;
        gradient[i] = gradient[i]! + 2 * lambda * r;
      }
      for (let k = 0; k < C; k++) {
        const b = theta[nw + k]!;
        f += intercept * b * b;
        gradient[nw + k] = gradient[nw + k]! + 2 * intercept * b;
      }
      return f;
    },
    curvature(index) {
      if (index >= nw) return 2 * intercept;
      return 2 * (!full || index % (C + 1) === 0 ? diagonal : offDiagonal);
    },
    project(theta) {
      const denominator = diagonal + (C - 1) * offDiagonal;
      if (full && denominator > 0) {
        for (let j = 0; j < C; j++) {
          let s = diagonal * (theta[j * C + j]! - 1);
          for (let k = 0; k < C; k++) if (k !== j) s += offDiagonal * theta[k * C + j]!;
          const v = -s / denominator;
          for (let k = 0; k < C; k++) theta[k * C + j] = theta[k * C + j]! + v;
        }
      }
      if (intercept > 0) centre(theta, nw, C);
    },
  };
}

/** How SVS and SMS differ. */
export interface StructuredMethod {
  readonly kind: StructuredKind;
  readonly structure: LinearStructure;
}

/** Fit `method` on validation predictions and labels with validated settings. */
export function fitStructured(
  method: StructuredMethod,
  input: Predictions,
  labels: Int32Array,
  settings: Readonly<Record<string, unknown>> & StructuredSettings,
  fit: FitOptions,
): StructuredScalingCalibrator {
  const checked = checkPredictions('input', input);
  const { rows, cols } = checked.matrix;
  checkLabels('labels', labels, rows, cols);
  const stage = fitMixedTemperature(input, labels, settings.mixtureConstant, method.kind, fit.sampleWeights);
  fit.onProgress?.(0.05);
  const x = logInPlace(mixedProbabilities(checked, stage, method.kind));
  // With sample weights N is their sum (the ridge scales as 1 / N^τ; integer weights equal repeated rows).
  const n = fit.sampleWeights ? fit.sampleWeights.reduce((a, b) => a + b, 0) : rows;
  const ridge = ridgeStrengths(settings, cols, n);
  const penalty = structuredPenalty(method.structure, cols, ridge);
  const full = method.structure === 'full';
  const start = full && settings.start === 'svs' ? svsStart(method.kind, x, rows, cols, labels, ridge, settings, fit) : undefined;
  const theta = fitLinear(
    method.kind,
    x,
    rows,
    cols,
    labels,
    method.structure,
    penalty,
    settings.maxIterations,
    settings.tolerance,
    { onProgress: progressPart(fit.onProgress, start ? 0.1 : 0.05, 1), sampleWeights: fit.sampleWeights, onSolved: fit.onSolved },
    // 30 correction pairs for the full map (probmetrics' torchmin keeps 100): 101 instead of 133 evaluations on
    // DenseNet-BC-100 CIFAR-100 (bench/posthoc-sms-fit.ts --variants), for 2 × 30 × (C² + C) doubles of memory.
    { relativeTolerance: settings.objectiveTolerance, curvatureScaling: full, ...(full && { memory: 30 }), ...(start && { start }) },
  );
  return new StructuredScalingCalibrator(method, cols, stage, theta, settings);
}

/**
 * The SMS start W₀ = diag(w), b₀ = b of the SVS fit on the same features x and ridge (the SMS objective restricted
 * to diagonal W: its off-diagonal ridge term is 0 there), or undefined (the identity start) when that fit does not
 * converge. At C = 100 the off-diagonal ridge keeps SMS's optimum close to SVS's, so L-BFGS starts near it.
 */
function svsStart(method: string, x: Float64Array, rows: number, C: number, labels: Int32Array, ridge: RidgeStrengths, settings: StructuredSettings, fit: FitOptions): Float64Array | undefined {
  let diagonal: Float64Array;
  try {
    diagonal = fitLinear(
      method,
      x,
      rows,
      C,
      labels,
      'diagonal',
      structuredPenalty('diagonal', C, ridge),
      settings.maxIterations,
      settings.tolerance,
      {
        onProgress: progressPart(fit.onProgress, 0.05, 0.1),
        sampleWeights: fit.sampleWeights,
      },
      { relativeTolerance: settings.objectiveTolerance },
    );
  } catch (e) {
    if (e instanceof CalibrationFitError) return undefined;
    throw e;
  }
  const start = new Float64Array(C * C + C);
  for (let k = 0; k < C; k++) {
    start[k * C + k] = diagonal[k]!;
    start[C * C + k] = diagonal[C + k]!;
  }
  return start;
}

/** Rebuild an SVS / SMS calibrator from its JSON (`temperature`, `uniformWeight`, `weights`, `bias`). */
export function structuredFromJSON<S extends OptionSpecs>(method: StructuredMethod, json: unknown, spec: S): StructuredScalingCalibrator {
  const { record, classes: C, settings } = readHeader(json, method.kind, spec);
  return new StructuredScalingCalibrator(method, C, readMixedTemperature(record), readAffineParameters(record, method.structure, C), settings as SettingsOf<S>);
}

/** A fitted SVS / SMS calibrator: q = softmax(W x + b), x = log ts-mix(z) = log((1 − ε) softmax(z / T) + ε / C). Immutable. */
export class StructuredScalingCalibrator extends AffineCalibrator {
  readonly kind: StructuredKind;
  readonly temperature: number;
  readonly uniformWeight: number;

  constructor(method: StructuredMethod, classes: number, stage: MixedTemperature, parameters: Float64Array, settings: Readonly<Record<string, unknown>>) {
    super(classes, method.structure, parameters, settings);
    this.kind = method.kind;
    this.temperature = stage.temperature;
    this.uniformWeight = stage.uniformWeight;
    Object.freeze(this);
  }

  protected featuresOf(checked: CheckedPredictions): Float64Array {
    return logInPlace(mixedProbabilities(checked, this, this.kind));
  }

  toJSON(): CalibratorJSON {
    return {
      ...jsonHeader(this.kind, this.classes, this.settings),
      temperature: this.temperature,
      uniformWeight: this.uniformWeight,
      ...this.affineJSON(),
    };
  }
}
