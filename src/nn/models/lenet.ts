/**
 * LeNet-style CNN (LeCun et al. 1998, as in the PyTorch tutorials): x [N, Ci, H, W] →
 * conv 5×5 (padding 2) → [BN] → act → pool 2 → conv 5×5 → [BN] → act → pool 2 → flatten →
 * Linear → act → Linear → act → Linear → logits (channels, hidden widths and their defaults: LENET_OPTIONS).
 * Feature layers: 'input', 'conv1', 'conv2' (after pooling), 'fc1', 'fc2'.
 */
import { avgPool2d, maxPool2d, type Tensor } from '../../engine/index.js';
import { InvalidArgumentError } from '../../util/errors.js';
import { object, optional, string, boolean } from '../../util/schema.js';
import { type Activation, activate } from '../activation.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import { ForwardContext } from '../forward-context.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model } from '../model.js';
import { activationOption, countsOption, initOption, inputShapeOption, type InitScheme, numClassesOption, parseModelOptions, weightInit } from './common.js';
import { defineModel } from './model-definition.js';

/** The options of `lenet`: what each accepts, its default and description (util/schema.ts). */
export const LENET_OPTIONS = object({
  inputShape: inputShapeOption([1, 28, 28], 3),
  numClasses: numClassesOption(),
  channels: countsOption([6, 16], 2, 'channels of the two convolutions'),
  hidden: countsOption([120, 84], 0, 'hidden widths of the classifier'),
  activation: activationOption(),
  pool: optional(string(['max', 'avg'] as const), 'max', 'pooling'),
  /**
   * On by default: with the default recipe (SGD η₀ = 0.1, momentum 0.9, batch 128 — the papers' recipe, which
   * Thulasidasan et al. 2019 §3.1 run "for all experiments" with batch normalization) the plain LeNet diverged for
   * most seeds on MNIST (seed 0: chance after 30 epochs); with batch norm every seed 0–9 trains
   * (test/cli/hardness-leftovers.test.ts). batchNorm=false is the classic LeNet of the PyTorch tutorials.
   */
  batchNorm: optional(boolean(), true, 'batch norm after each convolution (default on: without it the default recipe, SGD lr 0.1, diverges for most seeds)'),
  init: initOption('torch'),
});

/** Options of `lenet` (defaults and descriptions: `LENET_OPTIONS`). */
export interface LeNetOptions {
  readonly inputShape?: readonly [number, number, number];
  readonly numClasses?: number;
  readonly channels?: readonly [number, number];
  readonly hidden?: readonly number[];
  readonly activation?: Activation;
  readonly pool?: 'max' | 'avg';
  readonly batchNorm?: boolean;
  readonly init?: InitScheme;
}

/** Build a LeNet-style model description (`path` names the options in errors). */
export function lenet(options: LeNetOptions = {}, path = 'lenet options'): Model {
  const o = parseModelOptions(LENET_OPTIONS, options, path);
  const [ci, h0, w0] = o.inputShape as [number, number, number];
  const numClasses = o.numClasses;
  const [c1, c2] = o.channels as [number, number];
  const { hidden, activation: act, pool, batchNorm: bn, init } = o;
  // Spatial sizes: conv1 keeps H×W (padding 2), pool halves, conv2 (no padding) removes 4, pool halves.
  const h2 = Math.floor((Math.floor(h0 / 2) - 4) / 2),
    w2 = Math.floor((Math.floor(w0 / 2) - 4) / 2);
  if (h2 < 1 || w2 < 1) throw new InvalidArgumentError(`${path}.inputShape`, 'spatial size ≥ 12×12', `${h0}×${w0}`);
  const b = new DeclarationBuilder();
  const wi = weightInit(init);
  const conv1 = conv2d(b, 'conv1', { inChannels: ci, outChannels: c1, kernel: 5, padding: 2, bias: !bn, weightInit: wi });
  const bn1 = bn ? batchNorm(b, 'bn1', { channels: c1 }) : null;
  const conv2 = conv2d(b, 'conv2', { inChannels: c1, outChannels: c2, kernel: 5, bias: !bn, weightInit: wi });
  const bn2 = bn ? batchNorm(b, 'bn2', { channels: c2 }) : null;
  const widths = [c2 * h2 * w2, ...hidden];
  const fcs = hidden.map((width, i) => linear(b, `fc${i + 1}`, { inFeatures: widths[i]!, outFeatures: width, weightInit: wi }));
  const head = linear(b, 'head', { inFeatures: widths[widths.length - 1]!, outFeatures: numClasses, weightInit: wi });
  const poolFn = (x: Tensor) => (pool === 'max' ? maxPool2d(x, { kernel: 2 }) : avgPool2d(x, { kernel: 2 }));
  return {
    kind: 'lenet',
    config: { inputShape: [ci, h0, w0], numClasses, channels: [c1, c2], hidden, activation: act, pool, batchNorm: bn, init },
    input: { dtype: 'float32', shape: [ci, h0, w0] },
    numClasses,
    params: b.params,
    buffers: b.buffers,
    featureLayers: ['input', 'conv1', 'conv2', ...hidden.map((_, i) => `fc${i + 1}`)],
    forward(params, buffers, x, fo) {
      const ctx = new ForwardContext(params, buffers, fo);
      let h = ctx.feature('input', x);
      h = conv1(ctx, h);
      if (bn1) h = bn1(ctx, h);
      h = ctx.feature('conv1', poolFn(activate(act, h)));
      h = conv2(ctx, h);
      if (bn2) h = bn2(ctx, h);
      h = ctx.feature('conv2', poolFn(activate(act, h)));
      h = h.reshape([h.shape[0]!, widths[0]!]);
      fcs.forEach((fc, i) => {
        h = ctx.feature(`fc${i + 1}`, activate(act, fc(ctx, h)));
      });
      return { logits: head(ctx, h), buffers: ctx.finish() };
    },
  };
}

/** The zoo's declaration of `lenet` (zoo.ts lists it). */
export const lenetDefinition = defineModel({
  name: 'lenet',
  summary: 'LeNet-style CNN (LeCun et al. 1998): two 5×5 conv-pool stages (optional batch norm), three linear layers',
  task: 'image',
  options: LENET_OPTIONS,
  create: lenet,
});
