/**
 * The compiled inference step: logits (and optionally named feature activations) of a batch in inference mode
 * (batch norm on running statistics, no dropout), one session per batch size, cached. Inputs: `x`, the packed
 * `params` [P] and `buffers` [Q] (the same flat vectors as `TrainState`). Outputs: `logits` [B, C] and
 * `features.<layer>` for each requested feature layer.
 */
import { compile, type Graph, type GraphOutput, type Session, type Tensor, trace } from '../../engine/index.js';
import { describe, InvalidArgumentError } from '../../util/errors.js';
import type { Model } from '../../nn/model.js';
import { ModelLayout } from './model-layout.js';

/** Options of `compileEvalStep`. */
export interface EvalStepOptions {
  /** Batch size compiled eagerly (others compile on first use). */
  readonly batch?: number;
  /** Feature layers whose activations are also returned (names from `model.featureLayers`). */
  readonly features?: readonly string[];
  /** ORT intra-op threads (default 2). */
  readonly threads?: number;
  /** Use ORT's NCHWc convolution kernels where the machine has them (default true; see CompileOptions.nchwc). */
  readonly nchwc?: boolean;
}

/** Output of one evaluation. */
export interface EvalResult {
  /** [B, C]. */
  readonly logits: Float32Array;
  /** Requested feature activations by layer, row-major. */
  readonly features: Record<string, Float32Array>;
}

/** A compiled inference step. */
export class EvalStep {
  readonly layout: ModelLayout;
  private readonly sessions = new Map<number, Session>();

  constructor(
    readonly model: Model,
    readonly options: EvalStepOptions = {},
  ) {
    this.layout = new ModelLayout(model);
    for (const f of options.features ?? []) {
      if (!model.featureLayers.includes(f)) throw new InvalidArgumentError('options.features', `layers of ${model.kind}: ${model.featureLayers.join(', ')}`, JSON.stringify(f));
    }
  }

  /** The traced inference graph for batch size `b`. */
  graph(b: number): Graph {
    const { model, layout } = this;
    const wanted = new Set(this.options.features ?? []);
    const specs: Record<string, { dtype: 'float32' | 'int32'; shape: number[] }> = {
      x: { dtype: model.input.dtype, shape: [b, ...model.input.shape] },
      params: { dtype: 'float32', shape: [layout.params.size] },
    };
    if (layout.buffers.size > 0) specs['buffers'] = { dtype: 'float32', shape: [layout.buffers.size] };
    return trace(
      (inp) => {
        const captured: GraphOutput[] = [];
        const params = layout.params.unpack(inp['params']!);
        const buffers = layout.buffers.size > 0 ? layout.buffers.unpack(inp['buffers']!) : {};
        const features = (layer: string, h: Tensor): Tensor => {
          if (wanted.has(layer)) captured.push({ name: `features.${layer}`, tensor: h });
          return h;
        };
        const { logits } = model.forward(params, buffers, inp['x']!, { training: false, features });
        return Object.fromEntries([['logits', logits], ...captured.map((c) => [c.name, c.tensor])]);
      },
      specs,
      { name: `${model.kind}_eval` },
    );
  }

  /** The session for batch size `b` (compiled on first use). */
  session(b: number): Session {
    let s = this.sessions.get(b);
    if (!s) {
      s = compile(this.graph(b), { threads: this.options.threads ?? 2, ...(this.options.nchwc === false ? { nchwc: false } : {}) });
      this.sessions.set(b, s);
    }
    return s;
  }

  /** Logits (and features) of `x` [B, ...input] with the flat parameters and buffers. */
  run(state: { readonly params: Float32Array; readonly buffers: Float32Array }, x: Float32Array | Int32Array): EvalResult {
    const b = x.length / this.layout.exampleSize;
    if (!Number.isInteger(b) || b < 1) throw new InvalidArgumentError('x', `a multiple of ${this.layout.exampleSize} values`, describe(x));
    const feeds: Record<string, Float32Array | Int32Array> = { x, params: state.params };
    if (this.layout.buffers.size > 0) feeds['buffers'] = state.buffers;
    const out = this.session(b).run(feeds);
    const features: Record<string, Float32Array> = {};
    for (const [k, v] of Object.entries(out)) if (k.startsWith('features.')) features[k.slice(9)] = v as Float32Array;
    return { logits: out['logits'] as Float32Array, features };
  }

  /** Release every session. */
  dispose(): void {
    for (const s of this.sessions.values()) s.dispose();
    this.sessions.clear();
  }
}

/** Compile the inference step of `model` (eagerly for `options.batch` when given). */
export function compileEvalStep(model: Model, options: EvalStepOptions = {}): EvalStep {
  const step = new EvalStep(model, options);
  if (options.batch !== undefined) {
    if (!Number.isInteger(options.batch) || options.batch < 1) throw new InvalidArgumentError('options.batch', 'a positive integer', describe(options.batch));
    step.session(options.batch);
  }
  return step;
}
