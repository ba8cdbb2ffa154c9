/**
 * Pre-activation ResNet-18/34 of He et al. (2016b, "Identity mappings"), as kuangliu/pytorch-cifar's
 * preact_resnet.py (the network of the mixup papers' CIFAR code): x → conv3×3(64) → 4 stages of pre-activation
 * blocks (64, 128, 256, 512 channels × width/64; stride 2 at stages 2–4) → global average pool → (dropout) →
 * Linear(512 → C). A block: a = ReLU(BN1(x)); shortcut = conv1×1(a, stride) when the shape changes, else x;
 * out = conv3×3(ReLU(BN2(conv3×3(a, stride)))) + shortcut. As in that code there is no BN-ReLU after the last
 * stage, and its 4×4 average pool on 32×32 inputs is the global average pool used here. PyTorch default init.
 * Paths: conv1, layer{1..4}.{i}.{bn1,conv1,bn2,conv2,shortcut.0}, linear.
 * Feature layers: 'input', 'stem', 'layer1' … 'layer4', 'pool'.
 */
import { conv2d } from '../conv2d.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model, positiveInt } from '../model.js';
import { checkClassifierOptions, checkDepth, checkOptions, type ClassifierOptions } from './common.js';
import { preactBlock } from './preact-block.js';
import { residualStages, stagedClassifier } from './staged-classifier.js';

const DEPTHS: Readonly<Record<number, readonly number[]>> = { 18: [2, 2, 2, 2], 34: [3, 4, 6, 3] };

/** Options of `preactResNet` (defaults: inputShape [3, 32, 32], init 'torch'). */
export interface PreActResNetOptions extends ClassifierOptions {
  /** 18 or 34 (default 18). */
  readonly depth?: number;
  /** Base width (default 64). */
  readonly width?: number;
}

/** Build a PreActResNet model description. */
export function preactResNet(options: PreActResNetOptions = {}): Model {
  checkOptions('preact-resnet', options, ['depth', 'numClasses', 'inputShape', 'width', 'dropout', 'init']);
  const [depth, blocks] = checkDepth('preact-resnet options.depth', DEPTHS, options.depth ?? 18);
  const { numClasses, inputShape, dropout: drop, init, weightInit: wi } = checkClassifierOptions('preact-resnet', options, { inputShape: [3, 32, 32], init: 'torch' });
  const width = positiveInt('preact-resnet options.width', options.width ?? 64);
  const b = new DeclarationBuilder();
  const stem = conv2d(b, 'conv1', { inChannels: inputShape[0], outChannels: width, kernel: 3, padding: 1, bias: false, weightInit: wi });
  const { stages, channels } = residualStages({ counts: blocks, inChannels: width, planes: width }, (path, inChannels, outChannels, stride) =>
    preactBlock(b, path, { inChannels, outChannels, stride, weightInit: wi, shortcutPath: 'shortcut.0' }),
  );
  const head = linear(b, 'linear', { inFeatures: channels, outFeatures: numClasses, weightInit: wi });
  const config = { depth, numClasses, inputShape, width, dropout: drop, init };
  return stagedClassifier(b, { kind: 'preact-resnet', config, inputShape, numClasses, stem, stages, stageName: 'layer', dropout: drop, head });
}
