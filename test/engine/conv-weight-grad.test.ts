import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../src/engine/index.js';
import { conv2dWeightGradChunked, conv2dWeightGradGemm } from '../../src/engine/ops/conv2d.js';
import { im2colCnhw } from '../../src/engine/ops/im2col-cnhw.js';
import { Random } from '../../src/util/random.js';

const f32 = (...shape: number[]) => ({ dtype: 'float32', shape }) as const;

test('im2colCnhw lays out a hand-worked 2×2 window as [C·kh·kw, N·Ho·Wo] on ORT and in the reference', () => {
  // x: N = 2 images of 1 channel, 2×2: image 0 = [1 2; 3 4], image 1 = [5 6; 7 8]; kernel 2×2, pad bottom/right 1.
  const g = E.trace(({ x }) => im2colCnhw(x!, [2, 2], { strides: [1, 1], pads: [0, 0, 1, 1], dilations: [1, 1] }), { x: f32(2, 1, 2, 2) });
  const x = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
  // Row (p, q) holds x[n, 0, i + p, j + q] for (n, i, j) in order; 0 outside the image.
  const expected = [
    1, 2, 3, 4, 5, 6, 7, 8, // p=0 q=0
    2, 0, 4, 0, 6, 0, 8, 0, // p=0 q=1
    3, 4, 0, 0, 7, 8, 0, 0, // p=1 q=0
    4, 0, 0, 0, 8, 0, 0, 0, // p=1 q=1
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
  const ho = 3, wo = 3;
  const gy = Float64Array.from({ length: n * co * ho * wo }, () => rng.normal());
  const attrs = { strides: [2, 2] as [number, number], pads: [1, 1, 1, 1] as [number, number, number, number], dilations: [1, 1] as [number, number], group: 1 };
  const naive = new Float64Array(co * ci * 9);
  for (let o = 0; o < co; o++) for (let c = 0; c < ci; c++) for (let p = 0; p < 3; p++) for (let q = 0; q < 3; q++) {
    let s = 0;
    for (let b = 0; b < n; b++) for (let i = 0; i < ho; i++) for (let j = 0; j < wo; j++) {
      const yy = 2 * i - 1 + p, xx = 2 * j - 1 + q;
      if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
      s += gy[((b * co + o) * ho + i) * wo + j]! * x[((b * ci + c) * h + yy) * w + xx]!;
    }
    naive[((o * ci + c) * 3 + p) * 3 + q] = s;
  }
  const specs = { x: f32(n, ci, h, w), g: f32(n, co, ho, wo) };
  const graph = E.trace(({ x: xs, g }) => ({
    gemm: conv2dWeightGradGemm(xs!, g!, [co, ci, 3, 3], attrs),
    chunked: conv2dWeightGradChunked(xs!, g!, [co, ci, 3, 3], attrs, 2),
  }), specs);
  const ref = E.evaluate(graph, { x, g: gy });
  const ort = E.compile(graph).run({ x: Float32Array.from(x), g: Float32Array.from(gy) });
  for (const k of ['gemm', 'chunked'] as const) {
    for (let i = 0; i < naive.length; i++) {
      assert.ok(Math.abs(ref[k]!.data[i]! - naive[i]!) < 1e-12, `${k} reference [${i}]`);
      assert.ok(Math.abs(Number(ort[k]![i]!) - naive[i]!) < 1e-4, `${k} ORT [${i}]: ${ort[k]![i]} vs ${naive[i]}`);
    }
  }
});
