/**
 * Data-parallel replicas of a train step (TrainStepOptions.replicas = R > 1): a batch of B rows is split into R
 * contiguous shards of ⌈B/R⌉ or ⌊B/R⌋ rows; each shard's gradient graph (forward + loss + backward, no update)
 * runs on its own worker thread with a single-thread-ish ORT session (engine/runtime/session-workers.ts), all at
 * once; then on the calling thread
 *
 *   g = Σ_r (B_r / B) · g_r        (the gradient of the batch-mean loss when the loss is a mean over rows)
 *   loss, terms = Σ_r (B_r / B) · value_r,   running buffers = Σ_r (B_r / B) · buffers_r,   logits = concat_r
 *
 * and one compiled optimizer update (params, g, optimizer slots, schedule scalars → params, slots). Dropout masks
 * are drawn shard after shard from the state's generator. Terms computed over the whole batch (batch-norm
 * statistics, MMCE, soft-binned ECE, …) are computed per shard, as PyTorch's DistributedDataParallel without
 * SyncBatchNorm does. The state is the same as without replicas, so checkpoints and exact resume are unchanged.
 */
import { buildGraph, compile, dropoutMask, type Feed, type GraphOutput, type RunOutputs, type Session } from '../../engine/index.js';
import { SessionWorkers } from '../../engine/runtime/session-workers.js';
import type { StepResult, TrainBatch, TrainStep } from './compile-train-step.js';
import { graphInputs } from './graph-inputs.js';
import type { TrainState } from './train-state.js';

/** Row counts of the R shards of a batch of `b` rows: the first b mod R shards get one row more. */
export function shardSizes(b: number, replicas: number): number[] {
  return Array.from({ length: replicas }, (_, r) => Math.floor(b / replicas) + (r < b % replicas ? 1 : 0));
}

/** The replicated execution of one TrainStep (created on its first replicated batch). */
export class ReplicatedUpdate {
  private readonly workers: SessionWorkers;
  private readonly loaded = new Set<number>();
  private update: Session | null = null;
  private readonly threadsEach: number;

  constructor(
    private readonly step: TrainStep,
    readonly replicas: number,
  ) {
    this.workers = new SessionWorkers(replicas);
    this.threadsEach = Math.max(1, Math.floor((step.options.threads ?? 2) / replicas));
  }

  run(state: TrainState, batch: TrainBatch, lr: number, b: number): StepResult {
    const { step } = this;
    const sizes = shardSizes(b, this.replicas);
    const requests = sizes.map((size, r) => {
      const offset = sizes.slice(0, r).reduce((a, c) => a + c, 0);
      return { key: this.gradientKey(size), feeds: this.shardFeeds(state, batch, offset, size) };
    });
    const outs = this.workers.runEach(requests);
    const P = step.layout.params.size;
    const grad = new Float32Array(P);
    const acc = new Float64Array(P);
    let loss = 0;
    const terms: Record<string, number> = {};
    const Q = step.layout.buffers.size;
    const buffers = Q > 0 ? new Float64Array(Q) : null;
    outs.forEach((o, r) => {
      const w = sizes[r]! / b;
      const g = o['grad'] as Float32Array;
      for (let i = 0; i < P; i++) acc[i]! += w * g[i]!;
      loss += w * Number(o['loss']![0]);
      for (const [k, v] of Object.entries(o)) if (k.startsWith('terms.')) terms[k.slice(6)] = (terms[k.slice(6)] ?? 0) + w * Number(v[0]);
      if (buffers) {
        const q = o['buffers'] as Float32Array;
        for (let i = 0; i < Q; i++) buffers[i]! += w * q[i]!;
      }
    });
    grad.set(acc);
    const updated = this.updateSession().run(this.updateFeeds(state, grad, lr));
    state.params = updated['params'] as Float32Array;
    for (const s of step.optimizer.slots) state.opt[s] = updated[`opt.${s}`] as Float32Array;
    if (buffers) state.buffers = Float32Array.from(buffers);
    state.step += 1;
    const logits = step.options.outputLogits ? concatRows(outs) : undefined;
    return { loss, terms, ...(logits ? { logits } : {}) };
  }

  dispose(): void {
    this.update?.dispose();
    this.workers.dispose();
  }

  /** Key of the gradient session of shard size `size` in every worker (traced and loaded on first use). */
  private gradientKey(size: number): string {
    const key = `gradient:${size}`;
    if (!this.loaded.has(size)) {
      const c = this.step.compiled(size, 'gradient');
      const t0 = performance.now();
      this.workers.load(key, c.graph, this.threadsEach, this.step.options.nchwc === false ? { nchwc: false } : {});
      c.stats.sessionMs = performance.now() - t0;
      this.loaded.add(size);
    }
    return key;
  }

  /** Feeds of the shard of `size` rows starting at row `offset`. */
  private shardFeeds(state: TrainState, batch: TrainBatch, offset: number, size: number): Record<string, Feed> {
    const { step } = this;
    const per = step.layout.exampleSize;
    const y = batch.y instanceof BigInt64Array ? Int32Array.from(batch.y, (v) => Number(v)) : batch.y;
    const yWidth = y.length / step.batchSizeOf(batch.x);
    const feeds: Record<string, Feed> = {
      x: batch.x.slice(offset * per, (offset + size) * per),
      y: y.slice(offset * yWidth, (offset + size) * yWidth),
      params: state.params,
    };
    if (step.layout.buffers.size > 0) feeds['buffers'] = state.buffers;
    for (const [name, spec] of Object.entries(step.options.extras ?? {})) {
      const v = batch.extras?.[name];
      if (v === undefined) throw new Error(`batch.extras.${name}: expected a value for the declared extra input, got nothing`);
      if (spec.rows && typeof v !== 'number') {
        const width = spec.shape.slice(1).reduce((a, c) => a * c, 1);
        feeds[`extras.${name}`] = (v as Float32Array).slice(offset * width, (offset + size) * width);
      } else {
        feeds[`extras.${name}`] = v;
      }
    }
    for (const m of step.compiled(size, 'gradient').masks) feeds[m.name] = dropoutMask(state.rng, m.size, m.rate);
    return feeds;
  }

  private updateFeeds(state: TrainState, grad: Float32Array, lr: number): Record<string, Feed> {
    const { optimizer } = this.step;
    const feeds: Record<string, Feed> = { params: state.params, grad };
    for (const s of optimizer.slots) feeds[`opt.${s}`] = state.opt[s]!;
    const scalars = optimizer.scalars(state.step + 1, lr);
    for (const name of optimizer.scalarNames) feeds[`hyper.${name}`] = scalars[name]!;
    return feeds;
  }

  /** The optimizer update as its own small graph: params, grad, slots, scalars → params, slots. */
  private updateSession(): Session {
    if (this.update) return this.update;
    const { step } = this;
    const P = step.layout.params.size;
    const { inputs, input } = graphInputs();
    const params = input('params', 'float32', [P]);
    const grad = input('grad', 'float32', [P]);
    const slots = Object.fromEntries(step.optimizer.slots.map((s) => [s, input(`opt.${s}`, 'float32', [P])]));
    const hyper = Object.fromEntries(step.optimizer.scalarNames.map((n) => [n, input(`hyper.${n}`, 'float32', [])]));
    const r = step.flatUpdate(params, grad, slots, hyper);
    const outputs: GraphOutput[] = [{ name: 'params', tensor: r.param }, ...step.optimizer.slots.map((s) => ({ name: `opt.${s}`, tensor: r.state[s]! }))];
    this.update = compile(buildGraph(`${step.model.kind}_update`, inputs, outputs), { threads: step.options.threads ?? 2 });
    return this.update;
  }
}

function concatRows(outs: readonly RunOutputs[]): Float32Array {
  const parts = outs.map((o) => o['logits'] as Float32Array);
  const all = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}
