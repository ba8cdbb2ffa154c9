import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { sweepCalibrationError } from '../../src/metrics/index.js';
import { Random } from '../../src/util/random.js';

/**
 * The monotonic sweep on large, nearly separable inputs (a highly accurate model whose few errors sit at the
 * lowest confidences), where the chosen number of bins b* is ~N/2. Checked against the definition with naive
 * O(N) re-binnings at b*, b* + 1 and random b < b*: bins monotone at every b ≤ b*, not at b* + 1.
 * The large case runs in a worker with a generous deadline (30 s; it takes well under 1 s): the former
 * O(b*²) search needed ~90 s for it and must not come back unnoticed.
 */

const DEADLINE_MS = 30_000;

/** `sweepCalibrationError(c, a)` in a worker thread, terminated (and rejected) after `DEADLINE_MS`. */
function sweepInWorker(c: Float64Array, a: Uint8Array): Promise<{ value: number; bins: number }> {
  const url = new URL('../../src/metrics/binned/sweep-ece.js', import.meta.url).href;
  const source = `const { parentPort, workerData } = require('node:worker_threads');
import(workerData.url).then((m) => parentPort.postMessage(m.sweepCalibrationError(workerData.c, workerData.a)));`;
  const worker = new Worker(source, { eval: true, workerData: { url, c, a } });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`the sweep over ${c.length} samples did not finish within ${DEADLINE_MS / 1000} s`));
    }, DEADLINE_MS);
    worker.once('message', (r: { value: number; bins: number }) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(r);
    });
    worker.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** Naive: are the accuracies of b equal-mass bins (rank r → min(b − 1, ⌊(r/N)·b⌋)) of sorted `a` non-decreasing? */
function naiveMonotone(a: Uint8Array, b: number): boolean {
  const n = a.length;
  const sum = new Float64Array(b);
  const count = new Float64Array(b);
  for (let r = 0; r < n; r++) {
    const m = Math.min(b - 1, Math.floor((r / n) * b));
    sum[m]! += a[r]!;
    count[m]!++;
  }
  let last = -1;
  for (let m = 0; m < b; m++) {
    if (count[m] === 0) continue;
    const acc = sum[m]! / count[m]!;
    if (acc < last) return false;
    last = acc;
  }
  return true;
}

function nearlySeparable(n: number, errors: number, swaps: number[], rng: Random): { c: Float64Array; a: Uint8Array } {
  const c = new Float64Array(n);
  const a = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    c[i] = 0.9 + (0.1 * (i + 0.5)) / n; // already sorted, distinct
    a[i] = i >= errors ? 1 : 0;
  }
  for (const i of swaps) [a[i], a[i + 1]] = [a[i + 1]!, a[i]!];
  // Shuffle the inputs: the metric sorts them itself.
  const perm = rng.permutation(n);
  const cs = new Float64Array(n);
  const as = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    cs[i] = c[perm[i]!]!;
    as[i] = a[perm[i]!]!;
  }
  return { c: cs, a: as };
}

test('monotonic sweep on 400,000 nearly separable samples finds b* ~ N/2 quickly and satisfies the definition', async () => {
  const rng = new Random(5);
  const n = 400_000;
  const cases = [
    [1999], // one inversion at the boundary of 2,000 errors
    [1999, 1500, 2600, 150_000], // a few more, one far into the correct region
  ];
  for (const swaps of cases) {
    const { c, a } = nearlySeparable(n, 2000, swaps, rng);
    const r = await sweepInWorker(c, a);
    const sortedA = Uint8Array.from(
      Array.from({ length: n }, (_, i) => i).sort((x, y) => c[x]! - c[y]!),
      (i) => a[i]!,
    );
    assert.ok(r.bins >= 2 && r.bins < n - 1, `b* = ${r.bins}`);
    assert.ok(naiveMonotone(sortedA, r.bins), `monotone at b* = ${r.bins}`);
    assert.ok(!naiveMonotone(sortedA, r.bins + 1), `not monotone at b* + 1 = ${r.bins + 1}`);
    for (let t = 0; t < 5; t++) {
      const b = 2 + rng.int(r.bins - 1);
      assert.ok(naiveMonotone(sortedA, b), `monotone at b = ${b} < b*`);
    }
  }
});

test('monotonic sweep agrees with a naive full search on many nearly separable sequences', () => {
  const rng = new Random(8);
  for (let trial = 0; trial < 60; trial++) {
    const n = 20 + rng.int(300);
    const errors = rng.int(n);
    const swaps = Array.from({ length: rng.int(12) }, () => rng.int(n - 1));
    const { c, a } = nearlySeparable(n, errors, swaps, rng);
    const sortedA = Uint8Array.from(
      Array.from({ length: n }, (_, i) => i).sort((x, y) => c[x]! - c[y]!),
      (i) => a[i]!,
    );
    let chosen = 1;
    for (let b = 2; b < n; b++) {
      if (!naiveMonotone(sortedA, b)) break;
      chosen = b;
    }
    assert.equal(sweepCalibrationError(c, a).bins, chosen, `trial ${trial}: n=${n} errors=${errors} swaps=${swaps.join(',')}`);
  }
});
