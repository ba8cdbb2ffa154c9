import { extname } from 'node:path';
import { describe, invalidArgument } from '../util/errors.js';
import { matrix, type Matrix } from '../util/matrix.js';
import { parseLabelsCsv, parseNumericCsv } from './csv.js';
import { readInputText, type InputContext } from './input-file.js';
import { parseLabelsJson, parseMatrixJson, type MatrixKey } from './json-arrays.js';
import { labelsLength, matrixShape, readNpy, readNpyHeader, readNpyRows, toLabelData, toMatrixData } from './npy.js';

/**
 * Reading predictions (N × C logits or probabilities) and labels (N class indices) from `.npy`, `.csv`
 * (also `.tsv`, `.txt`) or `.json` files, chosen by extension. Sources expose their size before any data is read
 * and then yield row chunks: `.npy` files are streamed from disk, CSV/JSON files are parsed whole and sliced.
 */

export type FileFormat = 'npy' | 'csv' | 'json';

/** The format of `path` by its extension (case-insensitive). */
export function fileFormat(path: string, argName: string): FileFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.npy') return 'npy';
  if (ext === '.csv' || ext === '.tsv' || ext === '.txt') return 'csv';
  if (ext === '.json') return 'json';
  return invalidArgument(argName, 'a file ending in .npy, .csv, .tsv, .txt or .json', describe(path));
}

export interface MatrixReadOptions {
  /** For JSON objects: the key holding the matrix ("logits" or "probs"). */
  key?: MatrixKey;
}

export interface LabelsReadOptions {
  /** For CSV files with several columns: the header name of the label column. */
  column?: string;
}

/** A prediction matrix whose size is known up front and whose rows can be read in chunks. */
export interface MatrixSource {
  readonly rows: number;
  readonly cols: number;
  /** Yield consecutive row chunks of at most `rowsPerChunk` rows (each call starts from row 0). */
  chunks(rowsPerChunk: number): AsyncGenerator<Matrix>;
}

/** Labels whose count is known up front and which can be read in chunks. */
export interface LabelsSource {
  readonly length: number;
  chunks(rowsPerChunk: number): AsyncGenerator<Int32Array>;
}

function sliceRows(m: Matrix, start: number, end: number): Matrix {
  return matrix(end - start, m.cols, m.data.subarray(start * m.cols, end * m.cols));
}

/** Open a prediction matrix file (`argName` names it in errors, e.g. `--logits`). */
export async function openMatrixSource(path: string, argName: string, options: MatrixReadOptions = {}): Promise<MatrixSource> {
  const ctx: InputContext = { argName, path };
  const format = fileFormat(path, argName);
  if (format === 'npy') {
    const header = await readNpyHeader(path, argName);
    const [rows, cols] = matrixShape(header.shape, ctx);
    return { rows, cols, chunks: (rowsPerChunk) => readNpyRows(path, { rowsPerChunk, argName }) };
  }
  const m = await readMatrixFile(path, argName, options);
  return {
    rows: m.rows,
    cols: m.cols,
    async *chunks(rowsPerChunk) {
      for (let s = 0; s < m.rows; s += rowsPerChunk) yield sliceRows(m, s, Math.min(m.rows, s + rowsPerChunk));
    },
  };
}

/** Open a labels file (`argName` names it in errors, e.g. `--labels`). */
export async function openLabelsSource(path: string, argName: string, options: LabelsReadOptions = {}): Promise<LabelsSource> {
  const ctx: InputContext = { argName, path };
  if (fileFormat(path, argName) === 'npy') {
    const header = await readNpyHeader(path, argName);
    const length = labelsLength(header.shape, ctx);
    return { length, chunks: (rowsPerChunk) => readNpyRows(path, { rowsPerChunk, argName, as: 'labels' }) };
  }
  const labels = await readLabelsFile(path, argName, options);
  return {
    length: labels.length,
    async *chunks(rowsPerChunk) {
      for (let s = 0; s < labels.length; s += rowsPerChunk) yield labels.subarray(s, Math.min(labels.length, s + rowsPerChunk));
    },
  };
}

/** Read a whole prediction matrix (N × C) from .npy, CSV or JSON. Values are not validated here. */
export async function readMatrixFile(path: string, argName: string, options: MatrixReadOptions = {}): Promise<Matrix> {
  const ctx: InputContext = { argName, path };
  const format = fileFormat(path, argName);
  if (format === 'npy') {
    const array = await readNpy(path, argName);
    const [rows, cols] = matrixShape(array.shape, ctx);
    return matrix(rows, cols, toMatrixData(array.data));
  }
  const text = await readInputText(ctx);
  if (format === 'json') return parseMatrixJson(text, ctx, options.key);
  const table = parseNumericCsv(text, ctx);
  return matrix(table.rows, table.cols, table.data);
}

/** Read all labels (N integers) from .npy, CSV or JSON. Integrality is checked; the class range is not. */
export async function readLabelsFile(path: string, argName: string, options: LabelsReadOptions = {}): Promise<Int32Array> {
  const ctx: InputContext = { argName, path };
  const format = fileFormat(path, argName);
  if (format === 'npy') {
    const array = await readNpy(path, argName);
    labelsLength(array.shape, ctx);
    return toLabelData(array.data, ctx);
  }
  const text = await readInputText(ctx);
  return format === 'json' ? parseLabelsJson(text, ctx) : parseLabelsCsv(text, ctx, options.column);
}
