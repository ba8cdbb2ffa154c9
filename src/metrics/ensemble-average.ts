/**
 * The deep-ensemble prediction (Lakshminarayanan, Pritzel, Blundell, NeurIPS 2017): the average of the members'
 * predictive distributions, p̄_ik = (1/K) Σ_k p^(k)_ik with p^(k) = softmax(z^(k)) for logit members.
 */
import { invalidArgument } from '../util/errors.js';
import type { Matrix } from '../util/matrix.js';
import { softmax } from './numeric/softmax.js';
import { type PredictionKind, requireMatrix, requirePredictionKind, requirePredictionValues } from './validation.js';

/** Average of K ≥ 1 members' probabilities (members given as logits or probabilities, all N × C). */
export function ensembleProbabilities(members: readonly Matrix[], input: PredictionKind = 'logits'): Matrix<Float64Array> {
  requirePredictionKind(input);
  if (!Array.isArray(members) || members.length === 0) invalidArgument('members', 'at least one prediction matrix', String(members));
  const first = members[0]!;
  requireMatrix(first, 'members[0]');
  const out = new Float64Array(first.rows * first.cols);
  members.forEach((m, k) => {
    requireMatrix(m, `members[${k}]`);
    if (m.rows !== first.rows || m.cols !== first.cols) invalidArgument(`members[${k}]`, `a ${first.rows} × ${first.cols} matrix like members[0]`, `${m.rows} × ${m.cols}`);
    if (input === 'probabilities') requirePredictionValues(m, 'probabilities', `members[${k}]`);
    const p = input === 'logits' ? softmax(m).data : m.data;
    for (let i = 0; i < out.length; i++) out[i]! += p[i]!;
  });
  const inv = 1 / members.length;
  for (let i = 0; i < out.length; i++) out[i]! *= inv;
  return { rows: first.rows, cols: first.cols, data: out };
}
