/**
 * LeNet-style CNN (LeCun et al. 1998, as in the PyTorch tutorials): x [N, Ci, H, W] →
 * conv 5×5 (padding 2) → [BN] → act → pool 2 → conv 5×5 → [BN] → act → pool 2 → flatten →
 * Linear → act → Linear → act → Linear → logits. Default channels 6, 16; hidden 120, 84; input [1, 28, 28].
 * Feature layers: 'input', 'conv1', 'conv2' (after pooling), 'fc1', 'fc2'.
 */
import { avgPool2d, maxPool2d, type Tensor } from '../../engine/index.js';
import { describe, InvalidArgumentError } from '../../util/errors.js';
import { type Activation, activate, checkActivation } from '../activation.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import { ForwardContext } from '../forward-context.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model, positiveInt } from '../model.js';
import { checkInitScheme, checkIntList, checkOptions, checkShape, type InitScheme, weightInit } from './common.js';

/** Options of `lenet`. */
export interface LeNetOptions {
  /** [Ci, H, W] (default [1, 28, 28]). */
  readonly inputShape?: readonly [number, number, number];
  readonly numClasses?: number;
  /** Channels of the two convolutions (default [6, 16]). */
  readonly channels?: readonly [number, number];
  /** Hidden widths of the classifier (default [120, 84]). */
  readonly hidden?: readonly number[];
  readonly activation?: Activation;
  /** Pooling (default 'max'). */
  readonly pool?: 'max' | 'avg';
  /** Batch norm after each convolution (default false). */
  readonly batchNorm?: boolean;
  readonly init?: InitScheme;
}

/** Build a LeNet-style model description. */
export function lenet(options: LeNetOptions = {}): Model {
  checkOptions('lenet', options, ['inputShape', 'numClasses', 'channels', 'hidden', 'activation', 'pool', 'batchNorm', 'init']);
  const [ci, h0, w0] = checkShape('lenet options.inputShape', options.inputShape ?? [1, 28, 28], 3) as [number, number, number];
  const numClasses = positiveInt('lenet options.numClasses', options.numClasses ?? 10);
  const [c1, c2] = checkIntList('lenet options.channels', options.channels ?? [6, 16], 2) as [number, number];
  const hidden = checkIntList('lenet options.hidden', options.hidden ?? [120, 84]);
  const act = checkActivation('lenet options.activation', options.activation ?? 'relu');
  const pool = options.pool ?? 'max';
  if (pool !== 'max' && pool !== 'avg') throw new InvalidArgumentError('lenet options.pool', 'max or avg', describe(pool));
  const bn = options.batchNorm ?? false;
  if (typeof bn !== 'boolean') throw new InvalidArgumentError('lenet options.batchNorm', 'a boolean', describe(bn));
  const init = checkInitScheme('lenet options.init', options.init ?? 'torch');
  // Spatial sizes: conv1 keeps H×W (padding 2), pool halves, conv2 (no padding) removes 4, pool halves.
  const h2 = Math.floor((Math.floor(h0 / 2) - 4) / 2), w2 = Math.floor((Math.floor(w0 / 2) - 4) / 2);
  if (h2 < 1 || w2 < 1) throw new InvalidArgumentError('lenet options.inputShape', 'spatial size ≥ 12×12', `${h0}×${w0}`);
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
