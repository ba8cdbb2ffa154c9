import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILTIN_SUITES, withDeepScale } from '../../src/suite/builtin-suites.js';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { DEEP, DEEP_TRAIN_IMAGES } from '../../src/suite/papers/scales.js';
import { parseSuite } from '../../src/suite/suite-schema.js';
import type { BuiltinSuite } from '../../src/suite/suite-schema.js';

const PAPERS = ['maronas', 'thulasidasan', 'mbls', 'acls', 'karandikar'];

test('every paper suite runs at the deep scale: the BN ResNet-8 on Fashion-MNIST, 5,000 validation images, no weight decay, the last epoch, training split evaluated', () => {
  for (const paper of PAPERS) {
    const suite = parseSuite(structuredClone(BUILTIN_SUITES[paper]!.suite), paper);
    const runs = expandSuite(suite, 'deep', paper);
    assert.ok(runs.length > 0, paper);
    for (const r of runs) {
      const c = r.config;
      assert.deepEqual([c.dataset, c.model, c.modelOptions['width']], ['fashion-mnist', 'cifar-resnet-8', 16], `${paper}/${r.id}`);
      assert.deepEqual([c.subset! - c.validation, c.validation], [DEEP_TRAIN_IMAGES, 5000], `${paper}/${r.id}`);
      assert.deepEqual([c.weightDecay, c.momentum, c.batch, c.lr, c.schedule, c.augment], [0, 0.9, 128, 0.1, 'multistep:0.5,0.75', 'none'], `${paper}/${r.id}`);
      assert.equal(c.evaluateTrain, true);
    }
    assert.ok(
      runs.filter((r) => r.method === 'ce' || r.method === 'nll').every((r) => r.config.select === 'last' && r.config.epochs === DEEP.epochs),
      `${paper}: CE as the pilot ran it`,
    );
  }
});

test("withDeepScale adds the shared deep scale to a suite without one and keeps a suite's own", () => {
  const own = { summary: 's', suite: { name: 'x', base: { dataset: 'mnist' }, scales: { deep: { epochs: 3 } }, methods: [{ name: 'ce' }] } } satisfies BuiltinSuite;
  assert.equal(withDeepScale(own), own);
  const plain = { summary: 's', suite: { name: 'x', base: { dataset: 'mnist' }, scales: { quick: { epochs: 1 } }, methods: [{ name: 'ce' }] } } satisfies BuiltinSuite;
  const added = withDeepScale(plain).suite['scales'] as Record<string, unknown>;
  assert.deepEqual(added, { quick: { epochs: 1 }, deep: DEEP });
  assert.deepEqual(plain.suite.scales, { quick: { epochs: 1 } }, 'the input is not changed');
});

test('a suite that declares no deep scale (demo, the text suites, a user file with its own scales) refuses --scale deep by name', () => {
  for (const name of ['demo', 'thulasidasan-text', 'mbls-text', 'mbls-segmentation']) {
    const suite = parseSuite(structuredClone(BUILTIN_SUITES[name]!.suite), name);
    assert.throws(() => expandSuite(suite, 'deep', name), /--scale: expected a scale the suite declares \((quick, machine, paper|[a-z, ]+)\), got "deep"/, name);
  }
});
