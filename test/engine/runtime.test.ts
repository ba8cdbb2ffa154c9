import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../src/engine/index.js';

test('jit compiles one session per batch size and reuses it', async () => {
  const f = E.jit(({ x, y }) => ({ s: x.sum(1).add(y.cast('float32')) }), { x: { dtype: 'float32', shape: [-1, 3] }, y: { dtype: 'int32', shape: [-1] } });
  const a = f.run({ x: Float32Array.of(1, 2, 3, 4, 5, 6), y: Int32Array.of(1, 2) });
  assert.deepEqual(Array.from(a.s as Float32Array), [7, 17]);
  f.run({ x: new Float32Array(6), y: new Int32Array(2) });
  assert.equal(f.compiledCount, 1);
  const b = await f.runAsync({ x: Float32Array.of(1, 1, 1), y: Int32Array.of(-3) });
  assert.deepEqual(Array.from(b.s as Float32Array), [0]);
  assert.equal(f.compiledCount, 2);
  assert.throws(() => f.run({ x: new Float32Array(4), y: new Int32Array(1) }), /feeds\.x: expected a multiple of 3 values for \[-1,3\], got 4/);
  f.dispose();
});

test('int64 inputs accept Int32Array feeds and scalars accept numbers', () => {
  const s = E.compile(E.trace(({ i, t }) => i.cast('float32').mul(t), { i: { dtype: 'int64', shape: [2] }, t: { dtype: 'float32', shape: [] } }));
  assert.deepEqual(Array.from(s.run({ i: Int32Array.of(2, 3), t: 0.5 }).output as Float32Array), [1, 1.5]);
  s.dispose();
  assert.throws(() => s.run({ i: Int32Array.of(2, 3), t: 0.5 }), /session: expected a live session, got a disposed one/);
});

test('FlatLayout round-trips named tensors through one flat vector inside a graph and on the host', () => {
  const layout = new E.FlatLayout({ w: [2, 3], b: [3], s: [] });
  assert.equal(layout.size, 10);
  assert.deepEqual(
    layout.entries.map((e) => [e.name, e.offset, e.size]),
    [
      ['w', 0, 6],
      ['b', 6, 3],
      ['s', 9, 1],
    ],
  );
  const flat = layout.packHost({ w: [1, 2, 3, 4, 5, 6], b: [7, 8, 9], s: [10] }, new Float32Array(layout.size));
  assert.deepEqual(Array.from(flat), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  const step = E.compile(
    E.trace(
      ({ p }) => {
        const t = layout.unpack(p);
        return { p: layout.pack({ w: t.w!.mul(2), b: t.b!.add(t.s!), s: t.s!.neg() }), y: t.w!.add(t.b!) };
      },
      { p: { dtype: 'float32', shape: [layout.size] } },
    ),
  );
  const out = step.run({ p: flat });
  assert.deepEqual(Array.from(out.p as Float32Array), [2, 4, 6, 8, 10, 12, 17, 18, 19, -10]);
  assert.deepEqual(Array.from(out.y as Float32Array), [8, 10, 12, 11, 13, 15]);
  const views = layout.views(out.p as Float32Array);
  assert.deepEqual(Array.from(views.b!), [17, 18, 19]);
  views.b![0] = 0;
  assert.equal((out.p as Float32Array)[6], 0, 'views share memory with the flat array');
  step.dispose();
});

test('an input the outputs do not use is still a declared input and may be fed', () => {
  const s = E.compile(E.trace(({ x }) => ({ y: x.mul(2) }), { x: { dtype: 'float32', shape: [2] }, unused: { dtype: 'float32', shape: [3] } }));
  assert.deepEqual(
    s.inputs.map((i) => i.name),
    ['x', 'unused'],
  );
  assert.deepEqual(Array.from(s.run({ x: Float32Array.of(1, 2), unused: new Float32Array(3) }).y as Float32Array), [2, 4]);
  s.dispose();
});
