import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expNonPositive } from '../../src/posthoc/solvers/fast-exp.js';
import { lcg } from './helpers.js';

test('expNonPositive matches Math.exp to 1e-15 relative over [-708, 0]', () => {
  const rand = lcg(3);
  let worst = 0;
  for (let i = 0; i < 200_000; i++) {
    const x = -(i % 2 === 0 ? 708 : 3) * rand();
    const rel = Math.abs(expNonPositive(x) - Math.exp(x)) / Math.exp(x);
    if (rel > worst) worst = rel;
  }
  assert.ok(worst < 1e-15, `worst relative error ${worst}`);
});

test('expNonPositive is exact at 0, near powers of two, and underflows to 0 like Math.exp', () => {
  assert.equal(expNonPositive(0), 1);
  assert.equal(expNonPositive(-0), 1);
  assert.equal(expNonPositive(-Math.LN2), 0.5);
  assert.equal(expNonPositive(-10 * Math.LN2), 1 / 1024);
  assert.equal(expNonPositive(-746), 0);
  assert.equal(expNonPositive(-1e300), 0);
  assert.equal(expNonPositive(-Infinity), 0);
  assert.equal(expNonPositive(NaN), 0);
  assert.ok(expNonPositive(-745) >= 0 && expNonPositive(-745) <= 5e-324);
  assert.ok(expNonPositive(-740) > 0 && Math.abs(expNonPositive(-740) / Math.exp(-740) - 1) < 1e-6);
});
