import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  clinicalStatistics,
  evaluateOptIn,
  evaluateOptInWeighted,
  isRecordMetricName,
  metricDefinition,
  metricDirection,
  METRIC_NAMES,
  OPT_IN_METRIC_NAMES,
  OPT_IN_METRICS,
  RECORD_METRIC_NAMES,
  type OptInMetricName,
} from '../../src/metrics/index.js';
import { auarc, predictionRejectionRatio } from '../../src/metrics/selective/rejection-curve.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { Random } from '../../src/util/random.js';

/** Reference numbers from test/fixtures/scripts/make-clinical-fixtures.py (sklearn, SciPy, statsmodels, NumPy). */
const REFERENCE = JSON.parse(readFileSync(fileURLToPath(new URL('../../../test/fixtures/metrics/clinical-reference.json', import.meta.url)), 'utf8'));

function close(actual: number, expected: number, rtol: number, message: string, atol = 1e-12): void {
  assert.ok(Math.abs(actual - expected) <= atol + rtol * Math.abs(expected), `${message}: ${actual} vs ${expected}`);
}

/** A miscalibrated top-label sample: confidences in [0.3, 1), correct with probability c² (over-confident). */
function sample(n: number, seed: number): { confidence: Float64Array; correct: Uint8Array } {
  const random = new Random(seed);
  const confidence = new Float64Array(n);
  const correct = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    confidence[i] = 0.3 + 0.7 * random.uniform();
    correct[i] = random.uniform() < confidence[i]! ** 2 ? 1 : 0;
  }
  return { confidence, correct };
}

test('the opt-in entries are record entries: unique keys outside the default list, found by metricDefinition', () => {
  assert.deepEqual(
    OPT_IN_METRICS.map((m) => m.key),
    OPT_IN_METRIC_NAMES,
  );
  assert.equal(new Set(RECORD_METRIC_NAMES).size, RECORD_METRIC_NAMES.length);
  for (const name of OPT_IN_METRIC_NAMES) {
    assert.ok(!(METRIC_NAMES as readonly string[]).includes(name), `${name} is not in the default list`);
    assert.ok(isRecordMetricName(name));
    assert.equal(metricDefinition(name).key, name);
  }
  assert.equal(metricDirection('prr'), 'higher');
  assert.equal(metricDirection('auarc'), 'higher');
  assert.equal(metricDirection('ici'), 'lower');
  // A target value (slope 1) is ranked through its own entry |slope − 1|; the signed slope has no direction.
  assert.equal(metricDirection('calibration_slope'), 'none');
  assert.equal(metricDirection('calibration_slope_error'), 'lower');
  assert.equal(metricDirection('hosmer_lemeshow_p'), 'none');
  assert.ok(!isRecordMetricName('bogus'));
});

test('prr and auarc entries equal rejection-curve.ts, and the hand example PRR = 4/7', () => {
  const hand = evaluateOptIn(Float64Array.from([0.6, 0.9, 0.7, 0.8]), Uint8Array.from([0, 1, 1, 0]), ['prr', 'auarc']);
  close(hand.prr, 4 / 7, 1e-12, 'PRR by hand');
  close(hand.auarc, (1 + 0.5 + 2 / 3 + 0.5) / 4, 1e-12, 'AUARC by hand');
  const { confidence, correct } = sample(500, 3);
  const values = evaluateOptIn(confidence, correct, ['prr', 'auarc']);
  assert.equal(values.prr, predictionRejectionRatio(confidence, correct));
  assert.equal(values.auarc, auarc(confidence, correct));
  assert.ok(Number.isNaN(evaluateOptIn(Float64Array.from([0.9, 0.8]), Uint8Array.from([1, 1]), ['prr']).prr));
});

test('the clinical entries equal clinicalStatistics (record settings) of confidence against correctness', () => {
  const { confidence, correct } = sample(400, 7);
  const values = evaluateOptIn(confidence, correct);
  const stats = clinicalStatistics(confidence, correct);
  assert.equal(values.calibration_in_the_large, stats.calibrationInTheLarge);
  assert.equal(values.calibration_slope, stats.recalibration.slope.estimate);
  assert.equal(values.calibration_slope_error, Math.abs(stats.recalibration.slope.estimate - 1));
  assert.equal(values.calibration_intercept, stats.recalibration.intercept.estimate);
  assert.equal(values.hosmer_lemeshow, stats.hosmerLemeshow.statistic);
  assert.equal(values.hosmer_lemeshow_p, stats.hosmerLemeshow.pValue);
  for (const k of ['ici', 'e50', 'e90', 'emax'] as const) assert.equal(values[k], stats.loess[k], k);
  assert.equal(values.skce, stats.skce.skce);
  assert.equal(values.skce_p, stats.skce.pValue);
  // Over-confident on average by construction (P(correct) = c² < c): calibration-in-the-large < 0.
  assert.ok(values.calibration_in_the_large < 0);
});

test('the clinical entries match the committed sklearn / statsmodels / SciPy / NumPy reference (synthetic sample)', () => {
  const ref = REFERENCE.synthetic;
  const values = evaluateOptIn(Float64Array.from(ref.p as number[]), Uint8Array.from(ref.y as number[]));
  close(values.calibration_in_the_large, ref.calibration_in_the_large, 1e-9, 'calibration-in-the-large');
  close(values.calibration_slope, ref.statsmodels_slope, 1e-6, 'slope vs statsmodels');
  close(values.calibration_slope_error, Math.abs(ref.statsmodels_slope - 1), 1e-6, '|slope − 1|');
  close(values.calibration_intercept, ref.statsmodels_intercept, 1e-6, 'intercept vs statsmodels', 1e-9);
  close(values.hosmer_lemeshow, ref.hosmer_lemeshow, 1e-10, 'HL statistic');
  close(values.hosmer_lemeshow_p, ref.hosmer_lemeshow_p, 1e-6, 'HL p (scipy chi2.sf)', 1e-15);
  for (const k of ['ici', 'e50', 'e90', 'emax'] as const) close(values[k], ref[k], 1e-8, `${k} (statsmodels lowess)`, 1e-12);
  close(values.skce, ref.skce, 1e-9, 'SKCE (O(n²) NumPy)', 1e-15);
  // The record's test draws 1000 Monte Carlo samples, the reference 4000: within 4 SD of their difference.
  const pRef = ref.skce_p as number;
  const sd = Math.sqrt(Math.max(pRef, 1 / 1000) * (1 - pRef) * (1 / 1000 + 1 / ref.skce_resamples));
  assert.ok(Math.abs(values.skce_p - pRef) <= 4 * sd + 2 / 1001, `skce_p ${values.skce_p} vs ${pRef}`);
});

test('too few rows for a statistic: NaN, not a throw (Hosmer–Lemeshow needs 10 rows)', () => {
  const values = evaluateOptIn(Float64Array.from([0.9, 0.6, 0.7]), Uint8Array.from([1, 0, 1]), ['hosmer_lemeshow', 'hosmer_lemeshow_p', 'ici']);
  assert.ok(Number.isNaN(values.hosmer_lemeshow) && Number.isNaN(values.hosmer_lemeshow_p));
  assert.ok(Number.isFinite(values.ici));
});

test('weights: calibration_in_the_large is weighted (integer weights = repeated rows); the others refuse with the reason', () => {
  const { confidence, correct } = sample(60, 11);
  const weights = Float64Array.from({ length: 60 }, (_, i) => i % 3);
  const repeated: number[] = [];
  for (let i = 0; i < 60; i++) for (let r = 0; r < weights[i]!; r++) repeated.push(i);
  const expanded = evaluateOptIn(
    Float64Array.from(repeated, (i) => confidence[i]!),
    Uint8Array.from(repeated, (i) => correct[i]!),
    ['calibration_in_the_large'],
  );
  const weighted = evaluateOptInWeighted(confidence, correct, weights, ['calibration_in_the_large']);
  close(weighted.calibration_in_the_large, expanded.calibration_in_the_large, 1e-12, 'weighted CITL');
  const refusals: [OptInMetricName, RegExp][] = [
    ['prr', /ranks the samples/],
    ['hosmer_lemeshow_p', /test statistic/],
    ['skce', /U-statistic/],
    ['calibration_slope', /not implemented with sample weights yet/],
  ];
  for (const [name, reason] of refusals) assert.throws(() => evaluateOptInWeighted(confidence, correct, weights, [name]), reason, name);
});

test('unknown names are refused with the list of opt-in names', () => {
  const { confidence, correct } = sample(20, 1);
  assert.throws(
    () => evaluateOptIn(confidence, correct, ['prr', 'ece' as OptInMetricName]),
    (e: unknown) => e instanceof InvalidArgumentError && /metrics/.test(e.message) && /prr, auarc, calibration_in_the_large/.test(e.message),
  );
});
