import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cutmix } from '../../src/augment/cutmix.js';
import { prepareBatch } from '../../src/train/run/trainer-batch.js';
import { Random } from '../../src/util/random.js';

test('CutMix pastes the partner box (official rand_bbox geometry) and mixes the one-hot targets by the box share', () => {
  const [b, ch, h, w] = [3, 2, 5, 6];
  const images = Float32Array.from({ length: b * ch * h * w }, (_, i) => i);
  const labels = Int32Array.of(0, 2, 1);
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const r = cutmix(images, labels, [b, ch, h, w], { alpha: 1, rng: new Random(seed), classes: 3 });
    // The same draws, in the documented order: λ, π, c_x, c_y.
    const d = new Random(seed);
    const lambda0 = d.beta(1, 1),
      perm = d.permutation(b),
      cx = d.int(w),
      cy = d.int(h);
    assert.deepEqual(r.perm, perm);
    const cw = Math.floor(w * Math.sqrt(1 - lambda0)),
      chh = Math.floor(h * Math.sqrt(1 - lambda0));
    const clip = (v: number, hi: number) => Math.min(Math.max(v, 0), hi);
    const box = { x1: clip(cx - Math.floor(cw / 2), w), x2: clip(cx + Math.floor(cw / 2), w), y1: clip(cy - Math.floor(chh / 2), h), y2: clip(cy + Math.floor(chh / 2), h) };
    assert.deepEqual(r.box, box);
    for (let i = 0; i < b; i++)
      for (let c = 0; c < ch; c++)
        for (let y = 0; y < h; y++)
          for (let x = 0; x < w; x++) {
            const inside = y >= box.y1 && y < box.y2 && x >= box.x1 && x < box.x2;
            const src = inside ? perm[i]! : i;
            assert.equal(r.inputs[((i * ch + c) * h + y) * w + x], images[((src * ch + c) * h + y) * w + x]);
          }
    const share = 1 - ((box.x2 - box.x1) * (box.y2 - box.y1)) / (h * w);
    assert.ok(Math.abs(r.lambda - share) < 1e-15);
    for (let i = 0; i < b; i++) {
      const q = [0, 0, 0];
      q[labels[i]!]! += share;
      q[labels[perm[i]!]!]! += 1 - share;
      q.forEach((v, k) => assert.ok(Math.abs(r.targets[i * 3 + k]! - v) < 1e-6, `seed ${seed} target ${i},${k}`));
    }
  }
});

test('CutMix with α = 0 or probability 0 leaves the batch unchanged; bad shapes are named errors', () => {
  const images = Float32Array.from({ length: 2 * 1 * 4 * 4 }, (_, i) => i);
  const labels = Int32Array.of(1, 0);
  for (const o of [{ alpha: 0 }, { alpha: 1, probability: 0 }]) {
    const r = cutmix(images, labels, [2, 1, 4, 4], { ...o, rng: new Random(1), classes: 2 });
    assert.deepEqual(r.inputs, images);
    assert.deepEqual(Array.from(r.targets), [0, 1, 1, 0]);
    assert.equal(r.lambda, 1);
  }
  assert.throws(() => cutmix(images, labels, [2, 1, 4, 5], { alpha: 1, rng: new Random(1), classes: 2 }), /images: expected a Float32Array of 2·1·4·5 values/);
  assert.throws(() => cutmix(images, Int32Array.of(1), [2, 1, 4, 4], { alpha: 1, rng: new Random(1), classes: 2 }), /labels/);
});

test("the trainer's batch preparation applies CutMix for mixup kind 'cutmix' (soft targets, rows sum to 1)", () => {
  const images = Float32Array.from({ length: 4 * 1 * 8 * 8 }, (_, i) => i % 13);
  const batch = { kind: 'image' as const, epoch: 0, batch: 0, indices: Int32Array.of(0, 1, 2, 3), images, labels: Int32Array.of(0, 1, 2, 0), shape: [4, 1, 8, 8] as const };
  const p = prepareBatch({ augmentation: 'none', alpha: 1, kind: 'cutmix', mixLayers: null, classes: 3 }, batch, new Random(3));
  assert.ok(p.y instanceof Float32Array && p.y.length === 12);
  for (let i = 0; i < 4; i++) assert.ok(Math.abs(p.y[i * 3]! + p.y[i * 3 + 1]! + p.y[i * 3 + 2]! - 1) < 1e-6);
  const direct = cutmix(images, batch.labels, [4, 1, 8, 8], { alpha: 1, rng: new Random(3), classes: 3 });
  assert.deepEqual(p.x, direct.inputs);
  assert.equal(p.lambda, direct.lambda);
});
