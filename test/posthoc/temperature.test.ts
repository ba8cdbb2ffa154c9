import { test } from 'node:test';
import assert from 'node:assert/strict';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { CalibrationFitError } from '../../src/posthoc/fit-error.js';
import { fitTemperature, temperatureNll } from '../../src/posthoc/temperature/temperature.js';
import { assertProbabilityRows, loadReference, mat, naiveEce, naiveNll, naiveSoftmax, splits } from './helpers.js';

/** Mean NLL of softmax(z / T), computed naively. */
function nllAt(logits: Float64Array, labels: Int32Array, cols: number, temperature: number): number {
  return naiveNll(naiveSoftmax(logits, labels.length, cols, temperature), labels, cols);
}

test('the NLL and its three β-derivatives agree with a naive NLL and central differences', () => {
  const { logits, labels } = syntheticOverconfident({ n: 200, classes: 5, seed: 4 });
  for (const beta of [0.05, 0.4, 1.3]) {
    const r = temperatureNll(logits, 200, 5, labels, beta);
    assert.ok(Math.abs(r.nll - nllAt(logits, labels, 5, 1 / beta)) < 1e-12, `nll at β = ${beta}`);
    const h = 1e-4 * beta;
    const up = temperatureNll(logits, 200, 5, labels, beta + h);
    const down = temperatureNll(logits, 200, 5, labels, beta - h);
    const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
    close(r.d1, (up.nll - down.nll) / (2 * h), `d1 at β = ${beta}`);
    close(r.d2, (up.d1 - down.d1) / (2 * h), `d2 at β = ${beta}`);
    close(r.d3, (up.d2 - down.d2) / (2 * h), `d3 at β = ${beta}`);
  }
});

test('temperature by NLL recovers the overconfidence factor τ of the synthetic set', () => {
  for (const tau of [0.5, 2.5, 4]) {
    const { logits, labels } = syntheticOverconfident({ n: 20_000, classes: 10, seed: 5, overconfidence: tau, separation: 1.5 });
    const cal = fitTemperature({ logits: mat(20_000, 10, logits) }, labels);
    assert.ok(Math.abs(cal.temperature / tau - 1) < 0.03, `τ = ${tau}: T = ${cal.temperature}`);
  }
});

test('temperature by NLL is a stationary point of the naive NLL and matches scipy', () => {
  const ref = loadReference().temperature;
  const n = ref.labels.length;
  const logits = Float64Array.from(ref.logits);
  const labels = Int32Array.from(ref.labels);
  const T = fitTemperature({ logits: mat(n, ref.classes, logits) }, labels).temperature;
  assert.ok(Math.abs(T / ref.temperature - 1) < 1e-8, `T = ${T}, scipy ${ref.temperature}`);
  // Tight convergence: the Newton step at the returned point is below 1e−12 relative.
  const r = temperatureNll(logits, n, ref.classes, labels, 1 / T);
  assert.ok(Math.abs(r.d1 / r.d2) * T < 1e-12, `Newton step ${r.d1 / r.d2}`);
  const e = 1e-5;
  assert.ok(nllAt(logits, labels, ref.classes, T) < nllAt(logits, labels, ref.classes, T * (1 + e)));
  assert.ok(nllAt(logits, labels, ref.classes, T) < nllAt(logits, labels, ref.classes, T * (1 - e)));
});

test('the subsampled start does not change the result: large and small sets agree with golden-section search', () => {
  // 12 000 rows takes the subsample path (N > 8192); compare with an independent golden-section search on log T.
  const { logits, labels } = syntheticOverconfident({ n: 12_000, classes: 4, seed: 8, overconfidence: 1.7, separation: 1 });
  const T = fitTemperature({ logits: mat(12_000, 4, logits) }, labels).temperature;
  const f = (u: number) => temperatureNll(logits, 12_000, 4, labels, Math.exp(-u)).nll;
  let a = Math.log(0.1);
  let b = Math.log(10);
  const g = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 80; i++) {
    const c = b - g * (b - a);
    const d = a + g * (b - a);
    if (f(c) < f(d)) b = d;
    else a = c;
  }
  assert.ok(Math.abs(T / Math.exp((a + b) / 2) - 1) < 1e-6, `T = ${T} vs ${Math.exp((a + b) / 2)}`);
  const r = temperatureNll(logits, 12_000, 4, labels, 1 / T);
  assert.ok(Math.abs(r.d1 / r.d2) * T < 1e-12, `Newton step ${r.d1 / r.d2}`);
});

test('float32 and float64 logits give the same temperature to float32 precision', () => {
  const { logits, labels } = syntheticOverconfident({ n: 3000, classes: 6, seed: 9 });
  const t64 = fitTemperature({ logits: mat(3000, 6, logits) }, labels).temperature;
  const t32 = fitTemperature({ logits: { rows: 3000, cols: 6, data: Float32Array.from(logits) } }, labels).temperature;
  assert.ok(Math.abs(t32 / t64 - 1) < 1e-5);
});

test('temperature scaling keeps the argmax of every row, and its rows sum to 1', () => {
  const { val, test: t } = splits(7, 1000);
  const cal = fitTemperature(val.input, val.labels);
  const out = cal.apply(t.input);
  assertProbabilityRows(out, 'temperature');
  for (let i = 0; i < 1000; i++) {
    let a = 0;
    let b = 0;
    for (let k = 1; k < 7; k++) {
      if (t.logits[i * 7 + k]! > t.logits[i * 7 + a]!) a = k;
      if (out.data[i * 7 + k]! > out.data[i * 7 + b]!) b = k;
    }
    assert.equal(a, b, `row ${i}`);
  }
  // apply = naive softmax(z / T)
  const naive = naiveSoftmax(t.logits, 1000, 7, cal.temperature);
  for (let i = 0; i < naive.length; i++) assert.ok(Math.abs(out.data[i]! - naive[i]!) < 1e-15);
});

test("'grid-ece' picks the grid temperature with the lowest validation ECE (first on ties)", () => {
  const { val } = splits(5, 2000, 2.3);
  const cal = fitTemperature(val.input, val.labels, { objective: 'grid-ece' });
  let best = Infinity;
  let bestT = NaN;
  for (let i = 1; i <= 100; i++) {
    const ece = naiveEce(naiveSoftmax(val.logits, 2000, 5, i / 10), val.labels, 5);
    if (ece < best - 1e-12) {
      best = ece;
      bestT = i / 10;
    }
  }
  assert.equal(cal.temperature, bestT);
  assert.deepEqual(cal.toJSON().settings, { objective: 'grid-ece', bins: 15 });
});

test('logits of magnitude 1e3 and probabilities of exactly 0 and 1 give a finite temperature and finite outputs', () => {
  const { logits, labels } = syntheticOverconfident({ n: 2000, classes: 4, seed: 2, overconfidence: 150, separation: 2 });
  let max = 0;
  for (const v of logits) max = Math.max(max, Math.abs(v));
  assert.ok(max > 1000, `max |logit| = ${max}`);
  const cal = fitTemperature({ logits: mat(2000, 4, logits) }, labels);
  assert.ok(Number.isFinite(cal.temperature) && Math.abs(cal.temperature / 150 - 1) < 0.1, `T = ${cal.temperature}`);
  assertProbabilityRows(cal.apply({ logits: mat(2, 4, [1000, -1000, 0, 3, -1000, 1000, 999, -999]) }));

  const probs = mat(4, 2, [1, 0, 0, 1, 0.3, 0.7, 0.9, 0.1]);
  const p = fitTemperature({ probabilities: probs }, Int32Array.of(0, 1, 0, 0));
  assert.ok(Number.isFinite(p.temperature) && p.temperature > 0);
  assertProbabilityRows(p.apply({ probabilities: probs }));
});

test('temperature by NLL fails loudly when the NLL has no minimum or does not depend on T', () => {
  // Every prediction correct: the NLL keeps falling as T → 0.
  const separable = mat(3, 2, [2, 0, 0, 3, 1, -1]);
  assert.throws(
    () => fitTemperature({ logits: separable }, Int32Array.of(0, 1, 0)),
    (e: unknown) => e instanceof CalibrationFitError && /T → 0/.test(e.message),
  );
  // Every prediction wrong: the NLL keeps falling as T → ∞.
  assert.throws(
    () => fitTemperature({ logits: separable }, Int32Array.of(1, 0, 1)),
    (e: unknown) => e instanceof CalibrationFitError && /T → ∞/.test(e.message),
  );
  // Constant rows: nothing to fit.
  assert.throws(
    () => fitTemperature({ logits: mat(2, 3, [1, 1, 1, 5, 5, 5]) }, Int32Array.of(0, 2)),
    (e: unknown) => e instanceof CalibrationFitError && /does not depend on T/.test(e.message),
  );
});

test('temperature options and inputs are validated with messages naming the argument', () => {
  const input = { logits: mat(2, 2, [1, 0, 0, 1]) };
  const labels = Int32Array.of(0, 1);
  const named = (pattern: RegExp) => (e: unknown) => e instanceof InvalidArgumentError && pattern.test(e.message);
  assert.throws(() => fitTemperature(input, labels, { objective: 'ece' as never }), named(/temperature options\.objective: expected one of 'nll', 'grid-ece', got "ece"/));
  assert.throws(() => fitTemperature(input, labels, { bins: 0 }), named(/temperature options\.bins/));
  assert.throws(() => fitTemperature(input, labels, { temperature: 2 } as never), named(/temperature options\.temperature: expected a known key \(objective, bins\)/));
  assert.throws(() => fitTemperature(input, Int32Array.of(0, 2)), named(/labels\[1\]: expected a class index in \[0, 2\), got 2/));
  assert.throws(() => fitTemperature(input, Int32Array.of(0)), named(/labels: expected length 2/));
  assert.throws(() => fitTemperature({ logits: mat(1, 2, [NaN, 0]) }, Int32Array.of(0)), named(/input\.logits: expected finite values, got NaN at row 0, column 0/));
  assert.throws(() => fitTemperature({ probabilities: mat(1, 2, [0.5, 0.6]) }, Int32Array.of(0)), named(/input\.probabilities: expected probability rows summing to 1/));
  assert.throws(() => fitTemperature({ scores: mat(1, 2, [0.5, 0.5]) } as never, Int32Array.of(0)), named(/input: expected exactly one key/));
  const cal = fitTemperature({ logits: mat(4, 2, [1, 0, 0, 1, 2, 0, 0, 0.5]) }, Int32Array.of(0, 1, 0, 0));
  assert.throws(() => cal.apply({ logits: mat(1, 3, [0, 0, 0]) }), named(/input\.logits\.cols: expected 2/));
});
