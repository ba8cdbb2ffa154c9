import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packRun, unpackRun } from '../../src/suite/queue/run-transfer.js';
import { tempDir } from '../io/temp-dir.js';

const dir = tempDir('run-transfer');

test('a packed run carries its shift/ logits; only shift/<name>.npy names are unpacked', async () => {
  const from = join(dir, 'worker');
  mkdirSync(join(from, 'shift'), { recursive: true });
  for (const f of ['summary.json', 'posthoc.json', 'config.json']) writeFileSync(join(from, f), '{}');
  writeFileSync(join(from, 'test-logits.npy'), 'z');
  writeFileSync(join(from, 'shift', 'in-logits.npy'), 'in');
  writeFileSync(join(from, 'shift', 'contrast-s3-logits.npy'), 'c3');
  writeFileSync(join(from, 'shift', 'notes.txt'), 'not a shift file');
  const packed = await packRun(from);
  assert.deepEqual(
    Object.keys(packed.files).filter((k) => k.startsWith('shift/')),
    ['shift/contrast-s3-logits.npy', 'shift/in-logits.npy'],
  );
  const to = join(dir, 'coordinator');
  await unpackRun({ files: { ...packed.files, 'shift/../escape.npy': Buffer.from('x').toString('base64') } }, to);
  assert.equal(readFileSync(join(to, 'shift', 'contrast-s3-logits.npy'), 'utf8'), 'c3');
  assert.equal(readFileSync(join(to, 'shift', 'in-logits.npy'), 'utf8'), 'in');
  assert.ok(!existsSync(join(to, 'escape.npy')) && !existsSync(join(to, 'shift', 'notes.txt')));
  // A run without OOD packs as before.
  const plain = join(dir, 'plain');
  mkdirSync(plain);
  for (const f of ['summary.json', 'posthoc.json', 'test-logits.npy']) writeFileSync(join(plain, f), '{}');
  const p = await packRun(plain);
  await unpackRun(p, join(dir, 'plain-out'));
  assert.ok(!existsSync(join(dir, 'plain-out', 'shift')));
});
