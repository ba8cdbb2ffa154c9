/**
 * Monte-Carlo dropout at test time (Gal & Ghahramani, ICML 2016; the MC-dropout baseline of Thulasidasan et al.
 * 2019 with p = 0.3 and 10 passes): K stochastic forward passes with the model's dropout layers active and batch
 * norm on its running statistics (inference mode), and the predictive distribution
 *   p̄(y | x) = (1/K) Σ_k softmax(f(x; mask_k)).
 * The dropout rate p is the model's own (`dropout` option of the ResNets, DenseNet, VGG, MLP, WRN, text CNN): MC
 * dropout evaluates a network trained with dropout. Masks are graph inputs drawn from a seeded generator, so the
 * averaged probabilities are reproducible bit for bit.
 */
import { buildGraph, compile, dropoutMask, type Graph, type Session, type Shape, type Tensor } from '../../engine/index.js';
import { describe, InvalidArgumentError, requireNumber } from '../../util/errors.js';
import { Random } from '../../util/random.js';
import type { Model } from '../../nn/model.js';
import { graphInputs } from '../steps/graph-inputs.js';
import { ModelLayout } from '../steps/model-layout.js';
import type { Weights } from './predict.js';

/** Options of `compileMcDropoutStep`. */
export interface McDropoutStepOptions {
  /** ORT intra-op threads (default 2). */
  readonly threads?: number;
}

interface Compiled {
  readonly graph: Graph;
  readonly masks: readonly { readonly name: string; readonly size: number; readonly rate: number }[];
  session: Session | null;
}

/** A compiled stochastic inference step: logits of a batch under fresh dropout masks. */
export class McDropoutStep {
  readonly layout: ModelLayout;
  private readonly cache = new Map<number, Compiled>();

  constructor(
    readonly model: Model,
    readonly options: McDropoutStepOptions = {},
  ) {
    this.layout = new ModelLayout(model);
    const probe = this.compiled(1);
    if (probe.masks.length === 0) {
      throw new InvalidArgumentError(
        'model',
        `a model with dropout (rate > 0) for MC dropout (build ${model.kind} with dropout: p, e.g. --model-opt dropout=0.3)`,
        `${model.kind} without a dropout layer`,
      );
    }
  }

  /** The traced graph for batch size `b` (inputs x, params, buffers, dropout.<layer>; output logits). */
  graph(b: number): Graph {
    return this.compiled(b).graph;
  }

  /** Names, sizes and rates of the dropout masks of batch size `b`. */
  masks(b: number): Compiled['masks'] {
    return this.compiled(b).masks;
  }

  /** Logits [B, C] of `x` under dropout masks drawn from `rng`. */
  run(weights: Weights, x: Float32Array | Int32Array, rng: Random): Float32Array {
    const b = x.length / this.layout.exampleSize;
    if (!Number.isInteger(b) || b < 1) throw new InvalidArgumentError('x', `a multiple of ${this.layout.exampleSize} values`, describe(x));
    const c = this.compiled(b);
    c.session ??= compile(c.graph, { threads: this.options.threads ?? 2 });
    const feeds: Record<string, Float32Array | Int32Array> = { x, params: weights.params };
    if (this.layout.buffers.size > 0) feeds['buffers'] = weights.buffers;
    for (const m of c.masks) feeds[m.name] = dropoutMask(rng, m.size, m.rate);
    return c.session.run(feeds)['logits'] as Float32Array;
  }

  /** Release every session. */
  dispose(): void {
    for (const c of this.cache.values()) c.session?.dispose();
    this.cache.clear();
  }

  private compiled(b: number): Compiled {
    let c = this.cache.get(b);
    if (!c) {
      c = this.trace(b);
      this.cache.set(b, c);
    }
    return c;
  }

  private trace(b: number): Compiled {
    const { model, layout } = this;
    const { inputs, input } = graphInputs();
    const x = input('x', model.input.dtype, [b, ...model.input.shape]);
    const params = layout.params.unpack(input('params', 'float32', [layout.params.size]));
    const buffers = layout.buffers.size > 0 ? layout.buffers.unpack(input('buffers', 'float32', [layout.buffers.size])) : {};
    const masks: { name: string; size: number; rate: number }[] = [];
    const dropout = (layer: string, shape: Shape, rate: number): Tensor => {
      const name = `dropout.${layer}`;
      if (masks.some((m) => m.name === name)) throw new InvalidArgumentError('model', 'distinct dropout layer names', JSON.stringify(layer));
      masks.push({ name, size: shape.reduce((p, q) => p * q, 1), rate });
      return input(name, 'float32', shape);
    };
    // training: false keeps batch norm on its running statistics; the mask provider switches dropout on.
    const { logits } = model.forward(params, buffers, x, { training: false, dropout });
    return { graph: buildGraph(`${model.kind}_mc_dropout`, inputs, [{ name: 'logits', tensor: logits }]), masks, session: null };
  }
}

/** Compile the MC-dropout step of `model` (which must have dropout with rate > 0). */
export function compileMcDropoutStep(model: Model, options: McDropoutStepOptions = {}): McDropoutStep {
  return new McDropoutStep(model, options);
}

/** Options of `mcDropoutProbabilities`. */
export interface McDropoutOptions {
  /** Stochastic passes K (Thulasidasan et al.: 10). */
  readonly passes: number;
  /** Rows per forward pass (default 256). */
  readonly batch?: number;
  /** Seed of the dropout masks, any integer like a run's seed (default 0). */
  readonly seed?: number;
}

/**
 * Averaged predictive probabilities p̄ [N, C] (row-major, float64) of `inputs` ([N, …] row-major): for each batch,
 * K passes with fresh masks, softmax of each (in float64, max-shifted), mean over the passes.
 */
export function mcDropoutProbabilities(step: McDropoutStep, weights: Weights, inputs: Float32Array | Int32Array, options: McDropoutOptions): Float64Array {
  const passes = requireNumber('options.passes', options.passes, { integer: true, min: 1 });
  const batch = requireNumber('options.batch', options.batch ?? 256, { integer: true, min: 1 });
  const rng = new Random(requireNumber('options.seed', options.seed ?? 0, { integer: true }));
  const perExample = step.layout.exampleSize;
  const n = inputs.length / perExample;
  if (!Number.isInteger(n)) throw new InvalidArgumentError('inputs', `a multiple of ${perExample} values`, describe(inputs));
  const c = step.model.numClasses;
  const out = new Float64Array(n * c);
  for (let start = 0; start < n; start += batch) {
    const end = Math.min(n, start + batch);
    const x = inputs.subarray(start * perExample, end * perExample);
    for (let k = 0; k < passes; k++) {
      const logits = step.run(weights, x, rng);
      for (let i = 0; i < end - start; i++) {
        const off = i * c;
        let m = -Infinity;
        for (let j = 0; j < c; j++) m = Math.max(m, logits[off + j]!);
        let s = 0;
        for (let j = 0; j < c; j++) s += Math.exp(logits[off + j]! - m);
        const row = (start + i) * c;
        for (let j = 0; j < c; j++) out[row + j]! += Math.exp(logits[off + j]! - m) / s / passes;
      }
    }
  }
  return out;
}
