import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpFromSorted } from '../../src/metrics/corp-decomposition.js';
import { cumulativeErrors } from '../../src/metrics/selective/risk-coverage.js';
import { ScratchPool } from '../../src/metrics/numeric/scratch-pool.js';
import { sortTopLabel } from '../../src/metrics/numeric/sorted-top-label.js';
import { sweepFromSorted } from '../../src/metrics/binned/sweep-ece.js';
import { Random } from '../../src/util/random.js';

/** A pool holding one buffer of garbage (NaN and huge values), as a previous metric might leave it. */
function dirtyPool(n: number): ScratchPool {
  const pool = new ScratchPool();
  for (let b = 0; b < 3; b++) {
    const a = pool.float64(n + 1);
    for (let i = 0; i < a.length; i++) a[i] = i % 2 ? Number.NaN : 1e300;
    pool.give(a);
  }
  return pool;
}

test('a pool reuses a given-back buffer for the next array that fits (N and N + 1 entries share one)', () => {
  const pool = new ScratchPool();
  const a = pool.float64(1000);
  pool.give(a);
  const b = pool.float64(1001);
  assert.equal(b.buffer, a.buffer);
  assert.equal(b.length, 1001);
  const c = pool.float64(1000);
  assert.notEqual(c.buffer, a.buffer, 'a taken buffer is not handed out twice');
  const fresh = ScratchPool.none.float64(5);
  ScratchPool.none.give(fresh);
  assert.notEqual(ScratchPool.none.float64(5).buffer, fresh.buffer, 'the default pool keeps nothing');
});

test('sweep ECE, CORP and the cumulative errors are the same bit for bit on dirty pooled memory', () => {
  const rng = new Random(5);
  for (const n of [1, 2, 7, 2500]) {
    const conf = new Float64Array(n);
    const correct = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      conf[i] = i % 3 === 0 ? rng.int(10) / 10 : rng.uniform();
      correct[i] = rng.uniform() < conf[i]! ? 1 : 0;
    }
    const sorted = sortTopLabel(conf, correct);
    const pool = dirtyPool(n);
    assert.deepEqual(sweepFromSorted(sorted, 2, Infinity, pool), sweepFromSorted(sorted, 2));
    assert.deepEqual(corpFromSorted(sorted, pool), corpFromSorted(sorted));
    assert.deepEqual(cumulativeErrors(sorted, pool), cumulativeErrors(sorted));
  }
});
