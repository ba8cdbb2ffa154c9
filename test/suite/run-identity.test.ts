import assert from 'node:assert/strict';
import { test } from 'node:test';
import { posthocChanges } from '../../src/suite/identity/run-check.js';
import { canonicalJson, posthocIdentity, settingsDiff, trainingHash, trainingSettings } from '../../src/suite/identity/run-identity.js';
import { parseSuite } from '../../src/suite/suite-schema.js';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { runIdentity } from '../../src/suite/suite-directory.js';

const SUITE = {
  name: 'identity',
  base: { dataset: 'mnist', model: 'mlp', epochs: 1 },
  methods: [
    { name: 'plain', loss: 'ce' },
    { name: 'shifted', loss: 'ce', ood: true },
  ],
};

function runs(): ReturnType<typeof expandSuite> {
  const suite = parseSuite(structuredClone(SUITE), 'suite');
  return expandSuite(suite, 'quick', 'suite');
}

test('the training identity: OOD-only settings count only for runs that evaluate OOD; out and threads never', () => {
  const plain = runs().find((r) => r.method === 'plain')!.config;
  const shifted = runs().find((r) => r.method === 'shifted')!.config;
  assert.equal(trainingHash({ ...plain, oodSubset: 2000, oodDataset: 'mnist' }), trainingHash(plain));
  assert.notEqual(trainingHash({ ...shifted, oodSubset: 2000 }), trainingHash(shifted));
  assert.notEqual(trainingHash({ ...plain, epochs: 2 }), trainingHash(plain));
  assert.notEqual(trainingHash({ ...plain, subset: 500 }), trainingHash(plain), 'the data subset is part of it');
  assert.notEqual(trainingHash({ ...plain, datasetOptions: { testSize: 1000 } }), trainingHash(plain), 'the dataset options too');
  assert.equal(trainingHash({ ...plain, threads: 7, out: '/elsewhere' }), trainingHash(plain));
  // The text form scripts compare runs with (copying identical runs between suite directories).
  assert.equal(runIdentity({ ...plain, threads: 7, out: '/elsewhere' }), runIdentity(plain));
  assert.notEqual(runIdentity({ ...plain, lr: 0.5 }), runIdentity(plain));
});

test('a config.json written before a key existed (its default implied) has the identity of one that states the default', () => {
  const plain = runs().find((r) => r.method === 'plain')!.config as unknown as Record<string, unknown>;
  const old = { ...plain };
  delete old['replicas'];
  delete old['warmup'];
  assert.equal(trainingHash(old), trainingHash(plain));
  assert.equal(trainingSettings(old)['replicas'], 1);
  // Key order does not matter.
  const reversed = Object.fromEntries(Object.entries(plain).reverse());
  assert.equal(trainingHash(reversed), trainingHash(plain));
  assert.equal(canonicalJson({ b: 1, a: { d: 2, c: 3 } }), '{"a":{"c":3,"d":2},"b":1}');
});

test('settingsDiff and posthocChanges say what changed', () => {
  const plain = runs().find((r) => r.method === 'plain')!.config;
  assert.equal(settingsDiff(plain, { ...plain, lr: 0.5 }), 'lr 0.1 → 0.5');
  assert.equal(settingsDiff(plain, { ...plain, lossOptions: { epsilon: 0.1 } }), 'lossOptions.epsilon unset → 0.1');
  assert.equal(settingsDiff(plain, plain), 'the same settings');
  const a = posthocIdentity('h', ['temperature'], 15);
  assert.deepEqual(posthocChanges(a, posthocIdentity('h', ['temperature', 'isotonic'], 20)), ['calibrators temperature → temperature, isotonic', 'bins 15 → 20']);
  assert.deepEqual(posthocChanges(a, posthocIdentity('h2', ['temperature'], 15)), ['computed from other training files']);
  assert.deepEqual(posthocChanges({ ...a, calibkit: '0.0.1' }, a), [`computed by calibkit 0.0.1, this is ${a.calibkit}`]);
});
