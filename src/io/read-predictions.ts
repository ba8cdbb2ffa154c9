import { extname } from 'node:path';
import { describe, invalidArgument } from '../util/errors.js';
import { matrix, type Matrix } from '../util/matrix.js';
import { parseLabelsCsv, parseNumericCsv } from './csv.js';
import { readInputBytes, readInputText, type InputContext } from './input-file.js';
import { parseLabelsJson, parseMatrixJson, type MatrixKey } from './json-arrays.js';
import { pickArray, readNpzArrays, readSafetensorsArrays } from './named-arrays.js';
import { labelsLength, matrixShape, parseNpyBytes, readNpy, readNpyHeader, readNpyRows, toLabelData, toMatrixData, type NpyArray } from './npy.js';

/**
 * Reading predictions (N × C logits or probabilities) and labels (N class indices) from `.npy`, `.npz`,
 * `.safetensors`, `.csv` (also `.tsv`, `.txt`) or `.json` files, chosen by extension, or from standard input
 * (`-`, format recognised from the content: the npy magic, a ZIP signature, a safetensors header, JSON, else
 * CSV). `.npz`/`.safetensors` members are chosen with `FILE:NAME` (e.g. `outputs.npz:logits`), else by their
 * usual names (logits/probs/..., labels/targets/y) or as the only array. Sources expose their size before any
 * data is read and then yield row chunks: `.npy` files are streamed from disk, the other formats are read whole
 * and sliced.
 */

export type FileFormat = 'npy' | 'npz' | 'safetensors' | 'csv' | 'json';

const EXTENSIONS = 'a file ending in .npy, .npz, .safetensors, .csv, .tsv, .txt or .json (or - for standard input)';

/** A path split into the file and an optional member name (`FILE.npz:NAME`, `FILE.safetensors:NAME`). */
export function splitMember(path: string): { file: string; member: string | undefined } {
  const m = /^(.*\.(?:npz|safetensors)):([^:/\\]+)$/i.exec(path);
  return m ? { file: m[1]!, member: m[2]! } : { file: path, member: undefined };
}

/** The format of `path` by its extension (case-insensitive); `-` (standard input) is recognised later by content. */
export function fileFormat(path: string, argName: string): FileFormat {
  const ext = extname(splitMember(path).file).toLowerCase();
  if (ext === '.npy') return 'npy';
  if (ext === '.npz') return 'npz';
  if (ext === '.safetensors') return 'safetensors';
  if (ext === '.csv' || ext === '.tsv' || ext === '.txt') return 'csv';
  if (ext === '.json') return 'json';
  if (ext === '.pt' || ext === '.pth')
    invalidArgument(
      argName,
      EXTENSIONS,
      `${describe(path)}: PyTorch torch.save files (pickles) are not read; save the tensor with safetensors ` +
        "(safetensors.torch.save_file({'logits': t}, 'out.safetensors')) or NumPy (np.save('out.npy', t.numpy()))",
    );
  return invalidArgument(argName, EXTENSIONS, describe(path));
}

/** The format of in-memory bytes (standard input) by content. */
export function sniffFormat(bytes: Uint8Array): FileFormat {
  if (bytes[0] === 0x93 && bytes[1] === 0x4e && bytes[2] === 0x55) return 'npy';
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return 'npz';
  if (bytes.length > 9 && bytes[8] === 0x7b && bytes[4] === 0 && bytes[5] === 0 && bytes[6] === 0 && bytes[7] === 0) return 'safetensors';
  let i = 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09 || bytes[i] === 0xef || bytes[i] === 0xbb || bytes[i] === 0xbf)) i++;
  return bytes[i] === 0x7b || bytes[i] === 0x5b ? 'json' : 'csv';
}

const MATRIX_NAMES = ['logits', 'probs', 'probabilities', 'predictions', 'preds', 'outputs', 'scores'];
const LABEL_NAMES = ['labels', 'label', 'targets', 'target', 'y', 'y_true'];

/** Read an input that is parsed whole: the format, plus its bytes (binary) or its text. */
async function readWhole(path: string, argName: string): Promise<{ format: FileFormat; ctx: InputContext; member: string | undefined; bytes: Uint8Array }> {
  const { file, member } = splitMember(path);
  const ctx: InputContext = { argName, path: file };
  const bytes = await readInputBytes(ctx);
  const format = file === '-' ? sniffFormat(bytes) : fileFormat(path, argName);
  return { format, ctx, member, bytes };
}

function textOf(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The array a binary container holds for a flag (npy, npz, safetensors). */
function binaryArray(format: FileFormat, bytes: Uint8Array, ctx: InputContext, member: string | undefined, preferred: readonly string[]): NpyArray {
  if (format === 'npy') return parseNpyBytes(bytes, ctx);
  const arrays = format === 'npz' ? readNpzArrays(bytes, ctx) : readSafetensorsArrays(bytes, ctx);
  return pickArray(arrays, ctx, member, preferred);
}

/** Whether `path` is read whole (standard input, .npz, .safetensors) rather than streamed or parsed as text by path. */
function readsWhole(path: string, argName: string): boolean {
  if (path === '-') return true;
  const format = fileFormat(path, argName);
  return format === 'npz' || format === 'safetensors';
}

export interface MatrixReadOptions {
  /** For JSON objects: the key holding the matrix ("logits" or "probs"). */
  key?: MatrixKey;
}

export interface LabelsReadOptions {
  /** For CSV files with several columns: the header name of the label column. */
  column?: string;
  /** Dense labels: the expected shape (N, d1, …) of an .npy, flattened row-major (see `denseSource`). */
  denseShape?: readonly number[];
}

/** A prediction matrix whose size is known up front and whose rows can be read in chunks. */
export interface MatrixSource {
  readonly rows: number;
  readonly cols: number;
  /** For dense predictions (an .npy of shape (N, C, d1, …), e.g. segmentation logits N×C×H×W): that shape. */
  readonly denseShape?: readonly number[];
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
  const format = readsWhole(path, argName) ? 'whole' : fileFormat(path, argName);
  if (format === 'npy') {
    const header = await readNpyHeader(path, argName);
    if (header.shape.length >= 3) return denseSource(path, argName, header.shape);
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

/**
 * Dense predictions (N, C, d1, …) as rows: the class axis moved last, rows in (n, d1, …) order — the pixel order of
 * labels of shape (N, d1, …) read row-major. Read whole (dense files are not streamed).
 */
async function denseSource(path: string, argName: string, shape: readonly number[]): Promise<MatrixSource> {
  const array = await readNpy(path, argName);
  const [n, c] = [shape[0]!, shape[1]!];
  const spatial = shape.slice(2).reduce((a, b) => a * b, 1);
  const src = toMatrixData(array.data);
  const data = src instanceof Float32Array ? new Float32Array(src.length) : new Float64Array(src.length);
  for (let i = 0; i < n; i++) for (let k = 0; k < c; k++) for (let j = 0; j < spatial; j++) data[(i * spatial + j) * c + k] = src[(i * c + k) * spatial + j]!;
  const m = matrix(n * spatial, c, data);
  return {
    rows: m.rows,
    cols: m.cols,
    denseShape: shape,
    async *chunks(rowsPerChunk) {
      for (let s = 0; s < m.rows; s += rowsPerChunk) yield sliceRows(m, s, Math.min(m.rows, s + rowsPerChunk));
    },
  };
}

/** Open a labels file (`argName` names it in errors, e.g. `--labels`). */
export async function openLabelsSource(path: string, argName: string, options: LabelsReadOptions = {}): Promise<LabelsSource> {
  const ctx: InputContext = { argName, path };
  if (!readsWhole(path, argName) && fileFormat(path, argName) === 'npy') {
    const header = await readNpyHeader(path, argName);
    const dense = options.denseShape;
    if (dense !== undefined && header.shape.length >= 2 && !(header.shape.length === 2 && header.shape[1] === 1)) {
      if (header.shape.join() !== dense.join()) invalidArgument(argName, `labels of shape (${dense.join(', ')}) for dense predictions`, `shape (${header.shape.join(', ')}) in ${path}`);
      const labels = toLabelData((await readNpy(path, argName)).data, ctx);
      return {
        length: labels.length,
        async *chunks(rowsPerChunk) {
          for (let s = 0; s < labels.length; s += rowsPerChunk) yield labels.subarray(s, Math.min(labels.length, s + rowsPerChunk));
        },
      };
    }
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
  if (readsWhole(path, argName)) {
    const whole = await readWhole(path, argName);
    if (whole.format === 'csv' || whole.format === 'json') return matrixFromText(textOf(whole.bytes), whole.format, whole.ctx, options);
    const preferred = options.key ? [options.key, ...MATRIX_NAMES] : MATRIX_NAMES;
    const array = binaryArray(whole.format, whole.bytes, whole.ctx, whole.member, preferred);
    const [rows, cols] = matrixShape(array.shape, whole.ctx);
    return matrix(rows, cols, toMatrixData(array.data));
  }
  const ctx: InputContext = { argName, path };
  const format = fileFormat(path, argName);
  if (format === 'npy') {
    const array = await readNpy(path, argName);
    const [rows, cols] = matrixShape(array.shape, ctx);
    return matrix(rows, cols, toMatrixData(array.data));
  }
  return matrixFromText(await readInputText(ctx), format, ctx, options);
}

function matrixFromText(text: string, format: FileFormat, ctx: InputContext, options: MatrixReadOptions): Matrix {
  if (format === 'json') return parseMatrixJson(text, ctx, options.key);
  const table = parseNumericCsv(text, ctx);
  return matrix(table.rows, table.cols, table.data);
}

/** Read all labels (N integers) from .npy, CSV or JSON. Integrality is checked; the class range is not. */
export async function readLabelsFile(path: string, argName: string, options: LabelsReadOptions = {}): Promise<Int32Array> {
  if (readsWhole(path, argName)) {
    const whole = await readWhole(path, argName);
    if (whole.format === 'json') return parseLabelsJson(textOf(whole.bytes), whole.ctx);
    if (whole.format === 'csv') return parseLabelsCsv(textOf(whole.bytes), whole.ctx, options.column);
    const array = binaryArray(whole.format, whole.bytes, whole.ctx, whole.member, LABEL_NAMES);
    labelsLength(array.shape, whole.ctx);
    return toLabelData(array.data, whole.ctx);
  }
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
