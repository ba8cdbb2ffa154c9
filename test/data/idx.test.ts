import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { encodeIdx, idxImageDataset, parseIdx } from '../../src/data/formats/idx.js';

test('IDX headers are read as big-endian: a hand-written uint8 file of shape [2, 2, 3]', () => {
  const bytes = Uint8Array.from([0, 0, 0x08, 3, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 3, ...Array.from({ length: 12 }, (_, i) => i * 20)]);
  const arr = parseIdx(bytes);
  assert.equal(arr.type, 'uint8');
  assert.deepEqual(arr.dims, [2, 2, 3]);
  assert.deepEqual(
    Array.from(arr.data),
    Array.from({ length: 12 }, (_, i) => i * 20),
  );
});

test('a hand-written big-endian int32 and float32 IDX file decodes to the intended values', () => {
  const i32 = parseIdx(Uint8Array.from([0, 0, 0x0c, 1, 0, 0, 0, 2, 0xff, 0xff, 0xff, 0xfe, 0x00, 0x01, 0x00, 0x00]));
  assert.deepEqual(Array.from(i32.data), [-2, 65536]);
  const f32 = parseIdx(Uint8Array.from([0, 0, 0x0d, 1, 0, 0, 0, 1, 0x3f, 0xc0, 0, 0]));
  assert.deepEqual(Array.from(f32.data), [1.5]);
});

test('every IDX element type survives encode → gzip → parse', () => {
  const cases = [
    { type: 'uint8', data: Uint8Array.from([0, 7, 255]) },
    { type: 'int8', data: Int8Array.from([-128, 0, 127]) },
    { type: 'int16', data: Int16Array.from([-32768, 1, 32767]) },
    { type: 'int32', data: Int32Array.from([-(2 ** 31), 5, 2 ** 31 - 1]) },
    { type: 'float32', data: Float32Array.from([0.1, -2.5, 1e30]) },
    { type: 'float64', data: Float64Array.from([0.1, -2.5, 1e300]) },
  ] as const;
  for (const c of cases) {
    const encoded = encodeIdx({ type: c.type, dims: [3], data: c.data });
    for (const bytes of [encoded, new Uint8Array(gzipSync(encoded))]) {
      const back = parseIdx(bytes);
      assert.equal(back.type, c.type);
      assert.deepEqual(Array.from(back.data), Array.from(c.data));
    }
  }
});

test('truncated, foreign and mismatched IDX inputs fail with the file named', () => {
  const good = encodeIdx({ type: 'uint8', dims: [2, 2], data: Uint8Array.from([1, 2, 3, 4]) });
  assert.throws(() => parseIdx(good.subarray(0, good.length - 1), 'x.idx'), /x\.idx: expected 16 bytes for dimensions \[2, 2\] of uint8, got 15 bytes/);
  assert.throws(() => parseIdx(Uint8Array.from([1, 2, 3, 4]), 'y.idx'), /y\.idx: expected an IDX file/);
  assert.throws(() => parseIdx(Uint8Array.from([0, 0, 0x07, 1, 0, 0, 0, 0]), 'z.idx'), /element type/);
  const images = parseIdx(encodeIdx({ type: 'uint8', dims: [2, 1, 2], data: Uint8Array.from([0, 51, 255, 102]) }));
  const labels = parseIdx(encodeIdx({ type: 'uint8', dims: [3], data: Uint8Array.from([0, 1, 1]) }));
  assert.throws(() => idxImageDataset(images, labels, { name: 'toy' }), /toy labels: expected 2 labels/);
});

test('an IDX image dataset scales bytes by 1/255 and infers the class count', () => {
  const images = parseIdx(encodeIdx({ type: 'uint8', dims: [2, 1, 2], data: Uint8Array.from([0, 51, 255, 102]) }));
  const labels = parseIdx(encodeIdx({ type: 'uint8', dims: [2], data: Uint8Array.from([3, 1]) }));
  const ds = idxImageDataset(images, labels, { name: 'toy' });
  assert.deepEqual(ds.shape, [1, 1, 2]);
  assert.equal(ds.classes, 4);
  assert.deepEqual(Array.from(ds.images), [0, 0.2, 1, 0.4].map(Math.fround));
  assert.deepEqual(Array.from(ds.labels), [3, 1]);
});
