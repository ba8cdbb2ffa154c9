/**
 * Model-input preprocessing: per-channel normalisation x' = (x − mean_c) / std_c (torchvision's Normalize) on
 * N × C × H × W images, and the NCHW → NHWC transpose for models that take channels last (Keras/TensorFlow
 * exports).
 */
import { invalidArgument } from '../util/errors.js';

/** (x − mean_c) / std_c in place on N × C × H × W; a single value applies to every channel. */
export function normalizeChannels(images: Float32Array, channels: number, plane: number, mean: readonly number[], std: readonly number[], argNames = { mean: '--mean', std: '--std' }): void {
  const pick = (list: readonly number[], name: string): number[] => {
    if (list.length === 1) return new Array(channels).fill(list[0]);
    if (list.length !== channels) invalidArgument(name, `1 or ${channels} values (one per channel)`, `${list.length} values`);
    return [...list];
  };
  const m = pick(mean, argNames.mean);
  const s = pick(std, argNames.std);
  s.forEach((v) => {
    if (!(v > 0)) invalidArgument(argNames.std, 'positive values', String(v));
  });
  const n = images.length / (channels * plane);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < channels; c++) {
      const o = (i * channels + c) * plane;
      const mc = m[c]!;
      const inv = 1 / s[c]!;
      for (let p = 0; p < plane; p++) images[o + p] = (images[o + p]! - mc) * inv;
    }
  }
}

/** N × C × H × W → N × H × W × C. */
export function nchwToNhwc(images: Float32Array, n: number, channels: number, height: number, width: number): Float32Array {
  const out = new Float32Array(images.length);
  const plane = height * width;
  for (let i = 0; i < n; i++) {
    const base = i * channels * plane;
    for (let c = 0; c < channels; c++) for (let p = 0; p < plane; p++) out[base + p * channels + c] = images[base + c * plane + p]!;
  }
  return out;
}
