import assert from 'node:assert/strict';
import { test } from 'node:test';
import { posthocChanges } from '../../src/suite/identity/run-check.js';
import { canonicalJson, evaluationDiff, evaluationHash, evaluationSettings, posthocIdentity, settingsDiff, trainingHash } from '../../src/suite/identity/run-identity.js';
import { withEvaluationOf } from '../../src/suite/identity/run-reevaluate.js';
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

test('the evaluation identity: OOD-only settings count only for runs that evaluate OOD; out and threads never', () => {
  const plain = runs().find((r) => r.method === 'plain')!.config;
  const shifted = runs().find((r) => r.method === 'shifted')!.config;
  assert.equal(evaluationHash({ ...plain, oodSubset: 2000, oodDataset: 'mnist' }), evaluationHash(plain));
  assert.notEqual(evaluationHash({ ...shifted, oodSubset: 2000 }), evaluationHash(shifted));
  assert.notEqual(evaluationHash({ ...plain, epochs: 2 }), evaluationHash(plain));
  assert.notEqual(evaluationHash({ ...plain, subset: 500 }), evaluationHash(plain), 'the data subset is part of it');
  assert.notEqual(evaluationHash({ ...plain, datasetOptions: { testSize: 1000 } }), evaluationHash(plain), 'the dataset options too');
  assert.equal(evaluationHash({ ...plain, threads: 7, out: '/elsewhere' }), evaluationHash(plain));
  // The text form scripts compare runs with (copying identical runs between suite directories).
  assert.equal(runIdentity({ ...plain, threads: 7, out: '/elsewhere' }), runIdentity(plain));
  assert.notEqual(runIdentity({ ...plain, lr: 0.5 }), runIdentity(plain));
});

test('a config.json written before a key existed (its default implied) has the identity of one that states the default', () => {
  const plain = runs().find((r) => r.method === 'plain')!.config as unknown as Record<string, unknown>;
  const old = { ...plain };
  delete old['replicas'];
  delete old['warmup'];
  assert.equal(evaluationHash(old), evaluationHash(plain));
  assert.equal(evaluationSettings(old)['replicas'], 1);
  // Key order does not matter.
  const reversed = Object.fromEntries(Object.entries(plain).reverse());
  assert.equal(evaluationHash(reversed), evaluationHash(plain));
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

test('the training identity leaves out the settings read only after the last epoch; every setting of training or of the per-epoch validation changes it', () => {
  const plain = runs().find((r) => r.method === 'plain')!.config;
  const evaluationOnly: Record<string, unknown>[] = [
    { ood: true },
    { ood: true, oodSubset: 500, oodDataset: 'mnist', oodDatasetOptions: { download: true } },
    { evaluateTrain: true },
    { mcDropout: { passes: 5 } },
    { testSubset: 100 },
  ];
  for (const change of evaluationOnly) {
    assert.equal(trainingHash({ ...plain, ...change }), trainingHash(plain), JSON.stringify(change));
    assert.notEqual(evaluationHash({ ...plain, ...change }), evaluationHash(plain), JSON.stringify(change));
  }
  // MC dropout on a model that has dropout (a configuration the schema accepts, so compared resolved).
  const dropout = { ...plain, modelOptions: { hidden: [16], dropout: 0.3 } };
  assert.equal(trainingHash({ ...dropout, mcDropout: { passes: 5 } }), trainingHash(dropout));
  assert.notEqual(evaluationHash({ ...dropout, mcDropout: { passes: 5 } }), evaluationHash(dropout));
  // bins and evalBatch: log.jsonl's per-epoch validation metrics (and the best epoch by them); epochLogits: files
  // written during training; select: which epoch's weights are final.
  for (const change of [{ epochs: 2 }, { lr: 0.05 }, { bins: 20 }, { evalBatch: 100 }, { epochLogits: true }, { select: 'nll' }, { subset: 500 }, { validation: 0.2 }, { seed: 1 }]) {
    assert.notEqual(trainingHash({ ...plain, ...change }), trainingHash(plain), JSON.stringify(change));
  }
  assert.equal(trainingHash({ ...plain, threads: 7, out: '/elsewhere' }), trainingHash(plain));
  assert.notEqual(trainingHash(plain), evaluationHash(plain), 'the two hashes never coincide');
  assert.equal(evaluationDiff(plain, { ...plain, ood: true }), 'ood false → true');
  assert.equal(evaluationDiff(plain, { ...plain, evaluateTrain: true, mcDropout: { passes: 5 } }), 'evaluateTrain unset → true, mcDropout.passes unset → 5');
  assert.equal(evaluationDiff({ ...plain, lr: 0.5 }, plain), 'the same settings', 'training keys are not evaluation changes');
  // The configuration a re-evaluated run's config.json takes: the suite's evaluation keys on the run's own settings.
  const own = { ...plain, out: '/runs/a', threads: 3, evaluateTrain: true } as Record<string, unknown>;
  const next = withEvaluationOf(own, { ...plain, ood: true, oodSubset: 50 });
  assert.deepEqual(next, { ...plain, out: '/runs/a', threads: 3, ood: true, oodSubset: 50 });
  assert.equal(evaluationHash(next), evaluationHash({ ...plain, ood: true, oodSubset: 50 }));
});

test("the evaluation hash is the training hash of the builds before the split: a deep run's identity.json stays valid", () => {
  // /work/repro/karandikar-deep/runs/nll-seed0/config.json (out shortened), whose identity.json the build before the
  // split (496f2f1) wrote with training = 8df1a836…: the same formula must give the same hash.
  const config = {
    dataset: 'fashion-mnist',
    datasetOptions: {},
    subset: 15000,
    validation: 5000,
    model: 'cifar-resnet-8',
    modelOptions: { width: 16 },
    loss: 'ce',
    lossOptions: {},
    secondaryOptions: {},
    weight: 1,
    epochs: 60,
    batch: 128,
    evalBatch: 500,
    lr: 0.1,
    schedule: 'multistep:0.5,0.75',
    warmup: 0,
    optimizer: 'sgd',
    momentum: 0.9,
    nesterov: false,
    weightDecay: 0,
    mixup: 0,
    mixupKind: 'input',
    arcPlacement: 'mixed',
    holdout: 0.1,
    augment: 'none',
    select: 'last',
    bins: 15,
    seed: 0,
    threads: 1,
    replicas: 1,
    evaluateTrain: true,
    ood: true,
    oodDatasetOptions: {},
    out: 'runs/nll-seed0',
  };
  assert.equal(evaluationHash(config), '8df1a836ea68b0971a63c17a60163cd12469baffd7336dd1034779534c9ce2c7');
  // MbLS's CE trains the same network without the training split's evaluation: one training identity, two evaluations.
  const mblsCe = { ...config, evaluateTrain: undefined };
  assert.equal(trainingHash(mblsCe), trainingHash(config));
  assert.notEqual(evaluationHash(mblsCe), evaluationHash(config));
});
