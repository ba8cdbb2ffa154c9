/**
 * The compiled train step: forward + loss + backward + optimizer update (+ batch-norm running statistics) as ONE
 * ONNX graph, run by one `session.run` per batch (DESIGN.md; ENGINE-NOTES).
 *
 * Graph inputs: `x` [B, ...model.input.shape] (float32, or int32 token ids), `y` (int32 [B] labels or float32
 * [B, C] soft targets; for a dense model, int32 [B, ...model.outputSpatial] labels against logits [B, C, ...]), `extras.<name>` (declared extra inputs; −1 in a shape stands for B), the state —
 * packing 'flat' (default): `params` [P], `buffers` [Q], `opt.<slot>` [P]; packing 'tensors': one input per
 * path, `params/<path>`, `buffers/<path>`, `opt.<slot>/<path>` — the optimizer's host scalars `hyper.<name>`
 * (learning rate from the schedule, bias corrections) and `dropout.<layer>` keep-masks drawn on the host.
 * Outputs: the updated state under the same names, `loss`, `terms.<name>`, and optionally `logits`.
 * In flat mode the gradients are concatenated and the optimizer updates the whole [P] vector with a few
 * element-wise ops — or, when the optimizer has a bit-identical host update (SGD with momentum and weight decay),
 * the session runs the gradient graph (outputs `grad` [P], `buffers`, `loss`, …) and the host updates the state's
 * arrays in place in one fused pass (`TrainStepOptions.hostUpdate`). One session is compiled and cached per batch size.
 */
import {
  buildGraph,
  compile,
  type DType,
  type Feed,
  type Graph,
  type GraphOutput,
  type RunOutputs,
  type Session,
  type Tensor,
  concat,
  constant,
  dropoutMask,
  grad,
  type Shape,
} from '../../engine/index.js';
import { describe, InvalidArgumentError } from '../../util/errors.js';
import type { FeatureHook, Model } from '../../nn/model.js';
import type { TensorTree } from '../../nn/tree.js';
import type { Optimizer } from '../../optim/optimizer.js';
import type { LossFn } from './loss-fn.js';
import { graphInputs } from './graph-inputs.js';
import { ModelLayout } from './model-layout.js';
import { ReplicatedUpdate } from './replicated-step.js';
import type { TrainState } from './train-state.js';

/** Declared extra input of a step; −1 in `shape` is replaced by the batch size. */
export interface ExtraSpec {
  readonly dtype: DType;
  readonly shape: readonly number[];
  /**
   * Row i belongs to example i of the batch (shape [−1, …]), so data-parallel replicas can split it with the batch.
   * An extra with −1 in its shape that is not row-wise (a permutation of the batch) rules replicas out.
   */
  readonly rows?: boolean;
}

/** Options of `compileTrainStep`. */
export interface TrainStepOptions {
  /** Batch size compiled eagerly (other sizes compile on first use and are cached). */
  readonly batch: number;
  /** Hard labels (int32 [B], default) or soft targets (float32 [B, C]). */
  readonly targets?: 'labels' | 'soft';
  /** Extra inputs handed to the loss function and the feature hook. */
  readonly extras?: Readonly<Record<string, ExtraSpec>>;
  /** Builds the forward feature hook from the extra inputs (manifold mixup mixes hidden activations here). */
  readonly features?: (extras: TensorTree) => FeatureHook;
  /** Where the optimizer's weight decay applies, by parameter path (default: everywhere, as PyTorch). */
  readonly weightDecay?: (path: string) => boolean;
  /** State packing (default 'flat': three-ish flat vectors instead of one input per tensor; ENGINE-NOTES). */
  readonly packing?: 'flat' | 'tensors';
  /** Also output the logits [B, C] (e.g. for training accuracy). */
  readonly outputLogits?: boolean;
  /** ORT intra-op threads (default 2); with replicas, each replica gets ⌊threads / replicas⌋ (at least 1). */
  readonly threads?: number;
  /**
   * Data-parallel replicas (default 1; replicated-step.ts): each batch is split into this many shards whose
   * gradients are computed at the same time on worker threads and averaged (weighted by shard size) before one
   * optimizer update. Batch-level terms (batch norm statistics, MMCE, …) are then computed per shard, as in
   * PyTorch's DistributedDataParallel without SyncBatchNorm; running statistics are the shard-size-weighted mean.
   * Flat packing only.
   */
  readonly replicas?: number;
  /** Use ORT's NCHWc convolution kernels where the machine has them (default true; see CompileOptions.nchwc). */
  readonly nchwc?: boolean;
  /**
   * Run the optimizer update on the host when the optimizer has a bit-identical host update (`Optimizer.hostUpdate`:
   * SGD with momentum and weight decay) and the step is flat, unreplicated and decays every parameter: the graph
   * then outputs the flat gradient and one fused pass updates the state (default true; engine notebook, round six).
   */
  readonly hostUpdate?: boolean;
}

/** One batch of a step. */
export interface TrainBatch {
  /** [B, ...model.input.shape], row-major (Float32Array, or Int32Array for token-id models). */
  readonly x: Float32Array | Int32Array;
  /** Labels [B] (Int32Array, or BigInt64Array converted on the way in), or Float32Array [B, C] soft targets. */
  readonly y: Int32Array | BigInt64Array | Float32Array;
  /** Values of the declared extra inputs. */
  readonly extras?: Readonly<Record<string, Feed>>;
}

/** What one step reports. */
export interface StepResult {
  readonly loss: number;
  readonly terms: Record<string, number>;
  /** [B, C] when `outputLogits`. */
  readonly logits?: Float32Array;
}

/** Timing of one compilation (per batch size). */
export interface CompileStats {
  /** Tracing forward, loss, backward and update (ms). */
  readonly traceMs: number;
  /** ONNX lowering and ORT session creation (ms). */
  readonly sessionMs: number;
  /** Nodes in the traced graph. */
  readonly nodes: number;
}

/** What a traced graph computes: the whole step, or only the gradient (for data-parallel replicas). */
type TraceMode = 'step' | 'gradient';

interface Compiled {
  readonly graph: Graph;
  readonly masks: readonly { name: string; size: number; rate: number }[];
  session: Session | null;
  stats: { traceMs: number; sessionMs: number; nodes: number };
}

/** A compiled train step (see the module comment for its graph signature). */
export class TrainStep {
  readonly layout: ModelLayout;
  /** Data-parallel replicas (1: one session on the calling thread). */
  readonly replicas: number;
  private readonly cache = new Map<string, Compiled>();
  private readonly decayPaths: readonly boolean[];
  private replicated: ReplicatedUpdate | null = null;

  constructor(
    readonly model: Model,
    readonly lossFn: LossFn,
    readonly optimizer: Optimizer,
    readonly options: TrainStepOptions,
  ) {
    if (typeof lossFn !== 'function') throw new InvalidArgumentError('lossFn', 'a loss function (logits, targets, extras) → { loss, terms }', describe(lossFn));
    const batch = options?.batch;
    if (!Number.isInteger(batch) || batch < 1) throw new InvalidArgumentError('options.batch', 'a positive integer', describe(batch));
    const packing = options.packing ?? 'flat';
    if (packing !== 'flat' && packing !== 'tensors') throw new InvalidArgumentError('options.packing', 'flat or tensors', describe(packing));
    const targets = options.targets ?? 'labels';
    if (targets !== 'labels' && targets !== 'soft') throw new InvalidArgumentError('options.targets', 'labels or soft', describe(targets));
    for (const name of Object.keys(options.extras ?? {})) {
      if (!/^[A-Za-z_][\w-]*$/.test(name)) throw new InvalidArgumentError(`options.extras.${name}`, 'a name of letters, digits, _ and -', JSON.stringify(name));
    }
    this.replicas = options.replicas ?? 1;
    if (!Number.isInteger(this.replicas) || this.replicas < 1) throw new InvalidArgumentError('options.replicas', 'a positive integer', describe(options.replicas));
    if (this.replicas > 1) {
      if (packing !== 'flat') throw new InvalidArgumentError('options.replicas', '1 with tensor packing (replicas need flat packing)', String(this.replicas));
      for (const [name, spec] of Object.entries(options.extras ?? {})) {
        if (spec.shape.includes(-1) && !(spec.rows === true && spec.shape[0] === -1 && spec.shape.indexOf(-1, 1) === -1)) {
          throw new InvalidArgumentError(
            'options.replicas',
            `1 for a step whose extra input ${name} is batch-shaped but not row-wise (e.g. a permutation of the batch, as manifold mixup feeds)`,
            String(this.replicas),
          );
        }
      }
    }
    this.layout = new ModelLayout(model);
    this.decayPaths = this.layout.params.entries.map((e) => (options.weightDecay ? options.weightDecay(e.name) === true : true));
  }

  /** Batch size of `x` (validated). */
  batchSizeOf(x: ArrayLike<number>): number {
    const b = x.length / this.layout.exampleSize;
    if (!Number.isInteger(b) || b < 1) throw new InvalidArgumentError('batch.x', `a multiple of ${this.layout.exampleSize} values ([B, ${this.model.input.shape.join(', ')}])`, String(x.length));
    return b;
  }

  /** The traced step graph for batch size `b` (cached). */
  graph(b: number): Graph {
    return this.compiled(b).graph;
  }

  /** The ORT session for batch size `b` (traced and compiled on first use, then cached). */
  session(b: number): Session {
    return this.sessionOf(this.compiled(b));
  }

  /** `c`'s ORT session, compiled on first use (its time kept in c.stats). */
  private sessionOf(c: Compiled): Session {
    if (!c.session) {
      const t0 = performance.now();
      c.session = compile(c.graph, { threads: this.options.threads ?? 2, ...(this.options.nchwc === false ? { nchwc: false } : {}) });
      c.stats.sessionMs = performance.now() - t0;
    }
    return c.session;
  }

  /** Whether `run` updates the state on the host (see TrainStepOptions.hostUpdate) for a batch that is not sharded. */
  get updatesOnHost(): boolean {
    return this.options.hostUpdate !== false && this.optimizer.hostUpdate !== undefined && (this.options.packing ?? 'flat') === 'flat' && this.replicas === 1 && this.decayPaths.every((d) => d);
  }

  /** The ORT session of the gradient-only graph for batch size `b` (forward, loss, backward; no update). */
  gradientSession(b: number): Session {
    return this.sessionOf(this.compiled(b, 'gradient'));
  }

  /**
   * Compilation timings of what was compiled so far: whole steps by batch size ("128"), the replicas' gradient
   * graphs by shard size ("gradient:64").
   */
  compileStats(): Record<string, CompileStats> {
    return Object.fromEntries([...this.cache].map(([key, c]) => [key.startsWith('step:') ? key.slice(5) : key, { ...c.stats }]));
  }

  /**
   * The feeds of one step for `state` (drawing dropout masks from `state.rng`): exposed so tests can run the
   * same graph in the float64 reference evaluator.
   */
  feeds(state: TrainState, batch: TrainBatch, lr: number): Record<string, Feed> {
    const b = this.batchSizeOf(batch.x);
    const c = this.compiled(b);
    const feeds: Record<string, Feed> = { x: batch.x, y: batch.y instanceof BigInt64Array ? Int32Array.from(batch.y, (v) => Number(v)) : batch.y };
    for (const name of Object.keys(this.options.extras ?? {})) {
      const v = batch.extras?.[name];
      if (v === undefined) throw new InvalidArgumentError(`batch.extras.${name}`, 'a value for the declared extra input', 'nothing');
      feeds[`extras.${name}`] = v;
    }
    const scalars = this.optimizer.scalars(state.step + 1, lr);
    for (const name of this.optimizer.scalarNames) feeds[`hyper.${name}`] = scalars[name]!;
    if ((this.options.packing ?? 'flat') === 'flat') {
      feeds['params'] = state.params;
      if (this.layout.buffers.size > 0) feeds['buffers'] = state.buffers;
      for (const s of this.optimizer.slots) feeds[`opt.${s}`] = requireSlot(state, s);
    } else {
      for (const [k, v] of Object.entries(this.layout.params.views(state.params))) feeds[`params/${k}`] = v;
      for (const [k, v] of Object.entries(this.layout.buffers.views(state.buffers))) feeds[`buffers/${k}`] = v;
      for (const s of this.optimizer.slots) {
        for (const [k, v] of Object.entries(this.layout.params.views(requireSlot(state, s)))) feeds[`opt.${s}/${k}`] = v;
      }
    }
    for (const m of c.masks) feeds[m.name] = dropoutMask(state.rng, m.size, m.rate);
    return feeds;
  }

  /** Write a step's outputs into `state` (new arrays in flat mode, copies in tensor mode), advance the step (graph updates). */
  absorb(state: TrainState, out: RunOutputs): StepResult {
    if ((this.options.packing ?? 'flat') === 'flat') {
      state.params = out['params'] as Float32Array;
      if (this.layout.buffers.size > 0) state.buffers = out['buffers'] as Float32Array;
      for (const s of this.optimizer.slots) state.opt[s] = out[`opt.${s}`] as Float32Array;
    } else {
      for (const e of this.layout.params.entries) {
        state.params.set(out[`params/${e.name}`] as Float32Array, e.offset);
        for (const s of this.optimizer.slots) state.opt[s]!.set(out[`opt.${s}/${e.name}`] as Float32Array, e.offset);
      }
      for (const e of this.layout.buffers.entries) state.buffers.set(out[`buffers/${e.name}`] as Float32Array, e.offset);
    }
    state.step += 1;
    return stepResult(out);
  }

  /** One training step on `batch` at learning rate `lr`: updates `state` in place and reports the loss. */
  run(state: TrainState, batch: TrainBatch, lr: number): StepResult {
    const b = this.batchSizeOf(batch.x);
    if (this.replicas > 1 && b >= this.replicas) {
      this.replicated ??= new ReplicatedUpdate(this, this.replicas);
      return this.replicated.run(state, batch, lr, b);
    }
    const feeds = this.feeds(state, batch, lr);
    if (this.updatesOnHost) return this.runWithHostUpdate(state, feeds, lr, b);
    return this.absorb(state, this.session(b).run(feeds));
  }

  /** The gradient graph on `feeds` (the step's, less the optimizer's inputs), then the optimizer's host update. */
  private runWithHostUpdate(state: TrainState, feeds: Record<string, Feed>, lr: number, b: number): StepResult {
    const gradientFeeds: Record<string, Feed> = {};
    for (const [k, v] of Object.entries(feeds)) if (!k.startsWith('hyper.') && !k.startsWith('opt.')) gradientFeeds[k] = v;
    const out = this.gradientSession(b).run(gradientFeeds);
    const slots = Object.fromEntries(this.optimizer.slots.map((s) => [s, requireSlot(state, s)]));
    const updated = this.optimizer.hostUpdate!(state.params, out['grad'] as Float32Array, slots, this.optimizer.scalars(state.step + 1, lr));
    state.params = updated.params;
    for (const s of this.optimizer.slots) state.opt[s] = updated.slots[s]!;
    if (this.layout.buffers.size > 0) state.buffers = out['buffers'] as Float32Array;
    state.step += 1;
    return stepResult(out);
  }

  /** Release every compiled session. */
  dispose(): void {
    for (const c of this.cache.values()) c.session?.dispose();
    this.cache.clear();
    this.replicated?.dispose();
    this.replicated = null;
  }

  /** The traced graph of batch size `b` in `mode` (cached; 'gradient' graphs serve the replicas). */
  compiled(b: number, mode: TraceMode = 'step'): Compiled {
    const key = `${mode}:${b}`;
    let c = this.cache.get(key);
    if (!c) {
      const t0 = performance.now();
      c = this.trace(b, mode);
      c.stats.traceMs = performance.now() - t0;
      this.cache.set(key, c);
    }
    return c;
  }

  /** The optimizer update of the flat parameter vector (decay mask from `weightDecay`). */
  flatUpdate(flatParams: Tensor, gFlat: Tensor, slotInputs: Record<string, Tensor>, hyper: Record<string, Tensor>): { param: Tensor; state: Record<string, Tensor> } {
    const { layout } = this;
    let mask: Tensor | number = 1;
    if (!this.decayPaths.every((d) => d)) {
      const m = new Float32Array(layout.params.size);
      layout.params.entries.forEach((e, i) => m.fill(this.decayPaths[i] ? 1 : 0, e.offset, e.offset + e.size));
      mask = constant(m, { shape: [layout.params.size], dtype: 'float32' });
    }
    return this.optimizer.update({ param: flatParams, grad: gFlat, state: slotInputs, scalars: hyper, decayMask: mask });
  }

  private trace(b: number, mode: TraceMode): Compiled {
    const { model, optimizer, options, layout } = this;
    const flat = (options.packing ?? 'flat') === 'flat';
    const { inputs, input } = graphInputs();
    const x = input('x', model.input.dtype, [b, ...model.input.shape]);
    // Dense models (model.outputSpatial, e.g. segmentation): labels [b, H, W] against logits [b, C, H, W].
    const spatial = model.outputSpatial ?? [];
    if (spatial.length > 0 && (options.targets ?? 'labels') !== 'labels')
      throw new InvalidArgumentError('options.targets', 'labels for a dense model (per-position soft targets are not supported)', 'soft');
    const y = (options.targets ?? 'labels') === 'labels' ? input('y', 'int32', [b, ...spatial]) : input('y', 'float32', [b, model.numClasses]);
    const extras: Record<string, Tensor> = {};
    for (const [name, spec] of Object.entries(options.extras ?? {})) {
      extras[name] = input(
        `extras.${name}`,
        spec.dtype,
        spec.shape.map((d) => (d === -1 ? b : d)),
      );
    }
    const hyper: Record<string, Tensor> = {};
    if (mode === 'step') for (const name of optimizer.scalarNames) hyper[name] = input(`hyper.${name}`, 'float32', []);

    // State inputs.
    let params: Record<string, Tensor>, buffers: Record<string, Tensor>;
    let flatParams: Tensor | null = null;
    const slotInputs: Record<string, Tensor> = {};
    const slotTrees: Record<string, Record<string, Tensor>> = {};
    if (flat) {
      flatParams = input('params', 'float32', [layout.params.size]);
      params = layout.params.unpack(flatParams);
      buffers = layout.buffers.size > 0 ? layout.buffers.unpack(input('buffers', 'float32', [layout.buffers.size])) : {};
      if (mode === 'step') for (const s of optimizer.slots) slotInputs[s] = input(`opt.${s}`, 'float32', [layout.params.size]);
    } else {
      params = Object.fromEntries(layout.params.entries.map((e) => [e.name, input(`params/${e.name}`, 'float32', e.shape)]));
      buffers = Object.fromEntries(layout.buffers.entries.map((e) => [e.name, input(`buffers/${e.name}`, 'float32', e.shape)]));
      for (const s of optimizer.slots) slotTrees[s] = Object.fromEntries(layout.params.entries.map((e) => [e.name, input(`opt.${s}/${e.name}`, 'float32', e.shape)]));
    }

    // Forward (training mode) with dropout masks as fresh inputs.
    const masks: { name: string; size: number; rate: number }[] = [];
    const dropout = (layer: string, shape: Shape, rate: number): Tensor => {
      const name = `dropout.${layer}`;
      if (masks.some((m) => m.name === name)) throw new InvalidArgumentError('model', 'distinct dropout layer names', JSON.stringify(layer));
      masks.push({ name, size: shape.reduce((a, c) => a * c, 1), rate });
      return input(name, 'float32', shape);
    };
    const fwd = model.forward(params, buffers, x, { training: true, dropout, ...(options.features ? { features: options.features(extras) } : {}) });
    if (fwd.logits.shape.join(',') !== [b, model.numClasses, ...spatial].join(',')) {
      throw new InvalidArgumentError('model.forward', `logits [${[b, model.numClasses, ...spatial].join(', ')}]`, `[${fwd.logits.shape.join(', ')}]`);
    }
    const { loss, terms } = this.lossFn(fwd.logits, y, extras);
    if (!loss || loss.rank !== 0) throw new InvalidArgumentError('lossFn result.loss', 'a scalar tensor', loss ? `shape [${loss.shape.join(', ')}]` : 'nothing');

    // Backward and update.
    const entries = layout.params.entries;
    const grads = grad(
      loss,
      entries.map((e) => params[e.name]!),
    );
    const outputs: GraphOutput[] = [];
    if (flat) {
      const gFlat = concat(
        grads.map((g) => g.reshape([g.size])),
        0,
      );
      if (mode === 'gradient') {
        outputs.push({ name: 'grad', tensor: gFlat });
      } else {
        const r = this.flatUpdate(flatParams!, gFlat, slotInputs, hyper);
        outputs.push({ name: 'params', tensor: r.param });
        for (const s of optimizer.slots) outputs.push({ name: `opt.${s}`, tensor: r.state[s]! });
      }
      if (layout.buffers.size > 0) outputs.push({ name: 'buffers', tensor: layout.buffers.pack(fwd.buffers) });
    } else {
      entries.forEach((e, i) => {
        const state = Object.fromEntries(optimizer.slots.map((s) => [s, slotTrees[s]![e.name]!]));
        const r = optimizer.update({ param: params[e.name]!, grad: grads[i]!, state, scalars: hyper, decayMask: this.decayPaths[i] ? 1 : 0 });
        outputs.push({ name: `params/${e.name}`, tensor: r.param });
        for (const s of optimizer.slots) outputs.push({ name: `opt.${s}/${e.name}`, tensor: r.state[s]! });
      });
      for (const e of layout.buffers.entries) outputs.push({ name: `buffers/${e.name}`, tensor: fwd.buffers[e.name]! });
    }
    outputs.push({ name: 'loss', tensor: loss });
    for (const [k, t] of Object.entries(terms ?? {})) {
      if (t.rank !== 0) throw new InvalidArgumentError(`lossFn result.terms.${k}`, 'a scalar tensor', `shape [${t.shape.join(', ')}]`);
      outputs.push({ name: `terms.${k}`, tensor: t });
    }
    if (options.outputLogits) outputs.push({ name: 'logits', tensor: fwd.logits });
    const graph = buildGraph(`${model.kind}_train_${mode}`, inputs, outputs);
    return { graph, masks, session: null, stats: { traceMs: 0, sessionMs: 0, nodes: graph.nodes.length } };
  }
}

/** Loss, terms and (when output) logits of a step's outputs. */
function stepResult(out: RunOutputs): StepResult {
  const terms: Record<string, number> = {};
  for (const [k, v] of Object.entries(out)) if (k.startsWith('terms.')) terms[k.slice(6)] = Number(v[0]);
  return { loss: Number(out['loss']![0]), terms, ...(out['logits'] ? { logits: out['logits'] as Float32Array } : {}) };
}

function requireSlot(state: TrainState, slot: string): Float32Array {
  const v = state.opt[slot];
  if (!v) throw new InvalidArgumentError(`state.opt.${slot}`, 'the optimizer slot (state made for another optimizer?)', 'nothing');
  return v;
}

/**
 * Compile the train step of `model` with `lossFn` and `optimizer` for `options.batch` (trace + ONNX + session
 * now; other batch sizes on first use).
 */
export function compileTrainStep(model: Model, lossFn: LossFn, optimizer: Optimizer, options: TrainStepOptions): TrainStep {
  const step = new TrainStep(model, lossFn, optimizer, options);
  if (step.updatesOnHost) step.gradientSession(options.batch);
  else step.session(options.batch);
  return step;
}
