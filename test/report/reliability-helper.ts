import type { ReliabilityBin, ReliabilityData } from '../../src/metrics/binned/reliability-types.js';

/**
 * Test-only helper: a naive ReliabilityData from logits (N × C, row-major) and labels, with M equal-width
 * (l, u] bins (confidence 0 in the first bin). The report layer never computes this itself; the metrics layer
 * does. Kept deliberately simple (two passes, per-sample loop) so tests can build realistic inputs.
 */
export function reliabilityFromLogits(logits: Float64Array, labels: Int32Array, classes: number, bins: number): ReliabilityData {
  const n = labels.length;
  const conf = new Float64Array(n);
  const correct = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    let arg = 0;
    for (let k = 0; k < classes; k++) {
      const z = logits[i * classes + k]!;
      if (z > max) {
        max = z;
        arg = k;
      }
    }
    let sum = 0;
    for (let k = 0; k < classes; k++) sum += Math.exp(logits[i * classes + k]! - max);
    conf[i] = 1 / sum;
    correct[i] = arg === labels[i] ? 1 : 0;
  }
  return reliabilityFromConfidences(conf, correct, bins);
}

/** Naive ReliabilityData from per-sample confidences and correctness (0/1), M equal-width (l, u] bins. */
export function reliabilityFromConfidences(conf: ArrayLike<number>, correct: ArrayLike<number>, bins: number): ReliabilityData {
  const n = conf.length;
  const count = new Array<number>(bins).fill(0);
  const sumConf = new Array<number>(bins).fill(0);
  const sumCorrect = new Array<number>(bins).fill(0);
  let totalConf = 0;
  let totalCorrect = 0;
  for (let i = 0; i < n; i++) {
    const c = conf[i]!;
    const b = Math.min(bins - 1, Math.max(0, Math.ceil(c * bins) - 1));
    count[b]! += 1;
    sumConf[b]! += c;
    sumCorrect[b]! += correct[i]!;
    totalConf += c;
    totalCorrect += correct[i]!;
  }
  const out: ReliabilityBin[] = [];
  let ece = 0;
  for (let b = 0; b < bins; b++) {
    const k = count[b]!;
    const accuracy = k > 0 ? sumCorrect[b]! / k : Number.NaN;
    const meanConfidence = k > 0 ? sumConf[b]! / k : Number.NaN;
    if (k > 0) ece += (k / n) * Math.abs(accuracy - meanConfidence);
    out.push({ lower: b / bins, upper: (b + 1) / bins, count: k, accuracy, meanConfidence, gap: accuracy - meanConfidence });
  }
  return {
    bins: out,
    total: n,
    ece: n > 0 ? ece : Number.NaN,
    accuracy: n > 0 ? totalCorrect / n : Number.NaN,
    meanConfidence: n > 0 ? totalConf / n : Number.NaN,
    convention: '(l,u]',
  };
}
