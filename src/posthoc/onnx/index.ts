/**
 * Which calibrators ONNX can express, and how: one entry per calibrator kind, an emitter or the reason ONNX
 * operators cannot express it. A kind without an entry is refused by `calib export` with a one-line error naming
 * this file (so a new calibrator states its exportability here). `calibratorToOnnx` builds the snippet of a
 * fitted calibrator.
 */
import { invalidArgument } from '../../util/errors.js';
import type { Calibrator, CalibratorJSON, CalibratorKind } from '../calibrator.js';
import { betaToOnnx, plattToOnnx } from './binary.js';
import { histogramToOnnx, isotonicToOnnx } from './binning.js';
import { dirichletToOnnx, matrixToOnnx, vectorToOnnx } from './linear.js';
import { stepEnsembleToOnnx } from './step-ensemble.js';
import { scalingBinningToOnnx, splineToOnnx, topLabelToOnnx, topVersusAllToOnnx, vennAbersToOnnx } from './top-label.js';
import { OnnxSnippet, type SnippetInput, type SnippetOutput } from './snippet.js';
import { classTemperatureToOnnx, ensembleTemperatureToOnnx, temperatureToOnnx } from './temperature.js';

export { OnnxSnippet, CAST_TO, type SnippetConstant, type SnippetInput, type SnippetNode, type SnippetOutput } from './snippet.js';

/** Emits a calibrator's ONNX from its JSON (the public, validated form of its parameters). */
export type CalibratorToOnnx = (json: CalibratorJSON, snippet: OnnxSnippet, input: SnippetInput) => SnippetOutput;

/** Per kind: its emitter, or why ONNX operators cannot express it. */
export const CALIBRATOR_ONNX: Readonly<Partial<Record<CalibratorKind, CalibratorToOnnx | { readonly notExpressible: string }>>> = Object.freeze({
  temperature: temperatureToOnnx,
  'ts-sb-ece': temperatureToOnnx,
  'ts-hb-ece': temperatureToOnnx,
  'ensemble-temperature': ensembleTemperatureToOnnx,
  vector: vectorToOnnx,
  matrix: matrixToOnnx,
  dirichlet: dirichletToOnnx,
  histogram: histogramToOnnx,
  isotonic: isotonicToOnnx,
  platt: plattToOnnx,
  beta: betaToOnnx,
  'class-temperature': classTemperatureToOnnx,
  'top-versus-all': topVersusAllToOnnx,
  'top-label': topLabelToOnnx,
  'scaling-binning': scalingBinningToOnnx,
  spline: splineToOnnx,
  'venn-abers': vennAbersToOnnx,
  bbq: stepEnsembleToOnnx,
  enir: stepEnsembleToOnnx,
  'near-isotonic': stepEnsembleToOnnx,
});

/** The kinds that can be exported to ONNX. */
export function onnxExportableKinds(): CalibratorKind[] {
  return (Object.keys(CALIBRATOR_ONNX) as CalibratorKind[]).filter((k) => typeof CALIBRATOR_ONNX[k] === 'function');
}

/**
 * The ONNX snippet of `calibrator` applied to the float64 [N, C] tensor `input` (names prefixed with `prefix`).
 * Throws `InvalidArgumentError` (naming `argName`) for a calibrator that ONNX cannot express.
 */
export function calibratorToOnnx(calibrator: Calibrator, input: SnippetInput, prefix = 'calib_', argName = 'calibrator'): { snippet: OnnxSnippet; output: SnippetOutput } {
  const entry = CALIBRATOR_ONNX[calibrator.kind];
  if (typeof entry !== 'function') {
    const why = entry ? entry.notExpressible : 'no ONNX emitter is declared for it (src/posthoc/onnx/index.ts)';
    invalidArgument(argName, `a calibrator that ONNX operators can express (${onnxExportableKinds().join(', ')})`, `${calibrator.kind}: ${why}`);
  }
  const snippet = new OnnxSnippet(prefix, calibrator.classes);
  return { snippet, output: entry(calibrator.toJSON(), snippet, input) };
}
