import type { CalibrationAccumulatorState, CalibrationOptions } from './calibration-accumulator.js';

/** What `evaluateParallel` sends a worker: shared predictions N × C and labels [N], and its rows [from, to). */
export interface WorkerBlock {
  readonly data: Float32Array | Float64Array;
  readonly labels: Int32Array;
  readonly cols: number;
  readonly from: number;
  readonly to: number;
  /** Normalised options (plain data). */
  readonly options: CalibrationOptions;
}

/** A worker's answer. */
export type WorkerReply = { readonly ok: true; readonly state: CalibrationAccumulatorState } | { readonly ok: false; readonly message: string };

export { stateBuffers } from './metric-state.js';
