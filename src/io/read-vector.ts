import { describe, invalidArgument } from '../util/errors.js';
import { parseNumericCsv } from './csv.js';
import { quotePath, readInputBytes, type InputContext } from './input-file.js';
import { pickArray, readNpzArrays, readSafetensorsArrays } from './named-arrays.js';
import { parseNpyBytes } from './npy.js';
import { fileFormat, sniffFormat, splitMember } from './read-predictions.js';

/**
 * One column of numbers (N values) from any input format: `.npy` of shape (N,) or (N, 1); `.npz` /
 * `.safetensors` members (FILE:NAME, or by the usual name); CSV: the only column or the column named `column`
 * (header row needed); JSON: an array of numbers, or an object holding one under `column` (or the usual name);
 * `-` for standard input. Used for top-label results (confidence, predicted class, label, correctness) and
 * for positive-class probabilities and OOD scores. Values are returned as read (not validated).
 */
export async function readVectorFile(path: string, argName: string, options: { column?: string; names?: readonly string[] } = {}): Promise<Float64Array> {
  const { file, member } = splitMember(path);
  const ctx: InputContext = { argName, path: file };
  const bytes = await readInputBytes(ctx);
  const format = file === '-' ? sniffFormat(bytes) : fileFormat(path, argName);
  const names = options.column !== undefined ? [options.column] : (options.names ?? []);
  if (format === 'npy' || format === 'npz' || format === 'safetensors') {
    const array = format === 'npy' ? parseNpyBytes(bytes, ctx) : pickArray(format === 'npz' ? readNpzArrays(bytes, ctx) : readSafetensorsArrays(bytes, ctx), ctx, member ?? options.column, names);
    const { shape } = array;
    if (!(shape.length === 1 || (shape.length === 2 && shape[1] === 1))) invalidArgument(argName, 'a 1-D array, shape (N,) or (N, 1)', `shape (${shape.join(', ')}) in ${quotePath(path)}`);
    return Float64Array.from(array.data);
  }
  const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, '');
  if (format === 'json') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return invalidArgument(argName, 'valid JSON', `${(error as Error).message} in ${quotePath(path)}`);
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const obj = value as Record<string, unknown>;
      const key = names.find((k) => k in obj);
      if (key === undefined)
        invalidArgument(
          argName,
          `an array or an object with key ${names.map((n) => describe(n)).join(' or ')}`,
          `keys ${Object.keys(obj)
            .map((k) => describe(k))
            .join(', ')} in ${quotePath(path)}`,
        );
      value = obj[key!];
    }
    if (!Array.isArray(value)) return invalidArgument(argName, 'a JSON array of numbers', `${describe(value)} in ${quotePath(path)}`);
    return Float64Array.from(value, (v: unknown, i: number) => {
      if (typeof v !== 'number') invalidArgument(argName, 'numbers', `${describe(v)} at index ${i} of ${quotePath(path)}`);
      return v as number;
    });
  }
  const table = parseNumericCsv(text, ctx);
  let k = 0;
  if (options.column !== undefined) {
    if (table.header === null) invalidArgument(argName, `a header row with a column ${describe(options.column)}`, `a file without header: ${quotePath(path)}`);
    k = table.header!.indexOf(options.column);
    if (k < 0) invalidArgument(argName, `a column named ${describe(options.column)}`, `columns ${table.header!.map((h) => describe(h)).join(', ')} in ${quotePath(path)}`);
  } else if (table.cols !== 1) {
    invalidArgument(argName, 'a single column (or name one with --columns)', `${table.cols} columns in ${quotePath(path)}`);
  }
  const out = new Float64Array(table.rows);
  for (let i = 0; i < table.rows; i++) out[i] = table.data[i * table.cols + k]!;
  return out;
}
