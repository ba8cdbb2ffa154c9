import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';
import { flagOverrides } from '../../src/cli/commands/train.js';

const dir = tempDir('cli-train');
const tiny = ['--dataset', 'mnist', '--subset', '300', '--test-subset', '100', '--model-opt', 'hidden=[16]', '--batch', '64', '--progress', 'lines'];

test('calib train runs end to end, prints epoch lines and the test summary, and calib eval reads its logits', async () => {
  const out = join(dir, 'run');
  const r = await run(['train', ...tiny, '--epochs', '2', '--loss', 'ls', '--opt', 'epsilon=0.05', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^epoch 1\/2  loss \d+\.\d{4}  val acc [\d.]+%/m);
  assert.match(r.stdout, /^epoch 2\/2 /m);
  assert.match(r.stdout, /^test \(100 samples\): accuracy [\d.]+%  NLL [\d.]+  ECE [\d.]+%  AdaECE [\d.]+%$/m);
  assert.match(r.stdout, /next: calib eval --logits .*test-logits\.npy/);
  assert.doesNotMatch(r.stdout, /\r/, 'no live bar when stdout is not a terminal');
  for (const f of [
    'config.json',
    'log.jsonl',
    'checkpoint-last.ckpt',
    'checkpoint-best.ckpt',
    'test-logits.npy',
    'test-labels.npy',
    'val-logits.npy',
    'val-labels.npy',
    'model.onnx',
    'summary.json',
  ]) {
    assert.ok(existsSync(join(out, f)), f);
  }
  const config = JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(config['loss'], 'ls');
  assert.deepEqual(config['lossOptions'], { epsilon: 0.05 });
  assert.deepEqual(config['modelOptions'], { hidden: [16] });
  const e = await run(['eval', '--logits', join(out, 'test-logits.npy'), '--labels', join(out, 'test-labels.npy')]);
  assert.equal(e.code, 0, e.stderr);
  const fit = await run(['fit', '--method', 'temperature', '--logits', join(out, 'val-logits.npy'), '--labels', join(out, 'val-labels.npy'), '--out', join(out, 'ts.json')]);
  assert.equal(fit.code, 0, fit.stderr);
});

test('--config takes the same settings as JSON; flags override it and option objects merge', async () => {
  const file = join(dir, 'run.json');
  writeFileSync(
    file,
    JSON.stringify({ dataset: 'mnist', subset: 300, testSubset: 100, epochs: 5, batch: 64, modelOptions: { hidden: [16] }, loss: 'ls', lossOptions: { epsilon: 0.1, variant: 'others' } }),
  );
  const out = join(dir, 'from-config');
  const r = await run(['train', '--config', file, '--epochs', '1', '--opt', 'epsilon=0.2', '--out', out, '--progress', 'none']);
  assert.equal(r.code, 0, r.stderr);
  const config = JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(config['epochs'], 1);
  assert.deepEqual(config['lossOptions'], { epsilon: 0.2, variant: 'others' });
  assert.doesNotMatch(r.stdout, /^epoch /m, '--progress none prints no epoch lines');
});

test('configuration errors are one line naming the key path, exit code 2', async () => {
  const file = join(dir, 'bad.json');
  writeFileSync(file, JSON.stringify({ dataset: 'mnist', epocs: 3 }));
  const r = await run(['train', '--config', file, '--out', join(dir, 'bad')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^calib: error: config \(.*bad\.json \+ flags\)\.epocs: expected a known key \(did you mean epochs\?\), got an unknown key\n$/);
  const opt = await run(['train', '--dataset', 'mnist', '--loss', 'mbls', '--opt', 'margn=3', '--out', join(dir, 'bad2')]);
  assert.equal(opt.code, 2);
  assert.match(opt.stderr, /^calib: error: config\.lossOptions\.margn: expected a known key \(did you mean margin\?\), got an unknown key\n$/);
  const dataOpt = await run(['train', '--dataset', 'mnist', '--data-opt', 'testsize=100', '--out', join(dir, 'bad3')]);
  assert.equal(dataOpt.code, 2);
  assert.match(dataOpt.stderr, /^calib: error: config\.datasetOptions: mnist options\.testsize: expected one of testSize, seed, directory \(did you mean testSize\?\), got an unknown option\n$/);
  const missing = await run(['train', '--epochs', '2']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /give --dataset/);
  const badFlag = await run(['train', '--dataset', 'mnist', '--mixup-kind', 'cutout']);
  assert.equal(badFlag.code, 2);
  assert.match(badFlag.stderr, /--mixup-kind: expected one of 'input', 'feature', 'manifold', 'embedding', 'cutmix'/);
});

test('--resume continues a stopped run and refuses other settings; an existing run needs --force', async () => {
  const out = join(dir, 'run');
  const again = await run(['train', ...tiny, '--epochs', '2', '--out', out]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /holds a run \(checkpoint-last\.ckpt\)/);
  assert.match(again.stderr, /--resume .*--force/, 'the error names both ways on');
  const extra = await run(['train', '--resume', out, '--epochs', '3']);
  assert.equal(extra.code, 2);
  assert.match(extra.stderr, /--resume continues a run with its own config\.json; remove --epochs/);
  // Threads change no result, so a resumed run may take another count (config.json keeps its own).
  const resumed = await run(['train', '--resume', out, '--progress', 'none', '--threads', '1']);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stdout, /^best epoch \d\/2/m);
  const forced = await run(['train', ...tiny, '--epochs', '1', '--out', out, '--force']);
  assert.equal(forced.code, 0, forced.stderr);
});

test("a new run never goes into a directory that is not a run's: the user's files stay as they were, --force included", async () => {
  const project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'notes.txt'), 'mine');
  const appConfig = JSON.stringify({ name: 'my-app', port: 8080 });
  writeFileSync(join(project, 'config.json'), appConfig);
  for (const force of [[], ['--force']]) {
    const r = await run(['train', ...tiny, '--epochs', '1', '--out', project, ...force]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^calib: error: out: expected a new or empty directory, or a run directory .*holds a config\.json that is not train settings\n$/);
  }
  assert.equal(readFileSync(join(project, 'config.json'), 'utf8'), appConfig);
  const notes = join(dir, 'notes-only');
  mkdirSync(notes);
  for (const f of ['a.csv', 'b.txt', 'c.md', 'd.json']) writeFileSync(join(notes, f), f);
  const link = join(dir, 'link-to-notes');
  symlinkSync(notes, link);
  for (const out of [notes, link]) {
    const r = await run(['train', ...tiny, '--epochs', '1', '--out', out, '--force']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /holds files that are not a run's: a\.csv, b\.txt, c\.md, … \(4 entries\)\n$/);
    assert.match(r.stderr, /--force replaces a run, never other files/);
  }
  assert.ok(!existsSync(join(notes, 'log.jsonl')), 'nothing written');
  // The user's own settings for this run in the directory, and an empty directory, are a run's place.
  const mine = join(dir, 'my-settings');
  mkdirSync(mine);
  writeFileSync(join(mine, 'config.json'), JSON.stringify({ dataset: 'mnist', subset: 300, testSubset: 100, epochs: 1, batch: 64, modelOptions: { hidden: [16] } }));
  const ok = await run(['train', '--config', join(mine, 'config.json'), '--out', mine, '--progress', 'none']);
  assert.equal(ok.code, 0, ok.stderr);
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  writeFileSync(join(empty, '.DS_Store'), '');
  const r = await run(['train', ...tiny, '--epochs', '1', '--out', empty]);
  assert.equal(r.code, 0, r.stderr);
});

test('flag overrides hold only the flags given, in configuration key names', () => {
  const o = flagOverrides({ dataset: 'mnist', 'weight-decay': 1e-4, nesterov: false, opt: ['epsilon=0.1'], 'mixup-layers': 'input, hidden1', 'model-opt': ['hidden=[8]', 'dropout=0.1'] });
  assert.deepEqual(o, { dataset: 'mnist', weightDecay: 1e-4, lossOptions: { epsilon: 0.1 }, mixupLayers: ['input', 'hidden1'], modelOptions: { hidden: [8], dropout: 0.1 } });
  assert.throws(() => flagOverrides({ 'model-opt': ['hidden=[8'] }), /--model-opt: hidden=\[8 is not a JSON list/);
  assert.deepEqual(flagOverrides({ cutmix: 1 }), { mixup: 1, mixupKind: 'cutmix' }); // --cutmix α = --mixup α --mixup-kind cutmix
  assert.throws(() => flagOverrides({ cutmix: 1, mixup: 0.2 }), /--cutmix α stands for --mixup α --mixup-kind cutmix/);
});
