/**
 * Which calibrators ONNX can express, and how: each calibrator's declaration (calibrators.ts) names its emitter
 * from this folder or the reason ONNX operators cannot express it. `calibratorToOnnx` builds the snippet of a
 * fitted calibrator.
 */
import { invalidArgument } from '../../util/errors.js';
import type { Calibrator } from '../calibrator.js';
import { CALIBRATOR_KINDS, calibratorDefinition, CALIBRATORS, type CalibratorKind } from '../calibrators.js';
import { CV_ENSEMBLE_KIND } from '../composite/cv-ensemble.js';
import { OnnxSnippet, type SnippetInput, type SnippetOutput } from './snippet.js';

export { OnnxSnippet, CAST_TO, type CalibratorToOnnx, type SnippetConstant, type SnippetInput, type SnippetNode, type SnippetOutput } from './snippet.js';

/** The kinds that can be exported to ONNX. */
export function onnxExportableKinds(): CalibratorKind[] {
  return CALIBRATOR_KINDS.filter((k) => typeof CALIBRATORS[k].onnx === 'function');
}

/**
 * The ONNX snippet of `calibrator` applied to the float64 [N, C] tensor `input` (names prefixed with `prefix`).
 * Throws `InvalidArgumentError` (naming `argName`) for a calibrator that ONNX cannot express.
 */
export function calibratorToOnnx(calibrator: Calibrator, input: SnippetInput, prefix = 'calib_', argName = 'calibrator'): { snippet: OnnxSnippet; output: SnippetOutput } {
  if (calibrator.kind === CV_ENSEMBLE_KIND) {
    invalidArgument(
      argName,
      'a single calibrator (refit on all rows: calib fit --cv K without --cv-ensemble)',
      'a cv-ensemble: the mean of K fold calibrators is not exported to ONNX (its graph would hold K copies of the calibrator)',
    );
  }
  const entry = calibratorDefinition(`${argName}.kind`, calibrator.kind).onnx;
  if (typeof entry !== 'function') {
    const why = entry.notExpressible;
    invalidArgument(argName, `a calibrator that ONNX operators can express (${onnxExportableKinds().join(', ')})`, `${calibrator.kind}: ${why}`);
  }
  const snippet = new OnnxSnippet(prefix, calibrator.classes);
  return { snippet, output: entry(calibrator.toJSON(), snippet, input) };
}
