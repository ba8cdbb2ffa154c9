/**
 * ResNeXt-50/101 of Xie et al. (2017, "Aggregated Residual Transformations for Deep Neural Networks", CVPR) in
 * torchvision's layout — the bottleneck ResNet (resnet.ts) whose 3×3 convolution is split into `cardinality`
 * groups of `baseWidth` channels per 64 planes: a block of `planes` has inner width
 * ⌊planes · baseWidth / 64⌋ · cardinality and 4·planes outputs. ResNeXt-101 (32×4d) is Thulasidasan et al.'s
 * (2019, §4 and Fig. 3) ImageNet model; (32×4d) is cardinality 32, baseWidth 4, the defaults.
 * Stem 'imagenet' (conv 7×7/2 + max-pool 3×3/2) or 'cifar' (conv 3×3/1, no pool), see `Stem`. Init as torchvision:
 * convolutions kaiming_normal (fan_out, ReLU gain), BN weight 1 bias 0, the classifier PyTorch's Linear default.
 * Paths (torchvision's): conv1, bn1, layer{1..4}.{i}.{conv1,bn1,conv2,bn2,conv3,bn3,downsample.0,downsample.1}, fc.
 * Feature layers: 'input', 'stem', 'layer1' … 'layer4', 'pool'.
 */
import { invalidArgument } from '../../util/errors.js';
import { object } from '../../util/schema.js';
import { torchDefaultWeight } from '../init.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model } from '../model.js';
import { BOTTLENECK_EXPANSION, bottleneckBlock } from './bottleneck-block.js';
import {
  type ClassifierOptions,
  convBnStem,
  countOption,
  depthOption,
  dropoutOption,
  initOption,
  inputShapeOption,
  numClassesOption,
  parseModelOptions,
  resolveStem,
  stemOption,
  weightInit,
} from './common.js';
import { residualStages, stagedClassifier } from './staged-classifier.js';
import { defineModel } from './model-definition.js';

/** Blocks per stage of each depth (as the bottleneck ResNet's). */
const DEPTHS: Readonly<Record<number, readonly number[]>> = { 50: [3, 4, 6, 3], 101: [3, 4, 23, 3] };

/** The options of `resnext`: what each accepts, its default and description (util/schema.ts). */
export const RESNEXT_OPTIONS = object({
  depth: depthOption(DEPTHS, 101),
  numClasses: numClassesOption(),
  inputShape: inputShapeOption([3, 224, 224], 3),
  stem: stemOption(),
  width: countOption(64, 'stem width (stages use width, 2·width, 4·width, 8·width planes)'),
  cardinality: countOption(32, 'groups of the 3×3 convolution (the C of C×d)'),
  baseWidth: countOption(4, 'channels per group at 64 planes (the d of C×d)'),
  dropout: dropoutOption(0, 'dropout rate before the classifier'),
  init: initOption('kaiming-normal-fan-out', "convolution init (torchvision's)"),
});

/** Options of `resnext` (defaults and descriptions: `RESNEXT_OPTIONS`). */
export interface ResNeXtOptions extends ClassifierOptions {
  readonly depth?: number;
  readonly stem?: 'imagenet' | 'cifar' | 'auto';
  readonly width?: number;
  readonly cardinality?: number;
  readonly baseWidth?: number;
}

/** Build a ResNeXt model description (`path` names the options in errors). */
export function resnext(options: ResNeXtOptions = {}, path = 'resnext options'): Model {
  const o = parseModelOptions(RESNEXT_OPTIONS, options, path);
  const { depth, numClasses, width, cardinality, baseWidth, dropout: drop, init } = o;
  if (Math.floor((width * baseWidth) / 64) < 1)
    invalidArgument(`${path}.baseWidth`, `at least ${Math.ceil(64 / width)} with width ${width} (⌊width · baseWidth / 64⌋ channels per group)`, String(baseWidth));
  const inputShape = o.inputShape as [number, number, number];
  const stem = resolveStem(o.stem, inputShape);
  const wi = weightInit(init);
  const b = new DeclarationBuilder();
  const stemApply = convBnStem(b, { conv: 'conv1', bn: 'bn1', inChannels: inputShape[0], outChannels: width, stem, weightInit: wi });
  const layout = { counts: DEPTHS[depth]!, inChannels: width, planes: width, expansion: BOTTLENECK_EXPANSION };
  const { stages, channels } = residualStages(layout, (path, inChannels, planes, stride) =>
    bottleneckBlock(b, path, { inChannels, planes, stride, weightInit: wi, groups: cardinality, innerWidth: Math.floor((planes * baseWidth) / 64) * cardinality }),
  );
  const head = linear(b, 'fc', { inFeatures: channels, outFeatures: numClasses, weightInit: torchDefaultWeight });
  const config = { depth, numClasses, inputShape, stem, width, cardinality, baseWidth, dropout: drop, init };
  return stagedClassifier(b, { kind: 'resnext', config, inputShape, numClasses, stem: stemApply, stages, stageName: 'layer', dropout: drop, head });
}

/** The zoo's declaration of `resnext` (zoo.ts lists it). */
export const resnextDefinition = defineModel({
  name: 'resnext',
  summary: "ResNeXt-50/101 (Xie et al. 2017), C×d grouped bottlenecks, default 101 (32×4d), in torchvision's layout",
  task: 'image',
  options: RESNEXT_OPTIONS,
  create: resnext,
});
