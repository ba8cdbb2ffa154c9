/**
 * Text CNN over word embeddings (Kim 2014): token ids [N, L] (int32) → embedding [N, L, E] → for each filter
 * width k: conv over time with F filters (a conv2d on [N, E, L, 1] with kernel [k, 1]) → ReLU → global max
 * pooling over time → concatenate [N, F·|widths|] → dropout → Linear → logits. Defaults: widths 3, 4, 5;
 * F = 100; E = 128; dropout 0.5 (Kim); PyTorch default init, embedding N(0, 1).
 * Paths: embedding, convs.{j}, fc. Feature layers: 'embedding' ([N, L, E], embedding mixup mixes here),
 * 'pool'. Dropout layer: 'pool'.
 */
import { concat, type Tensor } from '../../engine/index.js';
import { conv2d } from '../conv2d.js';
import { embedding } from '../embedding.js';
import { ForwardContext } from '../forward-context.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model, positiveInt, rate } from '../model.js';
import { checkInitScheme, checkIntList, checkOptions, type InitScheme, weightInit } from './common.js';
import { InvalidArgumentError } from '../../util/errors.js';

/** Options of `textCnn`. */
export interface TextCnnOptions {
  readonly vocabularySize: number;
  /** Tokens per example L (sequences are padded/cut to this length by the data layer). */
  readonly sequenceLength: number;
  readonly numClasses?: number;
  readonly embeddingDim?: number;
  readonly filterWidths?: readonly number[];
  readonly filters?: number;
  readonly dropout?: number;
  readonly init?: InitScheme;
}

/** Build a text-CNN model description. */
export function textCnn(options: TextCnnOptions): Model {
  checkOptions('text-cnn', options, ['vocabularySize', 'sequenceLength', 'numClasses', 'embeddingDim', 'filterWidths', 'filters', 'dropout', 'init']);
  const vocabularySize = positiveInt('text-cnn options.vocabularySize', options.vocabularySize);
  const sequenceLength = positiveInt('text-cnn options.sequenceLength', options.sequenceLength);
  const numClasses = positiveInt('text-cnn options.numClasses', options.numClasses ?? 2);
  const dim = positiveInt('text-cnn options.embeddingDim', options.embeddingDim ?? 128);
  const widths = checkIntList('text-cnn options.filterWidths', options.filterWidths ?? [3, 4, 5], 1);
  const filters = positiveInt('text-cnn options.filters', options.filters ?? 100);
  const drop = rate('text-cnn options.dropout', options.dropout ?? 0.5);
  const init = checkInitScheme('text-cnn options.init', options.init ?? 'torch');
  if (widths.some((k) => k > sequenceLength)) throw new InvalidArgumentError('text-cnn options.filterWidths', `widths ≤ sequenceLength (${sequenceLength})`, JSON.stringify(widths));
  const wi = weightInit(init);
  const b = new DeclarationBuilder();
  const embed = embedding(b, 'embedding', { vocabularySize, dimension: dim });
  const convs = widths.map((k, j) => conv2d(b, `convs.${j}`, { inChannels: dim, outChannels: filters, kernel: [k, 1], weightInit: wi }));
  const head = linear(b, 'fc', { inFeatures: filters * widths.length, outFeatures: numClasses, weightInit: wi });
  return {
    kind: 'text-cnn',
    config: { vocabularySize, sequenceLength, numClasses, embeddingDim: dim, filterWidths: widths, filters, dropout: drop, init },
    input: { dtype: 'int32', shape: [sequenceLength] },
    numClasses,
    params: b.params,
    buffers: b.buffers,
    featureLayers: ['embedding', 'pool'],
    forward(params, buffers, ids, fo) {
      const ctx = new ForwardContext(params, buffers, fo);
      const n = ids.shape[0]!;
      const e = ctx.feature('embedding', embed(ctx, ids)); // [N, L, E]
      const x = e.transpose([0, 2, 1]).reshape([n, dim, sequenceLength, 1]);
      const pooled: Tensor[] = convs.map((conv) => conv(ctx, x).relu().max([2, 3])); // [N, F] each
      let h = pooled.length === 1 ? pooled[0]! : concat(pooled, 1);
      h = ctx.feature('pool', ctx.dropout('pool', h, drop));
      return { logits: head(ctx, h), buffers: ctx.finish() };
    },
  };
}
