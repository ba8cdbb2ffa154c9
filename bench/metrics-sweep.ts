/**
 * Monotonic-sweep ECE (src/metrics/binned/sweep-ece.ts) on top-label outcomes of a highly accurate model, N = 100,000:
 * - 'separable-1-inversion': errors at the lowest confidences with one adjacent inversion (b* ≈ N/2, the
 *   worst case of the former O(b*²) search, ~10 s there);
 * - 'bernoulli-99.5': correctness ~ Bernoulli(0.99 + 0.01·rank/N) (b* small);
 * - 'golden-ratio-sequence': a low-discrepancy 0/1 sequence with rising density (thousands of descents).
 * Prints one JSON object: per case, the bins chosen, the number of descents and the milliseconds (best of 3).
 *
 * Usage: node dist/bench/metrics-sweep.js [N]
 */
import { sweepCalibrationError } from '../src/metrics/index.js';
import { Random } from '../src/util/random.js';

const N = Number(process.argv[2] ?? 100_000);

function cases(n: number): Record<string, (i: number) => number> {
  const rng = new Random(1);
  const bern = Float64Array.from({ length: n }, (_, i) => (rng.uniform() < 0.99 + (0.01 * i) / n ? 1 : 0));
  const phi = (Math.sqrt(5) - 1) / 2;
  return {
    'separable-1-inversion': (i) => (i === n / 200 - 1 ? 1 : i === n / 200 ? 0 : i >= n / 200 ? 1 : 0),
    'bernoulli-99.5': (i) => bern[i]!,
    'golden-ratio-sequence': (i) => ((i * phi) % 1 < 0.9 + (0.1 * i) / n ? 1 : 0),
  };
}

const out: Record<string, unknown> = { n: N };
for (const [name, outcome] of Object.entries(cases(N))) {
  const c = Float64Array.from({ length: N }, (_, i) => 0.9 + (0.1 * (i + 0.5)) / N);
  const a = Uint8Array.from({ length: N }, (_, i) => outcome(i));
  let descents = 0;
  for (let i = 1; i < N; i++) if (a[i]! < a[i - 1]!) descents++;
  let best = Infinity;
  let bins = 0;
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    bins = sweepCalibrationError(c, a).bins;
    best = Math.min(best, performance.now() - t);
  }
  out[name] = { bins, descents, ms: Math.round(best * 10) / 10 };
}
process.stdout.write(`${JSON.stringify(out)}\n`);
