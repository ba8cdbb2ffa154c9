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

/** The distinct ArrayBuffers of a state's typed arrays (the transfer list of `postMessage`). */
export function stateBuffers(state: CalibrationAccumulatorState): ArrayBuffer[] {
  const views: (ArrayBufferView | null)[] = [
    state.top.confidence,
    state.top.correct,
    state.top.counts,
    state.top.sumConfidence,
    state.top.sumConfidenceError,
    state.top.sumCorrect,
    state.kept,
    state.keptLabels,
  ];
  if (state.classwise !== null)
    views.push(state.classwise.counts, state.classwise.sumProbability, state.classwise.sumProbabilityError, state.classwise.sumLabel);
  const buffers = new Set<ArrayBuffer>();
  for (const v of views) if (v !== null && v.buffer instanceof ArrayBuffer) buffers.add(v.buffer);
  return [...buffers];
}
