import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { parseLabelsJson, parseMatrixJson } from '../../src/io/json-arrays.js';

const ctx = { argName: '--logits', path: 'z.json' };

function throwsAs(fn: () => unknown, pattern: RegExp, argName = '--logits'): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof InvalidArgumentError);
    assert.equal(error.argument, argName);
    assert.match(error.message, pattern);
    assert.match(error.message, /"z\.json"|"y\.json"/, 'the file is named');
    return true;
  });
}

test('a matrix is an array of rows or sits under "logits" / "probs"', () => {
  const plain = parseMatrixJson('[[1, -2.5], [1e3, 0]]', ctx);
  assert.deepEqual([plain.rows, plain.cols], [2, 2]);
  assert.deepEqual(Array.from(plain.data), [1, -2.5, 1000, 0]);
  const keyed = parseMatrixJson('{"logits": [[0, 1, 2]], "labels": [2]}', ctx, 'logits');
  assert.deepEqual([keyed.rows, keyed.cols], [1, 3]);
  const guessed = parseMatrixJson('{"probs": [[0.5, 0.5]]}', ctx);
  assert.deepEqual(Array.from(guessed.data), [0.5, 0.5]);
  const empty = parseMatrixJson('[]', ctx);
  assert.deepEqual([empty.rows, empty.cols], [0, 0]);
});

test('the wrong key, both keys, ragged rows and non-numbers are errors with positions', () => {
  throwsAs(() => parseMatrixJson('{"logits": [[0, 1]]}', ctx, 'probs'), /object with key "probs", got an object with keys "logits"/);
  throwsAs(() => parseMatrixJson('{"logits": [[0, 1]], "probs": [[0, 1]]}', ctx), /"logits" or "probs" \(not both\)/);
  throwsAs(() => parseMatrixJson('[[1, 2], [3]]', ctx), /2 values per row \(as in row 0\), got 1 values in row 1/);
  throwsAs(() => parseMatrixJson('[[1, 2], [3, null]]', ctx), /expected a number, got null at row 1, column 1/);
  throwsAs(() => parseMatrixJson('[[1, 2], [3, "4"]]', ctx), /got "4" at row 1, column 1/);
  throwsAs(() => parseMatrixJson('[1, 2]', ctx), /array of rows of numbers, got 1 at row 0/);
  throwsAs(() => parseMatrixJson('{"x": 1}', ctx), /got an object with keys "x"/);
});

test('invalid JSON is reported with the parser message, with a hint for NaN', () => {
  throwsAs(() => parseMatrixJson('[[1, 2],', ctx), /expected valid JSON, got .* in "z\.json"/);
  throwsAs(() => parseMatrixJson('[[1, NaN]]', ctx), /JSON has no NaN or Infinity/);
});

test('labels are an array of integers or sit under "labels"', () => {
  const y = { argName: '--labels', path: 'y.json' };
  assert.deepEqual(Array.from(parseLabelsJson('[0, 2, 1]', y)), [0, 2, 1]);
  assert.deepEqual(Array.from(parseLabelsJson('{"logits": [[1,2]], "labels": [1]}', y)), [1]);
  throwsAs(() => parseLabelsJson('[0, 1.5]', y), /integer class labels, got 1\.5 at index 1/, '--labels');
  throwsAs(() => parseLabelsJson('[0, "1"]', y), /got "1" at index 1/, '--labels');
  throwsAs(() => parseLabelsJson('{"y": [1]}', y), /object with key "labels"/, '--labels');
});
