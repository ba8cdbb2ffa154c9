/**
 * Multi-layer perceptron: x [N, ...inputShape] flattened to [N, D] → (Linear → activation → dropout)* →
 * Linear → logits [N, C] (widths, activation, init and their defaults: MLP_OPTIONS).
 * Feature layers: 'input' (flattened), 'hidden1', 'hidden2', … (after each activation).
 */
import type { Tensor } from '../../engine/index.js';
import { type Activation, activate } from '../activation.js';
import { ForwardContext } from '../forward-context.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model } from '../model.js';
import { object } from '../../util/schema.js';
import { activationOption, countsOption, dropoutOption, initOption, inputShapeOption, type InitScheme, numClassesOption, parseModelOptions, weightInit } from './common.js';
import { defineModel } from './model-definition.js';

/** The options of `mlp`: what each accepts, its default and description (util/schema.ts). */
export const MLP_OPTIONS = object({
  inputShape: inputShapeOption([784]),
  hidden: countsOption([512, 512], 0, 'hidden widths'),
  numClasses: numClassesOption(),
  activation: activationOption(),
  dropout: dropoutOption(0, 'dropout rate after each hidden activation'),
  init: initOption('torch', "weight initialisation (biases: PyTorch's default U(±1/√fan_in))"),
});

/** Options of `mlp` (defaults and descriptions: `MLP_OPTIONS`; the input is flattened). */
export interface MlpOptions {
  readonly inputShape?: readonly number[];
  readonly hidden?: readonly number[];
  readonly numClasses?: number;
  readonly activation?: Activation;
  readonly dropout?: number;
  readonly init?: InitScheme;
}

/** Build an MLP model description (`path` names the options in errors). */
export function mlp(options: MlpOptions = {}, path = 'mlp options'): Model {
  const { inputShape, hidden, numClasses, activation: act, dropout: drop, init } = parseModelOptions(MLP_OPTIONS, options, path);
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

/** The zoo's declaration of `mlp` (zoo.ts lists it). */
export const mlpDefinition = defineModel({
  name: 'mlp',
  summary: 'Multi-layer perceptron: flatten → (linear → activation → dropout)* → linear',
  task: 'image',
  options: MLP_OPTIONS,
  create: mlp,
});
