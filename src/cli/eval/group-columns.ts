/**
 * Group columns for `--groups`: one group id per row, or several columns (a .npy of shape N × K, a CSV with K
 * comma-separated columns, or `--groups` repeated), and the intersection cells of several columns.
 *
 * Formats: .npy of shape (N,), (N, 1) or (N, K) of integers; .npz / .safetensors / .json: one vector of integers
 * (as `readVectorFile` reads it); .csv / .txt: one row of ids per line, fields separated by commas, a first line
 * more than N lines holds is the header (the column names). Integer ids are displayed in ascending order, string
 * ids in order of first appearance. Column names: the header's, else the file's base name (with `:k`, 0-based,
 * for column k of a file with several columns); repeated names get `#2`, `#3`, ….
 */
import { basename, extname } from 'node:path';
import { readInputBytes, readInputText } from '../../io/input-file.js';
import { parseNpyBytes } from '../../io/npy.js';
import { splitMember } from '../../io/read-predictions.js';
import { readVectorFile } from '../../io/read-vector.js';
import { invalidArgument } from '../../util/errors.js';

export interface RowGroups {
  /** Group ids in display order (integers ascending, or strings in order of first appearance). */
  readonly ids: readonly string[];
  /** Index into `ids` per row. */
  readonly index: Int32Array;
}

/** One group column: its name and its groups. */
export interface GroupColumn {
  readonly name: string;
  readonly groups: RowGroups;
}

/** Joins the ids of an intersection cell: 'north × phone'. An id holding it is refused when columns are crossed. */
export const CELL_SEPARATOR = ' × ';

function groupsOf(raw: readonly string[], numeric: boolean): RowGroups {
  const ids = [...new Set(raw)];
  if (numeric) ids.sort((a, b) => Number(a) - Number(b));
  const position = new Map(ids.map((id, k) => [id, k]));
  return { ids, index: Int32Array.from(raw, (id) => position.get(id)!) };
}

/** The group columns of one `--groups` file (N rows each). */
export async function readGroupFile(path: string, rows: number, predictionsArg: string, argName = '--groups'): Promise<GroupColumn[]> {
  const { file } = splitMember(path);
  const ext = extname(file).toLowerCase();
  const base = basename(file, extname(file)) || 'groups';
  const expected = `${rows} group ids, one per row of ${predictionsArg} (${rows} rows)`;
  const integers = (values: ArrayLike<number>, column: (i: number) => number): string[] =>
    Array.from({ length: rows }, (_, i) => {
      const v = values[i]!;
      if (!Number.isInteger(v)) invalidArgument(argName, 'integer group ids', `${v} at row ${i}${column(i) > 0 ? `, column ${column(i)}` : ''}`);
      return String(v);
    });
  if (ext === '.npy') {
    const array = parseNpyBytes(await readInputBytes({ argName, path: file }), { argName, path: file });
    const { shape } = array;
    if (!(shape.length === 1 || shape.length === 2)) invalidArgument(argName, 'a .npy of shape (N,) or (N, K): one or K group ids per row', `shape (${shape.join(', ')})`);
    if (shape[0] !== rows) invalidArgument(argName, expected, `${shape[0]} entries`);
    const k = shape.length === 1 ? 1 : shape[1]!;
    if (k === 0) invalidArgument(argName, 'at least one group column', 'shape with 0 columns');
    const data = Array.from(array.data as ArrayLike<number | bigint>, Number);
    return Array.from({ length: k }, (_, c) => {
      const column = Array.from({ length: rows }, (_, i) => data[i * k + c]!);
      return {
        name: k === 1 ? base : `${base}:${c}`,
        groups: groupsOf(
          integers(column, () => (k === 1 ? 0 : c)),
          true,
        ),
      };
    });
  }
  if (ext === '.npz' || ext === '.safetensors' || ext === '.json') {
    const values = await readVectorFile(path, argName, { names: ['groups', 'group'] });
    if (values.length !== rows) invalidArgument(argName, expected, `${values.length} entries`);
    return [
      {
        name: base,
        groups: groupsOf(
          integers(values, () => 0),
          true,
        ),
      },
    ];
  }
  const lines = (await readInputText({ argName, path })).replace(/^\uFEFF/, '').split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const header = lines.length === rows + 1 ? lines.shift()! : undefined;
  if (lines.length !== rows) invalidArgument(argName, expected, `${lines.length} lines`);
  const split = (line: string): string[] => line.split(',').map((f) => f.trim().replace(/^"(.*)"$/, '$1'));
  const k = split(header ?? lines[0] ?? '').length;
  const fields = lines.map((line, i) => {
    const f = split(line);
    if (f.length !== k)
      invalidArgument(
        argName,
        `${k} comma-separated group id${k === 1 ? '' : 's'} on every line (as on the ${header === undefined ? 'first line' : 'header'})`,
        `${f.length} on line ${i + 1 + (header === undefined ? 0 : 1)}`,
      );
    f.forEach((id) => {
      if (id === '') invalidArgument(argName, 'a group id in every field', `an empty field on line ${i + 1 + (header === undefined ? 0 : 1)}`);
    });
    return f;
  });
  const names = header === undefined ? undefined : split(header);
  return Array.from({ length: k }, (_, c) => ({
    name: names?.[c] || (k === 1 ? base : `${base}:${c}`),
    groups: groupsOf(
      fields.map((f) => f[c]!),
      false,
    ),
  }));
}

/** Every column of every `--groups` file, with distinct names. */
export async function readGroupColumns(paths: readonly string[], rows: number, predictionsArg: string, argName = '--groups'): Promise<GroupColumn[]> {
  const columns: GroupColumn[] = [];
  for (const path of paths) columns.push(...(await readGroupFile(path, rows, predictionsArg, argName)));
  const seen = new Map<string, number>();
  return columns.map((c) => {
    const n = (seen.get(c.name) ?? 0) + 1;
    seen.set(c.name, n);
    return n === 1 ? c : { ...c, name: `${c.name}#${n}` };
  });
}

/**
 * The intersection cells of several columns: a row's cell id is its ids joined by ' × ' ('north × phone'); the
 * cells in order of first appearance. One column is returned as it is. An id holding ' × ' is refused (the cell
 * ids would be ambiguous).
 */
export function intersectionGroups(columns: readonly GroupColumn[], argName = '--groups'): GroupColumn {
  if (columns.length === 1) return columns[0]!;
  for (const c of columns)
    for (const id of c.groups.ids)
      if (id.includes(CELL_SEPARATOR)) invalidArgument(argName, `group ids without "${CELL_SEPARATOR}" when several columns are crossed`, `${JSON.stringify(id)} in column ${JSON.stringify(c.name)}`);
  const rows = columns[0]!.groups.index.length;
  const raw = Array.from({ length: rows }, (_, i) => columns.map((c) => c.groups.ids[c.groups.index[i]!]!).join(CELL_SEPARATOR));
  return { name: columns.map((c) => c.name).join(CELL_SEPARATOR), groups: groupsOf(raw, false) };
}

/** The id of each row's group. */
export function idsPerRow(groups: RowGroups): string[] {
  return Array.from(groups.index, (k) => groups.ids[k]!);
}
