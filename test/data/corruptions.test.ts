import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORRUPTIONS, boxWeights, corrupt, corruptDataset, defocusKernel, gaussianKernel1d, type Corruption } from '../../src/data/corruptions/corruptions.js';
import { imageDataset } from '../../src/data/dataset.js';
import { Random } from '../../src/util/random.js';
import { FIXTURES, moments, smoothImages } from './helpers.js';

interface Fixture {
  shape: [number, number, number, number];
  input: number[];
  outputs: Record<string, number[][]>;
}
const fixture = JSON.parse(readFileSync(join(FIXTURES, 'corruptions.json'), 'utf8')) as Fixture;

test('deterministic corruptions match scipy / matplotlib / PIL reference outputs at all five severities', () => {
  const input = Float32Array.from(fixture.input);
  for (const [name, outputs] of Object.entries(fixture.outputs)) {
    outputs.forEach((expected, s) => {
      const got = corrupt(input, fixture.shape, name as Corruption, s + 1);
      let worst = 0;
      for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(got[i]! - expected[i]!));
      assert.ok(worst < 2e-6, `${name} severity ${s + 1}: max |diff| ${worst}`);
    });
  }
});

test("the Gaussian kernel is scipy's (σ = 1: radius 4, hand-computed weights)", () => {
  const k = gaussianKernel1d(1);
  assert.equal(k.length, 9);
  const raw = [-4, -3, -2, -1, 0, 1, 2, 3, 4].map((t) => Math.exp(-0.5 * t * t));
  const total = raw.reduce((a, b) => a + b, 0);
  raw.forEach((r, i) => assert.ok(Math.abs(k[i]! - r / total) < 1e-15));
  assert.equal(gaussianKernel1d(0.4).length, 5); // radius ⌊4·0.4 + 0.5⌋ = 2
});

test('box resampling weights follow PIL: 4 → 2 averages pairs, 2 → 4 repeats pixels', () => {
  const down = boxWeights(4, 2);
  assert.deepEqual(Array.from(down.start), [0, 2]);
  assert.deepEqual(
    down.weights.map((w) => Array.from(w)),
    [
      [0.5, 0.5],
      [0.5, 0.5],
    ],
  );
  const up = boxWeights(2, 4);
  const dense = up.weights.map((w, i) => {
    const row = [0, 0];
    w.forEach((v, j) => (row[up.start[i]! + j]! += v));
    return row;
  });
  assert.deepEqual(dense, [
    [1, 0],
    [1, 0],
    [0, 1],
    [0, 1],
  ]);
});

test('the defocus kernel sums to 1 and the radius-0.3 disk is a single blurred point', () => {
  for (const [r, a] of [
    [0.3, 0.4],
    [1.5, 0.1],
  ] as const) {
    const k = defocusKernel(r, a);
    assert.ok(Math.abs(k.data.reduce((x, y) => x + y, 0) - 1) < 1e-12);
    assert.equal(k.size % 2, 1);
  }
  const k = defocusKernel(0.3, 0.4);
  const g = [Math.exp(-1 / 0.32), 1, Math.exp(-1 / 0.32)];
  const gs = g[0]! + g[1]! + g[2]!;
  const centre = (k.size - 1) / 2;
  assert.ok(Math.abs(k.data[centre * k.size + centre]! - (1 / gs) ** 2) < 1e-6);
});

test('every corruption changes images more as the severity grows (glass blur and elastic: see corruption-kinds.test)', () => {
  const shape = [6, 3, 32, 32] as const;
  const images = smoothImages(6, 3, 32, 32, 4);
  for (const name of CORRUPTIONS.filter((k) => k !== 'glass-blur' && k !== 'elastic')) {
    const change = [1, 2, 3, 4, 5].map((s) => {
      const out = corrupt(images, shape, name, s, { rng: new Random(100 + s) });
      let d = 0;
      for (let i = 0; i < out.length; i++) d += Math.abs(out[i]! - images[i]!);
      assert.ok(
        out.every((v) => v >= 0 && v <= 1),
        `${name} stays in [0, 1]`,
      );
      return d / out.length;
    });
    for (let s = 1; s < 5; s++) assert.ok(change[s]! > change[s - 1]!, `${name}: mean |Δ| ${change.map((c) => c.toFixed(4)).join(' < ')}`);
  }
});

test('noise corruptions have the intended statistics on a mid-grey image', () => {
  const n = 60000;
  const grey = new Float32Array(n).fill(0.5);
  const shape = [1, 1, 1, n] as const;
  const g = moments(corrupt(grey, shape, 'gaussian-noise', 5, { rng: new Random(1) }));
  assert.ok(Math.abs(g.mean - 0.5) < 0.002 && Math.abs(Math.sqrt(g.variance) - 0.1) < 0.002);
  // Poisson(c·x)/c with c = 50: mean x, variance x / c = 0.01
  const p = moments(corrupt(grey, shape, 'shot-noise', 5, { rng: new Random(2) }));
  assert.ok(Math.abs(p.mean - 0.5) < 0.002 && Math.abs(p.variance - 0.01) < 0.0005, `shot ${p.mean} ${p.variance}`);
  const imp = corrupt(grey, shape, 'impulse-noise', 5, { rng: new Random(3) });
  const salt = imp.filter((v) => v === 1).length / n;
  const pepper = imp.filter((v) => v === 0).length / n;
  assert.ok(Math.abs(salt - 0.035) < 0.003 && Math.abs(pepper - 0.035) < 0.003, `salt ${salt} pepper ${pepper}`);
  const sp = moments(corrupt(grey, shape, 'speckle-noise', 5, { rng: new Random(4) }));
  assert.ok(Math.abs(Math.sqrt(sp.variance) - 0.1) < 0.002);
});

test('noise corruptions need a generator and are reproducible from it; quantize floors to 8-bit levels', () => {
  const shape = [2, 3, 8, 8] as const;
  const images = smoothImages(2, 3, 8, 8, 9);
  assert.throws(() => corrupt(images, shape, 'shot-noise', 1), /options\.rng: expected a Random for shot-noise/);
  assert.throws(() => corrupt(images, shape, 'contrast', 6), /severity: expected an integer ≤ 5, got 6/);
  assert.throws(() => corrupt(images, shape, 'frost' as Corruption, 1), /corruption: expected one of/);
  assert.deepEqual(corrupt(images, shape, 'gaussian-noise', 2, { rng: new Random(5) }), corrupt(images, shape, 'gaussian-noise', 2, { rng: new Random(5) }));
  const q = corrupt(images, shape, 'contrast', 3, { quantize: true });
  const plain = corrupt(images, shape, 'contrast', 3);
  for (let i = 0; i < q.length; i++) {
    const level = Math.round(q[i]! * 255);
    assert.ok(Math.abs(q[i]! * 255 - level) < 1e-4);
    assert.ok(plain[i]! * 255 - level >= -1e-4 && plain[i]! * 255 - level < 1 + 1e-4);
  }
  const ds = imageDataset({ name: 'toy', images, labels: Int32Array.from([0, 1]), shape: [3, 8, 8], classes: 2 });
  const c = corruptDataset(ds, 'brightness', 4);
  assert.equal(c.name, 'toy/brightness-4');
  assert.deepEqual(c.labels, ds.labels);
});
