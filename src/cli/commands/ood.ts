import { auroc, fprAtTpr, OOD_SCORES, oodScores, requireOodScore } from '../../metrics/index.js';
import { requirePredictionValues } from '../../metrics/validation.js';
import { readMatrixFile } from '../../io/read-predictions.js';
import { describe, invalidArgument } from '../../util/errors.js';
import { defineCommand } from '../command.js';
import { formatTable, percent } from '../format-table.js';
import { flag } from '../flag.js';
import { boolean, described, optional, string } from '../../util/schema.js';

/**
 * `calib ood`: out-of-distribution detection from two files of model outputs, without training: per-sample
 * scores (metrics/selective/ood-scores.ts: MSP, max logit, energy, negative entropy), then the AUROC of in-distribution
 * against OOD samples and the FPR at 95 % TPR (in-distribution as positives).
 */
export const oodCommand = defineCommand({
  name: 'ood',
  summary: 'OOD detection AUROC and FPR at 95% TPR from in- and out-of-distribution logits (MSP, max logit, energy, entropy).',
  usage: '--in FILE --out FILE [--input logits|probs] [--score NAME]... [--json]',
  description: [
    'Scores, larger meaning more in-distribution: msp = max softmax probability (Hendrycks & Gimpel 2017),',
    'max-logit (Hendrycks et al. 2022), energy = log Σ exp(z) (Liu et al. 2020), entropy = −H(softmax(z)).',
    'With --input probs only msp and entropy are defined. AUROC counts ties as ½ (Mann–Whitney); FPR95 is the',
    'fraction of OOD samples accepted at the largest threshold that keeps 95% of the in-distribution samples.',
  ].join('\n'),
  examples: ['calib ood --in cifar10-test-logits.npy --out svhn-logits.npy', 'calib ood --in id.npz:logits --out ood.npz:logits --score energy --score max-logit --json'],
  flags: {
    in: flag(described(string(), 'N_in × C outputs on in-distribution inputs'), { valueName: 'FILE' }),
    out: flag(described(string(), 'N_out × C outputs on out-of-distribution inputs'), { valueName: 'FILE' }),
    input: flag(optional(string(['logits', 'probs']), 'logits', 'what the files hold')),
    score: flag(described(string(), `score(s) to evaluate: ${OOD_SCORES.join(', ')} (default: all that apply)`), { repeatable: true, valueName: 'NAME' }),
    json: flag(optional(boolean(), false, 'print one JSON object {score: {auroc, fpr95}}')),
  },
  async run(flags, io) {
    const kind = flags.input === 'probs' ? 'probabilities' : 'logits';
    const inside = await readMatrixFile(flags.in, '--in', { key: flags.input === 'probs' ? 'probs' : 'logits' });
    const outside = await readMatrixFile(flags.out, '--out', { key: flags.input === 'probs' ? 'probs' : 'logits' });
    requirePredictionValues(inside, kind, '--in');
    requirePredictionValues(outside, kind, '--out');
    if (inside.cols !== outside.cols) invalidArgument('--out', `${inside.cols} columns like --in`, `${outside.cols}`);
    if (inside.rows === 0 || outside.rows === 0) invalidArgument(inside.rows === 0 ? '--in' : '--out', 'at least one row', '0 rows');
    const requested = flags.score.length > 0 ? flags.score.map((s) => requireOodScore(s, '--score')) : OOD_SCORES.filter((s) => kind === 'logits' || s === 'msp' || s === 'entropy');
    const results: Record<string, { auroc: number; fpr95: number }> = {};
    for (const score of requested) {
      if (kind === 'probabilities' && (score === 'energy' || score === 'max-logit')) invalidArgument('--score', "'msp' or 'entropy' with --input probs", describe(score));
      const a = oodScores(inside, score, kind);
      const b = oodScores(outside, score, kind);
      results[score] = { auroc: auroc(a, b), fpr95: fprAtTpr(a, b, 0.95) };
    }
    if (flags.json) return void io.stdout.write(`${JSON.stringify({ n_in: inside.rows, n_out: outside.rows, scores: results })}\n`);
    io.stdout.write(`${inside.rows.toLocaleString('en-US')} in-distribution vs ${outside.rows.toLocaleString('en-US')} OOD samples, ${inside.cols} classes (${kind})\n\n`);
    io.stdout.write(
      formatTable(
        ['score', 'AUROC (%)', 'FPR at 95% TPR (%)'],
        Object.entries(results).map(([s, r]) => [s, percent(r.auroc), percent(r.fpr95)]),
      ),
    );
  },
});
