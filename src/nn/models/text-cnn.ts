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
import { DeclarationBuilder, type Model } from '../model.js';
import { COUNT, countOption, countsOption, dropoutOption, initOption, type InitScheme, numClassesOption, parseModelOptions, weightInit } from './common.js';
import { InvalidArgumentError } from '../../util/errors.js';
import { described, object } from '../../util/schema.js';
import { defineModel } from './model-definition.js';

/** The options of `textCnn`: what each accepts, its default and description (util/schema.ts). */
export const TEXT_CNN_OPTIONS = object({
  vocabularySize: described(COUNT, 'vocabulary size (from the dataset under calib train)'),
  sequenceLength: described(COUNT, 'tokens per example L, padded/cut by the data layer (from the dataset under calib train)'),
  numClasses: numClassesOption(2),
  embeddingDim: countOption(128, 'word embedding dimension'),
  filterWidths: countsOption([3, 4, 5], 1, 'convolution widths in tokens (each ≤ sequenceLength)'),
  filters: countOption(100, 'filters per width'),
  dropout: dropoutOption(0.5, 'dropout rate before the classifier'),
  init: initOption('torch'),
});

/** Options of `textCnn` (defaults and descriptions: `TEXT_CNN_OPTIONS`). */
export interface TextCnnOptions {
  readonly vocabularySize: number;
  readonly sequenceLength: number;
  readonly numClasses?: number;
  readonly embeddingDim?: number;
  readonly filterWidths?: readonly number[];
  readonly filters?: number;
  readonly dropout?: number;
  readonly init?: InitScheme;
}

/** Build a text-CNN model description (`path` names the options in errors). */
export function textCnn(options: TextCnnOptions, path = 'text-cnn options'): Model {
  const o = parseModelOptions(TEXT_CNN_OPTIONS, options, path);
  const { vocabularySize, sequenceLength, numClasses, embeddingDim: dim, filterWidths: widths, filters, dropout: drop, init } = o;
  if (widths.some((k) => k > sequenceLength)) throw new InvalidArgumentError(`${path}.filterWidths`, `widths ≤ sequenceLength (${sequenceLength})`, JSON.stringify(widths));
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

/** The zoo's declaration of `text-cnn` (zoo.ts lists it). */
export const textCnnDefinition = defineModel({
  name: 'text-cnn',
  summary: 'Text CNN over word embeddings (Kim 2014): convolutions of widths 3, 4, 5, max-pooling over time',
  task: 'text',
  options: TEXT_CNN_OPTIONS,
  create: textCnn,
});
