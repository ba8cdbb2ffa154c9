import { test } from 'node:test';
import assert from 'node:assert/strict';
import { logGamma, poisson } from '../../src/data/corruptions/poisson.js';
import { Random } from '../../src/util/random.js';
import { moments } from './helpers.js';

test('logGamma(k + 1) equals log k! summed directly', () => {
  let logFactorial = 0;
  for (let k = 1; k <= 200; k++) {
    logFactorial += Math.log(k);
    assert.ok(Math.abs(logGamma(k + 1) - logFactorial) < 1e-9 * Math.max(1, logFactorial), `k = ${k}`);
  }
  assert.ok(Math.abs(logGamma(0.5) - 0.5 * Math.log(Math.PI)) < 1e-12);
});

test('Poisson samples have mean and variance λ on both sides of the method switch at 10', () => {
  const rng = new Random(4);
  for (const lambda of [0.3, 4, 9.99, 10, 37.5, 500]) {
    const n = 30000;
    const xs = Array.from({ length: n }, () => poisson(rng, lambda));
    assert.ok(xs.every((x) => Number.isInteger(x) && x >= 0));
    const { mean, variance } = moments(xs);
    const se = Math.sqrt(lambda / n);
    assert.ok(Math.abs(mean - lambda) < 5 * se, `λ = ${lambda}: mean ${mean}`);
    assert.ok(Math.abs(variance / lambda - 1) < 0.06, `λ = ${lambda}: variance ${variance}`);
  }
  assert.equal(poisson(rng, 0), 0);
});

test('P(X = 0) of Poisson(2) is e^−2 and P(X = 40) of Poisson(40) matches the pmf', () => {
  const rng = new Random(9);
  const n = 50000;
  let zeros = 0;
  let forties = 0;
  for (let i = 0; i < n; i++) {
    if (poisson(rng, 2) === 0) zeros++;
    if (poisson(rng, 40) === 40) forties++;
  }
  assert.ok(Math.abs(zeros / n - Math.exp(-2)) < 0.006);
  const pmf40 = Math.exp(-40 + 40 * Math.log(40) - logGamma(41));
  assert.ok(Math.abs(forties / n - pmf40) < 0.004, `${forties / n} vs ${pmf40}`);
});
