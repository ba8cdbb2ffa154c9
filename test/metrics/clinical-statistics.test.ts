import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  chiSquareUpperTail,
  clinicalJson,
  clinicalStatistics,
  hosmerLemeshow,
  logisticRecalibration,
  loessCalibration,
  medianPairwiseDistance,
  normalQuantile,
  skce,
} from '../../src/metrics/clinical/index.js';
import { Random } from '../../src/util/random.js';
import { readLabels, readVector, sharedDataOrSkip } from '../real-predictions/shared-data.js';

/** Reference numbers from test/fixtures/scripts/make-clinical-fixtures.py (sklearn, SciPy, statsmodels, NumPy). */
const REFERENCE = JSON.parse(readFileSync(fileURLToPath(new URL('../../../test/fixtures/metrics/clinical-reference.json', import.meta.url)), 'utf8'));
const RESAMPLES = REFERENCE.synthetic.skce_resamples as number;

function close(actual: number, expected: number, rtol: number, message: string, atol = 1e-12): void {
  assert.ok(Math.abs(actual - expected) <= atol + rtol * Math.abs(expected), `${message}: ${actual} vs reference ${expected}`);
}

/** Compare every statistic with the reference row (skce_p within the Monte Carlo error of two independent tests). */
function checkAgainstReference(p: ArrayLike<number>, y: ArrayLike<number>, ref: Record<string, number | null>, name: string, options: { skipIntercept?: boolean; skipLowess?: boolean } = {}): void {
  const stats = clinicalStatistics(p, y, { resamples: RESAMPLES, seed: 5 });
  const json = clinicalJson(stats);
  close(stats.calibrationInTheLarge, ref.calibration_in_the_large!, 1e-9, `${name} calibration-in-the-large`);
  // The slope against scikit-learn's unpenalised LogisticRegression and statsmodels' GLM; the SE against statsmodels.
  for (const key of ['calibration_slope', 'calibration_slope_se', 'calibration_slope_lower', 'calibration_slope_upper'] as const) close(json[key] as number, ref[key]!, 1e-6, `${name} ${key}`);
  close(json.calibration_slope as number, ref.statsmodels_slope!, 1e-6, `${name} slope vs statsmodels`);
  close(json.calibration_slope_se as number, ref.statsmodels_slope_se!, 1e-6, `${name} slope SE vs statsmodels`);
  if (!options.skipIntercept) {
    for (const key of ['calibration_intercept', 'calibration_intercept_se', 'calibration_intercept_lower', 'calibration_intercept_upper'] as const)
      close(json[key] as number, ref[key]!, 1e-6, `${name} ${key}`, 1e-9);
    close(json.calibration_intercept as number, ref.statsmodels_intercept!, 1e-6, `${name} intercept vs statsmodels`, 1e-9);
  }
  if (ref.hosmer_lemeshow === null) assert.equal(json.hosmer_lemeshow, null, `${name}: infinite HL statistic`);
  else close(json.hosmer_lemeshow as number, ref.hosmer_lemeshow!, 1e-10, `${name} HL statistic`);
  close(json.hosmer_lemeshow_p as number, ref.hosmer_lemeshow_p!, 1e-6, `${name} HL p-value (scipy chi2.sf)`, 1e-15);
  if (!options.skipLowess) for (const key of ['ici', 'e50', 'e90', 'emax'] as const) close(json[key] as number, ref[key]!, 1e-8, `${name} ${key} (statsmodels lowess)`, 1e-12);
  close(stats.skce.skce, ref.skce!, 1e-9, `${name} SKCE (O(n²) NumPy)`, 1e-15);
  close(stats.skce.bandwidth, ref.skce_bandwidth!, 1e-12, `${name} SKCE bandwidth`);
  // Two independent Monte Carlo tests of B draws: the difference has SD ≤ √(2 p (1 − p) / B); allow 4 SD.
  const pRef = ref.skce_p!;
  const tolerance = 4 * Math.sqrt((2 * Math.max(pRef, 1 / RESAMPLES) * (1 - pRef)) / RESAMPLES) + 2 / (RESAMPLES + 1);
  assert.ok(Math.abs(stats.skce.pValue - pRef) <= tolerance, `${name} skce_p ${stats.skce.pValue} vs NumPy ${pRef} (± ${tolerance})`);
}

test('clinical statistics of a synthetic miscalibrated sample (with p = 0, 1 and ties) match sklearn / statsmodels / SciPy / NumPy', () => {
  const { p, y } = REFERENCE.synthetic as { p: number[]; y: number[] };
  checkAgainstReference(p, y, REFERENCE.synthetic, 'synthetic');
});

test('clinical statistics of the six solar-flare forecasters (real data) match the references', async (t) => {
  if (!sharedDataOrSkip(t)) return;
  const outcomes = await readLabels('solar-flares/outcomes.npy');
  for (const [name, ref] of Object.entries(REFERENCE.solar_flares as Record<string, Record<string, number | null>>)) {
    const forecast = Float64Array.from(await readVector(`solar-flares/${name}-probs.npy`));
    // NICT forecasts only 0 or 1: the offset model's likelihood is flat in the intercept for large values
    // (statsmodels' IRLS diverges); its slope, HL (infinite), lowess and SKCE are still compared.
    checkAgainstReference(forecast, outcomes, ref, name, { skipIntercept: name === 'NICT', skipLowess: name === 'NICT' });
  }
  // NICT's two values: at p = 0 the 487-point window holds only p = 0 (radius h = 0), where Cleveland's `lowest`
  // gives every tied point weight 1, i.e. the mean outcome there; statsmodels 0.13 divides by h = 0 (NaN weights,
  // "invalid value encountered in divide") and returns y_i, so it is not a reference there. At p = 1 the window
  // reaches p = 0 at distance h = 1 > 0.999 h (weight 0): the mean outcome at p = 1 (statsmodels agrees: 0.738562).
  const nict = Float64Array.from(await readVector('solar-flares/NICT-probs.npy'));
  let zeros = 0;
  let eventsAtZero = 0;
  let eventsAtOne = 0;
  nict.forEach((v, i) => (v === 0 ? (zeros++, (eventsAtZero += outcomes[i]!)) : (eventsAtOne += outcomes[i]!)));
  const ones = nict.length - zeros;
  const curve = loessCalibration(nict, outcomes);
  close(curve.observed[1]!, 0.738562091503268, 1e-12, 'NICT lowess at p = 1 (statsmodels)');
  const byHand = (zeros * (eventsAtZero / zeros) + ones * (1 - eventsAtOne / ones)) / nict.length;
  close(curve.ici, byHand, 1e-12, 'NICT ICI from the two local means');
});

test('χ² upper tail and the normal quantile match SciPy (chi2.sf, norm.ppf)', () => {
  const cases: [number, number, number][] = [
    [3.841458820694124, 1, 0.04999999999999989],
    [0.5, 8, 0.999866630349486],
    [17.7, 8, 0.02359159178033392],
    [42.2, 8, 1.2420852861326417e-6],
    [100, 8, 4.269159205144943e-18],
    [1e-3, 2, 0.9995001249791693],
    [30, 3, 1.3800570312932553e-6],
    [7.5, 7.5, 0.43128944046089485],
  ];
  for (const [x, df, expected] of cases) close(chiSquareUpperTail(x, df), expected, 1e-12, `chi2.sf(${x}, ${df})`);
  assert.equal(chiSquareUpperTail(Infinity, 8), 0);
  assert.equal(chiSquareUpperTail(0, 8), 1);
  close(normalQuantile(0.975), 1.959963984540054, 1e-6, 'norm.ppf(0.975)');
  close(normalQuantile(0.95), 1.6448536269514722, 1e-6, 'norm.ppf(0.95)');
});

test('a calibrated sample has slope ≈ 1, intercept ≈ 0 inside their intervals, and a non-significant SKCE test', () => {
  const random = new Random(11);
  const n = 4000;
  const p = Float64Array.from({ length: n }, () => 1 / (1 + Math.exp(-(random.uniform() * 6 - 3))));
  const y = Float64Array.from(p, (v) => (random.uniform() < v ? 1 : 0));
  const r = logisticRecalibration(p, y);
  assert.ok(r.slope.lower < 1 && 1 < r.slope.upper, `slope CI [${r.slope.lower}, ${r.slope.upper}]`);
  assert.ok(r.intercept.lower < 0 && 0 < r.intercept.upper, `intercept CI [${r.intercept.lower}, ${r.intercept.upper}]`);
  // Over-confident risks (logit doubled) give a slope near ½ and a rejecting SKCE test.
  const extreme = Float64Array.from(p, (v) => 1 / (1 + Math.pow((1 - v) / v, 2)));
  close(logisticRecalibration(extreme, y).slope.estimate, 0.5, 0.1, 'slope of doubled logits');
  assert.ok(skce(extreme, y, { resamples: 200 }).pValue < 0.01);
  assert.ok(skce(p, y, { resamples: 200, seed: 3 }).pValue > 0.01);
});

test('the O(n) SKCE equals the O(n²) pair sum, and the median pairwise distance equals the brute-force median', () => {
  const random = new Random(4);
  const n = 57;
  const p = Float64Array.from({ length: n }, () => Math.round(random.uniform() * 20) / 20);
  const y = Float64Array.from(p, (v) => (random.uniform() < v * 0.8 ? 1 : 0));
  const distances: number[] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) distances.push(Math.abs(p[i]! - p[j]!));
  distances.sort((a, b) => a - b);
  const median = (distances[distances.length / 2 - 1]! + distances[distances.length / 2]!) / 2;
  const sorted = Float64Array.from(p).sort();
  assert.equal(medianPairwiseDistance(sorted), median);
  let sum = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) sum += 2 * Math.exp(-Math.abs(p[i]! - p[j]!) / median) * (y[i]! - p[i]!) * (y[j]! - p[j]!);
  close(skce(p, y, { resamples: 0 }).skce, sum / (n * (n - 1)), 1e-12, 'SKCE');
});

test('Hosmer–Lemeshow uses g − 2 degrees of freedom, and lowess of a constant outcome is constant', () => {
  const p = Float64Array.from({ length: 50 }, (_, i) => (i + 0.5) / 50);
  const y = Float64Array.from(p, (_, i) => (i % 2 === 0 ? 1 : 0));
  assert.equal(hosmerLemeshow(p, y, 10).degreesOfFreedom, 8);
  assert.equal(hosmerLemeshow(p, y, 5).degreesOfFreedom, 3);
  const ones = new Float64Array(50).fill(1);
  const curve = loessCalibration(p, ones);
  for (const v of curve.observed) close(v, 1, 1e-12, 'lowess of y ≡ 1');
  close(curve.emax, 1 - 0.01, 1e-12, 'Emax = 1 − min p');
});

test('clinical statistics refuse non-binary outcomes, probabilities outside [0, 1] and too few rows, naming the argument', () => {
  assert.throws(() => clinicalStatistics([0.2, 0.4, 0.6], [0, 2, 1], { groups: 3 }), /y: expected binary outcomes 0 or 1.*2 at row 1/);
  assert.throws(() => clinicalStatistics([0.2, 1.4, 0.6], [0, 1, 1], { groups: 3 }), /p: expected probabilities in \[0, 1\], got 1.4 at row 1/);
  assert.throws(() => clinicalStatistics([0.2, 0.4], [0, 1]), /p: expected at least 10 rows/);
  assert.throws(() => clinicalStatistics([0.2, 0.4, 0.5], [0, 1]), /y: expected 3 outcomes/);
});
