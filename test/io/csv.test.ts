import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { parseLabelsCsv, parseNumberCell, parseNumericCsv } from '../../src/io/csv.js';

const ctx = { argName: '--probs', path: 'p.csv' };

function throwsAs(fn: () => unknown, pattern: RegExp, argName = '--probs'): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof InvalidArgumentError);
    assert.equal(error.argument, argName);
    assert.match(error.message, pattern);
    return true;
  });
}

test('numbers are parsed strictly: decimals, exponents and numpy spellings of NaN and infinity', () => {
  assert.equal(parseNumberCell('1.5e-3'), 0.0015);
  assert.equal(parseNumberCell('-.5'), -0.5);
  assert.equal(parseNumberCell('+7.'), 7);
  assert.ok(Number.isNaN(parseNumberCell('nan')!));
  assert.equal(parseNumberCell('-inf'), -Infinity);
  assert.equal(parseNumberCell('Infinity'), Infinity);
  for (const bad of ['', '0x10', '1,5', '1e', 'abc', '1 2', '--1']) assert.equal(parseNumberCell(bad), undefined, bad);
});

test('a comma-separated file with a header row, CRLF line ends, blank and comment lines', () => {
  const t = parseNumericCsv('# exported\r\nclass_0,class_1, "class 2"\r\n0.1,0.2,0.7\r\n\r\n1,0,0\r\n', ctx);
  assert.deepEqual(t.header, ['class_0', 'class_1', 'class 2']);
  assert.equal(t.rows, 2);
  assert.equal(t.cols, 3);
  assert.deepEqual(Array.from(t.data), [0.1, 0.2, 0.7, 1, 0, 0]);
});

test('whitespace- and tab-separated files without header (np.savetxt defaults)', () => {
  const spaced = parseNumericCsv('1.000000000000000000e+00 2.5e-01\n  -3 4\n', ctx);
  assert.equal(spaced.header, null);
  assert.deepEqual([spaced.rows, spaced.cols], [2, 2]);
  assert.deepEqual(Array.from(spaced.data), [1, 0.25, -3, 4]);
  const tabbed = parseNumericCsv('a\tb\n1\t2\n', ctx);
  assert.deepEqual(tabbed.header, ['a', 'b']);
  assert.deepEqual(Array.from(tabbed.data), [1, 2]);
});

test('a header of numbers is data, and an empty file has no rows', () => {
  const t = parseNumericCsv('0,1\n0.5,0.5\n', ctx);
  assert.equal(t.header, null);
  assert.equal(t.rows, 2);
  const empty = parseNumericCsv('\n\n', ctx);
  assert.deepEqual([empty.rows, empty.cols, empty.data.length], [0, 0, 0]);
});

test('ragged rows are reported with the file, the line and the expected count', () => {
  throwsAs(() => parseNumericCsv('0.5,0.5\n0.2,0.3,0.5\n', ctx), /expected 2 cells per row \(as in line 1\), got 3 cells in line 2 of "p\.csv"/);
  throwsAs(() => parseNumericCsv('a,b\n1,2\n3\n', ctx), /\(as in the header\), got 1 cells in line 3 of "p\.csv"/);
});

test('a non-numeric cell is reported with the file, line and column', () => {
  throwsAs(() => parseNumericCsv('a,b\n1,2\n3,x4\n', ctx), /expected a number, got "x4" at line 3, column 2 of "p\.csv"/);
  throwsAs(() => parseNumericCsv('1,2\n3,\n', ctx), /got "" at line 2, column 2/);
});

test('labels come from the only column or from a named one, and must be integers', () => {
  const l = { argName: '--labels', path: 'y.csv' };
  assert.deepEqual(Array.from(parseLabelsCsv('label\n3\n0\n2\n', l)), [3, 0, 2]);
  assert.deepEqual(Array.from(parseLabelsCsv('id,target\n10,1\n11,0\n', l, 'target')), [1, 0]);
  assert.deepEqual(Array.from(parseLabelsCsv('1.0\n2\n', l)), [1, 2]);
  throwsAs(() => parseLabelsCsv('id,target\n10,1\n', l), /single column of labels.*got 2 columns \("id", "target"\)/, '--labels');
  throwsAs(() => parseLabelsCsv('id,target\n10,1\n', l, 'y'), /column named "y", got columns "id", "target"/, '--labels');
  throwsAs(() => parseLabelsCsv('1\n2\n', l, 'y'), /header row with a column "y"/, '--labels');
  throwsAs(() => parseLabelsCsv('1\n2.5\n', l), /integer class labels, got 2\.5 in data row 2 \(index 1\) of "y\.csv"/, '--labels');
  throwsAs(() => parseLabelsCsv('1\nnan\n', l), /integer class labels, got NaN/, '--labels');
});
