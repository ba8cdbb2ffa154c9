/**
 * Embedding layer (PyTorch nn.Embedding): table `<path>.weight` [V, D] ~ N(0, 1) (PyTorch default);
 * ids int32 [...] with values in [0, V) → [..., D].
 */
import { embedding as embeddingOp, type Tensor } from '../engine/index.js';
import type { ForwardContext } from './forward-context.js';
import { type Initializer, normal } from './init.js';
import { type DeclarationBuilder, positiveInt } from './model.js';
import { joinPath } from './tree.js';

/** Options of `embedding`. */
export interface EmbeddingOptions {
  readonly vocabularySize: number;
  readonly dimension: number;
  readonly init?: Initializer;
}

/** Declare `<path>.weight` [V, D]; returns the lookup function. */
export function embedding(b: DeclarationBuilder, path: string, o: EmbeddingOptions): (ctx: ForwardContext, ids: Tensor) => Tensor {
  const v = positiveInt(`${path}.vocabularySize`, o.vocabularySize);
  const d = positiveInt(`${path}.dimension`, o.dimension);
  const w = joinPath(path, 'weight');
  b.param(w, [v, d], o.init ?? normal(0, 1));
  return (ctx, ids) => embeddingOp(ctx.param(w), ids);
}
