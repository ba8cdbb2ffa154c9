import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_SUITES } from '../../src/suite/builtin-suites.js';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { parseSuite } from '../../src/suite/suite-schema.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';

const dir = tempDir('seg-suite');
const json = (path: string): Record<string, any> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;

test('mbls-segmentation: five methods × five seeds of seg-net on mnist-seg at every scale', () => {
  const suite = parseSuite(structuredClone(BUILTIN_SUITES['mbls-segmentation']!.suite), 'mbls-segmentation');
  for (const scale of ['quick', 'machine', 'paper'] as const) {
    const runs = expandSuite(suite, scale);
    assert.equal(runs.length, 25);
    assert.ok(runs.every((r) => r.config.dataset === 'mnist-seg' && r.config.model === 'seg-net'));
  }
  const mbls = expandSuite(suite, 'machine').find((r) => r.id === 'mbls-seed0')!;
  assert.deepEqual(mbls.config.lossOptions, { margin: 10, alpha: 0.1 });
});

test('the quick scale of mbls-segmentation runs (one seed here): pixel post-hoc with the ignore label dropped, w/o-background columns in the report', async () => {
  const suite = {
    ...structuredClone(BUILTIN_SUITES['mbls-segmentation']!.suite),
    seeds: [0],
    methods: [
      { name: 'ce', label: 'CE', loss: 'ce' },
      { name: 'mbls', label: 'MbLS m=10', loss: 'mbls', lossOptions: { margin: 10 } },
    ],
    claims: [],
    compare: ['mbls < ce on ece', 'mbls < ce on fg_ece', 'mbls < ce on fg_ece after temperature', 'mbls > ce on miou'],
  };
  const file = join(dir, 'seg.json');
  writeFileSync(file, JSON.stringify(suite));
  const out = join(dir, 'out');
  const r = await run(['suite', 'run', file, '--scale', 'quick', '--out', out, '--jobs', '2', '--threads', '2', '--progress', 'none']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const runDir = join(out, 'runs', 'ce-seed0');
  const posthoc = json(join(runDir, 'posthoc.json'));
  const summary = json(join(runDir, 'summary.json'));
  // every quick test image's logits are kept (60 ≤ 300), so the post-hoc test metrics are summary.json's pixel metrics
  assert.ok(Math.abs(posthoc['test']['ece'] - summary['test']['ece']) < 1e-12);
  assert.ok(Math.abs(posthoc['foreground']['test']['ece'] - summary['test']['foreground']['ece']) < 1e-12);
  assert.ok(Number.isFinite(posthoc['foreground']['calibrators']['temperature']['ece']));
  const md = readFileSync(join(out, 'report.md'), 'utf8');
  assert.match(md, /ECE w\/o bg \(%\)/);
  assert.match(md, /ECE w\/o bg after TS \(%\)/);
  assert.match(md, /"w\/o bg" columns also exclude the background pixels/);
  // One seed: no claim on pixels is bootstrapped (the pixels of one image are correlated; a pixel bootstrap's
  // intervals were measured 8× too narrow), and mIoU (one number per run) needs paired seeds too.
  const verdicts = json(join(out, 'report.json'))['verdicts'] as { claim: string; outcome: string; difference: number | null; test: string; n: number; note: string | null }[];
  for (const claim of ['mbls < ce on ece', 'mbls < ce on fg_ece', 'mbls < ce on fg_ece after temperature']) {
    const v = verdicts.find((x) => x.claim === claim)!;
    assert.equal(v.outcome, 'not evaluated', claim);
    assert.match(v.note!, /segmentation claims are decided over paired seeds only/, claim);
  }
  const miou = verdicts.find((v) => v.claim === 'mbls > ce on miou')!;
  assert.equal(miou.outcome, 'not evaluated');
  assert.match(miou.note!, /decided over paired seeds only/);
});

test('the paper scale of mbls-segmentation (SGD, momentum 0.9, batch 8, η ÷ 10 every 40 epochs, width 16) trains, cut to one epoch on 40 images', async () => {
  const { train } = await import('../../src/train/run/trainer.js');
  const { resolveTrainConfig } = await import('../../src/train/train-config.js');
  const suite = parseSuite(structuredClone(BUILTIN_SUITES['mbls-segmentation']!.suite), 'mbls-segmentation');
  const paper = expandSuite(suite, 'paper').find((r) => r.id === 'mbls-seed0')!.config;
  assert.deepEqual([paper.optimizer, paper.momentum, paper.batch, paper.schedule, paper.epochs, paper.modelOptions['width']], ['sgd', 0.9, 8, 'step:40,0.1', 100, 16]);
  const config = resolveTrainConfig({ ...paper, subset: 40, validation: 8, testSubset: 8, epochs: 1, threads: 2, out: join(dir, 'paper') });
  const result = await train(config);
  assert.equal(result.status, 'completed');
  const summary = result.segmentation!;
  assert.equal(summary.data.train, 32);
  assert.ok(Number.isFinite(summary.test.nll) && Number.isFinite(summary.test.foreground.ece), 'finite pixel metrics');
});
