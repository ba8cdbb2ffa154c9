import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CalibrationAccumulator, ClasswiseAccumulator, TopLabelAccumulator, type CalibrationOptions } from '../../src/metrics/index.js';
import { Random } from '../../src/util/random.js';
import { randomProbabilities, sampleLabels } from './helpers.js';

function dataset(seed: number, n: number, c: number): { p32: Float32Array; p64: Float64Array; labels: Int32Array } {
  const rng = new Random(seed);
  const p64 = randomProbabilities(rng, n, c, 2.5);
  const labels = sampleLabels(rng, p64, n, c, 0.35);
  return { p32: Float32Array.from(p64), p64, labels };
}

const OPTION_SETS: CalibrationOptions[] = [
  { input: 'probabilities' },
  { input: 'probabilities', marginalBinning: 'equal-mass', bins: 10, convention: '[l,u)', adaptive: 'interp' },
  { input: 'logits', marginalDebias: false, labelBinnedP: 1, sweepMaxBins: 20 },
];

test('toState → structuredClone → fromState rebuilds an accumulator with identical state, metrics and later updates', () => {
  const c = 6;
  const { p32, p64, labels } = dataset(11, 1200, c);
  for (const options of OPTION_SETS) {
    const data = options.input === 'logits' ? p64.map((p) => Math.log(p) * 3) : p32;
    const first = { rows: 700, cols: c, data: data.subarray(0, 700 * c) };
    const rest = { rows: 500, cols: c, data: data.subarray(700 * c) };
    const original = new CalibrationAccumulator(options).update(first, labels.subarray(0, 700));
    const state = structuredClone(original.toState());
    const copy = CalibrationAccumulator.fromState(state);
    assert.deepEqual(copy.toState(), original.toState());
    assert.deepEqual(copy.compute(), original.compute());
    assert.deepEqual(copy.reliability(), original.reliability());
    // The copy keeps working exactly like the original (update and merge).
    original.update(rest, labels.subarray(700));
    copy.update(rest, labels.subarray(700));
    assert.deepEqual(copy.compute(), original.compute());
    const tail = new CalibrationAccumulator(options).update(rest, labels.subarray(700));
    const merged = new CalibrationAccumulator(options).update(first, labels.subarray(0, 700)).merge(CalibrationAccumulator.fromState(tail.toState()));
    assert.deepEqual(merged.compute(), original.compute());
  }
});

test('a state holds copies: changing the accumulator afterwards does not change the state, nor the state the rebuilt one', () => {
  const { p64, labels } = dataset(12, 50, 3);
  const acc = new CalibrationAccumulator({ input: 'probabilities' }).update({ rows: 50, cols: 3, data: p64 }, labels);
  const state = acc.toState();
  const before = structuredClone(state);
  acc.update({ rows: 50, cols: 3, data: p64 }, labels);
  assert.deepEqual(state, before);
  const rebuilt = CalibrationAccumulator.fromState(state);
  state.top.confidence.fill(0);
  state.classwise!.counts.fill(0);
  assert.equal(rebuilt.top.samples().confidence[0], before.top.confidence[0]);
  assert.deepEqual(rebuilt.classwise!.counts, before.classwise!.counts);
  assert.equal(state.top.n, 50);
  assert.equal(state.top.confidence.length, 50);
});

test('empty accumulators round-trip, with and without a class count', () => {
  for (const options of [{ input: 'probabilities' as const }, { input: 'logits' as const, classes: 4 }]) {
    const acc = new CalibrationAccumulator(options);
    const copy = CalibrationAccumulator.fromState(structuredClone(acc.toState()));
    assert.equal(copy.count, 0);
    assert.equal(copy.classes, acc.classes);
    assert.deepEqual(copy.toState(), acc.toState());
  }
});

test('the top-label and classwise accumulators round-trip on their own', () => {
  const rng = new Random(13);
  const top = new TopLabelAccumulator({ bins: 7 });
  const conf = Float64Array.from({ length: 300 }, () => 0.3 + 0.7 * rng.uniform());
  top.update(
    conf,
    Uint8Array.from(conf, (x) => (rng.uniform() < x ? 1 : 0)),
  );
  assert.deepEqual(TopLabelAccumulator.fromState(structuredClone(top.toState())).compute(), top.compute());
  const { p64, labels } = dataset(14, 200, 5);
  const classwise = new ClasswiseAccumulator({ classes: 5, bins: 9 });
  classwise.update({ rows: 200, cols: 5, data: p64 }, labels);
  const back = ClasswiseAccumulator.fromState(structuredClone(classwise.toState()));
  assert.equal(back.classwiseEce(), classwise.classwiseEce());
  assert.equal(back.marginalEce(), classwise.marginalEce());
  assert.deepEqual(back.toState(), classwise.toState());
});

test('fromState rejects malformed states, naming the field', () => {
  const { p64, labels } = dataset(15, 40, 3);
  const state = new CalibrationAccumulator({ input: 'probabilities' }).update({ rows: 40, cols: 3, data: p64 }, labels).toState();
  assert.throws(() => CalibrationAccumulator.fromState(null as never), /state: expected a state object, got null/);
  assert.throws(() => CalibrationAccumulator.fromState({ ...state, top: { ...state.top, confidence: new Float64Array(39) } }), /state\.confidence: expected 40 elements, got 39 elements/);
  assert.throws(() => CalibrationAccumulator.fromState({ ...state, top: { ...state.top, correct: new Float64Array(40) as never } }), /state\.correct: expected a Uint8Array/);
  assert.throws(() => CalibrationAccumulator.fromState({ ...state, nll: [1] as never }), /state\.nll: expected a pair/);
  assert.throws(() => CalibrationAccumulator.fromState({ ...state, classwise: null }), /state\.classwise: expected a classwise state/);
  assert.throws(() => CalibrationAccumulator.fromState({ ...state, classwise: { ...state.classwise!, count: 39 } }), /state\.classwise\.count: expected 40/);
  assert.throws(() => CalibrationAccumulator.fromState({ ...state, input: 'odds' as never }), /input: expected 'logits' or 'probabilities'/);
});
