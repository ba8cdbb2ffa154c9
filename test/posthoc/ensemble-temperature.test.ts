import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { brierTemperature, temperatureBrier } from '../../src/posthoc/temperature/brier-temperature.js';
import { ensembleTemperatureFromJSON, ensembleWeights, fitEnsembleTemperature } from '../../src/posthoc/temperature/ensemble-temperature.js';
import { CalibrationFitError } from '../../src/posthoc/fit-error.js';
import { calibratedLogits, calibratorFromJSON, fitCalibrator } from '../../src/posthoc/registry.js';
import { fitTemperature, temperatureFromJSON } from '../../src/posthoc/temperature/temperature.js';
import { assertClose, assertProbabilityRows, mat, naiveEce, naiveSoftmax, splits } from './helpers.js';

/** Written by test/fixtures/scripts/make-ets-fixtures.py from the official Mix-n-Match code (dist/test/posthoc → test/fixtures). */
const REFERENCE = JSON.parse(readFileSync(fileURLToPath(new URL('../../../test/fixtures/ets-reference.json', import.meta.url)), 'utf8'));

// ---- naive references, written independently of the library --------------------------------------------------

/** w₀ softmax(z/T) + w₁ softmax(z) + w₂/C, row by row. */
function naiveMixture(z: ArrayLike<number>, rows: number, cols: number, T: number, w: ArrayLike<number>): Float64Array {
  const a = naiveSoftmax(z, rows, cols, T);
  const b = naiveSoftmax(z, rows, cols, 1);
  return a.map((v, i) => w[0]! * v + w[1]! * b[i]! + w[2]! / cols);
}

/** The official objectives: 'mse' = mean over all N·C entries of (p − q)² (mse_t, mse_w); 'nll' = −mean log p_y. */
function officialLoss(p: ArrayLike<number>, labels: ArrayLike<number>, cols: number, loss: string): number {
  const n = labels.length;
  let s = 0;
  for (let i = 0; i < n; i++) {
    if (loss === 'nll') s -= Math.log(p[i * cols + labels[i]!]!);
    else for (let k = 0; k < cols; k++) s += (p[i * cols + k]! - (k === labels[i] ? 1 : 0)) ** 2;
  }
  return loss === 'nll' ? s / n : s / (n * cols);
}

/** Mean Brier score Σ_k (p_k − q_k)² of softmax(z/T). */
function naiveBrier(z: ArrayLike<number>, labels: Int32Array, cols: number, T: number): number {
  return officialLoss(naiveSoftmax(z, labels.length, cols, T), labels, cols, 'mse') * cols;
}

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < b.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

const named = (pattern: RegExp) => (e: unknown) => e instanceof InvalidArgumentError && pattern.test(e.message);

// ---- the official code ---------------------------------------------------------------------------------------

test('fits match the official Mix-n-Match code (T, weights, probabilities) and its exact optimum, both losses', () => {
  assert.equal(REFERENCE.source.commit, 'e41afbaf8181a0bd2fb194f9e9d30bcbe5b7f6c3');
  for (const c of REFERENCE.cases) {
    const logits = mat(c.rows, c.classes, c.logits);
    const labels = Int32Array.from(c.labels);
    const evalInput = { logits: mat(c.evalLogits.length / c.classes, c.classes, c.evalLogits) };
    for (const loss of ['mse', 'nll'] as const) {
      const what = `${c.name}, ${loss}`;
      const { official, exact } = c.fits[loss];
      const cal = fitEnsembleTemperature({ logits }, labels, { loss });
      const p = cal.apply(evalInput).data;
      // Against the official code: its L-BFGS-B / SLSQP stop ~1e−8 (T) and ~1e−6 (w) from the optimum.
      assert.ok(Math.abs(cal.temperature / official.temperature - 1) < 1e-6, `${what}: T ${cal.temperature} vs ${official.temperature}`);
      assert.ok(maxDiff(cal.weights, official.weights) < 1e-5, `${what}: w ${cal.weights} vs ${official.weights}`);
      assert.ok(maxDiff(p, official.evalProbabilities) < 5e-6, `${what}: probabilities`);
      // Against the exact optimum computed independently in the fixture script (root of dB/dβ, KKT on the simplex).
      assert.ok(Math.abs(cal.temperature / exact.temperature - 1) < 1e-11, `${what}: T ${cal.temperature} vs exact ${exact.temperature}`);
      assertClose(cal.weights, exact.weights, 1e-11, 0, `${what}: w`);
      assertClose(p, exact.evalProbabilities, 1e-11, 0, `${what}: probabilities`);
      // Under the official code's own objectives (evaluated here at both points), our T is at least as good as
      // theirs, and so are our weights at their T (to rounding of the objective, 1e−14 relative).
      const objectiveT = (T: number) => officialLoss(naiveSoftmax(c.logits, c.rows, c.classes, T), labels, c.classes, loss);
      const theirsT = objectiveT(official.temperature);
      assert.ok(Math.abs(theirsT / official.temperatureObjective - 1) < 1e-13, `${what}: the official T objective as recorded`);
      assert.ok(objectiveT(cal.temperature) <= theirsT * (1 + 1e-14), `${what}: T objective ${objectiveT(cal.temperature)} vs official ${theirsT}`);
      const w = ensembleWeights(logits.data, c.rows, c.classes, labels, official.temperature, loss);
      const objectiveW = (v: ArrayLike<number>) => officialLoss(naiveMixture(c.logits, c.rows, c.classes, official.temperature, v), labels, c.classes, loss);
      const theirsW = objectiveW(official.weights);
      assert.ok(Math.abs(theirsW / official.weightObjective - 1) < 1e-13, `${what}: the official w objective as recorded`);
      assert.ok(objectiveW(w) <= theirsW * (1 + 1e-14), `${what}: w objective ${objectiveW(w)} vs official ${theirsW}`);
      assertClose(w, official.exactWeightsAtOfficialTemperature, 1e-11, 0, `${what}: w at the official T`);
    }
  }
});

test("'nll' reuses temperature scaling's T; the default loss is the official 'mse'", () => {
  const { val } = splits(5, 1500);
  const ts = fitTemperature(val.input, val.labels).temperature;
  assert.equal(fitEnsembleTemperature(val.input, val.labels, { loss: 'nll' }).temperature, ts);
  const byDefault = fitEnsembleTemperature(val.input, val.labels);
  assert.deepEqual(byDefault.toJSON().settings, { loss: 'mse' });
  assert.equal(byDefault.temperature, brierTemperature(val.logits, 1500, 5, val.labels));
});

// ---- by hand ---------------------------------------------------------------------------------------------------

test('apply worked by hand: T = 2, w = (0.5, 0.25, 0.25) on z = (2, 0)', () => {
  const cal = ensembleTemperatureFromJSON({
    kind: 'ensemble-temperature',
    version: { format: 1, calibkit: '0.1.0' },
    classes: 2,
    settings: { loss: 'mse' },
    temperature: 2,
    weights: [0.5, 0.25, 0.25],
  });
  // softmax((1, 0)) = (e, 1)/(e + 1); softmax((2, 0)) = (e², 1)/(e² + 1); uniform (½, ½).
  const e = Math.E;
  const p0 = 0.5 * (e / (e + 1)) + 0.25 * ((e * e) / (e * e + 1)) + 0.25 * 0.5;
  const out = cal.apply({ logits: mat(1, 2, [2, 0]) }).data;
  assertClose(out, [p0, 1 - p0], 1e-15, 0, 'hand');
  assert.ok(Math.abs(p0 - 0.7107285588) < 1e-10);
});

test('fit worked by hand: 3 of 4 identical rows labelled 0 give σ(1/T) = ¾, T = 1/ln 3, w = (1, 0, 0)', () => {
  // Both proper scores are minimised by the empirical frequency ¾, which softmax(z/T) reaches at 1/T = ln 3;
  // every other member moves p₀ away from ¾ (σ(1) ≈ 0.731, ½), so the weights stay on the first vertex.
  const input = { logits: mat(4, 2, [1, 0, 1, 0, 1, 0, 1, 0]) };
  const labels = Int32Array.of(0, 0, 0, 1);
  for (const loss of ['mse', 'nll'] as const) {
    const cal = fitEnsembleTemperature(input, labels, { loss });
    assert.ok(Math.abs(cal.temperature * Math.log(3) - 1) < 1e-12, `${loss}: T = ${cal.temperature}`);
    assertClose(cal.weights, [1, 0, 0], 1e-9, 0, `${loss}: w`);
    assertClose(cal.apply(input).data.subarray(0, 2), [0.75, 0.25], 1e-12, 0, `${loss}: p`);
  }
});

test('uninformative predictions get exactly the uniform member: w = (0, 0, 1)', () => {
  // Two identical rows with different labels: any p other than (½, ½) is worse under both losses.
  const z = [3, 0, 3, 0];
  for (const loss of ['mse', 'nll'] as const) {
    for (const T of [0.5, 2]) {
      const w = ensembleWeights(Float64Array.from(z), 2, 2, Int32Array.of(0, 1), T, loss);
      assert.deepEqual(Array.from(w), [0, 0, 1], `${loss}, T = ${T}`);
    }
  }
});

// ---- properties ------------------------------------------------------------------------------------------------

test('the weights lie on the simplex and satisfy the KKT conditions of the naive objective', () => {
  for (const [classes, tau, seed] of [
    [2, 3, 1],
    [4, 0.7, 2],
    [12, 2, 3],
  ] as const) {
    const { logits, labels } = syntheticOverconfident({ n: 400, classes, seed, overconfidence: tau, separation: 1.2 });
    for (const loss of ['mse', 'nll'] as const) {
      const what = `C = ${classes}, τ = ${tau}, ${loss}`;
      const cal = fitEnsembleTemperature({ logits: mat(400, classes, logits) }, labels, { loss });
      const w = cal.weights;
      assert.ok(
        w.every((v) => v >= 0 && v <= 1),
        `${what}: ${w}`,
      );
      assert.ok(Math.abs(w[0]! + w[1]! + w[2]! - 1) <= 2e-16, `${what}: Σw = ${w[0]! + w[1]! + w[2]!}`);
      // KKT by central differences of the naive objective: ∂f/∂w_j = λ where w_j > 0, ≥ λ where w_j = 0.
      const f = (v: number[]) => officialLoss(naiveMixture(logits, 400, classes, cal.temperature, v), labels, classes, loss);
      const h = 1e-6;
      const grad = [0, 1, 2].map((j) => {
        const up = Array.from(w);
        const down = Array.from(w);
        up[j]! += h;
        down[j]! -= h;
        return (f(up) - f(down)) / (2 * h);
      });
      const active = [0, 1, 2].filter((j) => w[j]! > 0);
      const lambda = active.reduce((s, j) => s + grad[j]!, 0) / active.length;
      for (const j of [0, 1, 2]) {
        if (w[j]! > 0) assert.ok(Math.abs(grad[j]! - lambda) < 1e-7, `${what}: ∂f/∂w${j} = ${grad[j]} vs λ = ${lambda}`);
        else assert.ok(grad[j]! >= lambda - 1e-7, `${what}: inactive w${j}: ${grad[j]} < λ = ${lambda}`);
      }
    }
  }
});

test('w = (1, 0, 0) reproduces temperature scaling bit for bit; apply equals the naive mixture', () => {
  const { test: t } = splits(6, 500);
  const header = { version: { format: 1, calibkit: '0.1.0' }, classes: 6 };
  const ets = ensembleTemperatureFromJSON({ ...header, kind: 'ensemble-temperature', settings: { loss: 'nll' }, temperature: 2.7, weights: [1, 0, 0] });
  const ts = temperatureFromJSON({ ...header, kind: 'temperature', settings: { objective: 'nll', bins: 15 }, temperature: 2.7 });
  for (const input of [t.input, { probabilities: mat(500, 6, naiveSoftmax(t.logits, 500, 6)) }]) {
    const a = ets.apply(input).data;
    const b = ts.apply(input).data;
    for (let i = 0; i < a.length; i++) assert.ok(Object.is(a[i], b[i]), `entry ${i}: ${a[i]} vs ${b[i]}`);
  }
  const w = [0.6, 0.3, 0.1];
  const mixed = ensembleTemperatureFromJSON({ ...header, kind: 'ensemble-temperature', settings: { loss: 'mse' }, temperature: 2.7, weights: w });
  const out = mixed.apply(t.input);
  assertProbabilityRows(out, 'mixture');
  assertClose(out.data, naiveMixture(t.logits, 500, 6, 2.7, w), 1e-15, 0, 'naive mixture');
});

test('the argmax of every row is kept', () => {
  const { val, test: t } = splits(7, 800);
  for (const loss of ['mse', 'nll'] as const) {
    const out = fitEnsembleTemperature(val.input, val.labels, { loss }).apply(t.input).data;
    for (let i = 0; i < 800; i++) {
      let a = 0;
      let b = 0;
      for (let k = 1; k < 7; k++) {
        if (t.logits[i * 7 + k]! > t.logits[i * 7 + a]!) a = k;
        if (out[i * 7 + k]! > out[i * 7 + b]!) b = k;
      }
      assert.equal(b, a, `${loss}: row ${i}`);
    }
  }
});

test('logits of magnitude 1e3 and C from 2 to 1000: finite fits and probabilities', () => {
  for (const classes of [2, 10, 1000]) {
    const n = classes === 1000 ? 60 : 200;
    const z: number[] = [];
    const labels = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const y = (i * 7) % classes;
      labels[i] = i % 5 === 0 ? (y + 1) % classes : y; // a fifth confidently wrong
      for (let k = 0; k < classes; k++) z.push(k === y ? 1000 : ((k * 37 + i) % 11) - 1000 + (k % 3) * 300);
    }
    const input = { logits: mat(n, classes, z) };
    for (const loss of ['mse', 'nll'] as const) {
      const cal = fitEnsembleTemperature(input, labels, { loss });
      assert.ok(Number.isFinite(cal.temperature) && cal.temperature > 1, `C = ${classes}, ${loss}: T = ${cal.temperature}`);
      assertProbabilityRows(cal.apply(input), `C = ${classes}, ${loss}`);
      assertProbabilityRows(
        cal.apply({
          logits: mat(
            2,
            classes,
            z.slice(0, 2 * classes).map((v) => -v),
          ),
        }),
        `C = ${classes}, ${loss}, negated`,
      );
      // Probabilities of exactly 0 and 1 as input.
      const onehot = z.slice(0, 2 * classes).map((v) => (v === 1000 ? 1 : 0));
      assertProbabilityRows(cal.apply({ probabilities: mat(2, classes, onehot) }), `C = ${classes}, ${loss}, one-hot`);
    }
  }
});

test('the Brier temperature: value and derivative against naive formulas, a stationary point, loud failures', () => {
  const { logits, labels } = syntheticOverconfident({ n: 300, classes: 5, seed: 4, overconfidence: 2 });
  for (const beta of [0.05, 0.5, 2]) {
    const r = temperatureBrier(logits, 300, 5, labels, beta);
    assert.ok(Math.abs(r.brier - naiveBrier(logits, labels, 5, 1 / beta)) < 1e-14, `Brier at β = ${beta}`);
    const h = 1e-5 * beta;
    const fd = (naiveBrier(logits, labels, 5, 1 / (beta + h)) - naiveBrier(logits, labels, 5, 1 / (beta - h))) / (2 * h);
    assert.ok(Math.abs(r.d1 - fd) < 1e-7 * Math.max(1, Math.abs(fd)), `dB/dβ at β = ${beta}: ${r.d1} vs ${fd}`);
    const fd2 = (temperatureBrier(logits, 300, 5, labels, beta + h).d1 - temperatureBrier(logits, 300, 5, labels, beta - h).d1) / (2 * h);
    assert.ok(Math.abs(r.d2 - fd2) < 1e-7 * Math.max(1, Math.abs(fd2)), `d²B/dβ² at β = ${beta}: ${r.d2} vs ${fd2}`);
  }
  const T = brierTemperature(logits, 300, 5, labels);
  assert.ok(Math.abs(temperatureBrier(logits, 300, 5, labels, 1 / T).d1) < 1e-13, 'dB/dβ = 0 at the fitted T');
  const b = naiveBrier(logits, labels, 5, T);
  assert.ok(b < naiveBrier(logits, labels, 5, T * (1 + 1e-4)) && b < naiveBrier(logits, labels, 5, T * (1 - 1e-4)));
  // 10 000 rows take the subsampled global stage (N > 8192): same minimum as golden-section search on all rows.
  const big = syntheticOverconfident({ n: 10_000, classes: 4, seed: 8, overconfidence: 1.7, separation: 1 });
  const Tbig = brierTemperature(big.logits, 10_000, 4, big.labels);
  const f = (u: number) => temperatureBrier(big.logits, 10_000, 4, big.labels, Math.exp(-u)).brier;
  let a = Math.log(0.1);
  let c = Math.log(10);
  const ratio = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 60; i++) {
    if (f(c - ratio * (c - a)) < f(a + ratio * (c - a))) c = a + ratio * (c - a);
    else a = c - ratio * (c - a);
  }
  assert.ok(Math.abs(Tbig / Math.exp((a + c) / 2) - 1) < 1e-6, `T = ${Tbig} vs golden section ${Math.exp((a + c) / 2)}`);
  // No minimum in range / nothing to fit.
  const fails = (z: number[], y: number[], pattern: RegExp) =>
    assert.throws(
      () => fitEnsembleTemperature({ logits: mat(y.length, 2, z) }, Int32Array.from(y)),
      (e: unknown) => e instanceof CalibrationFitError && /^ensemble-temperature: /.test(e.message) && pattern.test(e.message),
    );
  fails([2, 0, 0, 3, 1, -1], [0, 1, 0], /T → 0/);
  fails([2, 0, 0, 3, 1, -1], [1, 0, 1], /T → ∞/);
  fails([1, 1, 5, 5], [0, 1], /does not depend on T/);
});

// ---- integration: options, JSON, registry ----------------------------------------------------------------------

test('bad options, inputs and JSON are rejected naming the argument', () => {
  const input = { logits: mat(4, 2, [1, 0, 1, 0, 1, 0, 1, 0]) };
  const labels = Int32Array.of(0, 0, 0, 1);
  assert.throws(() => fitEnsembleTemperature(input, labels, { loss: 'ce' as never }), named(/^ensemble-temperature options\.loss: expected one of 'mse', 'nll', got "ce"$/));
  assert.throws(() => fitEnsembleTemperature(input, labels, { temperature: 2 } as never), named(/^ensemble-temperature options\.temperature: expected a known key \(loss\), got an unknown key/));
  assert.throws(() => fitCalibrator('ensemble-temperature', input, labels, { loss: 3 } as never), named(/options\.loss: expected one of 'mse', 'nll', got 3/));
  assert.throws(() => fitEnsembleTemperature(input, Int32Array.of(0, 0, 2, 1)), named(/^labels\[2\]: expected a class index in \[0, 2\), got 2$/));
  const json = fitEnsembleTemperature(input, labels).toJSON();
  const bad = (patch: object, pattern: RegExp) => assert.throws(() => calibratorFromJSON({ ...json, ...patch }), named(pattern));
  bad({ weights: [0.5, 0.5] }, /^json\.weights: expected an array of 3 numbers, got an array of length 2$/);
  bad({ weights: [1.2, -0.2, 0] }, /^json\.weights\[1\]: expected a weight ≥ 0, got -0\.2$/);
  bad({ weights: [0.5, 0.4, 0] }, /^json\.weights: expected 3 weights summing to 1 \(within 1e-9\), got weights summing to 0\.9$/);
  bad({ weights: [0.5, 'x', 0.5] }, /^json\.weights\[1\]: expected a finite number, got "x"$/);
  bad({ temperature: 0 }, /^json\.temperature: expected a finite number > 0, got 0$/);
  bad({ settings: { loss: 'ce' } }, /^json\.settings\.loss: expected one of 'mse', 'nll', got "ce"$/);
  const cal = calibratorFromJSON(json);
  assert.throws(() => cal.apply({ logits: mat(1, 3, [0, 0, 0]) }), named(/^input\.logits\.cols: expected 2/));
  assert.throws(() => calibratedLogits(cal, input), named(/^calibrator: expected a calibrator with calibrated logits/));
});

test('through the registry: JSON text round-trips, apply is bit-identical, fitting is deterministic and lowers the test ECE', () => {
  const { val, test: t } = splits(4, 2500);
  for (const loss of ['mse', 'nll'] as const) {
    const cal = fitCalibrator('ensemble-temperature', val.input, val.labels, { loss });
    const json = cal.toJSON();
    assert.equal(json.kind, 'ensemble-temperature');
    assert.equal(json.temperature, (cal as ReturnType<typeof fitEnsembleTemperature>).temperature);
    assert.deepEqual(Object.keys(json), ['kind', 'version', 'classes', 'settings', 'temperature', 'weights']);
    const text = JSON.stringify(json);
    const back = calibratorFromJSON(JSON.parse(text));
    assert.equal(JSON.stringify(back.toJSON()), text);
    const a = cal.apply(t.input).data;
    const b = back.apply(t.input).data;
    for (let i = 0; i < a.length; i++) assert.ok(Object.is(a[i], b[i]), `${loss}: entry ${i}`);
    const again = fitCalibrator('ensemble-temperature', { logits: mat(2500, 4, val.logits) }, Int32Array.from(val.labels), { loss });
    assert.equal(JSON.stringify(again.toJSON()), text);
    const before = naiveEce(naiveSoftmax(t.logits, 2500, 4), t.labels, 4);
    const after = naiveEce(a, t.labels, 4);
    assert.ok(after < 0.5 * before, `${loss}: test ECE ${before} → ${after}`);
  }
});
