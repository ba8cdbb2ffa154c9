import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MetricState, stateBuffers, type StateSpec } from '../../src/metrics/index.js';
import { CompensatedSum } from '../../src/metrics/numeric/compensated-sum.js';

const SPEC: StateSpec = {
  count: { merge: 'sum' },
  perClass: { merge: 'sum', length: 3 },
  total: { merge: 'compensated-sum' },
  bins: { merge: 'compensated-sum', length: 2 },
  largest: { merge: 'max' },
  allSmall: { merge: 'all' },
  samples: { merge: 'concat' },
  rows: { merge: 'concat', length: 2, type: 'int32' },
};

/** Feed values x into a state as a metric's update would. */
function feed(state: MetricState, xs: readonly number[]): void {
  for (const x of xs) {
    state.add('count', 1);
    state.add('perClass', x, Math.floor(Math.abs(x)) % 3);
    state.add('total', x);
    state.add('bins', x, x > 0 ? 1 : 0);
    state.max('largest', x);
    if (Math.abs(x) > 1e10) state.clearFlag('allSmall');
    state.push('samples', x);
    state.append('rows', [Math.trunc(x), 7], 0, 1);
  }
}

const XS = [1e16, 1, -1e16, 3.5, 2, -7.25, 1e-3, 42, 5e15, -0.5];

test('each merge rule combines two states as one stream: sums, compensated sums, maxima, flags, concatenation', () => {
  const whole = new MetricState(SPEC);
  feed(whole, XS);
  const a = new MetricState(SPEC);
  const b = new MetricState(SPEC);
  feed(a, XS.slice(0, 4));
  feed(b, XS.slice(4));
  a.merge(b);
  // Exact fields merge exactly; compensated sums to the same value s + c (the pairs may differ in c's last bits).
  const { total, bins, binsError, ...exact } = a.toState();
  const { total: wholeTotal, bins: wholeBins, binsError: wholeBinsError, ...wholeExact } = whole.toState();
  assert.deepEqual(exact, wholeExact);
  assert.equal(a.scalar('total'), whole.scalar('total'));
  assert.deepEqual(a.valuesOf('bins'), whole.valuesOf('bins'));
  assert.ok(total && bins && binsError && wholeTotal && wholeBins && wholeBinsError);
  assert.equal(whole.scalar('count'), 10);
  assert.equal(whole.scalar('largest'), 1e16);
  assert.equal(whole.flag('allSmall'), false);
  assert.deepEqual([...whole.column('samples')], XS);
  assert.deepEqual(whole.column('rows'), Int32Array.from(XS.flatMap((x) => [Math.trunc(x), 7])));
  // The compensated sum keeps what a plain float64 sum loses (1e16 + 1 − 1e16 …), as CompensatedSum does.
  const reference = new CompensatedSum();
  for (const x of XS) reference.add(x);
  assert.equal(whole.scalar('total'), reference.value);
  assert.deepEqual(whole.toState()['total'], reference.toPair());
  assert.equal(whole.scalar('total'), 5000000000000041); // the exact sum 5e15 + 40.751, rounded to float64
});

test('snapshot / restore drops what was added since; toState → structuredClone → fromState is identical', () => {
  const state = new MetricState(SPEC);
  feed(state, XS.slice(0, 5));
  const saved = state.snapshot();
  const before = state.toState();
  feed(state, XS.slice(5));
  state.restore(saved);
  assert.deepEqual(state.toState(), before);
  const copy = MetricState.fromState(SPEC, structuredClone(before), 'state', 5);
  assert.deepEqual(copy.toState(), before);
  feed(copy, XS.slice(5));
  feed(state, XS.slice(5));
  assert.deepEqual(copy.toState(), state.toState());
  assert.equal(stateBuffers(state.toState()).length, 5); // perClass, bins, binsError, samples, rows
});

test('fromState names the malformed field', () => {
  const state = new MetricState(SPEC);
  feed(state, XS);
  const plain = state.toState();
  assert.throws(() => MetricState.fromState(SPEC, { ...plain, total: [1] }, 'state'), /state\.total: expected a pair/);
  assert.throws(() => MetricState.fromState(SPEC, { ...plain, count: 'x' }, 'state'), /state\.count: expected a finite number/);
  assert.throws(() => MetricState.fromState(SPEC, { ...plain, bins: new Float64Array(3) }, 'state'), /state\.bins: expected 2 elements/);
  assert.throws(() => MetricState.fromState(SPEC, { ...plain, binsError: undefined }, 'state'), /state\.binsError: expected a Float64Array/);
  assert.throws(() => MetricState.fromState(SPEC, { ...plain, allSmall: 1 }, 'state'), /state\.allSmall: expected a boolean/);
  assert.throws(() => MetricState.fromState(SPEC, plain, 'state', 9), /state\.samples: expected 9 elements, got 10/);
  assert.throws(() => MetricState.fromState(SPEC, { ...plain, rows: new Float64Array(20) }, 'state'), /state\.rows: expected a Int32Array/);
  assert.throws(() => state.add('samples', 1), /name: expected a sum, compensated-sum or max field/);
});
