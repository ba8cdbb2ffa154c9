import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createModel, MODEL_KINDS, MODEL_OPTIONS, MODELS } from '../../src/nn/index.js';
import { declaredNames } from '../util/declared-names.js';

test('every file of src/nn/models that declares a model is in the MODELS registry, with its option schema', () => {
  assert.deepEqual([...MODEL_KINDS].sort(), declaredNames(new URL('../../../src/nn/models/', import.meta.url), 'defineModel'));
  assert.deepEqual(Object.keys(MODEL_OPTIONS), [...MODEL_KINDS]);
  for (const d of MODELS.definitions) assert.equal(MODEL_OPTIONS[d.name], d.options);
  assert.deepEqual(
    MODELS.definitions.filter((d) => d.task !== 'image').map((d) => [d.name, d.task]),
    [
      ['text-cnn', 'text'],
      ['seg-net', 'segmentation'],
    ],
  );
});

test('createModel builds by kind from the registry and refuses a misspelt kind with a hint', () => {
  const m = createModel({ kind: 'mlp', hidden: [4], inputShape: [3], numClasses: 2 });
  assert.equal(m.kind, 'mlp');
  assert.throws(() => createModel({ kind: 'wide-renset' } as never), /^InvalidArgumentError: spec\.kind: expected one of mlp, .* \(did you mean wide-resnet\?\), got "wide-renset"$/);
});
