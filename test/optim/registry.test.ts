import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createOptimizer, OPTIMIZER_NAMES, OPTIMIZER_OPTIONS, OPTIMIZERS } from '../../src/optim/index.js';
import { OPTIMIZERS as CONFIG_OPTIMIZERS } from '../../src/train/train-config.js';
import { declaredNames } from '../util/declared-names.js';

test('every file of src/optim that declares an optimizer is in the OPTIMIZERS registry, and calib train offers each', () => {
  assert.deepEqual([...OPTIMIZER_NAMES].sort(), declaredNames(new URL('../../../src/optim/', import.meta.url), 'defineOptimizer'));
  assert.deepEqual(CONFIG_OPTIMIZERS, OPTIMIZER_NAMES);
  for (const d of OPTIMIZERS.definitions) {
    assert.equal(OPTIMIZER_OPTIONS[d.name], d.options);
    assert.equal(createOptimizer({ kind: d.name } as never).kind, d.name, `${d.name} builds with its defaults`);
  }
});

test('createOptimizer refuses a misspelt kind with a hint', () => {
  assert.throws(() => createOptimizer({ kind: 'adamm' } as never), /^InvalidArgumentError: spec\.kind: expected one of sgd, adam, .* \(did you mean adam, adamw\?\), got "adamm"$/);
});
