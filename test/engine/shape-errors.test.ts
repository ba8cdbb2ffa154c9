import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../src/engine/index.js';
import { InvalidArgumentError } from '../../src/util/errors.js';

const f32 = (...shape: number[]) => ({ dtype: 'float32', shape }) as const;

/** Assert that tracing `fn` throws a ShapeError with exactly `message`. */
function throwsShape(fn: () => unknown, message: string | RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof E.ShapeError, `expected a ShapeError, got ${String(e)}`);
    assert.ok(e instanceof InvalidArgumentError);
    if (typeof message === 'string') assert.equal(e.message, message);
    else assert.match(e.message, message);
    return true;
  });
}

test('matmul with mismatched inner dimensions names the op and both shapes at trace time', () => {
  throwsShape(() => E.trace(({ x, w }) => x.matmul(w), { x: f32(128, 784), w: f32(512, 10) }), 'matmul: shapes [128,784] and [512,10] are incompatible (784 ≠ 512)');
  throwsShape(() => E.trace(({ x, w }) => x.matmul(w, { transB: true }), { x: f32(4, 3), w: f32(3, 5) }), 'matmul: shapes [4,3] and [3,5] (transB) are incompatible (3 ≠ 5)');
  throwsShape(() => E.trace(({ x, w }) => x.matmul(w), { x: f32(3), w: f32(3, 2) }), /matmul: operands need rank ≥ 2, got shapes \[3\] and \[3,2\]/);
});

test('element-wise ops reject shapes that do not broadcast and mixed dtypes', () => {
  throwsShape(() => E.trace(({ a, b }) => a.add(b), { a: f32(2, 3), b: f32(4) }), 'add: shapes [2,3] and [4] cannot be broadcast (3 ≠ 4 at axis -1)');
  throwsShape(() => E.trace(({ a, b }) => a.mul(b), { a: f32(2), b: { dtype: 'float64', shape: [2] } }), /mul: dtypes float32\[2\] and float64\[2\] differ/);
  throwsShape(() => E.trace(({ a }) => a.exp(), { a: { dtype: 'int32', shape: [2] } }), 'exp: expected a float32/float64 tensor, got int32');
  throwsShape(() => E.trace(({ a }) => E.where(a, a, 0), { a: f32(2) }), 'where: condition must be bool, got float32');
});

test('layout ops report impossible reshapes, bad permutations and axes', () => {
  throwsShape(() => E.trace(({ a }) => a.reshape([4, -1]), { a: f32(2, 3) }), /reshape: cannot reshape \[2,3\] \(6 elements\) to \[4,-1\]/);
  throwsShape(() => E.trace(({ a }) => a.transpose([0, 0]), { a: f32(2, 3) }), /transpose: perm \[0,0\] is not a permutation/);
  throwsShape(() => E.trace(({ a }) => a.sum(2), { a: f32(2, 3) }), 'sum: axis 2 is out of range for a tensor of rank 2');
  throwsShape(() => E.trace(({ a, b }) => E.concat([a, b], 0), { a: f32(2, 3), b: f32(2, 4) }), /concat: inputs float32\[2,3\], float32\[2,4\] do not agree outside axis 0/);
  throwsShape(() => E.trace(({ a }) => a.expand([3, 2]), { a: f32(3) }), /expand: shapes \[3\] and \[3,2\] cannot be broadcast/);
});

test('conv2d, pooling and batch norm report channel and size mismatches', () => {
  throwsShape(() => E.trace(({ x, w }) => E.conv2d(x, w), { x: f32(8, 3, 32, 32), w: f32(16, 4, 3, 3) }), /conv2d: input \[8,3,32,32\] has 3 channels but weight \[16,4,3,3\] expects 4/);
  throwsShape(() => E.trace(({ x, w }) => E.conv2d(x, w), { x: f32(1, 1, 2, 2), w: f32(1, 1, 3, 3) }), /conv2d: kernel 3×3 .* does not fit input \[1,1,2,2\]/);
  throwsShape(() => E.trace(({ x }) => E.maxPool2d(x, { kernel: 2 }), { x: f32(4, 4) }), 'maxPool2d: input must be 4-D (NCHW), got [4,4]');
  throwsShape(() => E.trace(({ x, g }) => E.batchNormTraining(x, g, g).y, { x: f32(2, 3, 4, 4), g: f32(4) }), /batchNormTraining: scale must be float32\[3\]/);
});

test('losses validate labels: dtype, shape and reduction', () => {
  throwsShape(() => E.trace(({ z, y }) => E.softmaxCrossEntropy(z, y).loss, { z: f32(4, 3), y: f32(4) }), 'softmaxCrossEntropy: labels must be int32 or int64, got float32');
  throwsShape(
    () => E.trace(({ z, y }) => E.softmaxCrossEntropy(z, y).loss, { z: f32(4, 3), y: { dtype: 'int32', shape: [5] } }),
    'softmaxCrossEntropy: logits [N,C] and labels [N] expected, got [4,3] and [5]',
  );
  throwsShape(() => E.trace(({ z, y }) => E.softmaxCrossEntropy(z, y, { reduction: 'avg' as 'mean' }).loss, { z: f32(4, 3), y: { dtype: 'int32', shape: [4] } }), /reduction must be/);
});

test('trace, grad and run validate their arguments with named errors', () => {
  assert.throws(() => E.trace(({ x }) => x, { x: { dtype: 'float16' as 'float32', shape: [2] } }), /input "x"\.dtype: expected float32, float64, int32, int64 or bool, got "float16"/);
  assert.throws(() => E.trace(({ x }) => x, { x: { dtype: 'float32', shape: [2.5] } }), /input "x"\.shape: expected an array of non-negative integers/);
  assert.throws(() => E.trace(({ x }) => E.grad(x.mul(2), [x])[0]!, { x: f32(2) }), /loss: expected a float scalar \(shape \[\]\), got float32\[2\]/);
  assert.throws(() => E.trace(({ x, y }) => E.grad(x.sum(), [y])[0]!, { x: f32(2), y: { dtype: 'int32', shape: [2] } }), /wrt\[0\]: expected a float32\/float64 tensor, got int32\[2\]/);
  let leaked: E.Tensor | null = null;
  E.trace(({ x }) => (leaked = x.mul(2)), { x: f32(2) });
  assert.throws(() => E.trace(({ y }) => y.add(leaked!), { y: f32(2) }), /placeholder "x" float32\[2\] from another trace/);
  const s = E.compile(E.trace(({ x }) => x.mul(2), { x: f32(3) }));
  assert.throws(() => s.run({ x: new Float32Array(2) }), /feeds\.x: expected 3 values for float32\[3\], got 2/);
  assert.throws(() => s.run({ x: new Float64Array(3) }), /feeds\.x: expected a Float32Array for float32\[3\], got a Float64Array of length 3/);
  assert.throws(() => s.run({}), /feeds\.x: expected a float32\[3\] feed, got nothing/);
  assert.throws(() => s.run({ x: new Float32Array(3), z: new Float32Array(1) }), /feeds\.z: expected one of the inputs x/);
  s.dispose();
});
