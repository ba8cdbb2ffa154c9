import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUILTIN_SUITES } from '../../src/suite/builtin-suites.js';
import { parseSuite, type BuiltinSuite, type SettingsInput } from '../../src/suite/suite-schema.js';
import type { TrainConfig } from '../../src/train/train-config.js';

/**
 * Issue 27 item 5: the names of a training configuration are literal types derived from their registries, so a
 * misspelt name in code — a built-in suite (src/suite/papers, each `satisfies BuiltinSuite`), a scale, a config — is
 * a compile error. Each `@ts-expect-error` below fails the build if the line after it compiles, i.e. if the name
 * were a plain string again.
 */

test('misspelt names in suite settings and configurations do not compile', () => {
  const settings: SettingsInput[] = [
    // @ts-expect-error 'focl' is no loss
    { loss: 'focl' },
    // @ts-expect-error 'mdac' is no loss
    { secondary: 'mdac' },
    // @ts-expect-error 'fashion-mnsit' is no dataset
    { dataset: 'fashion-mnsit' },
    // @ts-expect-error 'adamW' is no optimizer
    { optimizer: 'adamW' },
    // @ts-expect-error 'cosin' is no schedule kind
    { schedule: 'cosin' },
    // @ts-expect-error 'lenett' is no model kind or alias family
    { model: 'lenett' },
    // @ts-expect-error 'crop-flop' is no augmentation
    { augment: 'crop-flop' },
    // @ts-expect-error 'nlll' is no selection criterion
    { select: 'nlll' },
    // @ts-expect-error 'cutmx' is no mixup kind
    { mixupKind: 'cutmx' },
    { loss: 'focal', secondary: 'mdca', dataset: 'fashion-mnist', optimizer: 'adamw', schedule: 'multistep:0.5,0.75', model: 'cifar-resnet-20', select: 'nll' },
    { model: 'resnet20' },
    { model: 'wrn-28-10', schedule: 'step:30,0.1' },
  ];
  const suite = {
    summary: 's',
    // @ts-expect-error a method's loss inside a suite literal is checked too
    suite: { name: 'x', base: { dataset: 'mnist' }, methods: [{ name: 'ce', loss: 'c-e' }] },
  } satisfies BuiltinSuite;
  const posthoc = {
    summary: 's',
    // @ts-expect-error 'temprature' is no calibrator
    suite: { name: 'x', methods: [{ name: 'ce' }], posthoc: ['temprature'] },
  } satisfies BuiltinSuite;
  const histogram = {
    summary: 's',
    // @ts-expect-error the regulariser histogram's loss is a loss name
    suite: { name: 'x', methods: [{ name: 'ce' }], regulariserHistogram: { loss: 'acsl' } },
  } satisfies BuiltinSuite;
  assert.equal(posthoc.suite.name + histogram.suite.name, 'xx');
  const loss: TrainConfig['loss'] = 'mbls';
  assert.equal(settings.length, 12);
  assert.equal(suite.suite.name, 'x');
  assert.equal(loss, 'mbls');
});

test('the built-in suites, type-checked as BuiltinSuite, also parse', () => {
  for (const [name, entry] of Object.entries(BUILTIN_SUITES)) assert.equal(parseSuite(entry.suite, name).name, name);
});
