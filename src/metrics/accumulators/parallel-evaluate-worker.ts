/**
 * Worker-thread entry of `evaluateParallel` (started from the compiled dist/src/metrics/accumulators/parallel-evaluate-worker.js):
 * evaluates rows [from, to) of the shared N × C predictions into its own `CalibrationAccumulator` and posts back
 * `{ ok: true, state }` (the accumulator's `toState()`, buffers transferred) or `{ ok: false, message }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CalibrationAccumulator, type CalibrationOptions } from './calibration-accumulator.js';
import { stateBuffers, type WorkerBlock } from './parallel-block.js';

function run(block: WorkerBlock): void {
  const { data, labels, cols, from, to } = block;
  try {
    const accumulator = new CalibrationAccumulator(block.options as CalibrationOptions);
    accumulator.update({ rows: to - from, cols, data: data.subarray(from * cols, to * cols) }, labels.subarray(from, to));
    const state = accumulator.toState();
    parentPort!.postMessage({ ok: true, state }, stateBuffers(state));
  } catch (error) {
    parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
}

run(workerData as WorkerBlock);
