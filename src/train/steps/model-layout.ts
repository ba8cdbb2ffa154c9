/**
 * Flat-vector layouts of a model's parameters and buffers (declaration order). Host state is kept as one
 * Float32Array per group (parameters, buffers, each optimizer slot); these layouts slice them by path.
 */
import { FlatLayout, shapeSize } from '../../engine/index.js';
import { bufferShapes, type Model, type ModelState, paramShapes } from '../../nn/model.js';
import type { HostTree } from '../../nn/tree.js';

/** Parameter and buffer layouts of a model, and the size of one example of its input. */
export class ModelLayout {
  readonly params: FlatLayout;
  readonly buffers: FlatLayout;
  /** Values per example of the input (the product of `model.input.shape`): x of a batch of B holds B times this. */
  readonly exampleSize: number;

  constructor(readonly model: Model) {
    this.params = new FlatLayout(paramShapes(model));
    this.buffers = new FlatLayout(bufferShapes(model));
    this.exampleSize = shapeSize(model.input.shape);
  }

  /** Pack host trees into flat arrays (copies). */
  pack(state: ModelState): { params: Float32Array; buffers: Float32Array } {
    return {
      params: this.params.packHost(state.params, new Float32Array(this.params.size)),
      buffers: this.buffers.packHost(state.buffers, new Float32Array(this.buffers.size)),
    };
  }

  /** Views (no copy) of flat arrays as trees. */
  unpack(flat: { params: Float32Array; buffers: Float32Array }): ModelState {
    return { params: this.params.views(flat.params) as HostTree, buffers: this.buffers.views(flat.buffers) as HostTree };
  }
}
