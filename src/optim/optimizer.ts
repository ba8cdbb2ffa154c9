/**
 * Optimizers as traced graph updates (Optax-style pure init/update pairs with explicit state). One update is
 * part of the compiled train step: the whole parameter set may be ONE flat vector (the fast path: a handful
 * of element-wise ops over all parameters) or one tensor per parameter — the rules are element-wise, so the
 * same `update` serves both. Per-step scalars (the learning rate from a host-side schedule, bias corrections)
 * are computed on the host by `scalars(step, lr)` and fed as graph inputs, so one compiled step serves a run.
 */
import type { Tensor } from '../engine/index.js';

/** Arguments of one traced update of a parameter block. */
export interface UpdateArgs {
  /** Current parameters (any shape). */
  readonly param: Tensor;
  /** Gradient of the loss, same shape. */
  readonly grad: Tensor;
  /** State slots, each the parameters' shape (`optimizer.slots`). */
  readonly state: Readonly<Record<string, Tensor>>;
  /** Host scalars of this step (`optimizer.scalars`), as scalar tensors. */
  readonly scalars: Readonly<Record<string, Tensor>>;
  /**
   * Where weight decay applies: a 0/1 tensor broadcastable to the parameters, or a number (1 = everywhere,
   * 0 = nowhere). PyTorch applies weight decay to every parameter given to the optimizer (1).
   */
  readonly decayMask: Tensor | number;
}

/** Result of one traced update. */
export interface UpdateResult {
  readonly param: Tensor;
  readonly state: Readonly<Record<string, Tensor>>;
}

/** An optimizer: hyperparameters, state slot names, host scalars per step, and the traced update rule. */
export interface Optimizer {
  /** 'sgd', 'adam' or 'adamw'. */
  readonly kind: string;
  /** Hyperparameters (JSON-serialisable; checkpoints record them). */
  readonly config: Readonly<Record<string, unknown>>;
  /** Per-parameter state slots (zeros at init), e.g. ['momentum'] or ['m', 'v']; may be empty. */
  readonly slots: readonly string[];
  /** Names of the scalars `scalars` returns (fixed; they become graph inputs). */
  readonly scalarNames: readonly string[];
  /**
   * Host scalars for update number `step` (1-based: the first update is step 1, as PyTorch's state['step']
   * after its increment) at learning rate `lr`.
   */
  scalars(step: number, lr: number): Record<string, number>;
  /** The traced update rule. */
  update(args: UpdateArgs): UpdateResult;
  /**
   * The same update on the host, where one exists that gives bit-identical float32 results (SGD with momentum and
   * weight decay: sgd-host-kernel.ts): the flat parameters and each slot updated IN PLACE from the flat gradient and
   * this update's `scalars` (returned for convenience), with weight decay on every parameter. Absent: the update runs
   * inside the step graph.
   */
  readonly hostUpdate?: (params: Float32Array, grad: Float32Array, slots: Readonly<Record<string, Float32Array>>, scalars: Readonly<Record<string, number>>) => HostUpdateResult;
}

/** What a host update returns. */
export interface HostUpdateResult {
  readonly params: Float32Array;
  readonly slots: Record<string, Float32Array>;
}

/** Multiply by a decay mask unless it is the number 1. */
export function masked(t: Tensor, mask: Tensor | number): Tensor {
  return typeof mask === 'number' ? (mask === 1 ? t : t.mul(mask)) : t.mul(mask);
}
