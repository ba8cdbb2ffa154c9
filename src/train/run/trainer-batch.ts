/**
 * Host-side preparation of one training batch, in a fixed order of random draws from the epoch's generator:
 *
 *   1. augmentation of images (random crop with 4 pixels of zero padding, then horizontal flips; src/data/transforms.ts)
 *   2. mixup by kind (src/augment): 'input' → mixed inputs and soft targets q̃ = λ q + (1 − λ) q[π];
 *      'feature' → mixed inputs, hard label of the nearer sample; 'manifold' / 'embedding' → λ, π and the layer
 *      drawn here, mixing done inside the graph (`mix-perm`, `mix-weights` inputs), soft targets mixed here;
 *      'cutmix' → a box of the partner image pasted in, soft targets mixed by the box's share (src/augment/cutmix.ts)
 *   3. extra rows for the secondary term ('sources': the augmented, unmixed batch; 'holdout': a held-out batch),
 *      appended after the main rows (π extended with the identity on them)
 *
 * With α = 0 nothing is mixed and nothing is drawn for mixup (plain training).
 */
import { augmentBatch } from '../../data/transforms.js';
import type { ImageBatch, TextBatch } from '../../data/batching.js';
import type { Feed } from '../../engine/index.js';
import { oneHot } from '../../augment/label-smoothing.js';
import { drawLayerMix, MIX_PERM, MIX_WEIGHTS } from '../../augment/manifold-mixup.js';
import { cutmix } from '../../augment/cutmix.js';
import { featureOnlyMixup, mixRows, mixup } from '../../augment/mixup.js';
import { appendRows, extendPermutation } from '../../augment/secondary-placement.js';
import type { Random } from '../../util/random.js';
import type { MixupKind } from '../train-config.js';

/** How batches of a run are prepared. */
export interface BatchPlan {
  readonly augmentation: 'none' | 'crop' | 'crop-flip';
  /** Mixup α (0 = off). */
  readonly alpha: number;
  readonly kind: MixupKind;
  /** Candidate layers of graph-side mixing (manifold / embedding), else null. */
  readonly mixLayers: readonly string[] | null;
  readonly classes: number;
}

/** Whether a plan trains on soft targets. */
export function softTargets(plan: BatchPlan): boolean {
  return plan.alpha > 0 && plan.kind !== 'feature';
}

/** A batch ready for the compiled step. */
export interface PreparedBatch {
  /** [B + B_a, …] inputs. */
  readonly x: Float32Array | Int32Array;
  /** Int32Array [B + B_a] labels or Float32Array [B + B_a, C] soft targets. */
  readonly y: Int32Array | Float32Array;
  readonly extras: Record<string, Feed>;
  /** B: rows the primary loss sees. */
  readonly mainRows: number;
  /** The mixup λ of the batch (1 without mixup). */
  readonly lambda: number;
}

/** Extra rows appended for the secondary term: clean inputs and hard labels. */
export interface ExtraRows {
  readonly x: Float32Array | Int32Array;
  readonly labels: Int32Array;
}

/**
 * Prepare `batch` (its arrays are modified in place by augmentation; gatherBatch returns fresh copies) with
 * draws from `rng`. `extra` says which extra rows to append: 'sources' (the batch's own augmented, unmixed rows)
 * or explicit rows (a held-out batch).
 */
export function prepareBatch(plan: BatchPlan, batch: ImageBatch | TextBatch, rng: Random, extra?: 'sources' | ExtraRows): PreparedBatch {
  const b = batch.labels.length;
  let x: Float32Array | Int32Array = batch.kind === 'image' ? batch.images : batch.tokens;
  if (batch.kind === 'image' && plan.augmentation !== 'none') {
    augmentBatch(batch.images, batch.shape, rng, { padding: 4, flip: plan.augmentation === 'crop-flip' });
  }
  const clean = x;
  let y: Int32Array | Float32Array = batch.labels;
  let lambda = 1;
  const extras: Record<string, Feed> = {};
  let perm: Int32Array | null = null;
  if (plan.alpha > 0) {
    if (plan.kind === 'input') {
      const m = mixup(x as Float32Array, batch.labels, { alpha: plan.alpha, rng, classes: plan.classes });
      x = m.inputs;
      y = m.targets;
      lambda = m.lambda;
    } else if (plan.kind === 'cutmix') {
      if (batch.kind !== 'image') throw new Error('cutmix needs image batches (the configuration check rejects text)');
      const m = cutmix(batch.images, batch.labels, batch.shape, { alpha: plan.alpha, rng, classes: plan.classes });
      x = m.inputs;
      y = m.targets;
      lambda = m.lambda;
    } else if (plan.kind === 'feature') {
      const m = featureOnlyMixup(x as Float32Array, batch.labels, { alpha: plan.alpha, rng });
      x = m.inputs;
      y = m.labels;
      lambda = m.lambda;
    } else {
      const d = drawLayerMix(b, plan.mixLayers!.length, plan.alpha, rng);
      y = mixRows(oneHot(batch.labels, plan.classes), d);
      perm = d.perm;
      extras[MIX_WEIGHTS] = d.weights;
      lambda = d.lambda;
    }
  } else if (plan.mixLayers) {
    // Graph-side mixing compiled in but α = 0 cannot happen (the plan has no layers then); kept total.
    extras[MIX_WEIGHTS] = new Float32Array(plan.mixLayers.length);
    perm = Int32Array.from({ length: b }, (_, i) => i);
  }
  let extraCount = 0;
  if (extra !== undefined) {
    const rows: ExtraRows = extra === 'sources' ? { x: clean, labels: batch.labels } : extra;
    extraCount = rows.labels.length;
    x = appendRows(x, rows.x);
    y = y instanceof Float32Array ? appendRows(y, oneHot(rows.labels, plan.classes)) : appendRows(y, rows.labels);
  }
  if (perm) extras[MIX_PERM] = extraCount ? extendPermutation(perm, extraCount) : perm;
  return { x, y, extras, mainRows: b, lambda };
}
