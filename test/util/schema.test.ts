import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultText, described, list, number, numberList, object, oneOf, optional, options, refine, string } from '../../src/util/schema.js';

test('number() states and checks exclusive upper bounds as requireNumber does', () => {
  const rate = number({ min: 0, max: 1, exclusiveMax: true });
  assert.equal(rate.expected, 'a finite number ≥ 0 and < 1');
  assert.equal(rate.parse(0.5, 'p'), 0.5);
  assert.throws(() => rate.parse(1, 'p'), /^InvalidArgumentError: p: expected a finite number < 1, got 1$/);
});

test('oneOf, refine and numberList read as the other schemas do', () => {
  assert.throws(() => oneOf([50, 101]).parse(34, 'd'), /^InvalidArgumentError: d: expected one of 50, 101, got 34$/);
  const even = refine(number({ integer: true }), (v) => v % 2 === 0, 'an even integer');
  assert.equal(even.expected, 'an even integer');
  assert.throws(() => even.parse(3, 'w'), /^InvalidArgumentError: w: expected an even integer, got 3$/);
  assert.throws(() => even.parse(2.5, 'w'), /^InvalidArgumentError: w: expected an integer, got 2\.5$/);
  const bins = numberList(number({ integer: true, min: 1 }));
  assert.deepEqual(bins.parse(15, 'b'), [15]);
  assert.deepEqual(bins.parse([5, 15], 'b'), [5, 15]);
  assert.throws(() => bins.parse([5, 0], 'b'), /^InvalidArgumentError: b\[1\]: expected an integer ≥ 1, got 0$/);
  assert.throws(() => bins.parse([], 'b'), /^InvalidArgumentError: b: expected a number or a non-empty list of numbers, got an array of length 0$/);
});

test('descriptions and defaults are stated once, on the key, and read back for help', () => {
  const s = object({
    lr: optional(number({ min: 0, exclusiveMin: true }), 0.1, 'base learning rate'),
    hidden: optional(list(number({ integer: true, min: 1 })), [512, 512], 'hidden widths'),
    extra: optional(options(), {}, 'free options'),
    subset: described(optional(number({ integer: true })), 'a subset'),
    name: described(string(), 'a name'),
  });
  assert.equal(s.shape.lr.description, 'base learning rate');
  assert.equal(defaultText(s.shape.lr), '0.1');
  assert.equal(defaultText(s.shape.hidden), '512,512');
  assert.equal(defaultText(s.shape.extra), undefined);
  assert.equal(defaultText(s.shape.subset), undefined);
  assert.equal(s.shape.subset.description, 'a subset');
  assert.equal(s.shape.name.description, 'a name');
  assert.deepEqual(s.parse({ name: 'x' }, 'c'), { lr: 0.1, hidden: [512, 512], extra: {}, name: 'x' });
  assert.throws(() => s.parse({}, 'c'), /^InvalidArgumentError: c\.name: expected a string, got nothing \(the key is required\)$/);
});
