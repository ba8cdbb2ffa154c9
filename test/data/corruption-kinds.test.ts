import assert from 'node:assert/strict';
import { test } from 'node:test';
import jpeg from 'jpeg-js';
import { CORRUPTIONS, RANDOM_CORRUPTIONS, corrupt, type Corruption } from '../../src/data/corruptions/corruptions.js';
import { plasmaFractal } from '../../src/data/corruptions/corruption-weather.js';
import { affineFrom } from '../../src/data/corruptions/corruption-digital.js';
import { clippedZoom, motionBlurPlane, zoomBilinear } from '../../src/data/corruptions/image-filters.js';
import { Random } from '../../src/util/random.js';
import { smoothImages } from './helpers.js';

const NEW_KINDS: readonly Corruption[] = ['glass-blur', 'motion-blur', 'zoom-blur', 'snow', 'fog', 'elastic', 'jpeg-compression'];
const meanAbs = (a: Float32Array, b: Float32Array): number => a.reduce((s, v, i) => s + Math.abs(v - b[i]!), 0) / a.length;

test('14 of the 15 CIFAR-10-C kinds are generated (frost needs photographs); each new kind is deterministic with a seed, on any image size', () => {
  assert.ok(!(CORRUPTIONS as readonly string[]).includes('frost'));
  for (const k of NEW_KINDS) assert.ok(CORRUPTIONS.includes(k), k);
  for (const [c, h, w] of [
    [3, 20, 36],
    [1, 29, 17],
  ] as const) {
    const shape = [2, c, h, w] as const;
    const images = smoothImages(2, c, h, w, 11);
    for (const kind of NEW_KINDS) {
      for (const s of [1, 5]) {
        const a = corrupt(images, shape, kind, s, { rng: new Random(3) });
        assert.deepEqual(a, corrupt(images, shape, kind, s, { rng: new Random(3) }), `${kind} ${s} reproducible`);
        assert.ok(
          a.every((v) => v >= 0 && v <= 1),
          `${kind} in [0, 1]`,
        );
        assert.ok(meanAbs(a, images) > 1e-4, `${kind} ${s} changes the image`);
        if (RANDOM_CORRUPTIONS.includes(kind)) assert.notDeepEqual(a, corrupt(images, shape, kind, s, { rng: new Random(4) }), `${kind} depends on the seed`);
      }
    }
  }
  assert.throws(() => corrupt(new Float32Array(4 * 4 * 2), [1, 2, 4, 4], 'jpeg-compression', 1), /images: expected images of 1 or 3 channels/);
  assert.throws(() => corrupt(new Float32Array(16), [1, 1, 4, 4], 'fog', 1), /options\.rng: expected a Random for fog/);
});

test('zoomBilinear and clippedZoom follow scipy.ndimage.zoom(order=1) and make_cifar_c.py', () => {
  // 2×2 [[0, 1], [2, 3]] zoomed ×2 → 4×4 sampling input coordinates o·(1/3)
  const z = zoomBilinear([0, 1, 2, 3], 2, 2, 2);
  assert.equal(z.h, 4);
  const expectRow0 = [0, 1 / 3, 2 / 3, 1];
  expectRow0.forEach((v, x) => assert.ok(Math.abs(z.data[x]! - v) < 1e-12));
  expectRow0.forEach((v, x) => assert.ok(Math.abs(z.data[12 + x]! - (2 + v)) < 1e-12));
  // zoom 1 is the identity; a 4×4 ramp zoomed by 2 crops the centre 2×2 and stretches it
  const ramp = Array.from({ length: 16 }, (_, i) => i);
  const same = new Float64Array(16);
  clippedZoom(ramp, 4, 4, 1, same);
  assert.deepEqual(Array.from(same), ramp);
  const out = new Float64Array(16);
  clippedZoom(ramp, 4, 4, 2, out); // centre [[5, 6], [9, 10]] → 4×4, rows 5 + {0, 1/3, 2/3, 1}·(1 or 4)
  for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) assert.ok(Math.abs(out[y * 4 + x]! - (5 + (4 * y) / 3 + x / 3)) < 1e-12);
});

test('motionBlurPlane: one-sided Gaussian taps along the angle, edges replicated', () => {
  const w = 12;
  const src = new Float64Array(w);
  src[8] = 1;
  const out = new Float64Array(w);
  motionBlurPlane(src, 1, w, 2, 1, 0, out); // width 5, tap i reads x + i
  const weights = [0, 1, 2, 3, 4].map((i) => Math.exp(-(i * i) / 2));
  const total = weights.reduce((a, b) => a + b);
  for (let x = 0; x < w; x++) {
    const i = 8 - x;
    assert.ok(Math.abs(out[x]! - (i >= 0 && i < 5 ? weights[i]! / total : 0)) < 1e-12, `x = ${x}`);
  }
  const column = new Float64Array(12);
  column[3] = 1;
  const down = new Float64Array(12);
  motionBlurPlane(column, 12, 1, 2, 1, 90, down); // tap i reads y + i
  assert.ok(Math.abs(down[1]! - weights[2]! / total) < 1e-12 && down[4] === 0);
});

test('plasmaFractal spans [0, 1]; fog raises dark pixels and keeps a constant image below its own maximum', () => {
  const f = plasmaFractal(32, 2, new Random(1));
  assert.equal(Math.min(...f), 0);
  assert.equal(Math.max(...f), 1);
  assert.throws(() => plasmaFractal(24, 2, new Random(1)), /power of two/);
  const grey = new Float32Array(3 * 20 * 20).fill(0.4);
  const out = corrupt(grey, [1, 3, 20, 20], 'fog', 3, { rng: new Random(2) });
  // (x + a·F)·m/(m + a) with m = x = 0.4, a = 0.75: between 0.4·0.4/1.15 and 0.4
  assert.ok(out.every((v) => v >= (0.4 * 0.4) / 1.15 - 1e-6 && v <= 0.4 + 1e-6));
});

test('jpeg-compression equals a one-by-one jpeg-js round trip (the batch is tiled into one canvas)', () => {
  const [n, c, h, w] = [5, 3, 13, 21];
  const images = smoothImages(n, c, h, w, 8);
  const out = corrupt(images, [n, c, h, w], 'jpeg-compression', 4);
  for (let i = 0; i < n; i++) {
    const rgba = Buffer.alloc(h * w * 4, 255);
    for (let j = 0; j < h * w; j++) for (let k = 0; k < 3; k++) rgba[j * 4 + k] = Math.round(images[(i * c + k) * h * w + j]! * 255);
    const back = jpeg.decode(jpeg.encode({ data: rgba, width: w, height: h }, 50).data, { useTArray: true, formatAsRGBA: true });
    for (let j = 0; j < h * w; j++) for (let k = 0; k < 3; k++) assert.equal(out[(i * c + k) * h * w + j], Math.fround(back.data[j * 4 + k]! / 255), `image ${i} pixel ${j} channel ${k}`);
  }
});

/** Total variation (mean |horizontal| + |vertical| difference) of a batch. */
function totalVariation(x: Float32Array, planes: number, h: number, w: number): number {
  let s = 0;
  for (let p = 0; p < planes; p++)
    for (let y = 0; y < h - 1; y++)
      for (let q = 0; q < w - 1; q++) {
        const at = p * h * w + y * w + q;
        s += Math.abs(x[at + 1]! - x[at]!) + Math.abs(x[at + w]! - x[at]!);
      }
  return s / (planes * (h - 1) * (w - 1));
}

test('glass blur: σ grows over severities 1–3 (less total variation), severities 4–5 shuffle twice (larger change)', () => {
  // The CIFAR table (σ, d, iterations) = (0.05,1,1), (0.25,1,1), (0.4,1,1), (0.25,1,2), (0.4,1,2) is not monotone in
  // any one quantity, so the test checks each ingredient.
  const shape = [6, 3, 32, 32] as const;
  const images = smoothImages(6, 3, 32, 32, 4);
  const r = new Random(9);
  const noisy = Float32Array.from(images, (v) => Math.min(1, Math.max(0, v + 0.15 * r.normal())));
  const out = [1, 2, 3, 4, 5].map((s) => corrupt(noisy, shape, 'glass-blur', s, { rng: new Random(100 + s) }));
  const tv = out.map((o) => totalVariation(o, 18, 32, 32));
  // σ 0.05 and 0.25 are nearly no blur (kernel tails < e^−8); σ 0.4 smooths: less variation at equal iterations
  assert.ok(tv[2]! < Math.min(tv[0]!, tv[1]!) && tv[4]! < tv[3]!, `TV ${tv.join(' ')}`);
  const change = [1, 2, 3, 4, 5].map((s) => meanAbs(corrupt(images, shape, 'glass-blur', s, { rng: new Random(100 + s) }), images));
  assert.ok(Math.min(change[3]!, change[4]!) > Math.max(change[0]!, change[1]!, change[2]!), `mean |Δ| ${change.join(' ')}`);
});

test('elastic: severity 1 (α = 0) is a pure affine warp — a linear ramp stays linear inside — and the bending grows with severity', () => {
  const [h, w] = [32, 32];
  const ramp = new Float32Array(h * w);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) ramp[y * w + x] = 0.2 + 0.01 * y + 0.015 * x;
  const curvature = (o: Float32Array): number => {
    let worst = 0;
    for (let y = 10; y < 22; y++)
      for (let x = 10; x < 22; x++) {
        const at = y * w + x;
        worst = Math.max(worst, Math.abs(o[at - 1]! - 2 * o[at]! + o[at + 1]!), Math.abs(o[at - w]! - 2 * o[at]! + o[at + w]!));
      }
    return worst;
  };
  const s1 = corrupt(ramp, [1, 1, h, w], 'elastic', 1, { rng: new Random(5) });
  assert.ok(meanAbs(s1, ramp) > 1e-3, 'the affine part moves the ramp');
  assert.ok(curvature(s1) < 1e-5, `curvature ${curvature(s1)}`);
  const bends = [2, 3, 4, 5].map((s) => curvature(corrupt(ramp, [1, 1, h, w], 'elastic', s, { rng: new Random(5) })));
  // the bending (largest second difference) grows with severity: measured 1.2e−7 (float32 rounding), 4.7e−5, 2.4e−3, 1.0e−2, 1.9e−2
  const all = [curvature(s1), ...bends];
  for (let s = 1; s < 5; s++) assert.ok(all[s]! > 10 * all[s - 1]! || (s >= 3 && all[s]! > all[s - 1]!), `curvature ${all.join(' ')}`);
  // affineFrom solves A·p = q exactly
  const p = [
    [16, 26],
    [26, 6],
    [6, 6],
  ] as const;
  const q = [
    [17.5, 25],
    [24, 7.25],
    [6.5, 5],
  ] as const;
  const a = affineFrom(p, q);
  p.forEach(([x, y], i) => {
    assert.ok(Math.abs(a[0]! * x + a[1]! * y + a[2]! - q[i]![0]) < 1e-9);
    assert.ok(Math.abs(a[3]! * x + a[4]! * y + a[5]! - q[i]![1]) < 1e-9);
  });
});

test('corrupt into a given array (options.out, any previous contents) equals corrupt into a new one, for every kind and severity', () => {
  const shape: [number, number, number, number] = [3, 3, 9, 11];
  const images = smoothImages(...shape, 5);
  const out = new Float32Array(images.length);
  for (const corruption of CORRUPTIONS) {
    for (const severity of [1, 3, 5]) {
      const fresh = corrupt(images, shape, corruption, severity, { rng: new Random(11) });
      out.fill(Number.NaN);
      const reused = corrupt(images, shape, corruption, severity, { rng: new Random(11), out });
      assert.equal(reused, out);
      assert.deepEqual(reused, fresh, `${corruption} severity ${severity}`);
    }
  }
  assert.throws(() => corrupt(images, shape, 'contrast', 1, { out: new Float32Array(3) }), /options\.out: expected a Float32Array of 891 values apart from the images/);
  assert.throws(() => corrupt(images, shape, 'contrast', 1, { out: images }), /options\.out: expected a Float32Array of 891 values apart from the images/);
});
