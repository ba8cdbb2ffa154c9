import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../src/engine/index.js';

const f32 = (...shape: number[]) => ({ dtype: 'float32', shape }) as const;

test('the printer shows inputs, typed nodes with attributes, constants and outputs', () => {
  const g = E.trace(
    function mlp({ x, w }) {
      return x.matmul(w).add(1).relu().sum(1);
    },
    { x: f32(4, 3), w: f32(3, 2) },
  );
  assert.equal(
    E.printGraph(g),
    [
      'graph mlp(x: float32[4,3], w: float32[3,2]) {',
      '  %0: float32[4,2] = matmul(x, w)',
      '  %1: float32[4,2] = add(%0, #0:float32[](1))',
      '  %2: float32[4,2] = relu(%1)',
      '  %3: float32[4] = sum(%2) {axes=[1]}',
      '  return { output: %3 }',
      '}',
    ].join('\n'),
  );
});

test('ops on constants fold at trace time and unused work is dropped', () => {
  const g = E.trace(
    ({ x }) => {
      const c = E.constant([1, 2, 3])
        .mul(2)
        .add(E.ones([3]))
        .exp()
        .log(); // folds to [3, 5, 7]
      x.tanh(); // unused: not in the graph
      return x.add(c);
    },
    { x: f32(3) },
  );
  assert.equal(g.nodes.length, 1);
  assert.equal(g.constants.length, 1);
  const c = g.constants[0]!;
  assert.deepEqual(c.source.kind === 'constant' ? Array.from(c.source.data).map((v) => Math.round(v * 1e5) / 1e5) : [], [3, 5, 7]);
});

test('the type checker accepts traced graphs and reports a node whose recorded type is wrong', () => {
  const g = E.trace(({ x, y }) => E.softmaxCrossEntropy(x.matmul(x, { transB: true }), y).loss, { x: f32(3, 4), y: { dtype: 'int32', shape: [3] } });
  assert.deepEqual(E.checkGraph(g), []);
  const bad = E.trace(({ x }) => x.exp(), { x: f32(2) });
  const node = bad.nodes[0]!;
  const forged = { ...bad, nodes: [{ ...node, outputs: [new E.Tensor('float32', [3], { kind: 'node', node, index: 0 })] } as E.Node] };
  assert.match(E.checkGraph(forged as E.Graph).join('\n'), /node 0 \(exp\): output 0 recorded as float32\[3\], rule gives float32\[2\]/);
});

test('outputs may reuse input names, repeat a tensor, or be an input or constant', () => {
  const g = E.trace(({ w, x }) => ({ w: w.sub(x.mul(0.5)), twice: w, again: w, c: E.constant([7]), x }), { w: f32(1), x: f32(1) });
  const out = E.compile(g).run({ w: Float32Array.of(2), x: Float32Array.of(4) });
  assert.deepEqual(Object.fromEntries(Object.entries(out).map(([k, v]) => [k, Array.from(v as Float32Array)])), { w: [0], twice: [2], again: [2], c: [7], x: [4] });
});

test('deep chains trace and differentiate without recursion limits', () => {
  const g = E.trace(
    ({ x }) => {
      let h = x;
      for (let i = 0; i < 3000; i++) h = h.add(h.mul(h).mul(1e-6));
      return E.grad(h.sum(), [x])[0]!;
    },
    { x: f32(2) },
  );
  assert.ok(g.nodes.length > 5000);
  const out = E.evaluate(g, { x: [1, 1] }).output!.data;
  assert.ok(Number.isFinite(out[0]!));
});
