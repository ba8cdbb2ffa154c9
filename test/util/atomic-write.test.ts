import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { atomicWriteFile, atomicWriteFileSync, openAtomic } from '../../src/util/atomic-write.js';
import { tempDir } from '../io/temp-dir.js';

const dir = tempDir('atomic');

test('atomicWriteFile creates a file with exactly the given bytes and leaves no temporary file', async () => {
  const path = join(dir, 'a.bin');
  await atomicWriteFile(path, new Uint8Array([1, 2, 3, 250]));
  assert.deepEqual([...readFileSync(path)], [1, 2, 3, 250]);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    [],
  );
});

test('atomicWriteFile replaces an existing file and writes strings as UTF-8', async () => {
  const path = join(dir, 'b.txt');
  writeFileSync(path, 'old content that is longer');
  await atomicWriteFile(path, 'néw');
  assert.equal(readFileSync(path, 'utf8'), 'néw');
});

test('an aborted atomic write leaves the old file untouched and removes its temporary file', async () => {
  const path = join(dir, 'c.txt');
  writeFileSync(path, 'keep me');
  const file = await openAtomic(path);
  await file.write('half of a new ');
  assert.equal(readFileSync(path, 'utf8'), 'keep me', 'nothing is visible before commit');
  await file.abort();
  await file.abort();
  assert.equal(readFileSync(path, 'utf8'), 'keep me');
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith('.c.txt')),
    [],
  );
  await assert.rejects(file.write('x'), /write after aborted/);
});

test('pieces written to an atomic file appear together on commit', async () => {
  const path = join(dir, 'd.txt');
  const file = await openAtomic(path);
  await file.write('one,');
  await file.write(new TextEncoder().encode('two'));
  await file.commit();
  assert.equal(readFileSync(path, 'utf8'), 'one,two');
});

test('atomicWriteFileSync writes and replaces like the async version', () => {
  const path = join(dir, 'e.txt');
  atomicWriteFileSync(path, 'first');
  atomicWriteFileSync(path, new Uint8Array([0x32]));
  assert.equal(readFileSync(path, 'utf8'), '2');
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    [],
  );
});

test('writing into a missing directory fails without creating anything', async () => {
  await assert.rejects(atomicWriteFile(join(dir, 'missing', 'f.txt'), 'x'), { code: 'ENOENT' });
  assert.throws(() => atomicWriteFileSync(join(dir, 'missing', 'f.txt'), 'x'), { code: 'ENOENT' });
});
