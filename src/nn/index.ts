/**
 * Modules and the model zoo: parameters as plain named arrays (Equinox-style trees flattened to dotted paths),
 * PyTorch-default initializers from a seeded generator, and pure forward functions with explicit state.
 */
export * from './tree.js';
export * from './init.js';
export * from './model.js';
export { ForwardContext } from './forward-context.js';
export { type Activation, ACTIVATIONS, activate, checkActivation } from './activation.js';
export { linear, type LinearOptions } from './linear.js';
export { conv2d, type Conv2dLayerOptions } from './conv2d.js';
export { convTranspose2d, type ConvTranspose2dLayerOptions } from './conv-transpose2d.js';
export { batchNorm, type BatchNormLayerOptions } from './batch-norm.js';
export { embedding, type EmbeddingOptions } from './embedding.js';
export { type InitScheme, type Stem, weightInit } from './models/common.js';
export { basicBlock, optionAKernel, type BasicBlockOptions } from './models/basic-block.js';
export { mlp, type MlpOptions } from './models/mlp.js';
export { lenet, type LeNetOptions } from './models/lenet.js';
export { cifarResNet, type CifarResNetOptions } from './models/cifar-resnet.js';
export { resnet18, type ResNet18Options } from './models/resnet18.js';
export { resnet, type ResNetOptions } from './models/resnet.js';
export { bottleneckBlock, BOTTLENECK_EXPANSION, type BottleneckBlockOptions } from './models/bottleneck-block.js';
export { preactResNet, type PreActResNetOptions } from './models/preact-resnet.js';
export { densenet, type DenseNetOptions } from './models/densenet.js';
export { wideResNet, type WideResNetOptions } from './models/wide-resnet.js';
export { vgg, type VggOptions } from './models/vgg.js';
export { textCnn, type TextCnnOptions } from './models/text-cnn.js';
export { segNet, type SegNetOptions } from './models/seg-net.js';
export { createModel, modelSpec, MODELS, MODEL_KINDS, MODEL_OPTIONS, type ModelKind, type ModelSpec } from './models/zoo.js';
export { defineModel, type ModelDefinition, type ModelTask } from './models/model-definition.js';
