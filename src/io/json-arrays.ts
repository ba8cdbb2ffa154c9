import { describe, invalidArgument } from '../util/errors.js';
import { matrix, type Matrix } from '../util/matrix.js';
import { quotePath, type InputContext } from './input-file.js';

/**
 * Predictions and labels as JSON: a matrix is an array of rows (`[[0.1, 2.3], ...]`) or an object with a
 * `"logits"` or `"probs"` key holding one; labels are an array of integers or an object with a `"labels"` key.
 * One file may hold both (`{"logits": [[...]], "labels": [...]}`). JSON has no NaN or Infinity: `null` or such
 * tokens are reported as errors. Error positions are 0-based array indices.
 */

/** Keys a JSON object may hold a prediction matrix under. */
export type MatrixKey = 'logits' | 'probs';

function parseJson(text: string, ctx: InputContext): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const hint = /\b(NaN|-?Infinity)\b/.test(text) ? ' (JSON has no NaN or Infinity)' : '';
    return invalidArgument(ctx.argName, 'valid JSON', `${(error as Error).message}${hint} in ${quotePath(ctx.path)}`);
  }
}

function keysOf(value: object): string {
  const keys = Object.keys(value);
  return keys.length === 0 ? 'an empty object' : `an object with keys ${keys.map((k) => describe(k)).join(', ')}`;
}

/**
 * Parse a prediction matrix from JSON text. `key` is the key expected when the top level is an object (the
 * kind of predictions the caller asked for); without it, whichever of "logits"/"probs" is present is used.
 */
export function parseMatrixJson(text: string, ctx: InputContext, key?: MatrixKey): Matrix<Float64Array> {
  const file = quotePath(ctx.path);
  let value = parseJson(text, ctx);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const candidates = key ? [key] : (['logits', 'probs'] as const).filter((k) => k in obj);
    if (candidates.length !== 1 || !(candidates[0]! in obj)) {
      const wanted = key ? `key "${key}"` : 'key "logits" or "probs" (not both)';
      invalidArgument(ctx.argName, `an array of rows or an object with ${wanted}`, `${keysOf(obj)} in ${file}`);
    }
    value = obj[candidates[0]!];
  }
  if (!Array.isArray(value)) invalidArgument(ctx.argName, 'an array of rows of numbers', `${describe(value)} in ${file}`);
  const rows = value as unknown[];
  const n = rows.length;
  const first = rows[0];
  const cols = n === 0 ? 0 : Array.isArray(first) ? first.length : -1;
  const data = new Float64Array(n * Math.max(cols, 0));
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    if (!Array.isArray(row)) invalidArgument(ctx.argName, 'an array of rows of numbers', `${describe(row)} at row ${i} of ${file}`);
    if (row.length !== cols) invalidArgument(ctx.argName, `${cols} values per row (as in row 0)`, `${row.length} values in row ${i} of ${file}`);
    for (let k = 0; k < cols; k++) {
      const v: unknown = row[k];
      if (typeof v !== 'number') invalidArgument(ctx.argName, 'a number', `${v === null ? 'null' : describe(v)} at row ${i}, column ${k} of ${file}`);
      data[i * cols + k] = v as number;
    }
  }
  return matrix(n, Math.max(cols, 0), data);
}

/** Parse class labels from JSON text: an array of integers, or an object with a "labels" key holding one. */
export function parseLabelsJson(text: string, ctx: InputContext): Int32Array {
  const file = quotePath(ctx.path);
  let value = parseJson(text, ctx);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    if (!('labels' in obj)) invalidArgument(ctx.argName, 'an array of labels or an object with key "labels"', `${keysOf(obj)} in ${file}`);
    value = obj['labels'];
  }
  if (!Array.isArray(value)) invalidArgument(ctx.argName, 'an array of integer labels', `${describe(value)} in ${file}`);
  const arr = value as unknown[];
  const out = new Int32Array(arr.length);
  for (let i = 0; i < arr.length; i++) {
    const v = arr[i];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) {
      invalidArgument(ctx.argName, 'integer class labels', `${v === null ? 'null' : describe(v)} at index ${i} of ${file}`);
    }
    out[i] = v as number;
  }
  return out;
}
