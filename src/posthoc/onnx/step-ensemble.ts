/**
 * ONNX emission of BBQ, ENIR and near-isotonic regression (posthoc/nonparametric/step-ensemble.ts), mode=one-vs-rest:
 * each class's ensemble collapsed to one step function (`collapseStepEnsemble`, equal to `apply` bit for bit);
 * the group of p_k is the number of its interior upper bounds strictly below p_k (bounds padded with 2 to a common
 * width), its value fetched by Gather. C > 2: rows renormalised (a class without a map gives 0); C = 2: the map of
 * the class-1 probability q, output [1 − q, q] by one MatMul and Add. mode=top-label: the step function of the
 * confidence through the top-label reduction (top-label.ts).
 */
import type { CalibratorJSON } from '../calibrator.js';
import { collapseStepEnsemble, type StepFunction } from '../nonparametric/step-ensemble.js';
import { countBelow, gatherPerClass } from './binning.js';
import { recalibrateTopLabelOnnx, stepOfColumn } from './top-label.js';
import type { OnnxSnippet, SnippetInput, SnippetOutput } from './snippet.js';

type EnsembleJSON = { weights: number[]; steps: { upper: number[]; values: number[] }[] } | null;

function collapsed(e: EnsembleJSON): StepFunction {
  if (!e) return { upper: Float64Array.of(1), values: Float64Array.of(0) };
  return collapseStepEnsemble({
    weights: Float64Array.from(e.weights),
    steps: e.steps.map((s) => ({ upper: Float64Array.from(s.upper), values: Float64Array.from(s.values) })),
  });
}

/** BBQ / ENIR / near-isotonic. */
export function stepEnsembleToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const C = b.classes;
  const ensembles = json.ensembles as EnsembleJSON[];
  if ((json.settings as { mode: string }).mode === 'top-label') {
    const step = collapsed(ensembles[0]!);
    return { probabilities: recalibrateTopLabelOnnx(b, b.probabilitiesOf(input), (c) => stepOfColumn(b, c, step)) };
  }
  const perClass = C === 2 ? [collapsed(ensembles[0]!), collapsed(ensembles[0]!)] : ensembles.map(collapsed);
  const K = Math.max(1, ...perClass.map((s) => s.upper.length - 1));
  const bounds: number[] = [];
  const values: number[] = [];
  for (const s of perClass) {
    for (let j = 0; j < K; j++) bounds.push(j < s.upper.length - 1 ? s.upper[j]! : 2);
    for (let j = 0; j <= K; j++) values.push(s.values[Math.min(j, s.values.length - 1)]!);
  }
  const p = b.probabilitiesOf(input);
  const group = countBelow(b, p, b.constant('step_bounds', [C, K], bounds));
  const mapped = gatherPerClass(b, b.constant('step_values', [values.length], values), K + 1, group);
  if (C !== 2) return { probabilities: b.normalizeRows(mapped) };
  const flip = b.op('MatMul', [mapped, b.constant('binary_flip', [2, 2], [0, 0, -1, 1])]);
  return { probabilities: b.op('Add', [flip, b.constant('binary_offset', [2], [1, 0])]) };
}
