import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../src/engine/index.js';
import { conv2dWeightGradChunked, conv2dWeightGradGemm } from '../../src/engine/ops/layers/conv2d.js';
import { conv2dWeightGradShifted, convWeightGradShiftedApplies, convWeightGradShiftedPreferred } from '../../src/engine/ops/layers/conv-weight-grad-shifted.js';
import { im2colCnhw } from '../../src/engine/ops/layers/im2col-cnhw.js';
import { Random } from '../../src/util/random.js';

const f32 = (...shape: number[]) => ({ dtype: 'float32', shape }) as const;

test('im2colCnhw lays out a hand-worked 2×2 window as [C·kh·kw, N·Ho·Wo] on ORT and in the reference', () => {
  // x: N = 2 images of 1 channel, 2×2: image 0 = [1 2; 3 4], image 1 = [5 6; 7 8]; kernel 2×2, pad bottom/right 1.
  const g = E.trace(({ x }) => im2colCnhw(x!, [2, 2], { strides: [1, 1], pads: [0, 0, 1, 1], dilations: [1, 1] }), { x: f32(2, 1, 2, 2) });
  const x = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
  // Row (p, q) holds x[n, 0, i + p, j + q] for (n, i, j) in order; 0 outside the image.
  const expected = [
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8, // p=0 q=0
    2,
    0,
    4,
    0,
    6,
    0,
    8,
    0, // p=0 q=1
    3,
    4,
    0,
    0,
    7,
    8,
    0,
    0, // p=1 q=0
    4,
    0,
    0,
    0,
    8,
    0,
    0,
    0, // p=1 q=1
  ];
  assert.deepEqual([...E.compile(g).run({ x })['output']!], expected);
  const ref = E.evaluate(g, { x })['output']!;
  assert.deepEqual(ref.shape, [4, 8]);
  assert.deepEqual([...ref.data], expected);
});

test('conv weight gradient: one-GEMM and chunked recipes agree with a naive loop (stride 2, padding 1)', () => {
  const rng = new Random(3);
  const [n, ci, h, w, co] = [5, 3, 6, 5, 4];
  const x = Float64Array.from({ length: n * ci * h * w }, () => rng.normal());
  const ho = 3,
    wo = 3;
  const gy = Float64Array.from({ length: n * co * ho * wo }, () => rng.normal());
  const attrs = { strides: [2, 2] as [number, number], pads: [1, 1, 1, 1] as [number, number, number, number], dilations: [1, 1] as [number, number], group: 1 };
  const naive = new Float64Array(co * ci * 9);
  for (let o = 0; o < co; o++)
    for (let c = 0; c < ci; c++)
      for (let p = 0; p < 3; p++)
        for (let q = 0; q < 3; q++) {
          let s = 0;
          for (let b = 0; b < n; b++)
            for (let i = 0; i < ho; i++)
              for (let j = 0; j < wo; j++) {
                const yy = 2 * i - 1 + p,
                  xx = 2 * j - 1 + q;
                if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
                s += gy[((b * co + o) * ho + i) * wo + j]! * x[((b * ci + c) * h + yy) * w + xx]!;
              }
          naive[((o * ci + c) * 3 + p) * 3 + q] = s;
        }
  const specs = { x: f32(n, ci, h, w), g: f32(n, co, ho, wo) };
  const graph = E.trace(
    ({ x: xs, g }) => ({
      gemm: conv2dWeightGradGemm(xs!, g!, [co, ci, 3, 3], attrs),
      chunked: conv2dWeightGradChunked(xs!, g!, [co, ci, 3, 3], attrs, 2),
    }),
    specs,
  );
  const ref = E.evaluate(graph, { x, g: gy });
  const ort = E.compile(graph).run({ x: Float32Array.from(x), g: Float32Array.from(gy) });
  for (const k of ['gemm', 'chunked'] as const) {
    for (let i = 0; i < naive.length; i++) {
      assert.ok(Math.abs(ref[k]!.data[i]! - naive[i]!) < 1e-12, `${k} reference [${i}]`);
      assert.ok(Math.abs(Number(ort[k]![i]!) - naive[i]!) < 1e-4, `${k} ORT [${i}]: ${ort[k]![i]} vs ${naive[i]}`);
    }
  }
});

/** Naive float64 weight gradient: dW[o, c, p, q] = Σ dY[n, o, i, j] · x[n, c, i·s − pt + p·d₀, j·s − pl + q·d₁]. */
function naiveWeightGrad(x: Float64Array, gy: Float64Array, [n, ci, h, w]: number[], [co, kh, kw]: number[], [ho, wo]: number[], pads: readonly number[], dil: readonly number[]): Float64Array {
  const out = new Float64Array(co! * ci! * kh! * kw!);
  for (let o = 0; o < co!; o++)
    for (let c = 0; c < ci!; c++)
      for (let p = 0; p < kh!; p++)
        for (let q = 0; q < kw!; q++) {
          let s = 0;
          for (let b = 0; b < n!; b++)
            for (let i = 0; i < ho!; i++)
              for (let j = 0; j < wo!; j++) {
                const yy = i - pads[0]! + p * dil[0]!,
                  xx = j - pads[1]! + q * dil[1]!;
                if (yy < 0 || yy >= h! || xx < 0 || xx >= w!) continue;
                s += gy[((b * co! + o) * ho! + i) * wo! + j]! * x[((b * ci! + c) * h! + yy) * w! + xx]!;
              }
          out[((o * ci! + c) * kh! + p) * kw! + q] = s;
        }
  return out;
}

test('conv weight gradient by shifted copies (stride 1) equals a naive loop for same, valid, dilated and asymmetric padding', () => {
  const rng = new Random(5);
  const cases: { x: number[]; w: number[]; pads: [number, number, number, number]; dil: [number, number] }[] = [
    { x: [3, 2, 5, 6], w: [4, 2, 3, 3], pads: [1, 1, 1, 1], dil: [1, 1] }, // ResNet's 3×3 "same"
    { x: [2, 3, 7, 7], w: [2, 3, 5, 5], pads: [0, 0, 0, 0], dil: [1, 1] }, // LeNet's valid 5×5
    { x: [2, 2, 6, 7], w: [3, 2, 2, 3], pads: [1, 0, 0, 2], dil: [2, 1] }, // asymmetric padding, dilation
    { x: [1, 1, 4, 3], w: [2, 1, 3, 1], pads: [2, 0, 1, 0], dil: [1, 1] }, // tall kernel, no column shift
  ];
  for (const { x: xs, w: ws, pads, dil } of cases) {
    const [n, ci, h, w] = xs as [number, number, number, number];
    const [co, , kh, kw] = ws as [number, number, number, number];
    const ho = h + pads[0] + pads[2] - dil[0] * (kh - 1),
      wo = w + pads[1] + pads[3] - dil[1] * (kw - 1);
    const attrs = { strides: [1, 1] as [number, number], pads, dilations: dil };
    assert.ok(convWeightGradShiftedApplies(xs, [n, co, ho, wo], [kh, kw], attrs));
    const x = Float64Array.from({ length: n * ci * h * w }, () => rng.normal());
    const gy = Float64Array.from({ length: n * co * ho * wo }, () => rng.normal());
    const naive = naiveWeightGrad(x, gy, xs, [co, kh, kw], [ho, wo], pads, dil);
    const graph = E.trace(({ x: xt, g }) => conv2dWeightGradShifted(xt!, g!, ws, attrs), { x: f32(n, ci, h, w), g: f32(n, co, ho, wo) });
    const ref = E.evaluate(graph, { x, g: gy })['output']!;
    const ort = E.compile(graph).run({ x: Float32Array.from(x), g: Float32Array.from(gy) })['output']!;
    assert.deepEqual(ref.shape, ws);
    for (let i = 0; i < naive.length; i++) {
      assert.ok(Math.abs(ref.data[i]! - naive[i]!) < 1e-12, `${JSON.stringify(ws)} reference [${i}]`);
      assert.ok(Math.abs(Number(ort[i]!) - naive[i]!) < 1e-4, `${JSON.stringify(ws)} ORT [${i}]: ${ort[i]} vs ${naive[i]}`);
    }
  }
});

test('shifted-copies weight gradient declines strided convolutions', () => {
  assert.equal(convWeightGradShiftedApplies([1, 1, 8, 8], [1, 1, 4, 4], [3, 3], { strides: [2, 2], pads: [1, 1, 1, 1], dilations: [1, 1] }), false);
});

test('shifted copies are chosen where they are fewer than twice im2col\'s columns: ResNet 3×3 "same" and LeNet 5×5 yes, 1- and 3-channel stems and 1×1 no', () => {
  const same = { strides: [1, 1] as [number, number], pads: [1, 1, 1, 1] as [number, number, number, number], dilations: [1, 1] as [number, number] };
  const valid = { ...same, pads: [0, 0, 0, 0] as [number, number, number, number] };
  for (const c of [16, 32, 64]) assert.equal(convWeightGradShiftedPreferred([128, c, 32, 32], [128, c, 32, 32], [c, c, 3, 3], same), true);
  assert.equal(convWeightGradShiftedPreferred([128, 1, 28, 28], [128, 6, 24, 24], [6, 1, 5, 5], valid), true);
  assert.equal(convWeightGradShiftedPreferred([128, 6, 12, 12], [128, 16, 8, 8], [16, 6, 5, 5], valid), true);
  assert.equal(convWeightGradShiftedPreferred([128, 1, 28, 28], [128, 16, 28, 28], [16, 1, 3, 3], same), false);
  assert.equal(convWeightGradShiftedPreferred([128, 3, 32, 32], [128, 16, 32, 32], [16, 3, 3, 3], same), false);
  assert.equal(convWeightGradShiftedPreferred([128, 16, 8, 8], [128, 16, 8, 8], [16, 16, 1, 1], valid), false);
});
