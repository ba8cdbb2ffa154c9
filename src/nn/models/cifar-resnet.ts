/**
 * CIFAR ResNet-(6n+2) of He et al. (2016, §4.2): ResNet-20/32/44/56/110 with n = 3/5/7/9/18. x [N, 3, 32, 32] →
 * conv3×3(16) → BN → ReLU → 3 stages of n basic blocks (16, 32, 64 channels; stride 2 at the start of stages
 * 2 and 3; option-A shortcuts) → global average pool → (dropout, option `dropout`) → Linear(64 → C). Init as akamaster/pytorch_resnet_cifar10:
 * kaiming_normal (fan_in, gain √2) for every conv and linear weight; linear bias PyTorch default; BN 1/0.
 * Parameter paths follow that code: conv1, bn1, layer{1,2,3}.{i}.{conv1,bn1,conv2,bn2}, linear.
 * Feature layers: 'input', 'stem', 'layer1', 'layer2', 'layer3', 'pool' ([N, 64·width]).
 */
import { describe, InvalidArgumentError } from '../../util/errors.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model, positiveInt } from '../model.js';
import { basicBlock } from './basic-block.js';
import { checkClassifierOptions, checkDepth6n, checkOptions, type ClassifierOptions, convBnStem } from './common.js';
import { residualStages, stagedClassifier } from './staged-classifier.js';

/** Options of `cifarResNet` (defaults: inputShape [3, 32, 32], init 'kaiming-normal'). */
export interface CifarResNetOptions extends ClassifierOptions {
  /** 6n + 2: 20, 32, 44, 56, 110, … (default 20). */
  readonly depth?: number;
  /** Base width (default 16: stages 16, 32, 64). */
  readonly width?: number;
  /** Shortcut type (default 'A', the paper's CIFAR choice). */
  readonly shortcut?: 'A' | 'B';
}

/** Build a CIFAR ResNet model description. */
export function cifarResNet(options: CifarResNetOptions = {}): Model {
  checkOptions('cifar-resnet', options, ['depth', 'numClasses', 'inputShape', 'width', 'shortcut', 'dropout', 'init']);
  const [depth, n] = checkDepth6n('cifar-resnet options.depth', options.depth ?? 20, 2, '20, 32, 44, 56, 110');
  const { numClasses, inputShape, dropout: drop, init, weightInit: wi } = checkClassifierOptions('cifar-resnet', options, { inputShape: [3, 32, 32], init: 'kaiming-normal' });
  const width = positiveInt('cifar-resnet options.width', options.width ?? 16);
  const shortcut = options.shortcut ?? 'A';
  if (shortcut !== 'A' && shortcut !== 'B') throw new InvalidArgumentError('cifar-resnet options.shortcut', 'A or B', describe(shortcut));
  if (shortcut === 'A' && width % 2 !== 0) throw new InvalidArgumentError('cifar-resnet options.width', 'an even width for option-A shortcuts', describe(width));
  const b = new DeclarationBuilder();
  const stem = convBnStem(b, { conv: 'conv1', bn: 'bn1', inChannels: inputShape[0], outChannels: width, stem: 'cifar', weightInit: wi });
  const { stages } = residualStages({ counts: [n, n, n], inChannels: width, planes: width }, (path, inChannels, outChannels, stride) =>
    basicBlock(b, path, { inChannels, outChannels, stride, shortcut, weightInit: wi }),
  );
  const head = linear(b, 'linear', { inFeatures: 4 * width, outFeatures: numClasses, weightInit: wi });
  const config = { depth, numClasses, inputShape, width, shortcut, dropout: drop, init };
  return stagedClassifier(b, { kind: 'cifar-resnet', config, inputShape, numClasses, stem, stages, stageName: 'layer', dropout: drop, head });
}
