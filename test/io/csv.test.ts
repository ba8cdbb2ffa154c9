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

test('semicolon-, tab- and space-separated files may use decimal commas; the dialect is detected and reported', () => {
  const semi = parseNumericCsv('a;b\n0,25;0,75\n1;0\n', ctx);
  assert.deepEqual([...semi.data], [0.25, 0.75, 1, 0]);
  assert.deepEqual(semi.dialect, { delimiter: ';', decimal: ',' });
  const tab = parseNumericCsv('0,5\t0,5\n-1,5e-1\t1,15\n', ctx);
  assert.deepEqual([...tab.data], [0.5, 0.5, -0.15, 1.15]);
  assert.deepEqual(tab.dialect, { delimiter: '\t', decimal: ',' });
  const quoted = parseNumericCsv('"0,25","0,75"\n"1","0"\n', ctx);
  assert.deepEqual([...quoted.data], [0.25, 0.75, 1, 0]);
  assert.deepEqual(quoted.dialect, { delimiter: ',', decimal: ',' });
  assert.deepEqual(parseNumericCsv('0.25,0.75\n', ctx).dialect, { delimiter: ',', decimal: '.' });
});

test('decimal commas split by comma separators are refused, naming what was seen, never read as extra columns', () => {
  throwsAs(() => parseNumericCsv('0,05,0,95\n0,5,0,5\n', ctx), /decimal commas split into extra columns: line 1 reads "0,05,0,95" as 4 integer cells, one written "05"/);
  throwsAs(() => parseNumericCsv('2,3456,-1,2500\n-3,1250,3,7500\n', ctx), /every second one with the same number of digits/);
  throwsAs(() => parseNumericCsv('a,b\n0,25,0,75\n', ctx), /expected 2 cells per row \(as in the header\), got 4 cells in line 2 .*decimal commas in a comma-separated file\?/);
  throwsAs(() => parseNumericCsv('0.5;0,5\n', ctx), /one decimal mark in the whole file, got both points \("0\.5" in line 1\) and commas \("0,5" in line 1\)/);
  // Integer logits and labels with leading-zero ids stay readable.
  assert.deepEqual([...parseNumericCsv('1,-2,3\n4,5,-6\n', ctx).data], [1, -2, 3, 4, 5, -6]);
  assert.deepEqual([...parseLabelsCsv('id,label\n001,3\n002,1\n', { argName: '--labels', path: 'y.csv' }, 'label')], [3, 1]);
});
