import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as ort from 'onnxruntime-node';
import * as E from '../../src/engine/index.js';
import { ProtoWriter } from '../../src/engine/onnx/protobuf.js';

test('the protobuf writer encodes varints, negative int64, floats, strings and nested messages', () => {
  const w = new ProtoWriter();
  w.int(1, 300);
  w.int(2, -1);
  w.float(3, 1.5);
  w.string(4, 'hé');
  w.message(5, (m) => m.int(1, 2));
  w.packedInts(6, [1, 128]);
  assert.deepEqual(Array.from(w.finish()), [
    0x08,
    0xac,
    0x02, // field 1 varint 300
    0x10,
    0xff,
    0xff,
    0xff,
    0xff,
    0xff,
    0xff,
    0xff,
    0xff,
    0xff,
    0x01, // field 2 varint −1 (10 bytes)
    0x1d,
    0x00,
    0x00,
    0xc0,
    0x3f, // field 3 fixed32 1.5
    0x22,
    0x03,
    0x68,
    0xc3,
    0xa9, // field 4 "hé" (UTF-8)
    0x2a,
    0x02,
    0x08,
    0x02, // field 5 { field 1: 2 }
    0x32,
    0x03,
    0x01,
    0x80,
    0x01, // field 6 packed [1, 128]
  ]);
});

test('emitted models load through the public onnxruntime-node API and agree with the engine session', async () => {
  const g = E.trace(
    ({ x, y }) => {
      const z = x.matmul(x, { transB: true }).softmax(1);
      return { p: z, loss: E.softmaxCrossEntropy(z.log(), y).loss, arg: z.argmax(1) };
    },
    { x: { dtype: 'float32', shape: [3, 2] }, y: { dtype: 'int64', shape: [3] } },
  );
  const bytes = E.toOnnx(g);
  const session = await ort.InferenceSession.create(bytes);
  assert.deepEqual([...session.inputNames], ['x', 'y']);
  assert.deepEqual([...session.outputNames], ['p', 'loss', 'arg']);
  const x = Float32Array.of(0.1, -0.4, 1, 2, -1, 0.5);
  const y = BigInt64Array.of(0n, 1n, 2n);
  const pub = await session.run({ x: new ort.Tensor('float32', x, [3, 2]), y: new ort.Tensor('int64', y, [3]) });
  const ours = E.compile(g).run({ x, y });
  assert.deepEqual(Array.from(pub.p!.data as Float32Array), Array.from(ours.p as Float32Array));
  assert.deepEqual(Array.from(pub.loss!.data as Float32Array), Array.from(ours.loss as Float32Array));
  assert.deepEqual(pub.p!.dims, [3, 3]);
  await session.release();
});

test('models record opset 18 and declare com.microsoft only when a fused op is used', () => {
  const plain = E.lowerToOnnx(E.trace(({ a, b }) => a.matmul(b), { a: { dtype: 'float32', shape: [2, 3] }, b: { dtype: 'float32', shape: [3, 2] } }));
  assert.deepEqual(plain.opsets, { '': 18 });
  const fused = E.lowerToOnnx(E.trace(({ a, b }) => a.matmul(b, { transA: true }), { a: { dtype: 'float32', shape: [2, 3, 2] }, b: { dtype: 'float32', shape: [2, 3, 2] } }));
  assert.deepEqual(fused.opsets, { '': 18, 'com.microsoft': 1 });
  assert.deepEqual(
    fused.nodes.map((n) => n.opType),
    ['FusedMatMul'],
  );
});

test('each training-mode batch norm gets running-stat initializers with distinct contents', () => {
  const g = E.trace(({ x, s }) => E.batchNormTraining(E.batchNormTraining(x, s, s).y, s, s).y, { x: { dtype: 'float32', shape: [2, 3] }, s: { dtype: 'float32', shape: [3] } });
  const m = E.lowerToOnnx(g);
  const bnInputs = m.nodes.filter((n) => n.opType === 'BatchNormalization').flatMap((n) => n.inputs.slice(3));
  const contents = bnInputs.map((name) => JSON.stringify(Array.from(m.initializers.find((i) => i.name === name)!.values)));
  assert.equal(new Set(contents).size, 4, `contents: ${contents.join(' ')}`);
});

test('a reduction over non-adjacent axes lowers to one Reduce per run of adjacent axes, innermost first', async () => {
  const { contiguousAxisRuns } = await import('../../src/engine/ops/reduce/reduce.js');
  assert.deepEqual(contiguousAxisRuns([0, 2]), [[2], [0]]);
  assert.deepEqual(contiguousAxisRuns([0, 2, 3]), [[2, 3], [0]]);
  assert.deepEqual(contiguousAxisRuns([1, 2]), [[1, 2]]);
  assert.deepEqual(contiguousAxisRuns([0, 1, 3, 5, 6]), [[5, 6], [3], [0, 1]]);
  const g = E.trace(({ x }) => ({ s: x.sum([0, 2]), k: x.sum([0, 2], true) }), { x: { dtype: 'float32', shape: [2, 3, 4] } });
  const nodes = E.lowerToOnnx(g).nodes.map((n) => n.opType);
  assert.equal(nodes.filter((t) => t === 'ReduceSum').length, 4);
  const x = Float32Array.from({ length: 24 }, (_, i) => i);
  const out = E.compile(g).run({ x });
  const expected = [0, 1, 2].map((c) => {
    let s = 0;
    for (let n = 0; n < 2; n++) for (let q = 0; q < 4; q++) s += x[(n * 3 + c) * 4 + q]!;
    return s;
  });
  assert.deepEqual(Array.from(out.s as Float32Array), expected);
  assert.deepEqual(Array.from(out.k as Float32Array), expected);
});
