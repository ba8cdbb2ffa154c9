import type { BinConvention, ReliabilityBin, ReliabilityData } from '../../src/metrics/binned/reliability-types.js';

/** One hand-written bin: [count, accuracy, meanConfidence] (accuracy/confidence ignored when count is 0). */
export type BinSpec = readonly [number, number, number];

/**
 * Test-only: ReliabilityData from per-bin (count, accuracy, confidence) triples over equal-width bins on [0, 1]
 * (or explicit `edges`), with total, ECE = Σ (n_b/N)|acc_b − conf_b| and the overall accuracy / confidence as
 * count-weighted means — computed here independently of the report code, which only draws.
 */
export function makeData(specs: readonly BinSpec[], options: { edges?: readonly number[]; convention?: BinConvention; total?: number } = {}): ReliabilityData {
  const m = specs.length;
  const edges = options.edges ?? Array.from({ length: m + 1 }, (_, i) => i / m);
  let total = 0;
  for (const [n] of specs) total += n;
  const bins: ReliabilityBin[] = specs.map(([n, acc, conf], b) => ({
    lower: edges[b]!,
    upper: edges[b + 1]!,
    count: n,
    accuracy: n > 0 ? acc : Number.NaN,
    meanConfidence: n > 0 ? conf : Number.NaN,
    gap: n > 0 ? acc - conf : Number.NaN,
  }));
  let ece = 0;
  let accuracy = 0;
  let confidence = 0;
  for (const [n, acc, conf] of specs) {
    if (n === 0) continue;
    ece += (n / total) * Math.abs(acc - conf);
    accuracy += (n / total) * acc;
    confidence += (n / total) * conf;
  }
  return {
    bins,
    total: options.total ?? total,
    ece: total > 0 ? ece : Number.NaN,
    accuracy: total > 0 ? accuracy : Number.NaN,
    meanConfidence: total > 0 ? confidence : Number.NaN,
    convention: options.convention ?? '(l,u]',
  };
}
