import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BUILTIN_SUITES } from '../../src/suite/builtin-suites.js';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { parseSuite, SUITE_SCALES } from '../../src/suite/suite-schema.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { train } from '../../src/train/run/trainer.js';
import { run } from '../cli/capture.js';
import { writeDebianLists } from '../data/debian-lists.js';
import { tempDir } from '../io/temp-dir.js';

const dir = tempDir('text-suites');
const TEXT_SUITES = { 'thulasidasan-text': ['ce', 'mixup', 'ls', 'erl'], 'mbls-text': ['ce', 'ls', 'focal', 'flsd', 'mbls'] } as const;

test('the text suites expand at every scale: debian-packages (quick, machine) or newsgroups (paper), a text CNN, every method × every seed, no OOD', () => {
  for (const [name, methods] of Object.entries(TEXT_SUITES)) {
    const suite = parseSuite(BUILTIN_SUITES[name]!.suite, name);
    for (const scale of SUITE_SCALES.filter((s) => s !== 'deep')) {
      const runs = expandSuite(suite, scale, name);
      assert.equal(runs.length, methods.length * suite.seeds.length, `${name}/${scale}`);
      assert.deepEqual([...new Set(runs.map((r) => r.method))], [...methods]);
      for (const r of runs) {
        assert.equal(r.config.dataset, scale === 'paper' ? 'newsgroups' : 'debian-packages', `${name}/${scale}/${r.id}`);
        assert.equal(r.config.model, 'text-cnn');
        assert.equal(r.config.ood, false);
      }
    }
    const mixup = expandSuite(suite, 'machine', name).find((r) => r.method === 'mixup');
    if (mixup) assert.deepEqual([mixup.config.mixup, mixup.config.mixupKind], [0.4, 'embedding']);
    const mbls = expandSuite(suite, 'paper', name).find((r) => r.method === 'mbls');
    if (mbls) assert.deepEqual([mbls.config.lossOptions['margin'], mbls.config.epochs], [6, 100]);
  }
});

test('a suite with ood mixing image and text methods runs the OOD evaluation on the image runs only; ood on text is refused up front', () => {
  const suite = parseSuite({
    name: 'mixed',
    base: { dataset: 'mnist', epochs: 1 },
    methods: [{ name: 'image' }, { name: 'text', dataset: 'debian-packages', model: 'text-cnn', mixup: 0.4, mixupKind: 'embedding' }],
    ood: true,
  });
  const runs = expandSuite(suite, 'quick');
  assert.deepEqual(
    runs.map((r) => [r.id, r.config.ood]),
    [
      ['image-seed0', true],
      ['text-seed0', false],
    ],
  );
  assert.throws(() => resolveTrainConfig({ dataset: 'debian-packages', model: 'text-cnn', ood: true, out: 'x' }), /config\.ood: expected false for the text dataset debian-packages/);
});

test('each text suite runs end to end at quick scale on generated Debian lists (text CNN, embedding mixup, MbLS, report)', { timeout: 600_000 }, async () => {
  const lists = join(dir, 'lists');
  mkdirSync(lists);
  writeDebianLists(lists, 400);
  for (const [name, methods] of Object.entries(TEXT_SUITES)) {
    const suite = structuredClone(BUILTIN_SUITES[name]!.suite) as unknown as { scales: { quick: Record<string, unknown> }; seeds: number[] };
    const quick = suite.scales.quick;
    // The generated lists: 400 packages (≈ 320 train), so a smaller subset (the scale's 2,000 is more than there
    // is, which a suite refuses) and validation split; one seed.
    suite.scales.quick = { ...quick, datasetOptions: { ...(quick['datasetOptions'] as object), listsDirectory: lists }, subset: 300, validation: 60 };
    suite.seeds = [0];
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(suite));
    const out = join(dir, name);
    const r = await run(['suite', 'run', file, '--out', out, '--jobs', '2', '--threads', '2', '--progress', 'none']);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    for (const m of methods) {
      const summary = JSON.parse(readFileSync(join(out, 'runs', `${m}-seed0`, 'summary.json'), 'utf8')) as { model: { kind: string }; data: { classes: number; source: Record<string, unknown> } };
      assert.equal(summary.model.kind, 'text-cnn', `${name}/${m}`);
      assert.equal(summary.data.classes, 4);
      assert.equal(summary.data.source['release_date'], '2026-07-11T10:16:37.000Z');
      assert.ok(!existsSync(join(out, 'runs', `${m}-seed0`, 'ood.json')), 'no OOD evaluation for text');
    }
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { verdicts: { claim: string }[] };
    assert.ok(report.verdicts.length >= 3, `${name}: verdicts`);
    assert.ok(existsSync(join(out, 'report.html')));
  }
});

test('the paper scale of each text suite trains its text CNN on a 20 Newsgroups bydate tree', { timeout: 600_000 }, async () => {
  const news = join(dir, 'news');
  const groups = ['rec.autos', 'sci.space'];
  for (const split of ['20news-bydate-train', '20news-bydate-test']) {
    for (const [g, group] of groups.entries()) {
      mkdirSync(join(news, split, group), { recursive: true });
      for (let i = 0; i < 6; i++) writeFileSync(join(news, split, group, String(100 + i)), `From: x@y\n\n${g === 0 ? 'engine car wheel' : 'orbit launch moon'} post ${i}`);
    }
  }
  for (const [name, id] of [
    ['thulasidasan-text', 'mixup-seed0'],
    ['mbls-text', 'mbls-seed0'],
  ] as const) {
    const runs = expandSuite(parseSuite(structuredClone(BUILTIN_SUITES[name]!.suite), name), 'paper', name);
    const paper = runs.find((r) => r.id === id)!.config;
    const config = resolveTrainConfig({ ...paper, datasetOptions: { ...paper.datasetOptions, path: news }, validation: 4, epochs: 1, batch: 4, evalBatch: 8, out: join(dir, `paper-${name}`) });
    const result = await train(config);
    assert.equal(result.status, 'completed', name);
    assert.equal(result.summary!.data.train, 8);
    assert.equal(result.summary!.model['kind'], 'text-cnn');
    assert.ok(Number.isFinite(result.summary!.test['nll'] as number), name);
  }
});
