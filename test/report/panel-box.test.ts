import { test } from 'node:test';
import assert from 'node:assert/strict';
import { binInterval, compactCount } from '../../src/report/panel-box.js';
import { makeData } from './make-data.js';

test('compactCount keeps counts below 10,000 and abbreviates larger ones', () => {
  assert.deepEqual([0, 7, 9999, 10_000, 12_345, 99_949, 99_950, 123_456, 999_499, 999_500, 1_234_567, 12_345_678].map(compactCount), [
    '0',
    '7',
    '9999',
    '10k',
    '12.3k',
    '99.9k',
    '100k',
    '123k',
    '999k',
    '1M',
    '1.23M',
    '12.3M',
  ]);
});

test('binInterval writes the convention, closing the first (l,u] bin at 0 and the last [l,u) bin at 1', () => {
  const specs = [
    [1, 0, 0],
    [1, 0, 0],
    [1, 0, 0],
  ] as const;
  const a = makeData(specs, { convention: '(l,u]' });
  assert.deepEqual(
    [0, 1, 2].map((i) => binInterval(a, i)),
    ['[0, 0.333]', '(0.333, 0.667]', '(0.667, 1]'],
  );
  const b = makeData(specs, { convention: '[l,u)' });
  assert.deepEqual(
    [0, 1, 2].map((i) => binInterval(b, i)),
    ['[0, 0.333)', '[0.333, 0.667)', '[0.667, 1]'],
  );
});
