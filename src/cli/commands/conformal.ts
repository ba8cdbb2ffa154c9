import { CONFORMAL_METHODS, conformalMetrics, fitConformal, requireConformalMethod, softmax } from '../../metrics/index.js';
import { requireLabels, requirePredictionValues } from '../../metrics/validation.js';
import { readLabelsFile, readMatrixFile } from '../../io/read-predictions.js';
import { requireNumber } from '../../util/errors.js';
import { matrix, type Matrix } from '../../util/matrix.js';
import { UsageError } from '../args.js';
import { defineCommand } from '../command.js';
import { formatTable, percent } from '../format-table.js';

/**
 * `calib conformal`: split-conformal prediction sets (metrics/conformal-prediction.ts: LAC, APS, RAPS) fitted on
 * a calibration split — the first `--calibration-fraction` of the rows, or separate --calib-* files — and their
 * empirical coverage and mean set size on the remaining (test) rows.
 */
export const conformalCommand = defineCommand({
  name: 'conformal',
  summary: 'Conformal prediction sets (LAC, APS, RAPS): threshold on a calibration split, coverage and set size on the rest.',
  usage: '(--logits FILE | --probs FILE) --labels FILE [--calib-logits FILE | --calib-probs FILE --calib-labels FILE] [options]',
  description: [
    'Sets {k : s(x, k) ≤ q̂} with q̂ the ⌈(n+1)(1−α)⌉-th smallest calibration score; marginal coverage ≥ 1 − α on',
    'exchangeable data. Scores: lac 1 − p_k (Sadinle et al. 2019), aps the mass of the classes ranked at or above k',
    '(Romano et al. 2020, non-randomised), raps aps + λ·max(0, rank − k_reg) (Angelopoulos et al. 2021).',
    'Without --calib-* files, the first --calibration-fraction of the rows calibrate and the rest are tested',
    '(shuffle the rows first if they are ordered).',
  ].join('\n'),
  examples: [
    'calib conformal --logits test-logits.npy --labels test-labels.npy --method aps --alpha 0.1',
    'calib conformal --logits test.npy --labels y.npy --calib-logits val.npy --calib-labels yv.npy --method raps --json',
  ],
  flags: {
    logits: { type: 'string', valueName: 'FILE', description: 'N × C logits of the test rows (or of all rows)' },
    probs: { type: 'string', valueName: 'FILE', description: 'N × C probabilities instead of --logits' },
    labels: { type: 'string', required: true, valueName: 'FILE', description: 'N labels' },
    'calib-logits': { type: 'string', valueName: 'FILE', description: 'calibration logits (else a split of --logits)' },
    'calib-probs': { type: 'string', valueName: 'FILE', description: 'calibration probabilities' },
    'calib-labels': { type: 'string', valueName: 'FILE', description: 'calibration labels' },
    'calibration-fraction': { type: 'number', default: 0.5, valueName: 'F', description: 'fraction of the rows used to calibrate without --calib-*' },
    method: { type: 'string', choices: [...CONFORMAL_METHODS], multiple: true, description: 'score function(s) (default: all three)' },
    alpha: { type: 'number', default: 0.1, description: 'miscoverage level α' },
    lambda: { type: 'number', default: 0.01, description: 'RAPS penalty λ' },
    'k-reg': { type: 'integer', default: 5, description: 'RAPS rank k_reg' },
    json: { type: 'boolean', description: 'print one JSON object' },
  },
  async run(flags, io) {
    const alpha = requireNumber('--alpha', flags.alpha, { min: 0, exclusiveMin: true, max: 1 });
    const read = async (logitsPath: string | undefined, probsPath: string | undefined, arg: string): Promise<Matrix> => {
      if ((logitsPath === undefined) === (probsPath === undefined)) throw new UsageError(`give ${arg}logits FILE or ${arg}probs FILE`);
      const m = await readMatrixFile((logitsPath ?? probsPath)!, logitsPath ? `${arg}logits` : `${arg}probs`);
      requirePredictionValues(m, logitsPath ? 'logits' : 'probabilities', logitsPath ? `${arg}logits` : `${arg}probs`);
      return logitsPath ? softmax(m) : m;
    };
    let test = await read(flags.logits, flags.probs, '--');
    let testLabels = await readLabelsFile(flags.labels, '--labels');
    requireLabels(testLabels, test.rows, test.cols, '--labels');
    let cal: Matrix;
    let calLabels: Int32Array;
    const separate = flags['calib-logits'] !== undefined || flags['calib-probs'] !== undefined;
    if (separate) {
      if (flags['calib-labels'] === undefined) throw new UsageError('--calib-logits/--calib-probs need --calib-labels');
      cal = await read(flags['calib-logits'], flags['calib-probs'], '--calib-');
      calLabels = await readLabelsFile(flags['calib-labels'], '--calib-labels');
      requireLabels(calLabels, cal.rows, cal.cols, '--calib-labels');
    } else {
      const f = requireNumber('--calibration-fraction', flags['calibration-fraction'], { min: 0, exclusiveMin: true, max: 1 });
      const n = Math.round(test.rows * f);
      if (n < 1 || n >= test.rows) requireNumber('--calibration-fraction', f, { min: 1 / test.rows, max: 1 - 1 / test.rows });
      const c = test.cols;
      cal = matrix(n, c, test.data.subarray(0, n * c));
      calLabels = testLabels.subarray(0, n);
      test = matrix(test.rows - n, c, test.data.subarray(n * c));
      testLabels = testLabels.subarray(n);
    }
    const methods = (flags.method.length > 0 ? flags.method : [...CONFORMAL_METHODS]).map((m) => requireConformalMethod(m, '--method'));
    const results = methods.map((method) => {
      const fitted = fitConformal(cal, calLabels, { method, alpha, lambda: flags.lambda, kReg: flags['k-reg'] });
      return { ...fitted, ...conformalMetrics(test, testLabels, fitted) };
    });
    if (flags.json) {
      const out = Object.fromEntries(results.map((r) => [r.method, { threshold: Number.isFinite(r.threshold) ? r.threshold : null, coverage: r.coverage, mean_set_size: r.meanSetSize, empty_sets: r.emptySets }]));
      return void io.stdout.write(`${JSON.stringify({ alpha, n_calibration: cal.rows, n_test: test.rows, methods: out })}\n`);
    }
    io.stdout.write(`${cal.rows.toLocaleString('en-US')} calibration rows${separate ? '' : ' (first part of the input)'}, ${test.rows.toLocaleString('en-US')} test rows, α = ${alpha}\n\n`);
    io.stdout.write(
      formatTable(
        ['method', 'threshold q̂', 'coverage (%)', 'mean set size', 'empty sets (%)'],
        results.map((r) => [r.method, Number.isFinite(r.threshold) ? r.threshold.toFixed(4) : '∞', percent(r.coverage), r.meanSetSize.toFixed(3), percent(r.emptySets)]),
      ),
    );
  },
});
