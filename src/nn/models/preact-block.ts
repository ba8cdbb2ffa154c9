/**
 * The pre-activation residual block of He et al. (2016b, "Identity mappings"), as in kuangliu/pytorch-cifar's
 * PreActBlock and, with dropout between its convolutions, xternalz/WideResNet-pytorch's BasicBlock:
 *   a = ReLU(BN1(x)),  out = conv3×3(dropout(ReLU(BN2(conv3×3(a, stride))))) + shortcut,
 * shortcut = conv1×1(a, stride) (no BN) when the shape changes (stride ≠ 1 or channels differ), else x.
 * Paths: bn1, conv1, bn2, conv2 and the shortcut convolution at `shortcutPath`.
 */
import type { Tensor } from '../../engine/index.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import type { ForwardContext } from '../forward-context.js';
import type { Initializer } from '../init.js';
import type { DeclarationBuilder } from '../model.js';
import { joinPath } from '../tree.js';

/** Options of `preactBlock`. */
export interface PreActBlockOptions {
  readonly inChannels: number;
  readonly outChannels: number;
  readonly stride: number;
  readonly weightInit: Initializer;
  /** Path of the shortcut convolution under the block ('shortcut.0' in pytorch-cifar, 'convShortcut' in WRN). */
  readonly shortcutPath: string;
  /** Dropout rate between the convolutions, dropout layer = the block's path (default 0, none). */
  readonly dropout?: number;
}

/** Declare one pre-activation block under `path`; returns its apply function. */
export function preactBlock(b: DeclarationBuilder, path: string, o: PreActBlockOptions): (ctx: ForwardContext, x: Tensor) => Tensor {
  const { inChannels: inC, outChannels: outC, stride, weightInit } = o;
  const drop = o.dropout ?? 0;
  const bn1 = batchNorm(b, joinPath(path, 'bn1'), { channels: inC });
  const conv1 = conv2d(b, joinPath(path, 'conv1'), { inChannels: inC, outChannels: outC, kernel: 3, stride, padding: 1, bias: false, weightInit });
  const bn2 = batchNorm(b, joinPath(path, 'bn2'), { channels: outC });
  const conv2 = conv2d(b, joinPath(path, 'conv2'), { inChannels: outC, outChannels: outC, kernel: 3, padding: 1, bias: false, weightInit });
  const shortcut = stride !== 1 || inC !== outC ? conv2d(b, joinPath(path, o.shortcutPath), { inChannels: inC, outChannels: outC, kernel: 1, stride, bias: false, weightInit }) : null;
  return (ctx, x) => {
    const a = bn1(ctx, x).relu();
    const h = bn2(ctx, conv1(ctx, a)).relu();
    return conv2(ctx, ctx.dropout(path, h, drop)).add(shortcut ? shortcut(ctx, a) : x);
  };
}
