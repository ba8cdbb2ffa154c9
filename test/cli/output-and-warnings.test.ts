import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { writeNpy } from '../../src/io/npy.js';
import { requireOutputPath, writingOutput } from '../../src/cli/output-path.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

/**
 * Output paths (--out) that cannot be written are bad arguments (exit 2, one stderr line naming --out), found
 * before any work; and --logits files that hold probabilities get a warning instead of silently wrong numbers.
 */

const dir = tempDir('cli-out');
const p = (name: string): string => join(dir, name);
const N = 300;
const C = 4;
const set = syntheticOverconfident({ n: N, classes: C, seed: 3 });
const probs = new Float64Array(N * C);
for (let i = 0; i < N; i++) {
  let m = -Infinity;
  for (let k = 0; k < C; k++) m = Math.max(m, set.logits[i * C + k]!);
  let s = 0;
  for (let k = 0; k < C; k++) s += probs[i * C + k] = Math.exp(set.logits[i * C + k]! - m);
  for (let k = 0; k < C; k++) probs[i * C + k]! /= s;
}
await writeNpy(p('z.npy'), Float32Array.from(set.logits), [N, C]);
await writeNpy(p('p.npy'), probs, [N, C]);
await writeNpy(p('y.npy'), set.labels, [N], { dtype: 'int64' });
mkdirSync(p('a-dir.json'));
writeFileSync(p('a-file'), 'not a directory\n');

async function fails(argv: string[], pattern: RegExp): Promise<void> {
  const r = await run(argv);
  assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, pattern);
}

test('an --out in a missing directory, through a file, or naming a directory fails with exit 2 naming --out', async () => {
  const missing = p('no-such-dir/cal.json');
  const fit = (out: string): string[] => ['fit', '--method', 'temperature', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', out];
  await fails(fit(missing), /^calib: error: --out: expected a file path in an existing directory, got ".*no-such-dir\/cal\.json" \(.*no such directory\)$/m);
  await fails(fit(join(p('a-file'), 'cal.json')), /--out: expected a file path in an existing directory, got .* is not a directory\)$/m);
  await fails(fit(p('a-dir.json')), /--out: expected a file path, got ".*a-dir\.json" \(a directory\)$/m);
  await fails(['plot', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('no-such-dir/d.svg')], /--out: expected a file path in an existing directory/);
  const ok = await run(fit(p('cal.json')));
  assert.equal(ok.code, 0, ok.stderr);
  for (const out of ['x.npy', 'x.csv']) {
    await fails(['apply', '--calibrator', p('cal.json'), '--logits', p('z.npy'), '--out', p(`no-such-dir/${out}`)], /--out: expected a file path in an existing directory/);
  }
  await fails(['demo', '--synthetic', '--out', p('a-file'), '--n', '40'], /^calib: error: --out: expected a directory \(created if missing\), got ".*a-file" \(a file is in the way\)$/m);
  await fails(
    ['demo', '--out', p('a-file')],
    /^calib: error: --out: expected a new or empty directory, or the directory of suite demo at scale quick \(written by calib suite run\), got ".*a-file" \(a file\)$/m,
  );
  assert.ok(!existsSync(p('no-such-dir')));
});

test('file-system errors while writing an output become InvalidArgumentError naming the flag and the path', async () => {
  const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
  await assert.rejects(
    writingOutput('/tmp/x.npy', '--out', () => Promise.reject(full)),
    (e: unknown) => e instanceof InvalidArgumentError && e.message === '--out: expected a writable file, got "/tmp/x.npy" (no space left on device)',
  );
  const bug = new TypeError('not a file-system error');
  await assert.rejects(
    writingOutput('/tmp/x.npy', '--out', () => Promise.reject(bug)),
    (e: unknown) => e === bug,
  );
  assert.equal(await writingOutput('/tmp/x.npy', '--out', () => Promise.resolve(7)), 7);
  await requireOutputPath(p('fresh.json')); // an absent file in an existing directory is fine
});

test('--logits holding probabilities gives one stderr warning pointing to --probs; real logits give none', async () => {
  for (const argv of [
    ['eval', '--logits', p('p.npy'), '--labels', p('y.npy'), '--json'],
    ['fit', '--method', 'temperature', '--logits', p('p.npy'), '--labels', p('y.npy'), '--out', p('cal-p.json')],
    ['plot', '--logits', p('p.npy'), '--labels', p('y.npy'), '--out', p('d.svg')],
    ['apply', '--calibrator', p('cal-p.json'), '--logits', p('p.npy'), '--out', p('q.npy')],
  ]) {
    const r = await run(argv);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^calib: warning: every row of --logits is in \[0, 1\] and sums to 1, like probabilities; .*--probs/);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  }
  const json = await run(['eval', '--logits', p('p.npy'), '--labels', p('y.npy'), '--json']);
  assert.equal(typeof JSON.parse(json.stdout).ece, 'number', 'stdout stays one JSON object');
  for (const argv of [
    ['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--json'],
    ['eval', '--probs', p('p.npy'), '--labels', p('y.npy'), '--json'],
  ]) {
    const r = await run(argv);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
  }
});

test('--probs holding logits is refused with a hint to use --logits', async () => {
  await fails(
    ['eval', '--probs', p('z.npy'), '--labels', p('y.npy')],
    /^calib: error: --probs: expected non-negative probabilities \(for logits use --logits\), got -?[\d.e-]+ at row \d+, column \d+$/m,
  );
});
