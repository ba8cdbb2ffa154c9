import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spiegelhalterTest } from '../../src/metrics/statistical-tests/spiegelhalter-test.js';
import { brownianMaxAbsCdf, brownianRangeCdf, cumulativeCalibrationTests } from '../../src/metrics/statistical-tests/cumulative-calibration-tests.js';
import { normalUpperTail } from '../../src/metrics/statistical-tests/normal-tail.js';
import { ksError } from '../../src/metrics/statistical-tests/ks-error.js';
import { Random } from '../../src/util/random.js';
import { close } from './helpers.js';

test('normal upper tail matches tabulated values (relative error < 2e-7)', () => {
  for (const [x, q] of [
    [0, 0.5],
    [1.959963984540054, 0.025],
    [-1, 0.8413447460685429],
    [3, 0.0013498980316301],
    [6, 9.865876450376946e-10],
  ] as const)
    close(normalUpperTail(x), q, 2e-7 * q, `Q(${x})`);
});

test("Spiegelhalter's Z on a hand-worked case", () => {
  // p = (0.2, 0.9), y = (1, 1): numerator 0.8·0.6 + 0.1·(−0.8) = 0.4; variance 0.36·0.16 + 0.64·0.09 = 0.1152.
  const r = spiegelhalterTest(Float64Array.from([0.2, 0.9]), Uint8Array.from([1, 1]));
  close(r.statistic, 0.4 / Math.sqrt(0.1152), 1e-15, 'Z');
  close(r.pValue, 2 * normalUpperTail(0.4 / Math.sqrt(0.1152)), 1e-15, 'p');
  assert.ok(Number.isNaN(spiegelhalterTest(Float64Array.from([0.5, 1]), Uint8Array.from([1, 1])).statistic));
});

test('Brownian-motion CDFs: the limits and known quantiles (KS 95 % point 2.2414, Kuiper mean √(π/2)·2·ln2... range)', () => {
  // P(max|B| ≤ 2.2414) ≈ 0.95 (Feller); the series at small and large x.
  close(brownianMaxAbsCdf(2.241403), 0.95, 2e-6, 'max|B| 95% point');
  assert.equal(brownianMaxAbsCdf(0), 0);
  close(brownianMaxAbsCdf(8), 1, 1e-12, 'large x');
  // The range R of B on [0, 1] has mean 2·√(2/π): integrate 1 − F numerically.
  let mean = 0;
  const h = 1e-3;
  for (let x = h / 2; x < 10; x += h) mean += (1 - brownianRangeCdf(x)) * h;
  close(mean, 2 * Math.sqrt(2 / Math.PI), 1e-6, 'E[range]');
});

test('KS and Kuiper tests: the KS statistic is the ks metric over σ, the Kuiper range ≥ the KS statistic', () => {
  const rng = new Random(5);
  const n = 2000;
  const s = Float64Array.from({ length: n }, () => 0.2 + 0.8 * rng.uniform());
  const calibrated = Uint8Array.from(s, (p) => (rng.uniform() < p ? 1 : 0));
  const r = cumulativeCalibrationTests(s, calibrated);
  let v = 0;
  for (const p of s) v += p * (1 - p);
  const sigma = Math.sqrt(v) / n;
  close(r.ks.statistic, ksError(s, calibrated) / sigma, 1e-12, 'KS scaled');
  assert.ok(r.kuiper.range >= ksError(s, calibrated) - 1e-15);
  assert.ok(r.ks.pValue > 0.01 && r.kuiper.pValue > 0.01, `calibrated data should not be rejected: ${r.ks.pValue}, ${r.kuiper.pValue}`);
  const overconfident = Uint8Array.from(s, (p) => (rng.uniform() < p * 0.8 ? 1 : 0));
  const bad = cumulativeCalibrationTests(s, overconfident);
  assert.ok(bad.ks.pValue < 1e-6 && bad.kuiper.pValue < 1e-6);
  const z = spiegelhalterTest(s, overconfident);
  assert.ok(z.pValue < 1e-6);
});
