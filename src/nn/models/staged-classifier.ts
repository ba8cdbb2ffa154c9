/**
 * The skeleton the ResNet family shares (ResNet-18/34, the CIFAR ResNets, pre-activation ResNets, Wide-ResNets,
 * bottleneck ResNets, DenseNets): x → stem → stages of blocks, a feature layer after each → (neck, e.g. a final
 * BN → ReLU) → global average pool → dropout → Linear head. A model declares its parameters in forward order
 * (declaration order is the checkpoint's and the seeded initialisation's order) and hands the pieces to
 * `stagedClassifier`, which writes the forward pass and the feature layers once.
 */
import { globalAvgPool, type Tensor } from '../../engine/index.js';
import { ForwardContext } from '../forward-context.js';
import type { DeclarationBuilder, Model } from '../model.js';

/** A declared layer, block or stem: its forward pass. */
export type Apply = (ctx: ForwardContext, x: Tensor) => Tensor;

/** How `residualStages` lays out the blocks. */
export interface StageLayout {
  /** Blocks per stage. */
  readonly counts: readonly number[];
  /** Channels entering the first block. */
  readonly inChannels: number;
  /** Planes of the first stage; every later stage doubles them. */
  readonly planes: number;
  /** Output channels of a block per plane (4 for bottleneck blocks; default 1). */
  readonly expansion?: number;
  /** Parameter path of block i of stage s (default `layer{s+1}.{i}`, torchvision's). */
  readonly path?: (s: number, i: number) => string;
}

/** Declare one block at `path`: inChannels → planes · expansion channels, with the stride of its first convolution. */
export type BlockFactory = (path: string, inChannels: number, planes: number, stride: number) => Apply;

/**
 * Declare the stages of a residual network in order: stage s has counts[s] blocks of planes·2^s planes, the first
 * block of every stage but the first with stride 2 (He et al. 2016). Returns the blocks by stage and the channels
 * out of the last one.
 */
export function residualStages(layout: StageLayout, block: BlockFactory): { stages: Apply[][]; channels: number } {
  const expansion = layout.expansion ?? 1;
  const path = layout.path ?? ((s: number, i: number) => `layer${s + 1}.${i}`);
  let channels = layout.inChannels;
  const stages = layout.counts.map((count, s) => {
    const planes = layout.planes * 2 ** s;
    return Array.from({ length: count }, (_, i) => {
      const apply = block(path(s, i), channels, planes, i === 0 && s > 0 ? 2 : 1);
      channels = planes * expansion;
      return apply;
    });
  });
  return { stages, channels };
}

/** The pieces of a staged classifier. */
export interface StagedClassifierParts {
  readonly kind: string;
  readonly config: Readonly<Record<string, unknown>>;
  readonly inputShape: readonly [number, number, number];
  readonly numClasses: number;
  readonly stem: Apply;
  readonly stages: readonly (readonly Apply[])[];
  /** Feature-layer name of the stages: 'layer' gives 'layer1', 'layer2', …. */
  readonly stageName: string;
  /** Applied after the last stage's feature layer, before pooling (a final BN → ReLU), if any. */
  readonly neck?: Apply;
  /** Dropout rate on the pooled features (layer 'pool'; 0 for none). */
  readonly dropout: number;
  readonly head: Apply;
}

/**
 * The model description of a staged classifier whose parameters `b` holds. Feature layers: 'input', 'stem',
 * `${stageName}1` … , 'pool' (the pooled features, after dropout).
 */
export function stagedClassifier(b: DeclarationBuilder, parts: StagedClassifierParts): Model {
  const { stem, stages, stageName, neck, dropout, head } = parts;
  return {
    kind: parts.kind,
    config: parts.config,
    input: { dtype: 'float32', shape: parts.inputShape },
    numClasses: parts.numClasses,
    params: b.params,
    buffers: b.buffers,
    featureLayers: ['input', 'stem', ...stages.map((_, s) => `${stageName}${s + 1}`), 'pool'],
    forward(params, buffers, x, fo) {
      const ctx = new ForwardContext(params, buffers, fo);
      let h = ctx.feature('stem', stem(ctx, ctx.feature('input', x)));
      stages.forEach((stage, s) => {
        for (const block of stage) h = block(ctx, h);
        h = ctx.feature(`${stageName}${s + 1}`, h);
      });
      if (neck) h = neck(ctx, h);
      h = ctx.feature('pool', ctx.dropout('pool', globalAvgPool(h), dropout));
      return { logits: head(ctx, h), buffers: ctx.finish() };
    },
  };
}
