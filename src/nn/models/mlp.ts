/**
 * Multi-layer perceptron: x [N, ...inputShape] flattened to [N, D] → (Linear → activation → dropout)* →
 * Linear → logits [N, C]. Default 784-512-512-10 with ReLU and PyTorch's default init.
 * Feature layers: 'input' (flattened), 'hidden1', 'hidden2', … (after each activation).
 */
import type { Tensor } from '../../engine/index.js';
import { type Activation, activate, checkActivation } from '../activation.js';
import { ForwardContext } from '../forward-context.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model, positiveInt, rate } from '../model.js';
import { checkInitScheme, checkIntList, checkOptions, checkShape, type InitScheme, weightInit } from './common.js';

/** Options of `mlp`. */
export interface MlpOptions {
  /** Per-example input shape (default [784]); flattened. */
  readonly inputShape?: readonly number[];
  /** Hidden widths (default [512, 512]). */
  readonly hidden?: readonly number[];
  readonly numClasses?: number;
  readonly activation?: Activation;
  /** Dropout rate after each hidden activation (default 0). */
  readonly dropout?: number;
  /** Weight init (default 'torch'); biases use PyTorch's default U(±1/√fan_in). */
  readonly init?: InitScheme;
}

/** Build an MLP model description. */
export function mlp(options: MlpOptions = {}): Model {
  checkOptions('mlp', options, ['inputShape', 'hidden', 'numClasses', 'activation', 'dropout', 'init']);
  const inputShape = checkShape('mlp options.inputShape', options.inputShape ?? [784]);
  const hidden = checkIntList('mlp options.hidden', options.hidden ?? [512, 512]);
  const numClasses = positiveInt('mlp options.numClasses', options.numClasses ?? 10);
  const act = checkActivation('mlp options.activation', options.activation ?? 'relu');
  const drop = rate('mlp options.dropout', options.dropout ?? 0);
  const init = checkInitScheme('mlp options.init', options.init ?? 'torch');
  const b = new DeclarationBuilder();
  const d = inputShape.reduce((a, c) => a * c, 1);
  const widths = [d, ...hidden];
  const layers = hidden.map((h, i) => linear(b, `fc${i + 1}`, { inFeatures: widths[i]!, outFeatures: h, weightInit: weightInit(init) }));
  const head = linear(b, 'head', { inFeatures: widths[widths.length - 1]!, outFeatures: numClasses, weightInit: weightInit(init) });
  const featureLayers = ['input', ...hidden.map((_, i) => `hidden${i + 1}`)];
  return {
    kind: 'mlp',
    config: { inputShape, hidden, numClasses, activation: act, dropout: drop, init },
    input: { dtype: 'float32', shape: inputShape },
    numClasses,
    params: b.params,
    buffers: b.buffers,
    featureLayers,
    forward(params, buffers, x, fo) {
      const ctx = new ForwardContext(params, buffers, fo);
      let h: Tensor = ctx.feature('input', x.rank === 2 ? x : x.reshape([x.shape[0]!, d]));
      layers.forEach((layer, i) => {
        h = ctx.dropout(`hidden${i + 1}`, activate(act, layer(ctx, h)), drop);
        h = ctx.feature(`hidden${i + 1}`, h);
      });
      return { logits: head(ctx, h), buffers: ctx.finish() };
    },
  };
}
