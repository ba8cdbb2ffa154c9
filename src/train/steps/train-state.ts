/**
 * Host state of a training run: flat float32 vectors for the parameters, the buffers (batch-norm running
 * statistics) and each optimizer slot (layouts: `ModelLayout`), the number of updates done, and the seeded
 * generator that draws the step's random inputs (dropout masks). A compiled train step replaces the arrays
 * with its outputs and increments `step`; checkpoints save and restore all of it exactly.
 */
import { describe, InvalidArgumentError } from '../../util/errors.js';
import { Random } from '../../util/random.js';
import { initModel, type Model } from '../../nn/model.js';
import type { Optimizer } from '../../optim/optimizer.js';
import { ModelLayout } from './model-layout.js';

export class TrainState {
  constructor(
    public params: Float32Array,
    public buffers: Float32Array,
    public opt: Record<string, Float32Array>,
    public step: number,
    readonly rng: Random,
  ) {}

  /** A deep copy (arrays and generator state). */
  clone(): TrainState {
    const rng = new Random(0);
    rng.setState(this.rng.getState());
    return new TrainState(this.params.slice(), this.buffers.slice(), Object.fromEntries(Object.entries(this.opt).map(([k, v]) => [k, v.slice()])), this.step, rng);
  }
}

/**
 * Initial state: parameters and buffers drawn by `initModel` from a generator seeded with `seed`, zero optimizer
 * slots, step 0; the same generator (continued) draws the per-step random inputs.
 */
export function createTrainState(model: Model, optimizer: Optimizer, seed: number): TrainState {
  if (!Number.isInteger(seed)) throw new InvalidArgumentError('seed', 'an integer', describe(seed));
  const rng = new Random(seed);
  const layout = new ModelLayout(model);
  const flat = layout.pack(initModel(model, rng));
  const opt = Object.fromEntries(optimizer.slots.map((s) => [s, new Float32Array(layout.params.size)]));
  return new TrainState(flat.params, flat.buffers, opt, 0, rng);
}
