import assert from 'node:assert/strict';
import { test } from 'node:test';
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';

const dir = tempDir('suite-reuse');
const BASE = { dataset: 'mnist', subset: 300, testSubset: 200, validation: 100, modelOptions: { hidden: [8] }, batch: 50, epochs: 1, select: 'last', threads: 1 };

function writeSuite(name: string, methods: Record<string, unknown>[]): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify({ name, base: BASE, methods, seeds: [0] }));
  return path;
}

const json = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

test("--reuse-from copies runs of the same evaluation identity (another suite's, under another name too) and trains those that differ", async () => {
  const first = join(dir, 'first');
  const a = await run(['suite', 'run', writeSuite('first', [{ name: 'ce' }, { name: 'ls', loss: 'ls' }]), '--out', first, '--progress', 'none', '--report=false']);
  assert.equal(a.code, 0, a.stderr + a.stdout);

  // ce: same settings; b: CE under another name (same identity); slow: CE at another learning rate (not the same run).
  const second = writeSuite('second', [{ name: 'ce' }, { name: 'b' }, { name: 'slow', lr: 0.01 }]);
  const out = join(dir, 'second');
  const dry = await run(['suite', 'run', second, '--out', out, '--reuse-from', first, '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, new RegExp(`^2 reused, not trained: 2 finished in ${first}$`, 'm'));
  assert.match(dry.stdout, /^left: 1 of 3 runs/m);
  assert.ok(!existsSync(out), 'a dry run writes nothing');

  const r = await run(['suite', 'run', second, '--out', out, '--reuse-from', first, '--progress', 'none', '--report=false']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.match(r.stdout, new RegExp(`^reuse   ce-seed0: copied from ${join(first, 'runs', 'ce-seed0')} \\(the same evaluation identity\\)$`, 'm'));
  assert.match(r.stdout, new RegExp(`^reuse   b-seed0: copied from ${join(first, 'runs', 'ce-seed0')}`, 'm'));
  assert.doesNotMatch(r.stdout, /reuse {3}slow-seed0/);
  assert.match(r.stdout, /3\/3 runs done \(1 trained now, 2 reused, /);
  const copy = join(out, 'runs', 'b-seed0');
  assert.ok(lstatSync(copy).isDirectory() && !lstatSync(copy).isSymbolicLink());
  const identity = json(join(copy, 'identity.json'));
  assert.deepEqual([identity['suite'], identity['run'], identity['method'], identity['reusedFrom']], ['second', 'b-seed0', 'b', join(first, 'runs', 'ce-seed0')]);
  assert.equal(json(join(copy, 'config.json'))['out'], copy);
  assert.deepEqual(readFileSync(join(copy, 'test-logits.npy')), readFileSync(join(first, 'runs', 'ce-seed0', 'test-logits.npy')));
  // The copies are the suite's own runs from now on: a rerun trains nothing and the status calls them done.
  const again = await run(['suite', 'run', second, '--out', out, '--progress', 'none', '--report=false']);
  assert.match(again.stdout, /3\/3 runs done \(0 trained now/);
  const status = await run(['suite', 'status', out]);
  assert.match(status.stdout, /3 runs — 3 done/);
});

test('a run whose settings equal an earlier run of the same suite is copied from it once it has finished', async () => {
  const out = join(dir, 'twins');
  const r = await run(['suite', 'run', writeSuite('twins', [{ name: 'ce' }, { name: 'ce-again', loss: 'ce' }]), '--out', out, '--jobs', '1', '--progress', 'none', '--report=false']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.match(r.stdout, /reuse {3}ce-again-seed0: copied from .*ce-seed0/);
  assert.match(r.stdout, /2\/2 runs done \(1 trained now, 1 reused/);
});

test('--reuse-from refuses a directory that is not a suite directory, by name', async () => {
  const r = await run(['suite', 'run', writeSuite('third', [{ name: 'ce' }]), '--out', join(dir, 'third'), '--reuse-from', join(dir, 'nowhere'), '--dry-run']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--reuse-from: expected a suite directory \(with suite\.json, written by calib suite run\), got ".*nowhere"/);
});
