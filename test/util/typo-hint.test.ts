import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeNames, didYouMean, editDistance } from '../../src/util/typo-hint.js';
import { defineRegistry } from '../../src/util/registry.js';

test('editDistance is the optimal-string-alignment distance (hand-counted edits)', () => {
  assert.equal(editDistance('fashionmnsit', 'fashionmnist'), 1, 'one swap of neighbours');
  assert.equal(editDistance('mnist', 'mnist'), 0);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(editDistance('kitten', 'sitting'), 3, 'k→s, e→i, +g');
  assert.equal(editDistance('ca', 'abc'), 3, 'OSA (not unrestricted Damerau, which gives 2)');
  assert.equal(editDistance('adamw', 'adam'), 1);
});

test('closeNames compares without case and separators and orders nearest first', () => {
  assert.deepEqual(closeNames('fashion-mnsit', ['mnist', 'fashion-mnist', 'cifar10']), ['fashion-mnist']);
  assert.deepEqual(closeNames('Fashion_MNIST', ['mnist', 'fashion-mnist']), ['fashion-mnist']);
  assert.deepEqual(closeNames('mmec', ['mse', 'mmce', 'mdca']), ['mmce'], 'distance 1 only for a 4-letter name');
  assert.deepEqual(closeNames('rmsprp', ['adamw', 'rmsprop', 'sgd']), ['rmsprop']);
  assert.deepEqual(closeNames('mbls-textt', ['mbls', 'mbls-text', 'mbls-tex']), ['mbls-text', 'mbls-tex'], 'nearest first');
  assert.deepEqual(closeNames('v3', ['v1', 'v2']), [], 'no hint for names under 3 characters');
  assert.deepEqual(closeNames('zzzzzz', ['mnist']), []);
  assert.equal(didYouMean('svnh', ['svhn', 'stl10']), ' (did you mean svhn?)');
  assert.equal(didYouMean('qqqqq', ['svhn']), '');
  assert.equal(didYouMean(3, ['svhn']), '');
});

test('defineRegistry: names in order, lookup naming the argument with a hint, duplicates refused', () => {
  const r = defineRegistry('thing', [
    { name: 'alpha', n: 1 },
    { name: 'beta', n: 2 },
  ] as const);
  assert.deepEqual(r.names, ['alpha', 'beta']);
  assert.equal(r.get('--thing', 'beta').n, 2);
  assert.equal(r.has('gamma'), false);
  assert.throws(() => r.get('--thing', 'alpah'), /^InvalidArgumentError: --thing: expected one of alpha, beta \(did you mean alpha\?\), got "alpah"$/);
  assert.throws(() => r.get('--thing', 7), /^InvalidArgumentError: --thing: expected one of alpha, beta, got 7$/);
  assert.throws(() => defineRegistry('thing', [{ name: 'a' }, { name: 'a' }]), /declared twice/);
});
