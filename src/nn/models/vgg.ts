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
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import { ForwardContext } from '../forward-context.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model, positiveInt } from '../model.js';
import { checkClassifierOptions, checkDepth, checkOptions, type ClassifierOptions } from './common.js';

/** Convolutions per stage of each configuration. */
const CONFIGS: Readonly<Record<number, readonly number[]>> = { 11: [1, 1, 2, 2, 2], 13: [2, 2, 2, 2, 2], 16: [2, 2, 3, 3, 3], 19: [2, 2, 4, 4, 4] };
const STAGE_WIDTHS = [64, 128, 256, 512, 512];

/** Options of `vgg` (default init 'torch'). */
export interface VggOptions extends ClassifierOptions {
  /** 11, 13, 16 or 19 (default 16). */
  readonly depth?: number;
  /** [Ci, H, W] (default [3, 32, 32]); H and W must be divisible by 32. */
  readonly inputShape?: readonly [number, number, number];
  /** Divide every channel count by this (default 1). */
  readonly widthScale?: number;
}

/** Build a VGG-BN model description. */
export function vgg(options: VggOptions = {}): Model {
  checkOptions('vgg', options, ['depth', 'numClasses', 'inputShape', 'widthScale', 'dropout', 'init']);
  const [depth, config] = checkDepth('vgg options.depth', CONFIGS, options.depth ?? 16);
  const { numClasses, inputShape, dropout: drop, init, weightInit: wi } = checkClassifierOptions('vgg', options, { inputShape: [3, 32, 32], init: 'torch' });
  if (inputShape[1] % 32 !== 0 || inputShape[2] % 32 !== 0) throw new InvalidArgumentError('vgg options.inputShape', 'H and W divisible by 32', JSON.stringify(inputShape));
  const scale = positiveInt('vgg options.widthScale', options.widthScale ?? 1);
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
