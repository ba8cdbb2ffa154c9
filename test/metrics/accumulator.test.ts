import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CalibrationAccumulator, evaluate, METRIC_NAMES, softmax, TopLabelAccumulator } from '../../src/metrics/index.js';
import { Random } from '../../src/util/random.js';
import { close, randomProbabilities, sampleLabels } from './helpers.js';

function dataset(seed: number, n: number, c: number): { p32: Float32Array; p64: Float64Array; labels: Int32Array } {
  const rng = new Random(seed);
  const p64 = randomProbabilities(rng, n, c, 2.5);
  const labels = sampleLabels(rng, p64, n, c, 0.35);
  return { p32: Float32Array.from(p64), p64, labels };
}

function chunked(acc: CalibrationAccumulator, data: Float32Array | Float64Array, labels: Int32Array, c: number, sizes: number[]): CalibrationAccumulator {
  let row = 0;
  for (const size of sizes) {
    acc.update({ rows: size, cols: c, data: data.subarray(row * c, (row + size) * c) }, labels.subarray(row, row + size));
    row += size;
  }
  return acc;
}

test('merged states equal one big update exactly (chunks through both validation paths)', () => {
  const c = 7;
  const { p32, labels } = dataset(1, 3000, c);
  for (const marginalBinning of ['equal-width', 'equal-mass'] as const) {
    const options = { input: 'probabilities' as const, marginalBinning };
    const whole = new CalibrationAccumulator(options).update({ rows: 3000, cols: c, data: p32 }, labels);
    const sizes = [1000, 37, 1500, 200, 263];
    const sequential = chunked(new CalibrationAccumulator(options), p32, labels, c, sizes);
    const parts = sizes.map((size, j) => {
      const start = sizes.slice(0, j).reduce((a, b) => a + b, 0);
      return chunked(new CalibrationAccumulator(options), p32.subarray(start * c), labels.subarray(start), c, [size]);
    });
    const merged = parts.reduce((a, b) => a.merge(b));
    const expected = whole.compute();
    assert.deepEqual(sequential.compute(), expected);
    assert.deepEqual(merged.compute(), expected);
    assert.deepEqual(merged.top.samples(), whole.top.samples());
    assert.deepEqual(merged.top.binSums(), whole.top.binSums());
    assert.deepEqual(merged.classwise!.counts, whole.classwise!.counts);
    assert.deepEqual(merged.classwise!.sumLabel, whole.classwise!.sumLabel);
    assert.deepEqual(merged.reliability(), whole.reliability());
  }
});

test('merging into an empty accumulator adopts the class count; merging mismatched states fails', () => {
  const { p64, labels } = dataset(2, 100, 3);
  const a = new CalibrationAccumulator({ input: 'probabilities' });
  const b = new CalibrationAccumulator({ input: 'probabilities' }).update({ rows: 100, cols: 3, data: p64 }, labels);
  a.merge(b);
  assert.equal(a.classes, 3);
  assert.deepEqual(a.compute(), b.compute());
  const four = new CalibrationAccumulator({ input: 'probabilities', classes: 4 });
  four.update({ rows: 1, cols: 4, data: Float64Array.from([0.25, 0.25, 0.25, 0.25]) }, [0]);
  assert.throws(() => a.merge(four), /other: expected a state with 3 classes, got 4 classes/);
  assert.throws(
    () => a.merge(new CalibrationAccumulator({ input: 'probabilities', marginalBinning: 'equal-mass' }).update({ rows: 1, cols: 3, data: Float64Array.from([1, 0, 0]) }, [0])),
    /same binning options/,
  );
});

test('logits give the same metrics as their softmax probabilities', () => {
  const rng = new Random(3);
  const n = 500;
  const c = 5;
  const logits = new Float64Array(n * c);
  for (let i = 0; i < logits.length; i++) logits[i] = rng.normal() * 4;
  const labels = Int32Array.from({ length: n }, () => rng.int(c));
  const fromLogits = evaluate({ rows: n, cols: c, data: logits }, labels, { input: 'logits', refinementCalibrator: 'temperature' });
  const fromProbs = evaluate(softmax({ rows: n, cols: c, data: logits }), labels, { input: 'probabilities', refinementCalibrator: 'temperature' });
  for (const key of METRIC_NAMES) close(fromLogits[key], fromProbs[key], 1e-12, key);
  assert.equal(fromLogits.sweep_bins, fromProbs.sweep_bins);
});

test('a chunk with an invalid row leaves the state unchanged, in the kernel path and the pre-validated path', () => {
  const c = 4;
  const { p32, labels } = dataset(4, 2000, c);
  const clean = new CalibrationAccumulator({ input: 'probabilities' });
  clean.update({ rows: 1000, cols: c, data: p32.subarray(0, 1000 * c) }, labels.subarray(0, 1000));
  const before = clean.compute();
  for (const rows of [1000, 100]) {
    const bad = p32.slice(1000 * c, (1000 + rows) * c);
    bad[(rows - 3) * c + 1] = Number.NaN;
    assert.throws(() => clean.update({ rows, cols: c, data: bad }, labels.subarray(1000, 1000 + rows)), new RegExp(`predictions: expected finite values, got NaN at row ${1000 + rows - 3}, column 1`));
    assert.deepEqual(clean.compute(), before);
  }
  const fresh = new CalibrationAccumulator({ input: 'probabilities' });
  const bad = p32.slice(0, 1000 * c);
  bad[500 * c] = 1.5;
  assert.throws(() => fresh.update({ rows: 1000, cols: c, data: bad }, labels.subarray(0, 1000)), /sum of .* in row 500/);
  assert.equal(fresh.count, 0);
  assert.equal(fresh.classes, null, 'a failed first chunk does not fix the class count');
  clean.update({ rows: 1000, cols: c, data: p32.subarray(1000 * c) }, labels.subarray(1000));
  assert.deepEqual(clean.compute(), new CalibrationAccumulator({ input: 'probabilities' }).update({ rows: 2000, cols: c, data: p32 }, labels).compute());
});

test('evaluate returns every metric name of the CLI as a number, with the settings used', () => {
  const { p64, labels } = dataset(5, 400, 6);
  const r = evaluate({ rows: 400, cols: 6, data: p64 }, labels, { input: 'probabilities', refinementCalibrator: 'temperature', bins: 10, convention: '[l,u)' });
  for (const key of METRIC_NAMES) assert.equal(typeof r[key], 'number', key);
  for (const key of METRIC_NAMES) assert.ok(Number.isFinite(r[key]), `${key} finite`);
  assert.equal(r.bins, 10);
  assert.equal(r.convention, '[l,u)');
  assert.equal(r.n, 400);
  assert.equal(r.classes, 6);
  assert.equal(r.adaptive_binning, 'equal-mass');
  assert.equal(r.marginal_binning, 'equal-width');
  assert.equal(r.ece_lb_p, 2);
  assert.ok(r.ece_lb + 1e-15 >= r.ece_l2, 'Jensen: label-binned ≥ binned');
  assert.ok(r.mce >= r.ece && r.ece >= 0 && r.oe <= r.ece + 1e-15);
  assert.ok(r.ece <= r.ece_l2 + 1e-15, 'ℓ1 ≤ ℓ2 (weights sum to 1)');
  assert.ok(r.mean_entropy > 0 && r.mean_entropy <= Math.log(6));
  assert.doesNotThrow(() => JSON.stringify(r));
});

test('the top-label accumulator alone agrees with evaluate and validates its inputs', () => {
  const { p64, labels } = dataset(6, 300, 3);
  const full = evaluate({ rows: 300, cols: 3, data: p64 }, labels, { input: 'probabilities' });
  const top = new TopLabelAccumulator();
  const { samples } = (() => {
    const acc = new CalibrationAccumulator({ input: 'probabilities' }).update({ rows: 300, cols: 3, data: p64 }, labels);
    return { samples: acc.top.samples() };
  })();
  top.update(samples.confidence.subarray(0, 120), samples.correct.subarray(0, 120));
  top.update(samples.confidence.subarray(120), samples.correct.subarray(120));
  const r = top.compute();
  for (const key of ['ece', 'adaece', 'ks', 'debiased_ece', 'sweep_ece', 'mce', 'oe', 'error_auroc', 'accuracy'] as const) assert.equal(r[key], full[key], key);
  assert.throws(() => top.update(Float64Array.from([1.2]), Uint8Array.from([1])), /confidence: expected values in \[0, 1\], got 1.2 at index 0/);
  assert.throws(() => top.update(Float64Array.from([0.5]), Uint8Array.from([2])), /correct: expected 0 or 1, got 2 at index 0/);
  assert.throws(() => new TopLabelAccumulator().compute(), /accumulator: expected at least one sample before compute/);
});
