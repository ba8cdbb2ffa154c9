import { describe, invalidArgument, requireNumber } from '../util/errors.js';
import type { Random } from '../util/random.js';
import { oneHot } from './label-smoothing.js';
import { drawMixup, mixRows, type MixupDraw } from './mixup.js';

/**
 * CutMix (Yun et al., ICCV 2019; the official `train.py` / `rand_bbox`), host side, on NCHW images.
 *
 * Per batch: λ ~ Beta(α, α) and a permutation π (drawn as mixup's `drawMixup`), then a box of
 * ⌊W √(1 − λ)⌋ × ⌊H √(1 − λ)⌋ pixels centred at (c_x, c_y), c_x uniform in 0..W−1 then c_y in 0..H−1, clipped to
 * the image: rows [y1, y2), columns [x1, x2) with x1 = clip(c_x − ⌊w/2⌋), x2 = clip(c_x + ⌊w/2⌋) (likewise y).
 * Inside the box every channel of image i is replaced by image π(i); the targets are mixed with the box's actual
 * share, λ' = 1 − (x2 − x1)(y2 − y1)/(W H):  q̃_i = λ' q_i + (1 − λ') q_π(i). α = 0 changes nothing.
 * The official code applies CutMix to a batch with probability `cutmix_prob` (0.5 in its CIFAR commands); here
 * every batch is cut (`probability` below makes the per-batch coin explicit).
 */
export interface CutmixBatch extends MixupDraw {
  /** Images with the pasted boxes, [B, C, H, W]. */
  readonly inputs: Float32Array;
  /** Soft targets [B, C] mixed with λ' (= `lambda`, the box-corrected share of the image itself). */
  readonly targets: Float32Array;
  /** The box: rows [y1, y2), columns [x1, x2). */
  readonly box: { readonly x1: number; readonly x2: number; readonly y1: number; readonly y2: number };
}

/** Options of `cutmix`. */
export interface CutmixOptions {
  /** Beta(α, α) parameter (official CIFAR setting 1.0); 0 disables. */
  readonly alpha: number;
  readonly rng: Random;
  readonly classes: number;
  /** Probability that a batch is cut at all (default 1; the official code's `cutmix_prob`). */
  readonly probability?: number;
}

/** CutMix of images [B, C, H, W] (`shape`) with integer labels. Draw order: coin (if probability < 1), λ, π, c_x, c_y. */
export function cutmix(images: Float32Array, labels: Int32Array, shape: readonly [number, number, number, number], options: CutmixOptions): CutmixBatch {
  const [b, ch, h, w] = shape;
  if (!(images instanceof Float32Array) || images.length !== b * ch * h * w) invalidArgument('images', `a Float32Array of ${b}·${ch}·${h}·${w} values`, describe(images));
  if (!(labels instanceof Int32Array) || labels.length !== b) invalidArgument('labels', `an Int32Array of ${b} labels`, describe(labels));
  const classes = requireNumber('options.classes', options.classes, { integer: true, min: 1 });
  const probability = requireNumber('options.probability', options.probability ?? 1, { min: 0, max: 1 });
  const soft = oneHot(labels, classes);
  const identity: CutmixBatch = { lambda: 1, perm: Int32Array.from({ length: b }, (_, i) => i), inputs: images.slice(), targets: soft, box: { x1: 0, x2: 0, y1: 0, y2: 0 } };
  if (probability < 1 && !(options.rng.uniform() < probability)) return identity;
  const draw = drawMixup(b, options.alpha, options.rng);
  if (requireNumber('options.alpha', options.alpha, { min: 0 }) === 0) return identity;
  const cut = Math.sqrt(1 - draw.lambda);
  const cw = Math.floor(w * cut),
    chh = Math.floor(h * cut);
  const cx = options.rng.int(w),
    cy = options.rng.int(h);
  const clip = (v: number, hi: number) => Math.min(Math.max(v, 0), hi);
  const x1 = clip(cx - Math.floor(cw / 2), w),
    x2 = clip(cx + Math.floor(cw / 2), w);
  const y1 = clip(cy - Math.floor(chh / 2), h),
    y2 = clip(cy + Math.floor(chh / 2), h);
  const out = images.slice();
  const plane = h * w;
  for (let i = 0; i < b; i++) {
    const src = draw.perm[i]!;
    for (let c = 0; c < ch; c++) {
      const to = (i * ch + c) * plane,
        from = (src * ch + c) * plane;
      for (let y = y1; y < y2; y++) out.set(images.subarray(from + y * w + x1, from + y * w + x2), to + y * w + x1);
    }
  }
  const lambda = 1 - ((x2 - x1) * (y2 - y1)) / plane;
  return { lambda, perm: draw.perm, inputs: out, targets: mixRows(soft, { lambda, perm: draw.perm }), box: { x1, x2, y1, y2 } };
}
