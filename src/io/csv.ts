import { describe, invalidArgument } from '../util/errors.js';
import { quotePath, type InputContext } from './input-file.js';

/**
 * Numeric CSV: one row per sample, one column per class (a prediction matrix) or a label column.
 *
 * - Delimiter, detected on the first non-comment line (outside double quotes): a semicolon when it has one, else
 *   a tab, else a comma, else runs of whitespace (`np.savetxt`'s default). Spaces around cells are ignored; cells
 *   may be wrapped in double quotes (a quoted cell may hold the delimiter, e.g. `"0,25"`).
 * - Decimal mark: a point (`0.25`) or a comma (`0,25`: in semicolon-, tab- or whitespace-separated files, or in
 *   quoted cells of comma-separated ones, as Excel and pandas write them in comma-decimal locales). A file that
 *   uses both is refused, naming a cell of each. A comma-separated file cannot hold unquoted decimal commas: when
 *   its cells look like split decimals (every cell an integer and some written with a leading zero, like the `05`
 *   of `0,05`, with fixed-length fractional parts in every second column, or 0/1 integer parts alternating with
 *   other digits as in the probabilities `0,9,0,1`), it is refused rather than read as
 *   twice the columns; rows of unequal length in such a file mention the possibility.
 * - Header: the first row is a header when any of its cells is not a number (a header of numbers, e.g. `0,1,2`,
 *   is read as data).
 * - Empty lines and lines starting with `#` are skipped.
 * - Numbers: decimal or exponent notation; `nan`, `inf`, `-inf`, `infinity` (any case, as written by numpy and
 *   pandas) are read as NaN/±Infinity so that the finiteness check can report them by index.
 * - Errors name the argument, the file, the line (1-based, as in an editor) and the column (1-based).
 */

/** How a CSV file was read: its delimiter and decimal mark. */
export interface CsvDialect {
  readonly delimiter: ',' | ';' | '\t' | 'whitespace';
  readonly decimal: '.' | ',';
}

export interface NumericTable {
  /** Header cells, or null when the file has no header row. */
  readonly header: readonly string[] | null;
  readonly rows: number;
  readonly cols: number;
  /** Row-major rows × cols values. */
  readonly data: Float64Array;
  /** The detected delimiter and decimal mark. */
  readonly dialect: CsvDialect;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const COMMA_NUMBER = /^[+-]?(?:\d+,\d*|,\d+)(?:[eE][+-]?\d+)?$/;
const PLAIN_INTEGER = /^[+-]?\d+$/;
const NON_FINITE: Readonly<Record<string, number>> = {
  nan: Number.NaN,
  '+nan': Number.NaN,
  '-nan': Number.NaN,
  inf: Infinity,
  '+inf': Infinity,
  infinity: Infinity,
  '+infinity': Infinity,
  '-inf': -Infinity,
  '-infinity': -Infinity,
};

/** Parse one cell as a number (decimal point), or return undefined when it is not one. */
export function parseNumberCell(cell: string): number | undefined {
  if (NUMBER.test(cell)) return Number(cell);
  return NON_FINITE[cell.toLowerCase()];
}

interface Cell {
  readonly text: string;
  readonly quoted: boolean;
}

/** Split `line` at `delimiter` outside double quotes; quotes removed (`""` inside is one quote), cells trimmed. */
function splitLine(line: string, delimiter: CsvDialect['delimiter']): Cell[] {
  if (delimiter === 'whitespace') {
    return line
      .trim()
      .split(/\s+/)
      .map((t) => unquoteCell(t));
  }
  const sep = delimiter === '\t' ? '\t' : delimiter;
  const cells: Cell[] = [];
  let current = '';
  let inQuotes = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"') inQuotes = !inQuotes;
    if (ch === sep && !inQuotes) {
      cells.push(unquoteCell(current));
      current = '';
    } else current += ch;
  }
  cells.push(unquoteCell(current));
  return cells;
}

function unquoteCell(cell: string): Cell {
  const t = cell.trim();
  if (t.length >= 2 && t.startsWith('"') && t.endsWith('"')) return { text: t.slice(1, -1).replace(/""/g, '"').trim(), quoted: true };
  return { text: t, quoted: false };
}

/** Count of `ch` in `line` outside double quotes. */
function countOutsideQuotes(line: string, ch: string): number {
  let n = 0;
  let inQuotes = false;
  for (const c of line) {
    if (c === '"') inQuotes = !inQuotes;
    else if (c === ch && !inQuotes) n++;
  }
  return n;
}

function detectDelimiter(firstLine: string): CsvDialect['delimiter'] {
  if (countOutsideQuotes(firstLine, ';') > 0) return ';';
  if (countOutsideQuotes(firstLine, '\t') > 0) return '\t';
  if (countOutsideQuotes(firstLine, ',') > 0) return ',';
  return 'whitespace';
}

/**
 * Parse numeric CSV text (see the module comment for the dialect). `splitDecimals: false` skips the check for
 * decimal commas split at comma delimiters (for label files, whose integer columns, e.g. ids, may have leading
 * zeros).
 */
export function parseNumericCsv(text: string, ctx: InputContext, options: { splitDecimals?: boolean } = {}): NumericTable {
  const file = quotePath(ctx.path);
  const lines = text.split(/\r?\n/);
  let delimiter: CsvDialect['delimiter'] | undefined;
  let header: string[] | null = null;
  let cols = -1;
  let firstDataLine = 0;
  let values = new Float64Array(1024);
  let count = 0;
  /** First cell seen with each decimal mark (for the error when a file uses both). */
  let pointCell: { text: string; line: number } | undefined;
  let commaCell: { text: string; line: number } | undefined;
  /** For the split-decimal check of comma-separated files. */
  let allIntegers = true;
  let leadingZero: { text: string; line: number } | undefined;
  let oddLength = -2;
  /** Every even-position cell 0 or 1 and some odd-position cell another integer: split probabilities like `0,9,0,1`. */
  let unitIntegerParts = true;
  let otherFraction = false;
  let firstDataText = '';
  const parse = (cell: Cell, line: number): number | undefined => {
    const t = cell.text;
    if (NUMBER.test(t)) {
      if (!PLAIN_INTEGER.test(t)) allIntegers = false;
      if (t.includes('.')) pointCell ??= { text: t, line };
      return Number(t);
    }
    if (COMMA_NUMBER.test(t) && (delimiter !== ',' || cell.quoted)) {
      commaCell ??= { text: t, line };
      allIntegers = false;
      return Number(t.replace(',', '.'));
    }
    const v = NON_FINITE[t.toLowerCase()];
    if (v !== undefined) allIntegers = false;
    return v;
  };
  const splitHint = (): string => (delimiter === ',' ? ' (numbers with decimal commas in a comma-separated file? separate cells with ";" or tabs, or quote the numbers)' : '');
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li]!;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    delimiter ??= detectDelimiter(line);
    const cells = splitLine(line, delimiter);
    if (cols < 0) {
      cols = cells.length;
      if (cells.some((c) => parse(c, li + 1) === undefined)) {
        header = cells.map((c) => c.text);
        allIntegers = true;
        pointCell = commaCell = undefined;
        continue;
      }
    }
    if (firstDataLine === 0) {
      firstDataLine = li + 1;
      firstDataText = trimmed;
    }
    if (cells.length !== cols) {
      invalidArgument(ctx.argName, `${cols} cells per row (as in ${header ? 'the header' : `line ${firstDataLine}`})`, `${cells.length} cells in line ${li + 1} of ${file}${splitHint()}`);
    }
    if (count + cols > values.length) {
      const grown = new Float64Array(Math.max(values.length * 2, count + cols));
      grown.set(values);
      values = grown;
    }
    for (let k = 0; k < cols; k++) {
      const cell = cells[k]!;
      const v = parse(cell, li + 1);
      if (v === undefined) invalidArgument(ctx.argName, 'a number', `${describe(cell.text)} at line ${li + 1}, column ${k + 1} of ${file}`);
      values[count++] = v!;
      if (delimiter === ',' && !cell.quoted) {
        if (/^\d{2,}$/.test(cell.text) && cell.text.startsWith('0')) leadingZero ??= { text: cell.text, line: li + 1 };
        if (k % 2 === 0) {
          if (!/^[+-]?[01]$/.test(cell.text)) unitIntegerParts = false;
        } else if (!/^[+-]?[01]$/.test(cell.text)) otherFraction = true;
        if (k % 2 === 1) {
          const len = /^\d+$/.test(cell.text) ? cell.text.length : -1;
          oddLength = oddLength === -2 ? len : oddLength === len ? len : -1;
        }
      }
    }
    if (pointCell && commaCell) {
      invalidArgument(
        ctx.argName,
        'one decimal mark in the whole file',
        `both points (${describe(pointCell.text)} in line ${pointCell.line}) and commas (${describe(commaCell.text)} in line ${commaCell.line}) in ${file}`,
      );
    }
  }
  if (options.splitDecimals !== false && delimiter === ',' && count > 0 && allIntegers && cols >= 2 && (leadingZero || (cols % 2 === 0 && (oddLength >= 4 || (unitIntegerParts && otherFraction))))) {
    invalidArgument(
      ctx.argName,
      'numbers with a decimal point in a comma-separated file (or decimal commas with ";" or tabs between cells, or quoted)',
      `what looks like decimal commas split into extra columns: line ${firstDataLine} reads ${describe(firstDataText)} as ` +
        `${cols} integer cells${
          leadingZero
            ? `, one written ${describe(leadingZero.text)} (line ${leadingZero.line})`
            : oddLength >= 4
              ? ', every second one with the same number of digits'
              : ' alternating 0/1 and other digits'
        } in ${file}`,
    );
  }
  if (cols < 0) cols = 0;
  const rows = cols === 0 ? 0 : count / cols;
  const dialect: CsvDialect = { delimiter: delimiter ?? ',', decimal: commaCell ? ',' : '.' };
  return { header, rows, cols, data: values.slice(0, count), dialect };
}

/**
 * Labels from CSV text: the only column, or the column named `column` (which needs a header row). Values must
 * be integers; the first one that is not is reported with its line.
 */
export function parseLabelsCsv(text: string, ctx: InputContext, column?: string): Int32Array {
  const table = parseNumericCsv(text, ctx, { splitDecimals: false });
  let k = 0;
  if (column !== undefined) {
    if (table.header === null) invalidArgument(ctx.argName, `a header row with a column ${describe(column)}`, `a file without header: ${quotePath(ctx.path)}`);
    k = table.header!.indexOf(column);
    if (k < 0) invalidArgument(ctx.argName, `a column named ${describe(column)}`, `columns ${table.header!.map((h) => describe(h)).join(', ')} in ${quotePath(ctx.path)}`);
  } else if (table.cols > 1) {
    const names = table.header ? ` (${table.header.map((h) => describe(h)).join(', ')})` : '';
    invalidArgument(ctx.argName, 'a single column of labels, or a column name (--label-column)', `${table.cols} columns${names} in ${quotePath(ctx.path)}`);
  }
  const out = new Int32Array(table.rows);
  for (let i = 0; i < table.rows; i++) {
    const v = table.data[i * table.cols + k]!;
    if (!Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) {
      invalidArgument(ctx.argName, 'integer class labels', `${describe(v)} in data row ${i + 1} (index ${i}) of ${quotePath(ctx.path)}`);
    }
    out[i] = v;
  }
  return out;
}
