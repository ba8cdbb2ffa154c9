import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expectedCalibrationError } from '../../src/metrics/binned/ece.js';
import { SB_ECE_DEFAULTS, sbEceBinCenters, softBinnedEce } from '../../src/metrics/smooth/soft-binned-ece.js';
import { lcg } from '../posthoc/helpers.js';

/** SB-ECE straight from the formula (METHODS.md), with nested arrays and no shared intermediates. */
function naiveSbEce(c: number[], a: number[], M = 15, Tb = 0.01, p = 2): number {
  const xi = Array.from({ length: M }, (_, j) => (j + 1 - 0.5) / M);
  const u = c.map((ci) => {
    const l = xi.map((x) => -((ci - x) ** 2) / Tb);
    const m = Math.max(...l);
    const e = l.map((v) => Math.exp(v - m));
    const s = e.reduce((x, y) => x + y, 0);
    return e.map((v) => v / s);
  });
  let total = 0;
  for (let j = 0; j < M; j++) {
    const mass = u.reduce((s, row) => s + row[j]!, 0);
    const conf = u.reduce((s, row, i) => s + row[j]! * c[i]!, 0) / Math.max(mass, 1e-5);
    const acc = u.reduce((s, row, i) => s + row[j]! * a[i]!, 0) / Math.max(mass, 1e-5);
    total += (mass / c.length) * Math.abs(acc - conf) ** p;
  }
  return total ** (1 / p);
}

function sample(n: number, seed: number): { c: Float64Array; a: Float64Array } {
  const r = lcg(seed);
  const c = Float64Array.from({ length: n }, () => 0.3 + 0.7 * r());
  const a = Float64Array.from(c, (v) => (r() < v * 0.8 ? 1 : 0));
  return { c, a };
}

test('SB-ECE has the constants of Karandikar et al. and centres ξ_j = (j − ½)/M', () => {
  assert.deepEqual({ ...SB_ECE_DEFAULTS }, { bins: 15, softBinTemperature: 0.01, p: 2, epsilon: 1e-5 });
  assert.deepEqual(Array.from(sbEceBinCenters(4)), [0.125, 0.375, 0.625, 0.875]);
});

test('SB-ECE equals the formula evaluated naively, for p = 1, 2, 3 and several bin settings', () => {
  const { c, a } = sample(300, 1);
  for (const [M, Tb, p] of [
    [15, 0.01, 2],
    [10, 0.05, 1],
    [5, 0.002, 3],
  ] as const) {
    const v = softBinnedEce(c, a, { bins: M, softBinTemperature: Tb, p });
    const ref = naiveSbEce(Array.from(c), Array.from(a), M, Tb, p);
    assert.ok(Math.abs(v - ref) < 1e-14, `M=${M} Tb=${Tb} p=${p}: ${v} vs ${ref}`);
  }
});

test('SB-ECE of a single confident sample is |a − c| (hand-worked)', () => {
  // c = 0.75 with M = 2: centres 0.25, 0.75; membership of the far bin is e^−25/(1 + e^−25) ≈ 1.4e−11, so
  // the near bin holds the sample and SB-ECE ≈ |1 − 0.75| = 0.25 (the far bin adds ~1e−12 of weight).
  const v = softBinnedEce(Float64Array.of(0.75), Float64Array.of(1), { bins: 2 });
  assert.ok(Math.abs(v - 0.25) < 1e-9, String(v));
});

test('SB-ECE tends to the hard-binned ℓ2 ECE as the soft-bin temperature goes to 0', () => {
  const { c, a } = sample(500, 2);
  const hard = expectedCalibrationError(c, Uint8Array.from(a), { bins: 15, p: 2 });
  const soft = softBinnedEce(c, a, { softBinTemperature: 1e-6 });
  assert.ok(Math.abs(soft - hard) < 1e-6, `${soft} vs ${hard}`);
  assert.ok(Math.abs(softBinnedEce(c, a) - hard) > 1e-4, 'the default T_b = 0.01 is genuinely soft');
});

test('the SB-ECE gradient with respect to the confidences matches central differences', () => {
  for (const [seed, p] of [
    [3, 2],
    [4, 1],
    [5, 3],
  ] as const) {
    const { c, a } = sample(60, seed);
    const g = new Float64Array(60);
    softBinnedEce(c, a, { p }, g);
    // Full gradient entry by entry, and one random direction.
    const h = 1e-6;
    for (let i = 0; i < 60; i += 7) {
      const up = Float64Array.from(c);
      const down = Float64Array.from(c);
      up[i] = up[i]! + h;
      down[i] = down[i]! - h;
      const fd = (softBinnedEce(up, a, { p }) - softBinnedEce(down, a, { p })) / (2 * h);
      assert.ok(Math.abs(fd - g[i]!) < 1e-6 * Math.max(1, Math.abs(fd)), `p=${p} i=${i}: ${g[i]} vs ${fd}`);
    }
    const r = lcg(seed + 100);
    const dir = Float64Array.from({ length: 60 }, () => r() - 0.5);
    const shifted = (t: number) =>
      softBinnedEce(
        Float64Array.from(c, (v, i) => v + t * dir[i]!),
        a,
        { p },
      );
    const fd = (shifted(h) - shifted(-h)) / (2 * h);
    const analytic = g.reduce((s, v, i) => s + v * dir[i]!, 0);
    assert.ok(Math.abs(fd - analytic) < 1e-7, `p=${p} direction: ${analytic} vs ${fd}`);
  }
});

test('SB-ECE is 0 with a zero gradient when confidences match accuracies exactly', () => {
  // All correct with confidence 1 in every soft bin: acc_j = conf_j = 1.
  const g = new Float64Array(3);
  assert.equal(softBinnedEce(Float64Array.of(1, 1, 1), Float64Array.of(1, 1, 1), {}, g), 0);
  assert.deepEqual(Array.from(g), [0, 0, 0]);
});
