import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CalibrationFitError } from '../../src/posthoc/fit-error.js';
import { fitTsHbEce } from '../../src/posthoc/temperature/ts-hb-ece.js';
import { mat, naiveEce, naiveSoftmax, splits } from './helpers.js';

/**
 * TS-HB-ECE searches T in [minTemperature, maxTemperature] (default [0.05, 20]). Logits of magnitude 10³ (or
 * 10⁻³) need T far outside it: the search must not return the edge of the range as if it were the minimum.
 */

function scaled(logits: ArrayLike<number>, factor: number): Float64Array {
  return Float64Array.from(logits, (v) => v * factor);
}

test('TS-HB-ECE fails loudly, naming maxTemperature, when the ECE minimum lies above the search range', () => {
  const { val } = splits(4, 2000);
  const big = { logits: mat(2000, 4, scaled(val.logits, 300)) }; // needs T ≈ 300 × the usual one
  assert.throws(
    () => fitTsHbEce(big, val.labels),
    (e: unknown) => e instanceof CalibrationFitError && /upper end of the search range/.test(e.message) && /maxTemperature=2000/.test(e.message),
  );
  // Widened as the message says, the fit finds the scaled temperature and a small ECE.
  const usual = fitTsHbEce(val.input, val.labels).temperature;
  const wide = fitTsHbEce(big, val.labels, { maxTemperature: 2000 });
  assert.ok(Math.abs(wide.temperature / 300 / usual - 1) < 0.05, `${wide.temperature} vs 300 × ${usual}`);
  assert.ok(naiveEce(naiveSoftmax(big.logits.data, 2000, 4, wide.temperature), val.labels, 4) < 0.03);
});

test('TS-HB-ECE fails loudly, naming minTemperature, when the ECE minimum lies below the search range', () => {
  const { val } = splits(4, 2000);
  const tiny = { logits: mat(2000, 4, scaled(val.logits, 1e-3)) };
  assert.throws(
    () => fitTsHbEce(tiny, val.labels),
    (e: unknown) => e instanceof CalibrationFitError && /lower end of the search range/.test(e.message) && /minTemperature/.test(e.message),
  );
});

test('TS-HB-ECE accepts an edge of the range where the ECE is exactly 0 (all predictions correct and certain)', () => {
  const n = 200;
  const logits = new Float64Array(n * 3);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    labels[i] = i % 3;
    logits[i * 3 + (i % 3)] = 100;
  }
  const cal = fitTsHbEce({ logits: mat(n, 3, logits) }, labels);
  assert.equal(cal.temperature, 0.05);
});
