import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mean, sampleStd, tInterval, tQuantile975 } from '../../src/suite/report/statistics.js';
import { decide } from '../../src/suite/report/verdicts.js';

test('mean, sample std and the 95 % t-interval match hand computation', () => {
  // d = [1, 2, 3, 6]: mean 3, s² = (4 + 1 + 0 + 9) / 3 = 14/3, t(0.975, 3) = 3.182446305284263 (scipy.stats.t.ppf).
  const d = [1, 2, 3, 6];
  assert.equal(mean(d), 3);
  assert.ok(Math.abs(sampleStd(d) - Math.sqrt(14 / 3)) < 1e-12);
  const t = tInterval(d);
  const half = (3.182446305284263 * Math.sqrt(14 / 3)) / 2;
  assert.ok(Math.abs(t.lower - (3 - half)) < 1e-12 && Math.abs(t.upper - (3 + half)) < 1e-12);
  assert.ok(Number.isNaN(sampleStd([1])));
  assert.ok(Math.abs(tQuantile975(1) - 12.706204736174696) < 1e-9);
  assert.ok(Math.abs(tQuantile975(120) - 1.9799304050824413) < 1e-12);
});

test('a verdict holds only when the whole interval is on the claimed side of 0', () => {
  assert.equal(decide('<', -0.03, -0.01), 'holds');
  assert.equal(decide('<', 0.01, 0.03), 'contradicted');
  assert.equal(decide('<', -0.01, 0.01), 'inconclusive');
  assert.equal(decide('>', 0.01, 0.03), 'holds');
  assert.equal(decide('>', -0.03, -0.01), 'contradicted');
  assert.equal(decide('<', Number.NaN, Number.NaN), 'inconclusive');
});
