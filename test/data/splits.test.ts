import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classCounts, imageDataset } from '../../src/data/dataset.js';
import { holdOut, randomSplit } from '../../src/data/splits.js';
import { Random } from '../../src/util/random.js';

function checkPartition(parts: Int32Array[], n: number): void {
  const seen = new Uint8Array(n);
  for (const p of parts) {
    for (let i = 0; i < p.length; i++) {
      assert.equal(seen[p[i]!], 0, `index ${p[i]} appears twice`);
      seen[p[i]!] = 1;
      if (i > 0) assert.ok(p[i]! > p[i - 1]!, 'parts are sorted');
    }
  }
  assert.ok(
    seen.every((s) => s === 1),
    'every index is in some part',
  );
}

test('a random split is a deterministic partition with the requested sizes', () => {
  const a = randomSplit(1000, [700, 200, 100], { seed: 5 });
  const b = randomSplit(1000, [700, 200, 100], { seed: 5 });
  assert.deepEqual(a, b);
  assert.deepEqual(
    a.map((p) => p.length),
    [700, 200, 100],
  );
  checkPartition(a, 1000);
  const c = randomSplit(1000, [700, 200, 100], { seed: 6 });
  assert.notDeepEqual(a[2], c[2]);
});

test('fractions become exact counts by the largest remainder', () => {
  const parts = randomSplit(10, [0.55, 0.25, 0.2], { seed: 1 });
  // exact 5.5, 2.5, 2 → floors 5, 2, 2 and one extra to the first of the tied remainders
  assert.deepEqual(
    parts.map((p) => p.length),
    [6, 2, 2],
  );
  checkPartition(parts, 10);
  assert.throws(() => randomSplit(10, [5, 4], { seed: 0 }), /sizes: expected integer counts summing to n = 10, or fractions summing to 1, got \[5, 4\] \(sum 9\)/);
});

test('a stratified split keeps class proportions within one sample and is still an exact partition', () => {
  const rng = new Random(2);
  const n = 997;
  const labels = Int32Array.from({ length: n }, () => (rng.uniform() < 0.7 ? 0 : rng.int(4) + 1));
  const counts = classCounts(labels, 5);
  const sizes = [600, 250, 147];
  const parts = randomSplit(n, sizes, { seed: 9, stratify: labels });
  checkPartition(parts, n);
  assert.deepEqual(
    parts.map((p) => p.length),
    sizes,
  );
  parts.forEach((p, j) => {
    const c = classCounts(
      Int32Array.from(p, (i) => labels[i]!),
      5,
    );
    for (let k = 0; k < 5; k++) {
      const expected = (counts[k]! * sizes[j]!) / n;
      assert.ok(Math.abs(c[k]! - expected) <= 1.5, `part ${j} class ${k}: ${c[k]} vs ${expected.toFixed(2)}`);
    }
  });
  assert.deepEqual(parts, randomSplit(n, sizes, { seed: 9, stratify: labels }));
});

test('holding out 50 of 500 images gives disjoint, stratified, reproducible datasets', () => {
  const n = 500;
  const labels = Int32Array.from({ length: n }, (_, i) => i % 10);
  const images = Float32Array.from({ length: n * 2 }, (_, j) => Math.floor(j / 2) / n);
  const ds = imageDataset({ name: 'toy', images, labels, shape: [2, 1, 1], classes: 10 });
  const { rest, heldOut, restIndices, heldOutIndices } = holdOut(ds, { size: 50, seed: 0 });
  assert.equal(heldOut.labels.length, 50);
  assert.equal(rest.labels.length, 450);
  assert.deepEqual(Array.from(classCounts(heldOut.labels, 10)), new Array(10).fill(5));
  checkPartition([restIndices, heldOutIndices], n);
  // the copied images are those of the chosen indices
  heldOutIndices.forEach((idx, i) => assert.equal(heldOut.images[2 * i], Math.fround(idx / n)));
  assert.deepEqual(holdOut(ds, { size: 0.1, seed: 0 }).heldOutIndices, heldOutIndices);
  assert.throws(() => holdOut(ds, { size: 500, seed: 0 }), /size: expected a count in \[1, 499\]/);
});
