import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  accumulateParallel,
  CalibrationAccumulator,
  defaultThreads,
  evaluate,
  evaluateParallel,
  isShared,
  PARALLEL_MIN_ROWS,
  sharedFloat32Array,
  sharedFloat64Array,
  toShared,
  type CalibrationMetrics,
  type CalibrationOptions,
} from '../../src/metrics/index.js';
import { Random } from '../../src/util/random.js';
import { randomProbabilities, sampleLabels } from './helpers.js';

function dataset(seed: number, n: number, c: number): { p64: Float64Array; labels: Int32Array } {
  const rng = new Random(seed);
  const p64 = randomProbabilities(rng, n, c, 2.5);
  return { p64, labels: sampleLabels(rng, p64, n, c, 0.35) };
}

/** Largest relative difference over the numeric metrics, and whether every metric is bit-identical. */
function compare(actual: CalibrationMetrics, expected: CalibrationMetrics): { maxRelative: number; identical: boolean } {
  let maxRelative = 0;
  let identical = true;
  for (const [key, value] of Object.entries(expected)) {
    const other = (actual as unknown as Record<string, unknown>)[key];
    if (typeof value !== 'number') {
      assert.equal(other, value, key);
      continue;
    }
    assert.equal(typeof other, 'number', key);
    if (!Object.is(other, value)) identical = false;
    if (Number.isNaN(value)) assert.ok(Number.isNaN(other as number), key);
    else maxRelative = Math.max(maxRelative, Math.abs((other as number) - value) / Math.max(Math.abs(value), 1e-300));
  }
  return { maxRelative, identical };
}

test('threads = 2, 3 and 4 give the single-threaded metrics (float32, float64, logits, equal-mass marginal bins)', async () => {
  const n = 20_011;
  const c = 10;
  const { p64, labels } = dataset(21, n, c);
  const cases: { data: Float32Array | Float64Array; options: CalibrationOptions }[] = [
    { data: Float32Array.from(p64), options: { input: 'probabilities' } },
    { data: p64, options: { input: 'probabilities', bins: 10, convention: '[l,u)', marginalBinning: 'equal-mass' } },
    { data: p64.map((p) => 4 * Math.log(p)), options: { input: 'logits', adaptive: 'interp' } },
  ];
  for (const { data, options } of cases) {
    const expected = evaluate({ rows: n, cols: c, data }, labels, options);
    for (const threads of [2, 3, 4]) {
      const actual = await evaluateParallel({ rows: n, cols: c, data }, labels, { ...options, threads, minParallelRows: 0 });
      const { maxRelative, identical } = compare(actual, expected);
      assert.ok(maxRelative <= 1e-12, `${options.input} threads=${threads}: relative difference ${maxRelative}`);
      assert.ok(identical, `${options.input} threads=${threads}: not bit-identical (max relative ${maxRelative})`);
    }
  }
});

test('the merged accumulator equals one big update, and is deterministic across runs', async () => {
  const n = 9_000;
  const c = 5;
  const { p64, labels } = dataset(22, n, c);
  const data = sharedFloat64Array(n * c);
  data.set(p64);
  const whole = new CalibrationAccumulator({ input: 'probabilities' }).update({ rows: n, cols: c, data }, labels);
  const a = await accumulateParallel({ rows: n, cols: c, data }, labels, { input: 'probabilities', threads: 3, minParallelRows: 0 });
  const b = await accumulateParallel({ rows: n, cols: c, data }, labels, { input: 'probabilities', threads: 3, minParallelRows: 0 });
  assert.equal(a.count, n);
  assert.deepEqual(a.top.samples(), whole.top.samples());
  assert.deepEqual(a.classwise!.counts, whole.classwise!.counts);
  assert.deepEqual(a.classwise!.sumLabel, whole.classwise!.sumLabel);
  assert.deepEqual(a.toState(), b.toState());
  assert.deepEqual(a.reliability(), whole.reliability());
});

test(`the default path: ${PARALLEL_MIN_ROWS + 50_000} rows × 10 with default threads equal evaluate; inputs are not modified`, async () => {
  const n = PARALLEL_MIN_ROWS + 50_000;
  const c = 10;
  const { p64, labels } = dataset(23, n, c);
  const data = Float32Array.from(p64);
  const copy = data.slice();
  const options = { input: 'probabilities' as const };
  const expected = evaluate({ rows: n, cols: c, data }, labels, options);
  const actual = await evaluateParallel({ rows: n, cols: c, data }, labels, options);
  const { maxRelative } = compare(actual, expected);
  assert.ok(maxRelative <= 1e-12, `relative difference ${maxRelative}`);
  assert.deepEqual(data, copy);
  assert.equal(isShared(data), false);
});

test('invalid values are reported at their row in the whole input, from any block', async () => {
  const n = 3_000;
  const c = 4;
  const { p64, labels } = dataset(24, n, c);
  for (const row of [5, 1_700, 2_999]) {
    const data = Float32Array.from(p64);
    data[row * c + 1] = Number.NaN;
    await assert.rejects(
      evaluateParallel({ rows: n, cols: c, data }, labels, { input: 'probabilities', threads: 3, minParallelRows: 0 }),
      new RegExp(`predictions: expected finite values, got NaN at row ${row}, column 1`),
    );
    const logits = p64.map(Math.log);
    logits[row * c + 2] = Number.POSITIVE_INFINITY;
    await assert.rejects(evaluateParallel({ rows: n, cols: c, data: logits }, labels, { input: 'logits', threads: 3, minParallelRows: 0 }), new RegExp(`at row ${row}, column 2`));
  }
  const bad = labels.slice();
  bad[2_500] = 4;
  await assert.rejects(evaluateParallel({ rows: n, cols: c, data: p64 }, bad, { input: 'probabilities', threads: 2, minParallelRows: 0 }), /labels/);
});

test('option validation: threads must be an integer in [1, 256]', async () => {
  const { p64, labels } = dataset(25, 10, 3);
  const m = { rows: 10, cols: 3, data: p64 };
  await assert.rejects(evaluateParallel(m, labels, { input: 'probabilities', threads: 0 }), /threads: expected an integer ≥ 1, got 0/);
  await assert.rejects(evaluateParallel(m, labels, { input: 'probabilities', threads: 1.5 }), /threads: expected an integer, got 1.5/);
  await assert.rejects(evaluateParallel(m, labels, { input: 'probabilities', threads: 1000 }), /threads: expected an integer ≤ 256/);
  await assert.rejects(evaluateParallel(m, labels, { input: 'probs' as never }), /input: expected 'logits' or 'probabilities'/);
  assert.ok(defaultThreads() >= 1 && defaultThreads() <= 2);
  // More threads than rows: one block per row at most (here 3 blocks: the calling thread + 2 workers).
  const three = { rows: 3, cols: 3, data: p64.subarray(0, 9) };
  const few = await evaluateParallel(three, labels.subarray(0, 3), { input: 'probabilities', threads: 16, minParallelRows: 0 });
  assert.deepEqual(few, evaluate(three, labels.subarray(0, 3), { input: 'probabilities' }));
});

test('shared-memory helpers: allocation, detection, and toShared copying only non-shared arrays', () => {
  const a = sharedFloat32Array(6);
  assert.ok(a.buffer instanceof SharedArrayBuffer);
  assert.equal(a.length, 6);
  assert.ok(isShared(a));
  assert.equal(toShared(a), a);
  const plain = Float64Array.from([1, 2, 3]);
  const shared = toShared(plain);
  assert.notEqual(shared, plain);
  assert.ok(shared instanceof Float64Array && isShared(shared));
  assert.deepEqual([...shared], [1, 2, 3]);
  assert.ok(isShared(toShared(Int32Array.from([4]))));
  assert.throws(() => sharedFloat32Array(-1), /length: expected an integer ≥ 0, got -1/);
});
