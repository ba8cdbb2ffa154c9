/**
 * ResNet-18 for small inputs (CIFAR-style stem, as kuangliu/pytorch-cifar): x [N, 3, 32, 32] → conv3×3(64) →
 * BN → ReLU → 4 stages of 2 basic blocks (64, 128, 256, 512 channels; stride 2 at stages 2–4; projection
 * shortcuts conv1×1 + BN) → global average pool → (dropout, option `dropout`) → Linear(512 → C). PyTorch default init (that code's choice).
 * Parameter paths: conv1, bn1, layer{1..4}.{0,1}.{conv1,bn1,conv2,bn2,shortcut.0,shortcut.1}, linear.
 * Feature layers: 'input', 'stem', 'layer1' … 'layer4', 'pool'.
 */
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model, positiveInt } from '../model.js';
import { basicBlock } from './basic-block.js';
import { checkClassifierOptions, checkIntList, checkOptions, type ClassifierOptions, convBnStem } from './common.js';
import { residualStages, stagedClassifier } from './staged-classifier.js';

/** Options of `resnet18` (defaults: inputShape [3, 32, 32], init 'torch'). */
export interface ResNet18Options extends ClassifierOptions {
  /** Base width (default 64). */
  readonly width?: number;
  /** Blocks per stage (default [2, 2, 2, 2]; [3, 4, 6, 3] gives ResNet-34). */
  readonly blocks?: readonly number[];
}

/** Build a ResNet-18 (small-input) model description. */
export function resnet18(options: ResNet18Options = {}): Model {
  checkOptions('resnet18', options, ['numClasses', 'inputShape', 'width', 'blocks', 'dropout', 'init']);
  const { numClasses, inputShape, dropout: drop, init, weightInit: wi } = checkClassifierOptions('resnet18', options, { inputShape: [3, 32, 32], init: 'torch' });
  const width = positiveInt('resnet18 options.width', options.width ?? 64);
  const blocks = checkIntList('resnet18 options.blocks', options.blocks ?? [2, 2, 2, 2], 1);
  const b = new DeclarationBuilder();
  const stem = convBnStem(b, { conv: 'conv1', bn: 'bn1', inChannels: inputShape[0], outChannels: width, stem: 'cifar', weightInit: wi });
  const { stages, channels } = residualStages({ counts: blocks, inChannels: width, planes: width }, (path, inChannels, outChannels, stride) =>
    basicBlock(b, path, { inChannels, outChannels, stride, shortcut: 'B', weightInit: wi }),
  );
  const head = linear(b, 'linear', { inFeatures: channels, outFeatures: numClasses, weightInit: wi });
  const config = { numClasses, inputShape, width, blocks, dropout: drop, init };
  return stagedClassifier(b, { kind: 'resnet18', config, inputShape, numClasses, stem, stages, stageName: 'layer', dropout: drop, head });
}
