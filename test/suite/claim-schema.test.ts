import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSuite, type SuiteClaimInput } from '../../src/suite/suite-schema.js';
import { parseEquivalence } from '../../src/suite/claims/comparison.js';

const base = { dataset: 'mnist', subset: 300, modelOptions: { hidden: [16] }, epochs: 2 };
const suite = (claims: readonly unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 's',
  base,
  methods: [{ name: 'ce' }, { name: 'ls', loss: 'ls' }, { name: 'mbls', loss: 'mbls' }],
  sweeps: [{ key: 'lossOptions.margin', values: [0, 2, 6, 10], methods: ['mbls'] }],
  posthoc: ['temperature'],
  claims,
  ...extra,
});

// Plain data typed as the paper helpers write it (src/suite/papers/<paper>-claims.ts).
const CLAIMS: readonly SuiteClaimInput[] = [
  {
    id: 'mbls-beats-ce-ts',
    statement: 'MbLS alone beats CE with TS.',
    source: 'Table 7 (App. D)',
    headline: true,
    paper: { text: 'CIFAR-10: 1.16 % vs 1.60 %', difference: -0.44 },
    compare: 'mbls < ce+temperature on ece',
  },
  { id: 'ls-like-m0', statement: 'LS behaves like MbLS with m = 0.', source: 'Table 1', equivalent: 'ls ~ mbls on ece after temperature', margin: 0.005 },
  {
    id: 'margin-optimum',
    statement: 'ECE is lowest at a moderate margin.',
    source: 'Fig. 3',
    qualitative: { kind: 'argmin', method: 'mbls', sweep: 'lossOptions.margin', metric: 'ece', expect: [2, 6] },
  },
  { id: 'u', statement: 'ECE is U-shaped in m.', source: 'Fig. 3', qualitative: { kind: 'u-shape', method: 'mbls', sweep: 'lossOptions.margin', metric: 'ece', split: 'validation' } },
  {
    id: 'falls',
    statement: 'NLL falls with m.',
    source: 'Fig. 3',
    qualitative: { kind: 'monotone', method: 'mbls', sweep: 'lossOptions.margin', metric: 'nll', trend: 'decreasing', significant: true },
  },
  { id: 'ranking', statement: 'MbLS < LS < CE on ECE.', source: 'Table 1', qualitative: { kind: 'order', methods: ['mbls', 'ls', 'ce'], metric: 'ece', after: 'temperature' } },
  { id: 'segmentation', statement: 'MbLS improves on VOC.', source: 'Table 5', notTested: 'PASCAL VOC is not available offline' },
  { id: 'suite-check', statement: 'MbLS keeps accuracy.', origin: 'suite', compare: 'mbls > ce on accuracy' },
];

test('a suite with claims of every kind parses, with defaults filled (origin paper, headline false, split test)', () => {
  const s = parseSuite(suite(CLAIMS));
  assert.equal(s.claims.length, 8);
  assert.equal(s.claims[0]!.headline, true);
  assert.equal(s.claims[1]!.origin, 'paper');
  assert.equal(s.claims[1]!.headline, false);
  assert.equal(s.claims[7]!.origin, 'suite');
  assert.equal(s.claims[7]!.source, undefined);
  assert.deepEqual(s.claims[2]!.qualitative, { kind: 'argmin', method: 'mbls', sweep: 'lossOptions.margin', metric: 'ece', expect: [2, 6], split: 'test' });
  assert.equal(s.claims[4]!.qualitative!.kind === 'monotone' && s.claims[4]!.qualitative!.significant, true);
  // A suite without claims keeps working: compare only, claims default to [].
  assert.deepEqual(parseSuite(suite([], { claims: undefined, compare: ['mbls < ce on ece'] })).claims, []);
});

test('claims are refused with an error naming the claim and key', () => {
  const one = (c: Record<string, unknown>) => () => parseSuite(suite([c]));
  const ok = { id: 'a', statement: 'x', source: 'Table 1' };
  assert.throws(
    () =>
      parseSuite(
        suite([
          { ...ok, compare: 'mbls < ce on ece' },
          { ...ok, compare: 'ls < ce on ece' },
        ]),
      ),
    /^InvalidArgumentError: suite\.claims\[1\]\.id: expected an id not used by another claim \(suite\.claims\[0\] has it\), got "a"$/,
  );
  assert.throws(one(ok), /suite\.claims\[0\]: expected exactly one of compare, equivalent, qualitative, notTested, got none/);
  assert.throws(one({ ...ok, compare: 'mbls < ce on ece', notTested: 'no data' }), /suite\.claims\[0\]: expected exactly one of .*, got compare and notTested/);
  assert.throws(one({ ...ok, id: 'Bad Id', compare: 'mbls < ce on ece' }), /suite\.claims\[0\]\.id: expected a kebab-case id/);
  assert.throws(one({ id: 'a', statement: 'x', compare: 'mbls < ce on ece' }), /suite\.claims\[0\]\.source: expected where the paper makes the claim/);
  assert.throws(one({ ...ok, equivalent: 'mbls ~ ce on ece' }), /suite\.claims\[0\]\.margin: expected the equivalence margin .*required with equivalent/);
  assert.throws(one({ ...ok, equivalent: 'mbls ~ ce on ece', margin: 0 }), /suite\.claims\[0\]\.margin: expected a finite number > 0, got 0/);
  assert.throws(one({ ...ok, compare: 'mbls < ce on ece', margin: 0.01 }), /suite\.claims\[0\]\.margin: expected no margin/);
  assert.throws(one({ ...ok, equivalent: 'mbls < ce on ece', margin: 0.01 }), /suite\.claims\[0\]\.equivalent: expected "A ~ B on METRIC"/);
  assert.throws(one({ ...ok, compare: 'mbls ~ ce on ece' }), /suite\.claims\[0\]\.compare: expected "A < B on METRIC"/);
  assert.throws(one({ ...ok, compare: 'mbls < focal on ece' }), /suite\.claims\[0\]\.compare: expected a method of the suite \(ce, ls, mbls\) on the right, got "focal"/);
  assert.throws(one({ ...ok, equivalent: 'mbls ~ ce+isotonic on ece', margin: 0.01 }), /suite\.claims\[0\]\.equivalent: expected a post-hoc calibrator of the suite \(temperature\)/);
  assert.throws(one({ ...ok, compare: 'mbls < ce on ece', origin: 'author' }), /suite\.claims\[0\]\.origin: expected one of 'paper', 'suite'/);
  assert.throws(one({ ...ok, compare: 'mbls < ce on ece', paper: { txt: '1.2' } }), /suite\.claims\[0\]\.paper\.txt: expected a known key/);
  assert.throws(one({ ...ok, compare: 'mbls < ce on ece', sorce: 'x' }), /suite\.claims\[0\]\.sorce: expected a known key \(did you mean source\?\)/);
});

test('qualitative claims are checked against the suite: kind, keys, methods, sweeps, values, split', () => {
  const q = (qualitative: Record<string, unknown>) => () => parseSuite(suite([{ id: 'q', statement: 'x', source: 'Fig. 3', qualitative }]));
  const swept = { method: 'mbls', sweep: 'lossOptions.margin', metric: 'ece' };
  assert.throws(q({ kind: 'bell', ...swept }), /suite\.claims\[0\]\.qualitative\.kind: expected one of 'argmin', 'argmax', 'u-shape', 'monotone', 'order', got "bell"/);
  assert.throws(q({ kind: 'u-shape', ...swept, metrc: 'ece' }), /suite\.claims\[0\]\.qualitative\.metrc: expected a known key \(did you mean metric\?\)/);
  assert.throws(q({ kind: 'argmin', ...swept }), /suite\.claims\[0\]\.qualitative\.expect: expected a list of a number, string or boolean, got nothing/);
  assert.throws(q({ kind: 'argmin', ...swept, expect: [4] }), /suite\.claims\[0\]\.qualitative\.expect\[0\]: expected a value of the sweep lossOptions\.margin \(0, 2, 6, 10\), got 4/);
  assert.throws(q({ kind: 'u-shape', ...swept, method: 'ls' }), /suite\.claims\[0\]\.qualitative\.sweep: expected the key of a sweep of method ls \(it has none\), got "lossOptions\.margin"/);
  assert.throws(q({ kind: 'u-shape', ...swept, sweep: 'mixup' }), /qualitative\.sweep: expected the key of a sweep of method mbls \(lossOptions\.margin\), got "mixup"/);
  assert.throws(q({ kind: 'u-shape', ...swept, metric: 'eec' }), /qualitative\.metric: expected a metric: a test metric/);
  assert.throws(q({ kind: 'u-shape', ...swept, split: 'validation', after: 'temperature' }), /qualitative\.after: expected no calibrator with split "validation"/);
  assert.throws(q({ kind: 'u-shape', ...swept, split: 'validation', metric: 'noise_auroc' }), /qualitative\.metric: expected a test metric \(ece, nll, accuracy, …\) with split "validation"/);
  assert.throws(q({ kind: 'monotone', ...swept, trend: 'up' }), /qualitative\.trend: expected one of 'increasing', 'decreasing'/);
  assert.throws(q({ kind: 'order', methods: ['mbls', 'focal'], metric: 'ece' }), /suite\.claims\[0\]\.qualitative\.methods\[1\]: expected a method of the suite \(ce, ls, mbls\), got "focal"/);
  assert.throws(q({ kind: 'order', methods: ['mbls'], metric: 'ece' }), /qualitative\.methods: expected a list of at least 2/);
  assert.throws(q({ kind: 'order', methods: ['mbls', 'mbls'], metric: 'ece' }), /qualitative\.methods: expected distinct methods/);
  assert.throws(q({ kind: 'order', methods: ['mbls', 'ce'], metric: 'ece', after: 'dirichlet' }), /qualitative\.after: expected a post-hoc calibrator of the suite \(temperature\)/);
});

test('equivalences parse "A ~ B on METRIC" with the comparison sides', () => {
  assert.deepEqual(parseEquivalence('ls ~ mbls+temperature on adaece_l2', ['ls', 'mbls'], ['temperature'], 'e'), {
    text: 'ls ~ mbls+temperature on adaece_l2',
    left: 'ls',
    right: 'mbls',
    direction: '~',
    metric: 'adaece_l2',
    rightAfter: 'temperature',
  });
  assert.equal(parseEquivalence('ls ~ mbls on ece after temperature', ['ls', 'mbls'], ['temperature'], 'e').after, 'temperature');
  assert.throws(() => parseEquivalence('ls ~ ls on ece', ['ls'], [], 'e'), /e: expected two different methods/);
});
