import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expectedCalibrationError } from '../../src/metrics/binned/ece.js';
import { confidencesAt, topLabel } from '../../src/posthoc/temperature/top-label.js';
import { fitTsHbEce } from '../../src/posthoc/temperature/ts-hb-ece.js';
import { fitTsSbEce, sbEceOfLogTemperature } from '../../src/posthoc/temperature/ts-sb-ece.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { naiveEce, naiveSoftmax, splits } from './helpers.js';

const SB = { bins: 15, softBinTemperature: 0.01, p: 2 };

test('top-label confidences under temperature and their β-derivative match a naive softmax and differences', () => {
  const { val } = splits(6, 300);
  const top = topLabel(val.logits, 300, 6, val.labels);
  const c = new Float64Array(300);
  const dc = new Float64Array(300);
  confidencesAt(top, 0.7, c, dc);
  const p = naiveSoftmax(val.logits, 300, 6, 1 / 0.7);
  const h = 1e-6;
  const up = confidencesAt(top, 0.7 + h, new Float64Array(300));
  const down = confidencesAt(top, 0.7 - h, new Float64Array(300));
  for (let i = 0; i < 300; i++) {
    assert.ok(Math.abs(c[i]! - Math.max(...p.subarray(i * 6, i * 6 + 6))) < 1e-15);
    assert.ok(Math.abs(dc[i]! - (up[i]! - down[i]!) / (2 * h)) < 1e-8);
  }
});

test('the TS-SB-ECE objective gradient in log T matches central differences', () => {
  const { val } = splits(5, 400);
  const top = topLabel(val.logits, 400, 5, val.labels);
  for (const u of [-0.5, 0.3, 1.1]) {
    const h = 1e-6;
    const fd = (sbEceOfLogTemperature(top, u + h, SB).value - sbEceOfLogTemperature(top, u - h, SB).value) / (2 * h);
    const g = sbEceOfLogTemperature(top, u, SB).derivative;
    assert.ok(Math.abs(fd - g) < 1e-7, `u = ${u}: ${g} vs ${fd}`);
  }
});

test('TS-SB-ECE lands on a local minimum of SB-ECE and improves the test ECE', () => {
  const { val, test: t } = splits(5, 2000);
  const cal = fitTsSbEce(val.input, val.labels);
  const top = topLabel(val.logits, 2000, 5, val.labels);
  const u = Math.log(cal.temperature);
  const at = (v: number) => sbEceOfLogTemperature(top, v, SB).value;
  assert.ok(Math.abs(sbEceOfLogTemperature(top, u, SB).derivative) < 1e-7);
  assert.ok(at(u) <= at(u + 1e-3) && at(u) <= at(u - 1e-3));
  const before = naiveEce(naiveSoftmax(t.logits, 2000, 5), t.labels, 5);
  const after = naiveEce(cal.apply(t.input).data, t.labels, 5);
  assert.ok(after < before / 3, `test ECE ${before} → ${after}`);
  assert.equal(typeof cal.toJSON().temperature, 'number');
});

test('TS-HB-ECE is at least as good as every level-0 grid temperature and improves the test ECE', () => {
  const { val, test: t } = splits(4, 2000);
  const cal = fitTsHbEce(val.input, val.labels);
  const top = topLabel(val.logits, 2000, 4, val.labels);
  const ece = (T: number) => expectedCalibrationError(confidencesAt(top, 1 / T, new Float64Array(2000)), top.correctMask);
  const found = ece(cal.temperature);
  for (let j = 0; j < 21; j++) {
    const T = Math.exp(Math.log(0.05) + (j * (Math.log(20) - Math.log(0.05))) / 20);
    assert.ok(found <= ece(T) + 1e-15, `grid T = ${T}`);
  }
  // The objective is the naive ECE of softmax(z / T) too.
  assert.ok(Math.abs(found - naiveEce(naiveSoftmax(val.logits, 2000, 4, cal.temperature), val.labels, 4)) < 1e-12);
  const before = naiveEce(naiveSoftmax(t.logits, 2000, 4), t.labels, 4);
  const after = naiveEce(cal.apply(t.input).data, t.labels, 4);
  assert.ok(after < before / 3, `test ECE ${before} → ${after}`);
});

test('TS-HB-ECE validates its search range', () => {
  const { val } = splits(3, 50);
  assert.throws(
    () => fitTsHbEce(val.input, val.labels, { minTemperature: 5, maxTemperature: 2 }),
    (e: unknown) => e instanceof InvalidArgumentError && /ts-hb-ece options\.maxTemperature/.test(e.message),
  );
  assert.throws(() => fitTsHbEce(val.input, val.labels, { points: 2 }), InvalidArgumentError);
});
