/**
 * VGG-style CNN with batch norm (Simonyan & Zisserman 2015; the CIFAR variant of kuangliu/pytorch-cifar):
 * stages of conv3×3(padding 1) → BN → ReLU, each stage ended by max-pool 2×2, then flatten → (dropout, option `dropout`) → Linear → logits.
 * Configurations 11/13/16/19 as the paper's A/B/D/E (64, 128, 256, 512, 512 channels); `widthScale` divides the
 * channel counts (small models for tests and demos). PyTorch default init.
 * Paths: features.{i}.conv / features.{i}.bn for the i-th conv, classifier.
 * Feature layers: 'input', 'stage1' … 'stage5' (after each pool), 'pool' (flattened).
 */
import { maxPool2d } from '../../engine/index.js';
import { InvalidArgumentError } from '../../util/errors.js';
import { object } from '../../util/schema.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import { ForwardContext } from '../forward-context.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model } from '../model.js';
import { type ClassifierOptions, countOption, depthOption, dropoutOption, initOption, inputShapeOption, numClassesOption, parseModelOptions, weightInit } from './common.js';
import { defineModel } from './model-definition.js';

/** Convolutions per stage of each configuration. */
const CONFIGS: Readonly<Record<number, readonly number[]>> = { 11: [1, 1, 2, 2, 2], 13: [2, 2, 2, 2, 2], 16: [2, 2, 3, 3, 3], 19: [2, 2, 4, 4, 4] };
const STAGE_WIDTHS = [64, 128, 256, 512, 512];

/** The options of `vgg`: what each accepts, its default and description (util/schema.ts). */
export const VGG_OPTIONS = object({
  depth: depthOption(CONFIGS, 16),
  numClasses: numClassesOption(),
  inputShape: inputShapeOption([3, 32, 32], 3),
  widthScale: countOption(1, 'divide every channel count by this'),
  dropout: dropoutOption(0, 'dropout rate before the classifier'),
  init: initOption('torch'),
});

/** Options of `vgg` (defaults and descriptions: `VGG_OPTIONS`; H and W of the input divisible by 32). */
export interface VggOptions extends ClassifierOptions {
  readonly depth?: number;
  readonly widthScale?: number;
}

/** Build a VGG-BN model description (`path` names the options in errors). */
export function vgg(options: VggOptions = {}, path = 'vgg options'): Model {
  const o = parseModelOptions(VGG_OPTIONS, options, path);
  const { depth, numClasses, widthScale: scale, dropout: drop, init } = o;
  const config = CONFIGS[depth]!;
  const inputShape = o.inputShape as [number, number, number];
  if (inputShape[1] % 32 !== 0 || inputShape[2] % 32 !== 0) throw new InvalidArgumentError(`${path}.inputShape`, 'H and W divisible by 32', JSON.stringify(inputShape));
  const wi = weightInit(init);
  const b = new DeclarationBuilder();
  let inC = inputShape[0];
  let index = 0;
  const stages = config.map((count, s) =>
    Array.from({ length: count }, () => {
      const out = Math.max(1, Math.floor(STAGE_WIDTHS[s]! / scale));
      const conv = conv2d(b, `features.${index}.conv`, { inChannels: inC, outChannels: out, kernel: 3, padding: 1, weightInit: wi });
      const bn = batchNorm(b, `features.${index}.bn`, { channels: out });
      index++;
      inC = out;
      return (ctx: ForwardContext, x: Parameters<typeof conv>[1]) => bn(ctx, conv(ctx, x)).relu();
    }),
  );
  const flat = inC * (inputShape[1] / 32) * (inputShape[2] / 32);
  const head = linear(b, 'classifier', { inFeatures: flat, outFeatures: numClasses, weightInit: wi });
  return {
    kind: 'vgg',
    config: { depth, numClasses, inputShape, widthScale: scale, dropout: drop, init },
    input: { dtype: 'float32', shape: inputShape },
    numClasses,
    params: b.params,
    buffers: b.buffers,
    featureLayers: ['input', ...config.map((_, s) => `stage${s + 1}`), 'pool'],
    forward(params, buffers, x, fo) {
      const ctx = new ForwardContext(params, buffers, fo);
      let h = ctx.feature('input', x);
      stages.forEach((convs, s) => {
        for (const c of convs) h = c(ctx, h);
        h = ctx.feature(`stage${s + 1}`, maxPool2d(h, { kernel: 2 }));
      });
      h = ctx.feature('pool', ctx.dropout('pool', h.reshape([h.shape[0]!, flat]), drop));
      return { logits: head(ctx, h), buffers: ctx.finish() };
    },
  };
}

/** The zoo's declaration of `vgg` (zoo.ts lists it). */
export const vggDefinition = defineModel({
  name: 'vgg',
  summary: 'VGG-11/13/16/19 with batch norm (Simonyan & Zisserman 2015; CIFAR variant; aliases vgg11 … vgg19)',
  task: 'image',
  options: VGG_OPTIONS,
  create: vgg,
});
