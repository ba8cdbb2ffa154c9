import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

/**
 * Hardness (issue 27): a misspelt dataset, model, optimizer, loss, calibrator or suite name — on the command line or in
 * a suite / config file — is refused before any data is read or any epoch trained: exit 2, one stderr line naming the
 * flag (or key path) and the closest valid name, and no run directory written.
 */

const dir = tempDir('hardness-names');

async function refusedEarly(argv: string[], flag: string, closest: string): Promise<void> {
  const out = join(dir, `run-${Math.random().toString(36).slice(2)}`);
  const r = await run([...argv, '--out', out]);
  assert.equal(r.code, 2, `${argv.join(' ')} -> ${r.code}: ${r.stderr}`);
  assert.equal(r.stdout, '', argv.join(' '));
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
  assert.ok(r.stderr.startsWith(`calib: error: ${flag}: `), `names ${flag}: ${r.stderr}`);
  assert.match(r.stderr, new RegExp(`did you mean [^)]*\\b${closest.replace(/[-]/g, '\\-')}\\b`), r.stderr);
  assert.equal(existsSync(out), false, `${argv.join(' ')} wrote ${out} before failing`);
}

test('calib train --ood --ood-dataset fashion-mnsit fails before training, naming the flag and fashion-mnist (the issue-27 example)', async () => {
  await refusedEarly(['train', '--dataset', 'mnist', '--epochs', '1', '--subset', '100', '--ood', '--ood-dataset', 'fashion-mnsit'], '--ood-dataset', 'fashion-mnist');
});

test('every name flag of calib train is checked at parsing with a typo hint', async () => {
  await refusedEarly(['train', '--dataset', 'mnsit'], '--dataset', 'mnist');
  await refusedEarly(['train', '--dataset', 'mnist', '--model', 'lenett'], '--model', 'lenet');
  await refusedEarly(['train', '--dataset', 'mnist', '--model', 'resnet2O'], '--model', 'resnet20');
  await refusedEarly(['train', '--dataset', 'mnist', '--optimizer', 'adamW'], '--optimizer', 'adamw');
  await refusedEarly(['train', '--dataset', 'mnist', '--loss', 'focl'], '--loss', 'focal');
  await refusedEarly(['train', '--dataset', 'mnist', '--secondary', 'mdac'], '--secondary', 'mdca');
});

test('calibrator names: calib fit --method and suite posthoc lists', async () => {
  const r = await run(['fit', '--method', 'temprature', '--logits', 'absent.npy', '--labels', 'absent.npy', '--out', join(dir, 'c.json')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^calib: error: --method: expected one of .*\(did you mean 'temperature'\?\), got "temprature"\n$/);
  const suite = join(dir, 'posthoc.json');
  writeFileSync(suite, JSON.stringify({ name: 's', base: { dataset: 'mnist' }, methods: [{ name: 'ce', loss: 'ce' }], seeds: [0], posthoc: ['temprature'] }));
  const s = await run(['suite', 'run', suite, '--out', join(dir, 'suite-out'), '--dry-run']);
  assert.equal(s.code, 2, s.stderr);
  assert.match(s.stderr, /posthoc\[0\]: expected one of .*\(did you mean 'temperature'\?\)/);
  assert.equal(existsSync(join(dir, 'suite-out')), false);
});

test('suite names and names inside suite files: the suite, its dataset, OOD dataset, loss and optimizer', async () => {
  const r = await run(['suite', 'run', 'mbsl', '--out', join(dir, 'mbsl')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^calib: error: suite run: expected a built-in suite .*\(did you mean mbls\?\), got "mbsl"\n$/);
  const cases: [Record<string, unknown>, Record<string, unknown>, RegExp][] = [
    [{ dataset: 'fashion-mnsit' }, {}, /base\.dataset: expected one of .*\(did you mean 'fashion-mnist'\?\)/],
    [{ dataset: 'mnist', ood: true, oodDataset: 'fashion-mnsit' }, {}, /oodDataset: expected one of .*\(did you mean 'fashion-mnist'\?\)/],
    [{ dataset: 'mnist', optimizer: 'rmsprp' }, {}, /optimizer: expected one of .*\(did you mean 'rmsprop'\?\)/],
    [{ dataset: 'mnist' }, { loss: 'focl' }, /methods\[0\]\.loss: expected one of .*\(did you mean 'focal'\?\), got "focl"/],
  ];
  for (const [base, method, pattern] of cases) {
    const file = join(dir, `suite-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify({ name: 's', base, methods: [{ name: 'm', loss: 'ce', ...method }], seeds: [0] }));
    const out = join(dir, `out-${Math.random().toString(36).slice(2)}`);
    const s = await run(['suite', 'run', file, '--out', out, '--dry-run']);
    assert.equal(s.code, 2, `${JSON.stringify(base)}: ${s.stderr}`);
    assert.equal(s.stderr.trim().split('\n').length, 1, s.stderr);
    assert.match(s.stderr, pattern);
    assert.equal(existsSync(out), false);
  }
});

test('a text dataset as the OOD partner of an image run is refused before training', async () => {
  const out = join(dir, 'ood-text');
  const r = await run(['train', '--dataset', 'mnist', '--epochs', '1', '--ood', '--ood-dataset', 'newsgroups', '--out', out]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^calib: error: config\.oodDataset: expected an image dataset/);
  assert.equal(existsSync(out), false);
});
