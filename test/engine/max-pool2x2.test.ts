import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../src/engine/index.js';

// Windows of a [1, 1, 2, 12] input (six 2×2 windows, row-major within each) with ties, and where PyTorch's
// first-maximum rule (row-major order inside the window) sends the gradient.
const windows: { values: [number, number, number, number]; first: number }[] = [
  { values: [1, 1, 1, 1], first: 0 },
  { values: [0, 2, 2, 2], first: 1 },
  { values: [0, 1, 3, 3], first: 2 },
  { values: [0, 0, 0, 5], first: 3 },
  { values: [2, 0, 2, 1], first: 0 },
  { values: [0, 3, 3, 1], first: 1 },
];
const x = new Float32Array(24);
windows.forEach((wd, k) => {
  x[2 * k] = wd.values[0];
  x[2 * k + 1] = wd.values[1];
  x[12 + 2 * k] = wd.values[2];
  x[12 + 2 * k + 1] = wd.values[3];
});
const dy = Float32Array.from(windows, (_, k) => k + 1);
const expected = new Float32Array(24);
windows.forEach((wd, k) => {
  const p = wd.first >> 1,
    q = wd.first & 1;
  expected[p * 12 + 2 * k + q] = k + 1;
});

const specs = { x: { dtype: 'float32', shape: [1, 1, 2, 12] }, dy: { dtype: 'float32', shape: [1, 1, 1, 6] } } as const;

test('maxPool2d 2×2 / stride 2 uses the indexless primitive and its backward keeps the first maximum on ties (ORT and float64)', () => {
  const g = E.trace(({ x, dy }) => {
    const y = E.maxPool2d(x, { kernel: 2 });
    return { y, dx: E.vjp([y], [dy], [x])[0]! };
  }, specs);
  const names = E.lowerToOnnx(g).nodes.map((n) => n.opType);
  assert.ok(!names.includes('ScatterElements'), `no scatter in ${names.join(',')}`);
  const ort = E.compile(g).run({ x, dy });
  assert.deepEqual(Array.from(ort.dx as Float32Array), Array.from(expected));
  assert.deepEqual(
    Array.from(ort.y as Float32Array),
    windows.map((wd) => Math.max(...wd.values)),
  );
  const ref = E.evaluate(g, { x, dy });
  assert.deepEqual(Array.from(ref.dx!.data), Array.from(expected));
});

test('the 2×2 backward equals the scatter backward of the general primitive on tied and random inputs', () => {
  const g = E.trace(({ x, dy }) => {
    const fast = E.vjp([E.maxPool2x2(x)], [dy], [x])[0]!;
    const general = E.vjp([E.maxPool2dWithIndices(x, { kernel: 2 }).values], [dy], [x])[0]!;
    return { fast, general };
  }, specs);
  const session = E.compile(g);
  const tied = session.run({ x, dy });
  assert.deepEqual(Array.from(tied.fast as Float32Array), Array.from(tied.general as Float32Array));
  const rounded = Float32Array.from({ length: 24 }, (_, i) => Math.round(Math.sin(i * 7.3) * 2)); // many ties
  const r = session.run({ x: rounded, dy });
  assert.deepEqual(Array.from(r.fast as Float32Array), Array.from(r.general as Float32Array));
});

test('odd spatial sizes and other windows keep the general max-pool primitive', () => {
  const ops = (shape: number[], kernel: number) => E.lowerToOnnx(E.trace(({ x }) => E.maxPool2d(x, { kernel }), { x: { dtype: 'float32', shape } })).nodes.map((n) => n.outputs.length);
  assert.deepEqual(ops([1, 1, 4, 4], 2), [1]);
  assert.deepEqual(ops([1, 1, 5, 4], 2), [2]);
  assert.deepEqual(ops([1, 1, 6, 6], 3), [2]);
});
