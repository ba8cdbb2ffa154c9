import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { Random } from '../../src/util/random.js';
import { createNpyWriter, readNpy, readNpyHeader, readNpyRows, writeNpy, type NpyDtype, type NpyWritable } from '../../src/io/npy.js';
import { tempDir } from './temp-dir.js';

const dir = tempDir('npy');
// Fixtures written by NumPy (test/fixtures/scripts/make-npy-fixtures.py); tests run from the repository root.
const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'npy');
const expected = JSON.parse(readFileSync(join(FIXTURES, 'expected.json'), 'utf8')) as Record<string, { dtype: string; shape: number[]; values: number[] }>;
const DTYPE_OF_DESCR: Record<string, NpyDtype> = { '<f4': 'float32', '<f8': 'float64', '<i8': 'int64', '<i4': 'int32', '|u1': 'uint8', '|b1': 'bool' };

/** A .npy file assembled by hand (independently of the writer): magic, version, length, header text, payload. */
function rawNpy(header: string, payload: Uint8Array, version = 1, magic = '\x93NUMPY'): Uint8Array {
  const prefix = version === 1 ? 10 : 12;
  const padded = header + ' '.repeat((64 - ((prefix + header.length + 1) % 64)) % 64) + '\n';
  const out = new Uint8Array(prefix + padded.length + payload.length);
  for (let i = 0; i < 6; i++) out[i] = magic.charCodeAt(i);
  out[6] = version;
  const view = new DataView(out.buffer);
  if (version === 1) view.setUint16(8, padded.length, true);
  else view.setUint32(8, padded.length, true);
  for (let i = 0; i < padded.length; i++) out[prefix + i] = padded.charCodeAt(i);
  out.set(payload, prefix + padded.length);
  return out;
}

function file(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

function f4Bytes(values: number[]): Uint8Array {
  return new Uint8Array(new Float32Array(values).buffer);
}

/** Assert that reading `path` fails with an InvalidArgumentError for `--logits` whose message matches `pattern`. */
async function rejectsAs(promise: Promise<unknown>, pattern: RegExp, argName = '--logits'): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof InvalidArgumentError, `expected InvalidArgumentError, got ${String(error)}`);
    assert.equal(error.argument, argName);
    assert.ok(error.message.startsWith(`${argName}: expected `), error.message);
    assert.match(error.message, pattern);
    return true;
  });
}

test('reads every dtype and format version that NumPy wrote, value for value', async () => {
  assert.ok(Object.keys(expected).length >= 8);
  for (const [name, want] of Object.entries(expected)) {
    const array = await readNpy(join(FIXTURES, name));
    assert.equal(array.dtype, DTYPE_OF_DESCR[want.dtype], name);
    assert.deepEqual(array.shape, want.shape, name);
    assert.deepEqual(Array.from(array.data, Number), want.values, name);
  }
  const logits = await readNpy(join(FIXTURES, 'logits-f4.npy'));
  assert.ok(logits.data instanceof Float32Array);
  assert.equal(logits.data[0], 1000);
  assert.ok(logits.data[5]! > 0 && logits.data[5] === Math.fround(1e-45), 'subnormal float32 survives');
  assert.ok((await readNpy(join(FIXTURES, 'labels-i8.npy'))).data instanceof Int32Array, 'int64 labels narrow to Int32Array');
});

test('writeNpy produces byte-identical files to NumPy for every dtype and version', async () => {
  const cases: Array<[string, (values: number[]) => NpyWritable, NpyDtype | undefined, 1 | 2 | 3 | undefined]> = [
    ['logits-f4.npy', (v) => new Float32Array(v), undefined, undefined],
    ['logits-f4-v2.npy', (v) => new Float32Array(v), undefined, 2],
    ['probs-f8.npy', (v) => new Float64Array(v), undefined, undefined],
    ['probs-f8-v3.npy', (v) => new Float64Array(v), undefined, 3],
    ['labels-i8.npy', (v) => new Int32Array(v), 'int64', undefined],
    ['labels-i4.npy', (v) => new Int32Array(v), undefined, undefined],
    ['labels-u1.npy', (v) => new Uint8Array(v), undefined, undefined],
    ['correct-b1.npy', (v) => new Uint8Array(v), 'bool', undefined],
  ];
  for (const [name, make, dtype, version] of cases) {
    const want = expected[name]!;
    const out = join(dir, `rewrite-${name}`);
    await writeNpy(out, make(want.values), want.shape, { ...(dtype ? { dtype } : {}), ...(version ? { version } : {}) });
    assert.deepEqual(readFileSync(out), readFileSync(join(FIXTURES, name)), name);
  }
});

test('every dtype round-trips through writeNpy and readNpy in versions 1.0, 2.0 and 3.0', async () => {
  const rng = new Random(3);
  const n = 7 * 5;
  const floats = Array.from({ length: n }, () => rng.normal() * 1e3);
  floats[0] = 0;
  floats[1] = 1;
  floats[2] = -0;
  const ints = Array.from({ length: n }, (_, i) => (i === 0 ? -(2 ** 31) : i === 1 ? 2 ** 31 - 1 : rng.int(2000) - 1000));
  const cases: Array<[NpyDtype, NpyWritable, ArrayLike<number>]> = [
    ['float32', new Float32Array(floats), Float32Array.from(floats)],
    ['float64', new Float64Array(floats), floats],
    ['int32', new Int32Array(ints), ints],
    ['int64', new Int32Array(ints), ints],
    ['uint8', Uint8Array.from(ints, (v) => v & 255), Uint8Array.from(ints, (v) => v & 255)],
    ['bool', Uint8Array.from(ints, (v) => v & 1), Uint8Array.from(ints, (v) => v & 1)],
  ];
  for (const version of [1, 2, 3] as const) {
    for (const [dtype, array, want] of cases) {
      const path = join(dir, `rt-${dtype}-${version}.npy`);
      await writeNpy(path, array, [7, 5], { dtype, version });
      const back = await readNpy(path);
      const header = await readNpyHeader(path);
      assert.deepEqual(header.version, [version, 0]);
      assert.equal(header.dataOffset % 64, 0, 'data is 64-byte aligned');
      assert.equal(back.dtype, dtype);
      assert.deepEqual(back.shape, [7, 5]);
      assert.deepEqual(Array.from(back.data, Number), Array.from(want, Number), `${dtype} v${version}`);
    }
  }
  // BigInt64Array is written as int64 as is.
  const path = join(dir, 'rt-bigint.npy');
  await writeNpy(path, new BigInt64Array([-5n, 7n]), [2]);
  assert.deepEqual(Array.from((await readNpy(path)).data), [-5, 7]);
});

test('chunked reads concatenate to the whole-file read for any chunk size', async () => {
  const rng = new Random(11);
  const rows = 23;
  const cols = 4;
  const data = Float32Array.from({ length: rows * cols }, () => rng.normal());
  const path = join(dir, 'chunks.npy');
  await writeNpy(path, data, [rows, cols]);
  const labelsPath = join(dir, 'chunk-labels.npy');
  const labels = Int32Array.from({ length: rows }, () => rng.int(cols));
  await writeNpy(labelsPath, labels, [rows], { dtype: 'int64' });
  for (const rowsPerChunk of [1, 4, 23, 100]) {
    const got: number[] = [];
    let chunks = 0;
    for await (const chunk of readNpyRows(path, { rowsPerChunk })) {
      assert.equal(chunk.cols, cols);
      assert.ok(chunk.rows <= rowsPerChunk && chunk.rows > 0);
      assert.ok(chunk.data instanceof Float32Array, 'float32 stays float32');
      assert.equal(chunk.data.length, chunk.rows * cols);
      got.push(...chunk.data);
      chunks++;
    }
    assert.equal(chunks, Math.ceil(rows / rowsPerChunk));
    assert.deepEqual(got, Array.from((await readNpy(path)).data));
    const gotLabels: number[] = [];
    for await (const chunk of readNpyRows(labelsPath, { rowsPerChunk, as: 'labels' })) {
      assert.ok(chunk instanceof Int32Array);
      gotLabels.push(...chunk);
    }
    assert.deepEqual(gotLabels, Array.from(labels));
  }
});

test('labels may be stored as (N, 1), as uint8, bool or integral floats, but not as fractions', async () => {
  const a = join(dir, 'labels-col.npy');
  await writeNpy(a, new Int32Array([2, 0, 1]), [3, 1]);
  const b = join(dir, 'labels-float.npy');
  await writeNpy(b, new Float64Array([2, 0, 1]), [3]);
  for (const path of [a, b]) {
    const got: number[] = [];
    for await (const chunk of readNpyRows(path, { as: 'labels', rowsPerChunk: 2 })) got.push(...chunk);
    assert.deepEqual(got, [2, 0, 1]);
  }
  const c = join(dir, 'labels-frac.npy');
  await writeNpy(c, new Float64Array([2, 0.5, 1]), [3]);
  await rejectsAs(
    (async () => {
      for await (const _ of readNpyRows(c, { as: 'labels', argName: '--labels' })) void _;
    })(),
    /integer class labels, got 0\.5 at index 1/,
    '--labels',
  );
});

test('int64 labels outside the int32 range are refused with their index', async () => {
  const path = join(dir, 'big-labels.npy');
  await writeNpy(path, new BigInt64Array([1n, 2n, 5000000000n]), [3]);
  await rejectsAs(readNpy(path, '--labels'), /int32 range, got 5000000000 at index 2/, '--labels');
  const neg = join(dir, 'neg-labels.npy');
  await writeNpy(neg, new BigInt64Array([-(2n ** 31n), -(2n ** 31n) - 1n]), [2]);
  await rejectsAs(readNpy(neg, '--labels'), /got -2147483649 at index 1/, '--labels');
});

test('matrix and label readers insist on their shapes', async () => {
  const vec = join(dir, 'vector.npy');
  await writeNpy(vec, new Float32Array([0.1, 0.9]), [2]);
  await rejectsAs(
    (async () => {
      for await (const _ of readNpyRows(vec, { argName: '--logits' })) void _;
    })(),
    /2-D array of shape \(N, C\), got shape \(2,\)/,
  );
  const mat = join(dir, 'matrix.npy');
  await writeNpy(mat, new Int32Array([1, 2, 3, 4]), [2, 2]);
  await rejectsAs(
    (async () => {
      for await (const _ of readNpyRows(mat, { as: 'labels', argName: '--labels' })) void _;
    })(),
    /shape \(N,\) or \(N, 1\), got shape \(2, 2\)/,
    '--labels',
  );
});

test('malformed files are refused with a message naming the argument and the problem', async () => {
  const good = rawNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", f4Bytes([1, 2, 3, 4]));
  const cases: Array<[string, Uint8Array, RegExp]> = [
    ['bad magic', rawNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", f4Bytes([1]), 1, 'PK\x03\x04ab'), /magic string .*got 'PK\\x03\\x04ab'/],
    ['empty file', new Uint8Array(0), /magic string/],
    ['3 bytes', new Uint8Array([0x93, 0x4e, 0x55]), /magic string/],
    ['version 4.0', rawNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", f4Bytes([1]), 4), /version 1\.0, 2\.0 or 3\.0, got version 4\.0/],
    ['truncated data', good.subarray(0, good.length - 3), /truncated file with 13 data bytes/],
    ['truncated header', good.subarray(0, 30), /complete header .*truncated file of 30 bytes/],
    ['trailing data', new Uint8Array([...good, 0, 0, 0, 0]), /20 data bytes \(trailing data\)/],
    ['absurd shape', rawNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (100000, 100000), }", f4Bytes([1])), /at most 2147483647 elements, got shape \(100000, 100000\)/],
    ['shape beyond the file', rawNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (1000, 10), }", f4Bytes([1])), /80000 data bytes for shape \(1000, 10\) of float64, got a truncated file/],
    ['unparsable header', rawNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2)", f4Bytes([1, 2, 3, 4])), /well-formed \.npy header/],
    ['header without shape', rawNpy("{'descr': '<f4', 'fortran_order': False, }", f4Bytes([1])), /keys 'descr', 'fortran_order' and 'shape'/],
    ['negative dimension', rawNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 2), }", f4Bytes([1])), /shape tuple of non-negative integers/],
    ['header not a dict', rawNpy("['descr', '<f4']", f4Bytes([1])), /header dict/],
    ['big-endian', rawNpy("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", f4Bytes([1])), /little-endian data .*got big-endian dtype '>f4'/],
    ['fortran order', rawNpy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", f4Bytes([1, 2, 3, 4])), /C order .*got fortran_order True with shape \(2, 2\)/],
    ['float128', rawNpy("{'descr': '<f16', 'fortran_order': False, 'shape': (1,), }", f4Bytes([1, 2, 3, 4])), /supported dtype .*got dtype '<f16'/],
    ['structured', rawNpy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", f4Bytes([1])), /plain dtype .*structured dtype/],
    ['object', rawNpy("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", new Uint8Array(8)), /numeric data .*object array/],
  ];
  for (const [name, bytes, pattern] of cases) {
    const path = file(`${name.replace(/ /g, '-')}.npy`, bytes);
    await rejectsAs(readNpy(path, '--logits'), pattern);
    assert.ok((await readNpy(path, '--logits').catch((e: Error) => e.message)).toString().includes(path), `${name}: message names the file`);
  }
  // The file itself is fine when the layout is trivially the same in both orders, or when the header is v2.
  const column = file('fortran-column.npy', rawNpy("{'descr': '<f4', 'fortran_order': True, 'shape': (3, 1), }", f4Bytes([1, 2, 3])));
  assert.deepEqual(Array.from((await readNpy(column)).data), [1, 2, 3]);
  const v2 = file('handmade-v2.npy', rawNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", f4Bytes([1, 2, 3, 4]), 2));
  assert.deepEqual(Array.from((await readNpy(v2)).data), [1, 2, 3, 4]);
});

test('files NumPy wrote in big-endian, Fortran order, as objects or complex numbers are refused', async () => {
  const cases: Array<[string, RegExp]> = [
    ['bad-big-endian-f8.npy', /big-endian dtype '>f8'/],
    ['bad-fortran-f4.npy', /fortran_order True with shape \(5, 3\)/],
    ['bad-object.npy', /object array \(dtype '\|O'\)/],
    ['bad-complex.npy', /dtype '<c8'/],
  ];
  for (const [name, pattern] of cases) await rejectsAs(readNpy(join(FIXTURES, name), '--probs'), pattern, '--probs');
});

test('missing files and directories are reported against the argument, not as raw system errors', async () => {
  await rejectsAs(readNpy(join(dir, 'nope.npy'), '--logits'), /readable file, got ".*nope\.npy" \(no such file\)/);
  await rejectsAs(readNpy(dir, '--logits'), /\(a directory\)/);
});

test('writeNpy checks the shape and that values fit the dtype, and leaves nothing behind on failure', async () => {
  const path = join(dir, 'fail.npy');
  await assert.rejects(writeNpy(path, new Float32Array(5), [2, 3]), /array: expected 6 elements for shape \(2, 3\)/);
  await assert.rejects(writeNpy(path, new Float64Array([1, 1.5]), [2], { dtype: 'int32' }), /values storable as int32, got 1\.5 at index 1/);
  await assert.rejects(writeNpy(path, new Int32Array([0, 2]), [2], { dtype: 'bool' }), /values storable as bool, got 2 at index 1/);
  await assert.rejects(writeNpy(path, new Float32Array(2), [-1, -2]), /shape: expected an array of non-negative integers/);
  assert.equal(existsSync(path), false);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    [],
  );
});

test('a streaming writer publishes the file only when every element has been written', async () => {
  const path = join(dir, 'streamed.npy');
  const writer = await createNpyWriter(path, [3, 2], 'float32');
  await writer.write(new Float64Array([1, 2, 3, 4]));
  assert.equal(existsSync(path), false);
  await writer.write(new Float32Array([5, 6]));
  await writer.close();
  const back = await readNpy(path);
  assert.deepEqual(back.shape, [3, 2]);
  assert.deepEqual(Array.from(back.data), [1, 2, 3, 4, 5, 6]);

  const short = join(dir, 'short.npy');
  const incomplete = await createNpyWriter(short, [3, 2], 'float64');
  await incomplete.write(new Float64Array(4));
  await assert.rejects(incomplete.close(), /6 elements written for shape \(3, 2\), got 4/);
  assert.equal(existsSync(short), false);
  const over = await createNpyWriter(short, [1, 2], 'float64');
  await assert.rejects(over.write(new Float64Array(3)), /at most 2 more elements/);
  assert.equal(existsSync(short), false);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    [],
  );
});

test('zero-row arrays are valid files that yield no chunks', async () => {
  const path = join(dir, 'empty.npy');
  await writeNpy(path, new Float32Array(0), [0, 10]);
  const array = await readNpy(path);
  assert.deepEqual(array.shape, [0, 10]);
  let chunks = 0;
  for await (const _ of readNpyRows(path)) chunks++;
  assert.equal(chunks, 0);
});
