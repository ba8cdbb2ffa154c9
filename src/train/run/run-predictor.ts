/**
 * How a run's final evaluation turns inputs into logits (run-finalise.ts: validation / test / training logits and the
 * OOD predictor): the deterministic evaluation step (dropout off, batch norm on running statistics), or with
 * `config.mcDropout` Monte-Carlo dropout (mc-dropout.ts; Gal & Ghahramani 2016, the baseline of Thulasidasan et al.
 * 2019 with p = 0.3 and K = 10):
 *
 *   logits = log p̄,   p̄ = (1/K) Σ_k softmax(f(x; mask_k)),
 *
 * so softmax(logits) = p̄ (Σ_j p̄_j = 1) and every tool that reads logits (post-hoc calibrators, calib eval, the suite
 * report) works on the MC-dropout predictive distribution unchanged. An entry p̄_j = 0 (every pass's softmax
 * underflowed in float64, a logit gap > ~745) is written as log LOG_CLIP ≈ −708.4 (posthoc/predictions.ts, the
 * toolkit's clip for log-probabilities), a large negative finite logit instead of −∞. The rate p is the model's own
 * dropout rate. Each evaluated set (validation, test, each OOD set) draws its masks from a fresh generator seeded
 * with `mcDropout.seed` (default: the run seed), in batches of `evalBatch`, so every file is reproducible on its own.
 *
 * Only the final evaluation is stochastic: the per-epoch validation metrics, and so best-epoch selection, use the
 * deterministic step; model.onnx is the deterministic network.
 */
import { LOG_CLIP } from '../../posthoc/predictions.js';
import type { Model } from '../../nn/model.js';
import type { EvalStep } from '../steps/compile-eval-step.js';
import { McDropoutStep, mcDropoutProbabilities } from '../evaluation/mc-dropout.js';
import { predictLogits, type Weights } from '../evaluation/predict.js';
import type { TrainConfig } from '../train-config.js';
import { within } from '../train-config.js';

/** summary.json's record of an MC-dropout evaluation. */
export interface McDropoutRecord {
  readonly passes: number;
  /** The model's dropout rate p (of its first dropout layer; the zoo's models use one rate throughout). */
  readonly rate: number;
  readonly seed: number;
}

/** The predictor of a run's final evaluation (see the module comment). */
export interface RunPredictor {
  /** Logits [N, C] (row-major float32) of `inputs` ([N, …] row-major) under `weights`. */
  logits(weights: Weights, inputs: Float32Array | Int32Array): Float32Array;
  /** The MC-dropout settings, or null for the deterministic predictor. */
  readonly mcDropout: McDropoutRecord | null;
  dispose(): void;
}

/**
 * The run's predictor: `evalStep` in `config.evalBatch` batches, or MC dropout when `config.mcDropout` is set. The
 * MC-dropout step is compiled here (setupRun calls this before training), so a model without dropout layers is an
 * error naming config.mcDropout before any epoch runs.
 */
export function runPredictor(config: TrainConfig, model: Model, evalStep: EvalStep): RunPredictor {
  const mc = config.mcDropout;
  if (mc === undefined) {
    return { logits: (weights, inputs) => predictLogits(evalStep, weights, inputs, config.evalBatch), mcDropout: null, dispose: () => {} };
  }
  const step = within('config.mcDropout', () => new McDropoutStep(model, { threads: config.threads }));
  const record: McDropoutRecord = { passes: mc.passes, rate: step.masks(1)[0]!.rate, seed: mc.seed ?? config.seed };
  return {
    logits(weights, inputs) {
      const p = mcDropoutProbabilities(step, weights, inputs, { passes: record.passes, batch: config.evalBatch, seed: record.seed });
      return logProbabilities(p);
    },
    mcDropout: record,
    dispose: () => step.dispose(),
  };
}

/** log max(p, LOG_CLIP) of probabilities, as float32 logits (see the module comment). */
export function logProbabilities(p: Float64Array): Float32Array {
  const out = new Float32Array(p.length);
  for (let i = 0; i < p.length; i++) out[i] = Math.log(Math.max(p[i]!, LOG_CLIP));
  return out;
}

/**
 * `predictor` remembering its logits for the arrays in `remembered` (by object identity) and the weights they were
 * computed with: the final evaluation asks for the test split's logits twice (test-logits.npy, then the OOD
 * evaluation's in-distribution set), the same computation both times — the deterministic step, or MC dropout whose
 * masks come from a fresh generator per evaluated set — so the second is the first's array. Only the listed arrays
 * are remembered: the OOD evaluation writes every corrupted set into one reused array, whose contents change between
 * calls. The listed arrays must not change while the wrapper is in use. The same `dispose`.
 */
export function rememberingPredictor(predictor: RunPredictor, remembered: readonly (Float32Array | Int32Array)[]): RunPredictor {
  const known = new Map<Float32Array | Int32Array, { weights: Weights; logits: Float32Array }>();
  return {
    logits(weights, inputs) {
      const hit = known.get(inputs);
      if (hit !== undefined && hit.weights === weights) return hit.logits;
      const logits = predictor.logits(weights, inputs);
      if (remembered.includes(inputs)) known.set(inputs, { weights, logits });
      return logits;
    },
    mcDropout: predictor.mcDropout,
    dispose: () => predictor.dispose(),
  };
}
