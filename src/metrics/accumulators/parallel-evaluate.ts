import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { CalibrationAccumulator, type CalibrationMetrics, type CalibrationOptions } from './calibration-accumulator.js';
import type { WorkerBlock, WorkerReply } from './parallel-block.js';
import { toShared } from './shared-arrays.js';
import { type Labels, requireLabels, requireMatrix, requirePredictionValues } from '../validation.js';
import { describe, invalidArgument, requireNumber } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';

/** Inputs with fewer rows are evaluated in the calling thread (starting a worker costs ~30–50 ms). */
export const PARALLEL_MIN_ROWS = 200_000;
/** Upper limit of `threads`. */
export const MAX_THREADS = 256;

export interface ParallelOptions {
  /** Threads T ≥ 1, the calling one included (default `defaultThreads()` = min(2, os.availableParallelism())). */
  readonly threads?: number;
  /** Fewer rows than this are evaluated in-thread (default `PARALLEL_MIN_ROWS`; lower it in tests). */
  readonly minParallelRows?: number;
}

/** The default thread count: min(2, os.availableParallelism()). */
export function defaultThreads(): number {
  return Math.min(2, availableParallelism());
}

/** Compiled worker entry, resolved next to this module (dist/src/metrics/accumulators/parallel-evaluate-worker.js). */
const WORKER_URL = new URL('./parallel-evaluate-worker.js', import.meta.url);

/**
 * `CalibrationAccumulator` of predictions N × C and labels [N] computed by T threads: the rows are split into
 * T contiguous blocks [⌊bN/T⌋, ⌊(b+1)N/T⌋); the calling thread updates block 0 while T − 1 worker threads
 * (node:worker_threads) each update their own accumulator over the same shared memory and post back its
 * `toState()` (transferred, 9 bytes per row); the states are merged in block order, so the result is
 * deterministic and equals one `update` of all rows (counts and samples exactly, sums as compensated sums —
 * see `CalibrationAccumulator.merge`). Predictions (and labels) not in a SharedArrayBuffer are first copied into
 * one (N·C·4 or 8 bytes and a memcpy; allocate with `sharedFloat32Array` to avoid it). Inputs with fewer than
 * `minParallelRows` rows, or T = 1, are updated in-thread with no copy. Errors: InvalidArgumentError with the
 * position in the whole input, as `update`; the state is the empty accumulator's then.
 */
export async function accumulateParallel(predictions: Matrix, labels: Labels, options: CalibrationOptions & ParallelOptions): Promise<CalibrationAccumulator> {
  if (options === null || typeof options !== 'object') invalidArgument('options', 'an options object', describe(options));
  const threads = requireNumber('threads', options.threads ?? defaultThreads(), { integer: true, min: 1, max: MAX_THREADS });
  const minRows = requireNumber('minParallelRows', options.minParallelRows ?? PARALLEL_MIN_ROWS, { integer: true, min: 0 });
  const accumulator = new CalibrationAccumulator(options); // validates the options
  requireMatrix(predictions);
  const { rows, cols } = predictions;
  if (accumulator.classes !== null && cols !== accumulator.classes) invalidArgument('predictions.cols', `${accumulator.classes} classes`, describe(cols));
  requireLabels(labels, rows, cols, 'labels');
  const blocks = Math.min(threads, rows);
  if (blocks <= 1 || rows < minRows) return accumulator.update(predictions, labels);

  const data = toShared(predictions.data);
  const sharedLabels = toShared(labels instanceof Int32Array ? labels : Int32Array.from(labels));
  const normalised: CalibrationOptions = {
    ...accumulator.top.toOptions(),
    input: accumulator.input,
    classes: cols,
    marginalBinning: accumulator.marginalBinning,
    marginalDebias: accumulator.marginalDebias,
    refinementCalibrator: accumulator.refinementCalibrator,
  };
  const bounds = Array.from({ length: blocks + 1 }, (_, b) => Math.floor((b * rows) / blocks));
  const workers: Worker[] = [];
  const replies: Promise<WorkerReply>[] = [];
  for (let b = 1; b < blocks; b++) {
    const block: WorkerBlock = { data, labels: sharedLabels, cols, from: bounds[b]!, to: bounds[b + 1]!, options: normalised };
    const worker = new Worker(WORKER_URL, { workerData: block });
    workers.push(worker);
    replies.push(workerReply(worker));
  }
  try {
    const first = new CalibrationAccumulator(normalised);
    first.update({ rows: bounds[1]!, cols, data: data.subarray(0, bounds[1]! * cols) }, sharedLabels.subarray(0, bounds[1]!));
    for (let b = 1; b < blocks; b++) {
      const reply = await replies[b - 1]!;
      if (!reply.ok) {
        const from = bounds[b]!;
        const to = bounds[b + 1]!;
        requirePredictionValues({ rows: to - from, cols, data: data.subarray(from * cols, to * cols) }, accumulator.input, 'predictions', from);
        throw new Error(`worker for rows [${from}, ${to}) failed: ${reply.message}`);
      }
      first.merge(CalibrationAccumulator.fromState(reply.state));
    }
    return first;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/**
 * Every calibration metric (as `evaluate`) computed with `accumulateParallel`: equal to `evaluate(predictions,
 * labels, options)` up to compensated-sum rounding (≤ 1e−15 relative; bit-identical in the tests). The final
 * `compute` (sorting N confidences) runs in the calling thread.
 */
export async function evaluateParallel(predictions: Matrix, labels: Labels, options: CalibrationOptions & ParallelOptions): Promise<CalibrationMetrics> {
  const accumulator = await accumulateParallel(predictions, labels, options);
  if (accumulator.count === 0) invalidArgument('predictions', 'at least one sample', '0 samples');
  return accumulator.compute();
}

/** The first message of a worker, or a failure when it errors or exits without one. */
function workerReply(worker: Worker): Promise<WorkerReply> {
  return new Promise((resolve) => {
    worker.once('message', (reply: WorkerReply) => resolve(reply));
    worker.once('error', (error) => resolve({ ok: false, message: error.message }));
    worker.once('exit', (code) => resolve({ ok: false, message: `worker exited with code ${code} before replying` }));
  });
}
