import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { Random } from '../../src/util/random.js';
import { writeNpy } from '../../src/io/npy.js';
import { fileFormat, openLabelsSource, openMatrixSource, readLabelsFile, readMatrixFile } from '../../src/io/read-predictions.js';
import { writeMatrixFile } from '../../src/io/write-predictions.js';
import { requirePredictionShape } from '../../src/io/validate.js';
import { tempDir } from './temp-dir.js';

const dir = tempDir('read');
const rng = new Random(5);
const rows = 9;
const cols = 3;
const values = Array.from({ length: rows * cols }, () => Math.round(rng.normal() * 1000) / 100);
const labels = Array.from({ length: rows }, () => rng.int(cols));

// The same data in every format, written naively here.
const paths = {
  npy: join(dir, 'z.npy'),
  csv: join(dir, 'z.csv'),
  tsv: join(dir, 'z.tsv'),
  json: join(dir, 'z.json'),
};
const rowsText = (sep: string): string => Array.from({ length: rows }, (_, i) => values.slice(i * cols, (i + 1) * cols).join(sep)).join('\n') + '\n';
writeFileSync(paths.csv, 'a,b,c\n' + rowsText(','));
writeFileSync(paths.tsv, rowsText('\t'));
writeFileSync(paths.json, JSON.stringify({ logits: Array.from({ length: rows }, (_, i) => values.slice(i * cols, (i + 1) * cols)), labels }));
writeFileSync(join(dir, 'y.csv'), 'y\n' + labels.join('\n') + '\n');
writeFileSync(join(dir, 'y.json'), JSON.stringify(labels));

test('the format is chosen by extension, case-insensitively', () => {
  assert.equal(fileFormat('a/B.NPY', 'x'), 'npy');
  assert.equal(fileFormat('b.tsv', 'x'), 'csv');
  assert.equal(fileFormat('c.txt', 'x'), 'csv');
  assert.equal(fileFormat('d.Json', 'x'), 'json');
  assert.throws(
    () => fileFormat('e.pt', '--logits'),
    /--logits: expected a file ending in \.npy, \.npz, \.safetensors, \.csv, \.tsv, \.txt or \.json \(or - for standard input\), got "e\.pt": PyTorch torch\.save files/,
  );
});

test('the same matrix and labels read identically from .npy, .csv, .tsv and .json', async () => {
  await writeNpy(paths.npy, new Float64Array(values), [rows, cols]);
  await writeNpy(join(dir, 'y.npy'), new Int32Array(labels), [rows], { dtype: 'int64' });
  for (const path of Object.values(paths)) {
    const m = await readMatrixFile(path, '--logits', { key: 'logits' });
    assert.deepEqual([m.rows, m.cols], [rows, cols], path);
    assert.deepEqual(Array.from(m.data), values, path);
  }
  for (const name of ['y.npy', 'y.csv', 'y.json', 'z.json']) {
    assert.deepEqual(Array.from(await readLabelsFile(join(dir, name), '--labels')), labels, name);
  }
});

test('sources know their size up front and their chunks concatenate to the whole file', async () => {
  for (const path of Object.values(paths)) {
    const source = await openMatrixSource(path, '--logits', { key: 'logits' });
    assert.deepEqual([source.rows, source.cols], [rows, cols]);
    for (const chunkRows of [2, 4, 100]) {
      const got: number[] = [];
      for await (const chunk of source.chunks(chunkRows)) {
        assert.ok(chunk.rows <= chunkRows);
        got.push(...chunk.data);
      }
      assert.deepEqual(got, values, `${path} in chunks of ${chunkRows}`);
    }
  }
  for (const name of ['y.npy', 'y.csv', 'y.json']) {
    const source = await openLabelsSource(join(dir, name), '--labels');
    assert.equal(source.length, rows);
    const got: number[] = [];
    for await (const chunk of source.chunks(4)) got.push(...chunk);
    assert.deepEqual(got, labels);
  }
});

test('a missing file is an argument error naming the flag', async () => {
  for (const name of ['missing.csv', 'missing.json', 'missing.npy']) {
    await assert.rejects(readMatrixFile(join(dir, name), '--probs'), (error: unknown) => {
      assert.ok(error instanceof InvalidArgumentError);
      assert.match(error.message, /^--probs: expected a readable file, got ".*missing\.\w+" \(no such file\)$/);
      return true;
    });
  }
});

test('requirePredictionShape rejects empty input, a single class and mismatched lengths', () => {
  requirePredictionShape('--logits', 3, 2, '--labels', 3);
  requirePredictionShape('--logits', 3, 2);
  assert.throws(() => requirePredictionShape('--logits', 0, 10, '--labels', 0), /^InvalidArgumentError: --logits: expected at least one sample \(row\), got 0 rows$/);
  assert.throws(() => requirePredictionShape('--probs', 4, 1), /--probs: expected at least 2 classes \(columns\), got 1 column$/);
  assert.throws(() => requirePredictionShape('--logits', 4, 3, '--labels', 5), /--labels: expected 4 labels, one per row of --logits, got 5$/);
});

test('writeMatrixFile writes .npy in float32 or float64, and CSV/JSON that read back exactly', async () => {
  const m = { rows: 2, cols: 2, data: new Float64Array([0.1, 0.9, 1, 0]) };
  const f32 = join(dir, 'out32.npy');
  await writeMatrixFile(f32, m);
  const back32 = await readMatrixFile(f32, 'x');
  assert.ok(back32.data instanceof Float32Array);
  assert.deepEqual(Array.from(back32.data), Array.from(Float32Array.from(m.data)));
  const f64 = join(dir, 'out64.npy');
  await writeMatrixFile(f64, m, { dtype: 'float64' });
  assert.deepEqual(Array.from((await readMatrixFile(f64, 'x')).data), [0.1, 0.9, 1, 0]);
  for (const ext of ['csv', 'json']) {
    const path = join(dir, `out.${ext}`);
    await writeMatrixFile(path, m, { dtype: 'float64' });
    assert.deepEqual(Array.from((await readMatrixFile(path, 'x')).data), [0.1, 0.9, 1, 0], ext);
  }
  assert.match(readFileSync(join(dir, 'out.json'), 'utf8'), /^\{"probs": \[/);
  await assert.rejects(writeMatrixFile(join(dir, 'out.bin'), m, { argName: '--out' }), /--out: expected an output file ending in \.npy, \.csv or \.json/);
});
