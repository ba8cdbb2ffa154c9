import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { openLabelsSource, openMatrixSource, readLabelsFile, readMatrixFile, sniffFormat } from '../../src/io/read-predictions.js';

// Files written by NumPy (and a hand-written safetensors file): test/fixtures/scripts/make-container-fixtures.py.
const dir = fileURLToPath(new URL('../../../test/fixtures/containers/', import.meta.url));
const expected = JSON.parse(readFileSync(`${dir}expected.json`, 'utf8')) as Record<string, number[]>;

test('float16 logits are widened exactly (±1000, subnormal, 65504)', async () => {
  const m = await readMatrixFile(`${dir}logits-f2.npy`, '--logits');
  assert.deepEqual([m.rows, m.cols], [3, 3]);
  assert.ok(m.data instanceof Float32Array);
  assert.deepEqual(Array.from(m.data), expected['logits-f2']);
  const source = await openMatrixSource(`${dir}logits-f2.npy`, '--logits');
  const chunks = [];
  for await (const c of source.chunks(2)) chunks.push(...c.data);
  assert.deepEqual(chunks, expected['logits-f2']);
});

test('labels stored as int8, int16, uint16, uint32 and uint64 read as the same int32 labels', async () => {
  for (const code of ['i1', 'i2', 'u2', 'u4', 'u8']) {
    assert.deepEqual(Array.from(await readLabelsFile(`${dir}labels-${code}.npy`, '--labels')), expected['labels'], code);
    const source = await openLabelsSource(`${dir}labels-${code}.npy`, '--labels');
    const all: number[] = [];
    for await (const c of source.chunks(4)) all.push(...c);
    assert.deepEqual(all, expected['labels'], `${code} streamed`);
  }
  await assert.rejects(readLabelsFile(`${dir}labels-u4-big.npy`, '--labels'), (e: Error) => e instanceof InvalidArgumentError && /2147483648 at index 1/.test(e.message));
});

test('.npz archives (np.savez and np.savez_compressed): arrays by usual name or FILE:NAME', async () => {
  for (const file of ['outputs.npz', 'outputs-compressed.npz']) {
    const m = await readMatrixFile(`${dir}${file}`, '--logits', { key: 'logits' });
    assert.deepEqual([m.rows, m.cols], [6, 3]);
    assert.deepEqual(Array.from(m.data), expected['npz_logits']);
    assert.deepEqual(Array.from(await readLabelsFile(`${dir}${file}`, '--labels')), expected['labels']);
    const extra = await readLabelsFile(`${dir}${file}:labels`, '--labels');
    assert.equal(extra.length, 6);
    await assert.rejects(readMatrixFile(`${dir}${file}:nope`, '--logits'), /an array named "nope".*"logits", "labels", "extra"/);
    const source = await openMatrixSource(`${dir}${file}:logits`, '--logits');
    assert.deepEqual([source.rows, source.cols], [6, 3]);
  }
});

test('safetensors: F32, BF16 and F16 tensors and I64 labels', async () => {
  const f32 = await readMatrixFile(`${dir}outputs.safetensors`, '--logits', { key: 'logits' });
  assert.deepEqual(Array.from(f32.data), expected['npz_logits']);
  const bf16 = await readMatrixFile(`${dir}outputs.safetensors:logits_bf16`, '--logits');
  assert.deepEqual(Array.from(bf16.data), expected['safetensors_bf16']);
  const f16 = await readMatrixFile(`${dir}outputs.safetensors:logits_f16`, '--logits');
  assert.deepEqual(Array.from(f16.data), expected['logits-f2']);
  assert.deepEqual(Array.from(await readLabelsFile(`${dir}outputs.safetensors`, '--labels')), expected['labels']);
});

test('standard input is recognised by content', () => {
  assert.equal(sniffFormat(readFileSync(`${dir}logits-f2.npy`)), 'npy');
  assert.equal(sniffFormat(readFileSync(`${dir}outputs.npz`)), 'npz');
  assert.equal(sniffFormat(readFileSync(`${dir}outputs.safetensors`)), 'safetensors');
  assert.equal(sniffFormat(new TextEncoder().encode(' [[1, 2]]')), 'json');
  assert.equal(sniffFormat(new TextEncoder().encode('0.1,0.9\n')), 'csv');
});
