import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../src/engine/index.js';

test('argmax and argmin break ties at the first index, like PyTorch, on ORT and in the reference', () => {
  // Rows tie at 3 (first at 1), everywhere at 5, at 0 and -1; columns 0..3 all peak in row 1 (the 5s).
  const x = Float32Array.of(1, 3, 3, 2, /**/ 5, 5, 5, 5, /**/ 0, -1, 0, -1);
  const g = E.trace(({ x }) => ({ amax: x.argmax(1), amin: x.argmin(1), amax0: x.argmax(0) }), { x: { dtype: 'float32', shape: [3, 4] } });
  const s = E.compile(g);
  const out = s.run({ x });
  const ref = E.evaluate(g, { x });
  assert.deepEqual(Array.from(out.amax as BigInt64Array, Number), [1, 0, 0]);
  assert.deepEqual(Array.from(out.amin as BigInt64Array, Number), [0, 0, 1]);
  assert.deepEqual(Array.from(out.amax0 as BigInt64Array, Number), [1, 1, 1, 1]);
  assert.deepEqual(Array.from(ref.amax!.data), [1, 0, 0]);
  assert.deepEqual(Array.from(ref.amin!.data), [0, 0, 1]);
  assert.deepEqual(Array.from(ref.amax0!.data), [1, 1, 1, 1]);
  assert.equal(g.outputs[0]!.tensor.dtype, 'int64');
  s.dispose();
});

test('the gradient of max is shared equally among tied maxima', () => {
  // max([1, 3, 3, 2]) = 3 reached twice: d/dx = [0, ½, ½, 0]; a clear maximum gets the whole gradient.
  const g = E.trace(({ x }) => E.grad(x.max(1).sum(), [x])[0]!, { x: { dtype: 'float32', shape: [2, 4] } });
  const x = Float32Array.of(1, 3, 3, 2, 4, 0, 1, 2);
  const out = E.compile(g).run({ x }).output as Float32Array;
  assert.deepEqual(Array.from(out), [0, 0.5, 0.5, 0, 1, 0, 0, 0]);
  assert.deepEqual(Array.from(E.evaluate(g, { x }).output!.data), [0, 0.5, 0.5, 0, 1, 0, 0, 0]);
});
