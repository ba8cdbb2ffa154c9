import { PROBABILITY_SUM_TOLERANCE, requireLabels, requirePredictionValues } from '../metrics/validation.js';
import { sharedFloat32Array, sharedFloat64Array } from '../metrics/accumulators/shared-arrays.js';
import { openLabelsSource, openMatrixSource, type LabelsSource, type MatrixSource } from '../io/read-predictions.js';
import { requirePredictionShape } from '../io/validate.js';
import { matrix, type Matrix } from '../util/matrix.js';
import { UsageError } from './args.js';
import { flag } from './flag.js';
import { described, optional, string } from '../util/schema.js';

/**
 * The prediction/label inputs shared by the commands: flag specs, `--logits` xor `--probs`, shape checks before
 * reading, and value checks on every chunk (finite values; probabilities ≥ 0 with rows summing to 1 within 1e-3;
 * labels integral and in [0, C)) with positions relative to the whole file.
 */

export const PREDICTION_FLAGS = {
  logits: flag(described(optional(string()), 'N × C logits (.npy, .csv or .json), or dense N × C × H × W (.npy; labels N × H × W)'), { valueName: 'FILE' }),
  probs: flag(described(optional(string()), 'N × C probabilities, rows summing to 1 (instead of --logits)'), { valueName: 'FILE' }),
} as const;

export const LABEL_FLAGS = {
  labels: flag(described(string(), 'N integer class labels in [0, C) (.npy, .csv or .json)'), { valueName: 'FILE' }),
  'label-column': flag(described(optional(string()), 'column of a multi-column labels CSV'), { valueName: 'NAME' }),
} as const;

/** Rows per chunk when streaming .npy inputs (64 Ki rows × C float32 is a few MB). */
export const ROWS_PER_CHUNK = 65536;

export interface PredictionInput {
  /** What the matrix holds. */
  readonly kind: 'logits' | 'probabilities';
  /** The flag it came from: '--logits' or '--probs'. */
  readonly argName: '--logits' | '--probs';
  readonly source: MatrixSource;
  /** Filled while --logits chunks are validated: how many rows were seen and how many look like probabilities. */
  readonly look: { rows: number; probabilityLike: number };
}

/**
 * Count the rows of a --logits chunk that look like probabilities (every entry in [0, 1], summing to 1 within
 * the tolerance `--probs` accepts): softmax of probabilities is a valid-looking but wrong input.
 */
function lookAtLogits(predictions: PredictionInput, m: Matrix): void {
  if (predictions.kind !== 'logits') return;
  const { rows, cols, data } = m;
  let like = 0;
  for (let i = 0; i < rows; i++) {
    let sum = 0;
    let inUnit = true;
    for (let k = 0; k < cols; k++) {
      const v = data[i * cols + k]!;
      if (!(v >= 0 && v <= 1)) {
        inUnit = false;
        break;
      }
      sum += v;
    }
    if (inUnit && Math.abs(sum - 1) <= PROBABILITY_SUM_TOLERANCE) like++;
  }
  predictions.look.rows += rows;
  predictions.look.probabilityLike += like;
}

/**
 * A warning line (for stderr) when every row of the --logits input read so far looks like probabilities, else
 * undefined: the metrics would be those of softmax(probabilities), not of the model.
 */
export function logitsWarning(predictions: PredictionInput): string | undefined {
  const { rows, probabilityLike } = predictions.look;
  if (predictions.kind !== 'logits' || rows === 0 || probabilityLike < rows) return undefined;
  return (
    `calib: warning: every row of --logits is in [0, 1] and sums to 1, like probabilities; ` + `if these are probabilities, pass them with --probs (softmax of probabilities gives wrong numbers)\n`
  );
}

/** Open the one prediction input given as --logits or --probs. */
export async function openPredictions(flags: { logits?: string | undefined; probs?: string | undefined }): Promise<PredictionInput> {
  if ((flags.logits === undefined) === (flags.probs === undefined)) {
    throw new UsageError(flags.logits === undefined ? 'give the predictions with --logits FILE or --probs FILE' : 'give either --logits or --probs, not both');
  }
  const logits = flags.logits !== undefined;
  const argName = logits ? '--logits' : '--probs';
  const source = await openMatrixSource((flags.logits ?? flags.probs)!, argName, { key: logits ? 'logits' : 'probs' });
  return { kind: logits ? 'logits' : 'probabilities', argName, source, look: { rows: 0, probabilityLike: 0 } };
}

/** Open predictions and labels and check their shapes (N ≥ 1, C ≥ 2, one label per row) before reading values. */
export async function openPredictionsAndLabels(flags: {
  logits?: string | undefined;
  probs?: string | undefined;
  labels: string;
  'label-column'?: string | undefined;
}): Promise<{ predictions: PredictionInput; labels: LabelsSource }> {
  const predictions = await openPredictions(flags);
  const column = flags['label-column'];
  const dense = predictions.source.denseShape;
  const labels = await openLabelsSource(flags.labels, '--labels', {
    ...(column === undefined ? {} : { column }),
    ...(dense === undefined ? {} : { denseShape: [dense[0]!, ...dense.slice(2)] }),
  });
  requirePredictionShape(predictions.argName, predictions.source.rows, predictions.source.cols, '--labels', labels.length);
  return { predictions, labels };
}

/** A validated chunk: rows [offset, offset + matrix.rows) of the inputs. */
export interface InputChunk {
  readonly offset: number;
  readonly matrix: Matrix;
  readonly labels: Int32Array;
}

/**
 * Stream validated chunks of predictions with their labels. With `ignoreIndex`, rows whose label equals it
 * (e.g. −100 or 255, the `ignore_index` of dense/segmentation losses) are dropped before the label check; the
 * chunks' offsets then count the kept rows.
 */
export async function* validatedChunks(predictions: PredictionInput, labels: LabelsSource, rowsPerChunk = ROWS_PER_CHUNK, ignoreIndex?: number): AsyncGenerator<InputChunk> {
  const labelChunks = labels.chunks(rowsPerChunk);
  let offset = 0;
  let kept = 0;
  try {
    for await (const read of predictions.source.chunks(rowsPerChunk)) {
      const next = await labelChunks.next();
      let y = next.done ? new Int32Array(0) : next.value;
      let m = read;
      requirePredictionValues(m, predictions.kind, predictions.argName, offset);
      lookAtLogits(predictions, m);
      if (ignoreIndex !== undefined) ({ matrix: m, labels: y } = dropIgnored(m, y, ignoreIndex));
      requireLabels(y, m.rows, m.cols, '--labels', ignoreIndex === undefined ? offset : kept);
      yield { offset: kept, matrix: m, labels: y };
      offset += read.rows;
      kept += m.rows;
    }
  } finally {
    // Also on a bad chunk or an early stop: the labels' file is closed now, not by the garbage collector.
    await labelChunks.return(undefined);
  }
}

/** The rows of a chunk whose label is not `ignoreIndex`. */
function dropIgnored(m: Matrix, y: Int32Array, ignoreIndex: number): { matrix: Matrix; labels: Int32Array } {
  let keep = 0;
  for (let i = 0; i < y.length; i++) if (y[i] !== ignoreIndex) keep++;
  if (keep === y.length) return { matrix: m, labels: y };
  const data = m.data instanceof Float32Array ? new Float32Array(keep * m.cols) : new Float64Array(keep * m.cols);
  const labels = new Int32Array(keep);
  let r = 0;
  for (let i = 0; i < y.length; i++) {
    if (y[i] === ignoreIndex) continue;
    data.set(m.data.subarray(i * m.cols, (i + 1) * m.cols), r * m.cols);
    labels[r++] = y[i]!;
  }
  return { matrix: matrix(keep, m.cols, data), labels };
}

/** Stream validated prediction chunks without labels. */
export async function* validatedPredictionChunks(predictions: PredictionInput, rowsPerChunk = ROWS_PER_CHUNK): AsyncGenerator<InputChunk> {
  let offset = 0;
  for await (const m of predictions.source.chunks(rowsPerChunk)) {
    requirePredictionValues(m, predictions.kind, predictions.argName, offset);
    lookAtLogits(predictions, m);
    yield { offset, matrix: m, labels: new Int32Array(0) };
    offset += m.rows;
  }
}

/** Read everything into memory (for methods that need all samples at once: fitting, sorting metrics, bootstrap). */
export async function readAll(chunks: AsyncIterable<InputChunk>, _rows: number, cols: number): Promise<{ matrix: Matrix; labels: Int32Array }> {
  const parts: InputChunk[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  if (parts.length === 1) return { matrix: parts[0]!.matrix, labels: parts[0]!.labels };
  const rows = parts.reduce((n, p) => n + p.matrix.rows, 0); // fewer than the file's rows with an ignore index
  const float32 = parts.every((p) => p.matrix.data instanceof Float32Array);
  const data = float32 ? new Float32Array(rows * cols) : new Float64Array(rows * cols);
  const labels = new Int32Array(parts.reduce((n, p) => n + p.labels.length, 0));
  for (const p of parts) {
    data.set(p.matrix.data, p.offset * cols);
    labels.set(p.labels, p.offset);
  }
  return { matrix: matrix(rows, cols, data), labels };
}

/**
 * Read everything straight into shared memory (SharedArrayBuffer; float32 when every chunk is float32, else
 * float64), so that worker threads (`evaluateParallel`) read the rows without another copy. Memory: N·C·4 (or 8)
 * + 4·N bytes, allocated up front.
 */
export async function readAllShared(chunks: AsyncIterable<InputChunk>, rows: number, cols: number): Promise<{ matrix: Matrix; labels: Int32Array }> {
  let data: Float32Array | Float64Array | null = null;
  const labels = new Int32Array(new SharedArrayBuffer(4 * rows));
  let filled = 0;
  for await (const chunk of chunks) {
    const part = chunk.matrix.data;
    if (data === null) data = part instanceof Float32Array ? sharedFloat32Array(rows * cols) : sharedFloat64Array(rows * cols);
    else if (data instanceof Float32Array && !(part instanceof Float32Array)) {
      const wider = sharedFloat64Array(rows * cols);
      wider.set(data.subarray(0, filled * cols));
      data = wider;
    }
    data.set(part, chunk.offset * cols);
    labels.set(chunk.labels, chunk.offset);
    filled = chunk.offset + chunk.matrix.rows;
  }
  return { matrix: matrix(rows, cols, data ?? sharedFloat64Array(0)), labels };
}
