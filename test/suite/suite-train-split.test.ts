import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';
import { tinySuite } from './tiny-suite.js';

const dir = tempDir('suite-train-split');
const json = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

test('a suite with evaluateTrain reports train accuracy and train ECE beside the test metrics', async () => {
  const suite = tinySuite({ compare: [] });
  (suite['base'] as Record<string, unknown>)['evaluateTrain'] = true;
  const file = join(dir, 'tiny-train.json');
  writeFileSync(file, JSON.stringify(suite));
  const out = join(dir, 'out');
  const r = await run(['suite', 'run', file, '--out', out, '--jobs', '1', '--progress', 'none']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const report = json(join(out, 'report.json')) as { tables: { columns: { key: string }[]; rows: { method: string; cells: { mean: number }[] }[] }[] };
  const table = report.tables[0]!;
  const keys = table.columns.map((c) => c.key);
  const at = keys.indexOf('train:ece');
  assert.ok(at > 0 && keys.includes('train:accuracy'), keys.join(','));
  for (const row of table.rows) {
    const summary = json(join(out, 'runs', `${row.method}-seed0`, 'summary.json')) as { train: Record<string, number> };
    assert.equal(row.cells[at]!.mean, summary.train['ece']);
    assert.equal(row.cells[keys.indexOf('train:accuracy')]!.mean, summary.train['accuracy']);
  }
  const md = readFileSync(join(out, 'report.md'), 'utf8');
  assert.match(md, /\| Train acc\. \(%\) \| Train ECE \(%\) \|/);
  assert.match(md, /Train columns: the training split \(no augmentation\) with the same weights\./);
});
