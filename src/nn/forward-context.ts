/**
 * State of one traced forward pass: the parameter and buffer tensors, the mode, the feature hook, dropout
 * masks, and the buffer updates layers make (batch-norm running statistics). Models create one per call and
 * return `finish()` as their new buffers, so state flows explicitly in and out of the pure forward function.
 */
import { InvalidArgumentError } from '../util/errors.js';
import { dropout as dropoutOp, type Tensor } from '../engine/index.js';
import type { ForwardOptions } from './model.js';
import type { TensorTree } from './tree.js';

export class ForwardContext {
  private readonly updates = new Map<string, Tensor>();

  constructor(
    readonly params: TensorTree,
    readonly buffers: TensorTree,
    readonly options: ForwardOptions,
  ) {}

  get training(): boolean {
    return this.options.training;
  }

  /** The parameter at `path`. */
  param(path: string): Tensor {
    const t = this.params[path];
    if (!t) throw new InvalidArgumentError(`params["${path}"]`, 'a tensor', 'nothing (is the parameter tree from this model?)');
    return t;
  }

  /** True when a parameter exists at `path`. */
  has(path: string): boolean {
    return this.params[path] !== undefined;
  }

  /** The buffer at `path` (its value at the start of the pass). */
  buffer(path: string): Tensor {
    const t = this.buffers[path];
    if (!t) throw new InvalidArgumentError(`buffers["${path}"]`, 'a tensor', 'nothing (is the buffer tree from this model?)');
    return t;
  }

  /** Record the new value of the buffer at `path`. */
  setBuffer(path: string, value: Tensor): void {
    const old = this.buffer(path);
    if (old.dtype !== value.dtype || old.shape.join(',') !== value.shape.join(',')) {
      throw new InvalidArgumentError(`buffer update of ${path}`, `${old.dtype}[${old.shape.join(',')}]`, `${value.dtype}[${value.shape.join(',')}]`);
    }
    this.updates.set(path, value);
  }

  /** Pass an activation through the feature hook at `layer`. */
  feature(layer: string, h: Tensor): Tensor {
    const hook = this.options.features;
    if (!hook) return h;
    const out = hook(layer, h);
    if (out.shape.join(',') !== h.shape.join(',') || out.dtype !== h.dtype) {
      throw new InvalidArgumentError(`features hook at "${layer}"`, `a ${h.dtype}[${h.shape.join(',')}] tensor`, `${out.dtype}[${out.shape.join(',')}]`);
    }
    return out;
  }

  /**
   * Inverted dropout at `layer`: h · mask / (1 − rate) with a keep-mask from `options.dropout` (Srivastava et
   * al. 2014; PyTorch scales at training time the same way). Active exactly when a mask provider is given: the
   * train step gives one, the inference step does not, and MC dropout (Gal & Ghahramani 2016) gives one with
   * `training: false` (dropout on, batch norm on running statistics). Identity at rate 0.
   */
  dropout(layer: string, h: Tensor, rate: number): Tensor {
    if (rate === 0 || !this.options.dropout) return h;
    const mask = this.options.dropout(layer, h.shape, rate);
    if (!mask) return h;
    return dropoutOp(h, mask, rate);
  }

  /** Every buffer after the pass, in the input order (updated where a layer set one). */
  finish(): TensorTree {
    const out: Record<string, Tensor> = {};
    for (const [k, v] of Object.entries(this.buffers)) out[k] = this.updates.get(k) ?? v;
    return out;
  }
}
