import { openLabelsSource } from '../io/read-predictions.js';
import { readVectorFile } from '../io/read-vector.js';
import { requireLabels, requirePredictionValues } from '../metrics/validation.js';
import { invalidArgument } from '../util/errors.js';
import { matrix } from '../util/matrix.js';
import type { InputChunk } from './inputs.js';

/** --positive-probs p (N values in [0, 1]) and 0/1 labels as the two-column probabilities [1 − p, p]. */
export async function readBinaryInputs(path: string, labelsPath: string, column: string | undefined): Promise<InputChunk & { p: Float64Array; y: Uint8Array }> {
  const p = await readVectorFile(path, '--positive-probs', { names: ['probs', 'probabilities', 'p', 'scores'] });
  const source = await openLabelsSource(labelsPath, '--labels', column === undefined ? {} : { column });
  const labels = new Int32Array(source.length);
  let at = 0;
  for await (const chunk of source.chunks(1 << 16)) (labels.set(chunk, at), (at += chunk.length));
  if (labels.length !== p.length) invalidArgument('--labels', `${p.length} labels, one per probability`, `${labels.length}`);
  const data = new Float64Array(2 * p.length);
  for (let i = 0; i < p.length; i++) {
    data[2 * i] = 1 - p[i]!;
    data[2 * i + 1] = p[i]!;
  }
  const m = matrix(p.length, 2, data);
  requirePredictionValues(m, 'probabilities', '--positive-probs');
  requireLabels(labels, p.length, 2, '--labels');
  return { offset: 0, matrix: m, labels, p, y: Uint8Array.from(labels) };
}
