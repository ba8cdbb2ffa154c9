import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapInterval, bootstrapMetric, evaluate, quantile } from '../../src/metrics/index.js';
import { Random } from '../../src/util/random.js';
import { close, randomProbabilities, sampleLabels } from './helpers.js';

test('quantiles interpolate linearly between order statistics like numpy.percentile', () => {
  const s = [1, 2, 3, 4];
  assert.equal(quantile(s, 0), 1);
  assert.equal(quantile(s, 1), 4);
  close(quantile(s, 0.5), 2.5, 1e-15);
  close(quantile(s, 0.025), 1.075, 1e-15);
  assert.ok(Number.isNaN(quantile([], 0.5)));
});

test('the percentile bootstrap reproduces a naive resampling loop with the same seeded generator', () => {
  const rng = new Random(2);
  const x = Array.from({ length: 60 }, () => rng.normal());
  const meanOf = (idx: Int32Array): number => {
    let s = 0;
    for (const i of idx) s += x[i]!;
    return s / idx.length;
  };
  const ci = bootstrapInterval(x.length, meanOf, { resamples: 500, level: 0.9, seed: 7 });
  // Naive: same draws, full sort, numpy 'linear' percentiles at 5% and 95%.
  const r = new Random(7);
  const values: number[] = [];
  for (let b = 0; b < 500; b++) {
    let s = 0;
    for (let i = 0; i < x.length; i++) s += x[r.int(x.length)]!;
    values.push(s / x.length);
  }
  values.sort((a, b) => a - b);
  const at = (q: number): number => {
    const h = 499 * q;
    const lo = Math.floor(h);
    return values[lo]! + (h - lo) * (values[lo + 1]! - values[lo]!);
  };
  close(ci.estimate, x.reduce((a, b) => a + b, 0) / x.length, 1e-15);
  close(ci.lower, at(0.05), 1e-15);
  close(ci.upper, at(0.95), 1e-15);
  assert.equal(ci.level, 0.9);
  assert.equal(ci.resamples, 500);
});

test('the bootstrap interval of a mean has about the normal-theory width', () => {
  const rng = new Random(3);
  const x = Array.from({ length: 400 }, () => rng.normal());
  const ci = bootstrapInterval(x.length, (idx) => idx.reduce((s, i) => s + x[i]!, 0) / idx.length, { resamples: 2000, seed: 1 });
  const width = ci.upper - ci.lower;
  close(width, (2 * 1.96) / Math.sqrt(400), 0.03);
  assert.ok(ci.lower < ci.estimate && ci.estimate < ci.upper);
});

test('bootstrap of a calibration metric is reproducible from the seed and brackets the estimate', () => {
  const rng = new Random(9);
  const n = 300;
  const c = 4;
  const p = randomProbabilities(rng, n, c, 3);
  const y = sampleLabels(rng, p, n, c, 0.4);
  const m = { rows: n, cols: c, data: p };
  const a = bootstrapMetric(m, y, 'ece', { input: 'probabilities', resamples: 40, seed: 5 });
  const b = bootstrapMetric(m, y, 'ece', { input: 'probabilities', resamples: 40, seed: 5 });
  assert.deepEqual(a, b);
  assert.equal(a.estimate, evaluate(m, y, { input: 'probabilities' }).ece);
  assert.ok(a.lower <= a.upper);
  assert.ok(a.lower < a.estimate + 0.05 && a.upper > a.estimate - 0.05);
  assert.notDeepEqual(bootstrapMetric(m, y, 'ece', { input: 'probabilities', resamples: 40, seed: 6 }), a);
  assert.throws(() => bootstrapMetric(m, y, 'nope' as never, { input: 'probabilities' }), /metric: expected one of accuracy/);
  assert.throws(() => bootstrapInterval(10, () => 0, { level: 1 }), /level: expected a number in \(0, 1\)/);
});

test('resamples where the statistic is undefined are left out and counted', () => {
  // error AUROC is NaN when a resample has only correct or only wrong predictions.
  const ci = bootstrapInterval(3, (idx) => (idx[0] === idx[1] ? Number.NaN : idx[0]!), { resamples: 200, seed: 0 });
  assert.ok(ci.resamples > 0 && ci.resamples < 200);
  assert.ok(ci.lower >= 0 && ci.upper <= 2);
});
