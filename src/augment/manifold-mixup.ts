/**
 * Graph-side mixup: mixing hidden activations inside the model through its feature hook (METHODS.md "Training
 * procedures"). Manifold mixup (Verma et al. 2019; Thulasidasan et al. 2019 §3.3) mixes the activations of one
 * layer k drawn uniformly per batch from a candidate set; embedding mixup (Thulasidasan et al. 2019 §3.4, text)
 * mixes the word embeddings ([N, L, E]) — manifold mixup with the single candidate 'embedding'.
 *
 * One compiled step serves every draw: the step takes the partner permutation π (int32 [B]) and one weight per
 * candidate layer, w (float32 [K]) with w_k = 1 − λ at the drawn layer and 0 elsewhere, and at candidate layer k
 *
 *   h̃ = h + w_k · (h[π] − h)        (= λ h + (1 − λ) h[π] at the drawn layer, h itself elsewhere)
 *
 * The targets are mixed on the host with the same λ and π: q̃ = λ q + (1 − λ) q[π] (see mixup.ts). Rows that must
 * not be mixed (e.g. clean rows appended for a secondary term) take π(i) = i.
 */
import { gather, type Tensor } from '../engine/index.js';
import type { FeatureHook } from '../nn/model.js';
import type { TensorTree } from '../nn/tree.js';
import { describe, invalidArgument, requireNumber } from '../util/errors.js';
import type { Random } from '../util/random.js';
import { drawMixup, type MixupDraw } from './mixup.js';

/** Names of the step's extra inputs used by the mixing hook. */
export const MIX_PERM = 'mix-perm';
export const MIX_WEIGHTS = 'mix-weights';

/**
 * h + w · (h[π] − h): rows of h ([B, …]) mixed with their partners `perm` (int32 [B]) by the scalar tensor `weight`
 * (shape [] or [1]). The gradient flows to both h and h[π] (as in manifold mixup, where both are activations).
 */
export function mixHidden(h: Tensor, perm: Tensor, weight: Tensor): Tensor {
  if (perm.rank !== 1 || perm.shape[0] !== h.shape[0]) invalidArgument('perm', `an index vector [${h.shape[0]}]`, `[${perm.shape.join(', ')}]`);
  const w = weight.rank === 0 ? weight : weight.reshape([]);
  return h.add(gather(h, perm, 0).sub(h).mul(w));
}

/**
 * The feature hook that mixes at the candidate `layers` (model feature-layer names) with the step's extras
 * `mix-perm` [B] and `mix-weights` [K] (one weight per candidate, in order); other layers pass through.
 */
export function mixingHook(layers: readonly string[], extras: TensorTree): FeatureHook {
  const perm = extras[MIX_PERM];
  const weights = extras[MIX_WEIGHTS];
  if (!perm || !weights) invalidArgument('extras', `the inputs ${MIX_PERM} and ${MIX_WEIGHTS}`, Object.keys(extras).join(', ') || 'none');
  if (weights.rank !== 1 || weights.shape[0] !== layers.length) invalidArgument(`extras.${MIX_WEIGHTS}`, `shape [${layers.length}]`, `[${weights.shape.join(', ')}]`);
  return (layer, h) => {
    const k = layers.indexOf(layer);
    if (k < 0) return h;
    return mixHidden(h, perm, weights.slice([k], [k + 1], [0]));
  };
}

/** Check candidate layers against a model's feature layers; returns them. */
export function checkMixingLayers(layers: readonly string[], featureLayers: readonly string[], argument = 'mixupLayers'): readonly string[] {
  if (!Array.isArray(layers) || layers.length === 0) invalidArgument(argument, 'a non-empty list of feature layers', describe(layers));
  layers.forEach((l, i) => {
    if (!featureLayers.includes(l)) invalidArgument(`${argument}[${i}]`, `a feature layer of the model (${featureLayers.join(', ')})`, describe(l));
  });
  if (new Set(layers).size !== layers.length) invalidArgument(argument, 'distinct layers', JSON.stringify(layers));
  return layers;
}

/** Default candidates of manifold mixup: every feature layer but the pooled output 'pool' (mixing there is
 * nearly mixing the logits). */
export function defaultManifoldLayers(featureLayers: readonly string[]): readonly string[] {
  const out = featureLayers.filter((l) => l !== 'pool');
  return out.length ? out : featureLayers;
}

/** One batch's graph-side mixup draw. */
export interface LayerMixDraw extends MixupDraw {
  /** Index of the drawn candidate layer. */
  readonly layer: number;
  /** [K]: 1 − λ at `layer`, 0 elsewhere (float32, the `mix-weights` feed). */
  readonly weights: Float32Array;
}

/**
 * Draw λ ~ Beta(α, α) and π (as `drawMixup`, in that order), then the layer k = rng.int(K). With α = 0: λ = 1,
 * π = identity and all weights 0.
 */
export function drawLayerMix(batchSize: number, candidates: number, alpha: number, rng: Random): LayerMixDraw {
  const k = requireNumber('candidates', candidates, { integer: true, min: 1 });
  const draw = drawMixup(batchSize, alpha, rng);
  const layer = alpha === 0 ? 0 : rng.int(k);
  const weights = new Float32Array(k);
  weights[layer] = 1 - draw.lambda;
  return { ...draw, layer, weights };
}
