import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSuite } from '../../src/suite/suite-schema.js';
import { expandSuite, RUN_OUT_PLACEHOLDER } from '../../src/suite/expand-suite.js';
import { parseComparison } from '../../src/suite/claims/comparison.js';
import { BUILTIN_SUITES, BUILTIN_SUITE_NAMES } from '../../src/suite/builtin-suites.js';

const base = { dataset: 'mnist', subset: 300, modelOptions: { hidden: [16] }, epochs: 2 };
const suite = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name: 's', base, methods: [{ name: 'ce' }, { name: 'mbls', loss: 'mbls' }], ...extra });

test('a suite file with an unknown key is an error naming the key path (same machinery as calib train --config)', () => {
  assert.throws(
    () => parseSuite(suite({ methods: [{ name: 'ce', lossOptoins: {} }] })),
    /^InvalidArgumentError: suite\.methods\[0\]\.lossOptoins: expected a known key \(did you mean lossOptions\?\), got an unknown key$/,
  );
  assert.throws(() => parseSuite({ ...suite(), base: { ...base, epohcs: 3 } }), /suite\.base\.epohcs: expected a known key \(did you mean epochs\?\)/);
  assert.throws(() => parseSuite(suite({ scales: { quick: { epochs: 0 } } })), /suite\.scales\.quick\.epochs: expected an integer ≥ 1, got 0/);
  assert.throws(() => parseSuite(suite({ scales: { tiny: {} } })), /suite\.scales\.tiny: expected a known key/);
  assert.throws(() => parseSuite(suite({ sweeps: [{ key: 'lossOptions', values: [1] }] })), /suite\.sweeps\[0\]\.key: expected lossOptions\.KEY/);
  assert.throws(() => parseSuite(suite({ sweeps: [{ key: 'mixup', values: [0.1], methods: ['nope'] }] })), /suite\.sweeps\[0\]\.methods\[0\]: expected a method of the suite \(ce, mbls\)/);
  assert.throws(() => parseSuite(suite({ methods: [{ name: 'ce' }, { name: 'ce' }] })), /suite\.methods\[1\]\.name: expected a name not used by another method/);
  assert.throws(() => parseSuite(suite({ methods: [{ name: 'CE big' }] })), /suite\.methods\[0\]\.name: expected a name of lower-case letters/);
  assert.throws(() => parseSuite(suite({ posthoc: ['tempreature'] })), /suite\.posthoc\[0\]: expected one of 'temperature'/);
  assert.throws(() => parseSuite(suite({ compare: ['mbls < focal on ece'] })), /suite\.compare\[0\]: expected a method of the suite \(ce, mbls\) on the right, got "focal"/);
  assert.throws(() => parseSuite(suite({ compare: ['mbls < ce on ecee'] })), /suite\.compare\[0\]: expected a metric/);
});

test('expansion merges base ← scale ← method ← sweep ← seed and names runs after their settings', () => {
  const s = parseSuite(
    suite({
      scales: { quick: { epochs: 3 }, paper: { epochs: 9 } },
      methods: [{ name: 'ce' }, { name: 'mbls', loss: 'mbls', lossOptions: { alpha: 0.2 } }],
      sweeps: [{ key: 'lossOptions.margin', values: [0, 6], methods: ['mbls'] }],
      seeds: [0, 1],
    }),
  );
  const runs = expandSuite(s, 'quick');
  assert.deepEqual(
    runs.map((r) => r.id),
    ['ce-seed0', 'ce-seed1', 'mbls-margin=0-seed0', 'mbls-margin=0-seed1', 'mbls-margin=6-seed0', 'mbls-margin=6-seed1'],
  );
  const m6 = runs.find((r) => r.id === 'mbls-margin=6-seed1')!;
  assert.equal(m6.config.epochs, 3);
  assert.equal(m6.config.seed, 1);
  assert.deepEqual(m6.config.lossOptions, { alpha: 0.2, margin: 6 });
  assert.deepEqual(m6.sweep, { key: 'lossOptions.margin', value: 6 });
  assert.equal(m6.config.out, RUN_OUT_PLACEHOLDER);
  assert.equal(expandSuite(s, 'paper')[0]!.config.epochs, 9);
  assert.throws(() => expandSuite(s, 'machine'), /--scale: expected a scale the suite declares \(quick, paper\), got "machine"/);
});

test('expansion validates every run in full: a bad loss option is an error naming the run', () => {
  const s = parseSuite(suite({ methods: [{ name: 'mbls', loss: 'mbls', lossOptions: { margn: 1 } }] }));
  assert.throws(() => expandSuite(s, 'quick'), /suite run mbls-seed0: config\.lossOptions/);
});

test('comparisons parse "A < B on METRIC [after CALIBRATOR]"', () => {
  assert.deepEqual(parseComparison('mbls < ce on ece after temperature', ['ce', 'mbls'], ['temperature'], 'c'), {
    text: 'mbls < ce on ece after temperature',
    left: 'mbls',
    right: 'ce',
    direction: '<',
    metric: 'ece',
    after: 'temperature',
    leftAfter: 'temperature',
    rightAfter: 'temperature',
  });
  assert.equal(parseComparison(' ce > mbls on accuracy ', ['ce', 'mbls'], [], 'c').direction, '>');
  assert.throws(() => parseComparison('ce < ce on ece', ['ce'], [], 'c'), /c: expected two different methods \(or one method with two different calibrators\)/);
  assert.throws(() => parseComparison('mbls < ce on ece after isotonic', ['ce', 'mbls'], ['temperature'], 'c'), /expected a post-hoc calibrator of the suite \(temperature\)/);
  assert.throws(() => parseComparison('mbls beats ce', ['ce', 'mbls'], [], 'c'), /expected "A < B on METRIC"/);
});

test('every built-in suite is valid and expands at every scale it declares', () => {
  assert.deepEqual(BUILTIN_SUITE_NAMES, ['demo', 'demo-margin', 'maronas', 'thulasidasan', 'mbls', 'mbls-segmentation', 'acls', 'karandikar', 'thulasidasan-text', 'mbls-text']);
  for (const name of BUILTIN_SUITE_NAMES) {
    const s = parseSuite(structuredClone(BUILTIN_SUITES[name]!.suite), name);
    for (const scale of ['quick', 'machine', 'paper'] as const) assert.ok(expandSuite(s, scale).length > 0);
  }
  const demo = expandSuite(parseSuite(structuredClone(BUILTIN_SUITES['demo']!.suite)), 'quick');
  assert.deepEqual(
    demo.map((r) => r.id),
    ['ce-seed0', 'ls-seed0', 'focal-seed0', 'mbls-seed0', 'mixup-seed0'],
  );
  assert.equal(demo[4]!.config.mixup, 0.1);
});

test('a suite with "ood": true turns on the OOD / shift evaluation of every run', () => {
  const suite = { name: 's', base: { dataset: 'mnist' }, methods: [{ name: 'ce' }, { name: 'ls', loss: 'ls' }], seeds: [0, 1] };
  assert.ok(expandSuite(parseSuite(structuredClone(suite), 's'), 'quick').every((r) => r.config.ood === false));
  const runs = expandSuite(parseSuite({ ...structuredClone(suite), ood: true }, 's'), 'quick');
  assert.equal(runs.length, 4);
  assert.ok(runs.every((r) => r.config.ood === true));
});

test('regulariserHistogram: a per-example loss, its options and a quantity it has, each error naming its path', () => {
  const s = parseSuite(suite({ regulariserHistogram: { loss: 'acls', max: 0.1 } }));
  assert.deepEqual(s.regulariserHistogram, { loss: 'acls', options: {}, quantity: 'regulariser', bins: 20, max: 0.1 });
  assert.equal(parseSuite(suite()).regulariserHistogram, undefined, 'absent by default');
  assert.equal((BUILTIN_SUITES['acls']!.suite as { regulariserHistogram?: { loss: string } }).regulariserHistogram?.loss, 'acls', 'the ACLS suite asks for it (Fig. 3)');
  assert.throws(() => parseSuite(suite({ regulariserHistogram: { loss: 'acl' } })), /suite\.regulariserHistogram\.loss: expected one of 'ce', .*'acls'.*, got "acl"/);
  assert.throws(() => parseSuite(suite({ regulariserHistogram: { loss: 'mdca' } })), /suite\.regulariserHistogram\.loss: expected a per-example loss \(mdca is batch-level/);
  assert.throws(
    () => parseSuite(suite({ regulariserHistogram: { loss: 'acls', options: { margn: 6 } } })),
    /suite\.regulariserHistogram\.options\.margn: expected a known key \(did you mean margin\?\)/,
  );
  assert.throws(
    () => parseSuite(suite({ regulariserHistogram: { loss: 'acls', quantity: 'regularizer' } })),
    /suite\.regulariserHistogram\.quantity: expected 'loss', 'regulariser' or a term of acls \(ce, reg, positive, negative\), got "regularizer"/,
  );
  assert.throws(() => parseSuite(suite({ regulariserHistogram: { loss: 'acls', bins: 0 } })), /suite\.regulariserHistogram\.bins: expected an integer ≥ 1/);
  assert.throws(() => parseSuite(suite({ regulariserHistogram: { loss: 'acls', min: 1, max: 0.5 } })), /suite\.regulariserHistogram\.max: expected a number > min \(1\)/);
});
