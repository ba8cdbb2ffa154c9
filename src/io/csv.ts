import { describe, invalidArgument } from '../util/errors.js';
import { quotePath, type InputContext } from './input-file.js';

/**
 * Numeric CSV: one row per sample, one column per class (a prediction matrix) or a label column.
 *
 * - Delimiter: a comma when the first row has one, else a tab when it has one, else runs of whitespace
 *   (`np.savetxt`'s default). Spaces around cells are ignored; cells may be wrapped in double quotes.
 * - Header: the first row is a header when any of its cells is not a number (a header of numbers, e.g. `0,1,2`,
 *   is read as data).
 * - Empty lines and lines starting with `#` are skipped.
 * - Numbers: decimal or exponent notation; `nan`, `inf`, `-inf`, `infinity` (any case, as written by numpy and
 *   pandas) are read as NaN/±Infinity so that the finiteness check can report them by index.
 * - Errors name the argument, the file, the line (1-based, as in an editor) and the column (1-based).
 */

export interface NumericTable {
  /** Header cells, or null when the file has no header row. */
  readonly header: readonly string[] | null;
  readonly rows: number;
  readonly cols: number;
  /** Row-major rows × cols values. */
  readonly data: Float64Array;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const NON_FINITE: Readonly<Record<string, number>> = {
  nan: Number.NaN, '+nan': Number.NaN, '-nan': Number.NaN,
  inf: Infinity, '+inf': Infinity, infinity: Infinity, '+infinity': Infinity,
  '-inf': -Infinity, '-infinity': -Infinity,
};

/** Parse one cell as a number, or return undefined when it is not one. */
export function parseNumberCell(cell: string): number | undefined {
  if (NUMBER.test(cell)) return Number(cell);
  return NON_FINITE[cell.toLowerCase()];
}

function unquote(cell: string): string {
  const t = cell.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).replace(/""/g, '"').trim() : t;
}

function splitter(firstLine: string): (line: string) => string[] {
  if (firstLine.includes(',')) return (line) => line.split(',').map(unquote);
  if (firstLine.includes('\t')) return (line) => line.split('\t').map(unquote);
  return (line) => line.trim().split(/\s+/).map(unquote);
}

/** Parse numeric CSV text (see the module comment for the dialect). */
export function parseNumericCsv(text: string, ctx: InputContext): NumericTable {
  const file = quotePath(ctx.path);
  const lines = text.split(/\r?\n/);
  let split: ((line: string) => string[]) | undefined;
  let header: string[] | null = null;
  let cols = -1;
  let firstDataLine = 0;
  let values = new Float64Array(1024);
  let count = 0;
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li]!;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    split ??= splitter(line);
    const cells = split(line);
    if (cols < 0) {
      cols = cells.length;
      if (cells.some((c) => parseNumberCell(c) === undefined)) {
        header = cells;
        continue;
      }
    }
    if (firstDataLine === 0) firstDataLine = li + 1;
    if (cells.length !== cols) {
      invalidArgument(
        ctx.argName,
        `${cols} cells per row (as in ${header ? 'the header' : `line ${firstDataLine}`})`,
        `${cells.length} cells in line ${li + 1} of ${file}`,
      );
    }
    if (count + cols > values.length) {
      const grown = new Float64Array(Math.max(values.length * 2, count + cols));
      grown.set(values);
      values = grown;
    }
    for (let k = 0; k < cols; k++) {
      const v = parseNumberCell(cells[k]!);
      if (v === undefined) invalidArgument(ctx.argName, 'a number', `${describe(cells[k])} at line ${li + 1}, column ${k + 1} of ${file}`);
      values[count++] = v!;
    }
  }
  if (cols < 0) cols = 0;
  const rows = cols === 0 ? 0 : count / cols;
  return { header, rows, cols, data: values.slice(0, count) };
}

/**
 * Labels from CSV text: the only column, or the column named `column` (which needs a header row). Values must
 * be integers; the first one that is not is reported with its line.
 */
export function parseLabelsCsv(text: string, ctx: InputContext, column?: string): Int32Array {
  const table = parseNumericCsv(text, ctx);
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
