import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../src/util/random.js';

test('the same seed gives the same stream and a restored state continues it', () => {
  const a = new Random(42);
  const b = new Random(42);
  for (let i = 0; i < 100; i++) assert.equal(a.nextUint32(), b.nextUint32());
  const state = a.getState();
  const next = [a.uniform(), a.normal(), a.uniform()];
  b.setState(state);
  assert.deepEqual([b.uniform(), b.normal(), b.uniform()], next);
});

test('uniform, normal and beta samples have the right first two moments', () => {
  const r = new Random(7);
  const n = 200000;
  let su = 0,
    sn = 0,
    sn2 = 0,
    sb = 0;
  for (let i = 0; i < n; i++) {
    su += r.uniform();
    const z = r.normal();
    sn += z;
    sn2 += z * z;
    sb += r.beta(0.4, 0.4);
  }
  assert.ok(Math.abs(su / n - 0.5) < 0.005);
  assert.ok(Math.abs(sn / n) < 0.01);
  assert.ok(Math.abs(sn2 / n - 1) < 0.02);
  assert.ok(Math.abs(sb / n - 0.5) < 0.005);
});

test('permutation contains every index exactly once', () => {
  const p = new Random(1).permutation(1000);
  const seen = new Uint8Array(1000);
  for (const v of p) seen[v]!++;
  assert.ok(seen.every((v) => v === 1));
});
