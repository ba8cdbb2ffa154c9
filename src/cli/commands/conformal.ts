import { CONFORMAL_METHODS, conformalMetrics, fitConformal, requireConformalMethod, softmax } from '../../metrics/index.js';
import { requireLabels, requirePredictionValues } from '../../metrics/validation.js';
import { readLabelsFile, readMatrixFile } from '../../io/read-predictions.js';
import { randomSplit } from '../../data/splits.js';
import { invalidArgument, requireNumber } from '../../util/errors.js';
import { matrix, type Matrix } from '../../util/matrix.js';
import { UsageError } from '../args.js';
import { defineCommand } from '../command.js';
import { formatTable, percent } from '../format-table.js';
import { CONDITIONAL_CONFORMAL_DESCRIPTION, CONDITIONAL_CONFORMAL_FLAGS, runConditionalConformal } from '../conformal-conditional.js';
import { readGroups } from '../eval/group-eval.js';
import { flag } from '../flag.js';
import { boolean, described, number, optional, string } from '../../util/schema.js';

/**
 * `calib conformal`: split-conformal prediction sets (metrics/conformal-prediction.ts: LAC, APS, RAPS) fitted on
 * a calibration split — the first `--calibration-fraction` of the rows, or separate --calib-* files — and their
 * empirical coverage and mean set size on the remaining (test) rows.
 */
export const conformalCommand = defineCommand({
  name: 'conformal',
  summary: 'Conformal prediction sets (LAC, APS, RAPS): threshold on a calibration split, coverage and set size on the rest.',
  usage:
    '(--logits FILE | --probs FILE) --labels FILE [--calib-logits FILE | --calib-probs FILE --calib-labels FILE] [--class-conditional] [--groups FILE [--calib-groups FILE]] [--min-cell-size K] [options]',
  description: [
    'Sets {k : s(x, k) ≤ q̂} with q̂ the ⌈(n+1)(1−α)⌉-th smallest calibration score; marginal coverage ≥ 1 − α on',
    'exchangeable data. Scores: lac 1 − p_k (Sadinle et al. 2019), aps the mass of the classes ranked at or above k',
    '(Romano et al. 2020, non-randomised), raps aps + λ·max(0, rank − k_reg) (Angelopoulos et al. 2021).',
    'Without --calib-* files, --calibration-fraction of the rows calibrate and the rest are tested: a random split',
    '(--split random, seeded by --seed; stratified by label with --split stratified), or the first rows as given',
    '(--split first; a warning when the labels look ordered, e.g. a file sorted by class, where coverage fails).',
    'α lies in (0, 1) and needs n ≥ ⌈1/α⌉ − 1 calibration rows: with fewer, q̂ would be +∞ (every class in every',
    'set), which is refused with the smallest α the calibration rows allow.',
    CONDITIONAL_CONFORMAL_DESCRIPTION,
  ].join('\n'),
  examples: [
    'calib conformal --logits test-logits.npy --labels test-labels.npy --method aps --alpha 0.1',
    'calib conformal --logits logits.npy --labels labels.npy --split stratified --seed 1',
    'calib conformal --logits test.npy --labels y.npy --calib-logits val.npy --calib-labels yv.npy --method raps --json',
    'calib conformal --logits logits.npy --labels labels.npy --class-conditional --method lac --alpha 0.1',
    'calib conformal --logits test.npy --labels y.npy --groups sites.csv --calib-logits val.npy --calib-labels yv.npy --calib-groups val-sites.csv',
    'calib conformal --logits logits.npy --labels labels.npy --groups sites.csv --class-conditional --min-cell-size 30 --method lac',
  ],
  flags: {
    logits: flag(described(optional(string()), 'N × C logits of the test rows (or of all rows)'), { valueName: 'FILE' }),
    probs: flag(described(optional(string()), 'N × C probabilities instead of --logits'), { valueName: 'FILE' }),
    labels: flag(described(string(), 'N labels'), { valueName: 'FILE' }),
    'calib-logits': flag(described(optional(string()), 'calibration logits (else a split of --logits)'), { valueName: 'FILE' }),
    'calib-probs': flag(described(optional(string()), 'calibration probabilities'), { valueName: 'FILE' }),
    'calib-labels': flag(described(optional(string()), 'calibration labels'), { valueName: 'FILE' }),
    'calibration-fraction': flag(optional(number(), 0.5, 'fraction of the rows used to calibrate without --calib-*'), { valueName: 'F' }),
    split: flag(optional(string(['random', 'stratified', 'first']), 'random', 'how the rows are split without --calib-*: seeded random, stratified by label, or the first rows')),
    seed: flag(optional(number({ integer: true }), 0, 'seed of the random / stratified split')),
    method: flag(described(string([...CONFORMAL_METHODS]), 'score function(s) (default: all three)'), { repeatable: true }),
    alpha: flag(optional(number({ min: 0, exclusiveMin: true, max: 1, exclusiveMax: true }), 0.1, 'miscoverage level α in (0, 1); needs at least ⌈1/α⌉ − 1 calibration rows')),
    lambda: flag(optional(number(), 0.01, 'RAPS penalty λ')),
    'k-reg': flag(optional(number({ integer: true }), 5, 'RAPS rank k_reg')),
    ...CONDITIONAL_CONFORMAL_FLAGS,
    json: flag(optional(boolean(), false, 'print one JSON object')),
  },
  async run(flags, io) {
    const alpha = flags.alpha;
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
    if (flags['min-cell-size'] !== undefined && !(flags['class-conditional'] && flags.groups !== undefined))
      invalidArgument('--min-cell-size', 'only with --class-conditional and --groups (group × class cells)', String(flags['min-cell-size']));
    if (flags['min-cell-size'] !== undefined) requireNumber('--min-cell-size', flags['min-cell-size'], { integer: true, min: 1 });
    if (flags['calib-groups'] !== undefined && (flags.groups === undefined || !separate))
      invalidArgument('--calib-groups', 'only with --groups and --calib-logits/--calib-probs files', JSON.stringify(flags['calib-groups']));
    if (flags.groups !== undefined && separate && flags['calib-groups'] === undefined)
      invalidArgument('--calib-groups', 'the group ids of the calibration rows (--groups gives those of --logits/--probs)', 'none');
    const groupsFile = flags.groups !== undefined ? await readGroups(flags.groups, test.rows, flags.logits !== undefined ? '--logits' : '--probs') : undefined;
    let testGroups = groupsFile && Array.from(groupsFile.index, (k) => groupsFile.ids[k]!);
    let calGroups: string[] | undefined;
    let groupOrder = groupsFile?.ids;
    if (separate) {
      if (flags['calib-labels'] === undefined) throw new UsageError('--calib-logits/--calib-probs need --calib-labels');
      cal = await read(flags['calib-logits'], flags['calib-probs'], '--calib-');
      calLabels = await readLabelsFile(flags['calib-labels'], '--calib-labels');
      requireLabels(calLabels, cal.rows, cal.cols, '--calib-labels');
      if (flags['calib-groups'] !== undefined) {
        const calFile = await readGroups(flags['calib-groups'], cal.rows, flags['calib-logits'] !== undefined ? '--calib-logits' : '--calib-probs', '--calib-groups');
        calGroups = Array.from(calFile.index, (k) => calFile.ids[k]!);
        groupOrder = [...new Set([...calFile.ids, ...groupsFile!.ids])];
      }
    } else {
      const f = requireNumber('--calibration-fraction', flags['calibration-fraction'], { min: 0, exclusiveMin: true, max: 1 });
      const n = Math.round(test.rows * f);
      if (n < 1 || n >= test.rows) requireNumber('--calibration-fraction', f, { min: 1 / test.rows, max: 1 - 1 / test.rows });
      const seed = requireNumber('--seed', flags.seed, { integer: true });
      const [calRows, testRows] =
        flags.split === 'first'
          ? [Int32Array.from({ length: n }, (_, i) => i), Int32Array.from({ length: test.rows - n }, (_, i) => n + i)]
          : randomSplit(test.rows, [n, test.rows - n], { seed, ...(flags.split === 'stratified' ? { stratify: testLabels } : {}) });
      if (flags.split === 'first') {
        const order = labelOrderWarning(testLabels);
        if (order) {
          io.stderr.write(
            `calib: warning: the rows ${order}, and --split first calibrates on the first ${n.toLocaleString('en-US')} of them: ` +
              'coverage holds only for exchangeable rows; use --split random (the default) or stratified\n',
          );
        }
      }
      if (testGroups) {
        const all = testGroups;
        calGroups = Array.from(calRows!, (i) => all[i]!);
        testGroups = Array.from(testRows!, (i) => all[i]!);
      }
      [cal, calLabels] = takeRows(test, testLabels, calRows!);
      [test, testLabels] = takeRows(test, testLabels, testRows!);
    }
    const smallest = 1 / (cal.rows + 1);
    if (alpha < smallest) {
      invalidArgument(
        '--alpha',
        `α ≥ 1/(n + 1) = ${smallest.toPrecision(3)} for n = ${cal.rows.toLocaleString('en-US')} calibration rows (q̂ is the ⌈(n + 1)(1 − α)⌉-th smallest of n scores; a smaller α would make it +∞, every class in every set: α = ${alpha} needs at least ${(Math.ceil(1 / alpha) - 1).toLocaleString('en-US')} calibration rows)`,
        String(alpha),
      );
    }
    const methods = (flags.method.length > 0 ? flags.method : [...CONFORMAL_METHODS]).map((m) => requireConformalMethod(m, '--method'));
    if (flags['class-conditional'] || testGroups) {
      const split = separate ? 'files' : flags.split;
      const how = separate ? '' : flags.split === 'first' ? ' (the first rows of the input)' : ` (${flags.split} split of the input, seed ${flags.seed})`;
      return runConditionalConformal(
        {
          taxonomy: testGroups ? (flags['class-conditional'] ? 'group-class' : 'group') : 'class',
          cal,
          calLabels,
          test,
          testLabels,
          ...(testGroups && { calGroups: calGroups!, testGroups, groupOrder: groupOrder! }),
        },
        {
          methods,
          alpha,
          lambda: flags.lambda,
          kReg: flags['k-reg'],
          minCellSize: flags['min-cell-size'],
          json: flags.json === true,
          header: { alpha, n_calibration: cal.rows, n_test: test.rows, split, ...(split === 'random' || split === 'stratified' ? { seed: flags.seed } : {}) },
          heading: `${cal.rows.toLocaleString('en-US')} calibration rows${how}, ${test.rows.toLocaleString('en-US')} test rows, α = ${alpha}`,
        },
        io,
      );
    }
    const results = methods.map((method) => {
      const fitted = fitConformal(cal, calLabels, { method, alpha, lambda: flags.lambda, kReg: flags['k-reg'] });
      return { ...fitted, ...conformalMetrics(test, testLabels, fitted) };
    });
    if (flags.json) {
      const out = Object.fromEntries(results.map((r) => [r.method, { threshold: r.threshold, coverage: r.coverage, mean_set_size: r.meanSetSize, empty_sets: r.emptySets }]));
      const split = separate ? 'files' : flags.split;
      return void io.stdout.write(
        `${JSON.stringify({ alpha, n_calibration: cal.rows, n_test: test.rows, split, ...(split === 'random' || split === 'stratified' ? { seed: flags.seed } : {}), methods: out })}\n`,
      );
    }
    const how = separate ? '' : flags.split === 'first' ? ' (the first rows of the input)' : ` (${flags.split} split of the input, seed ${flags.seed})`;
    io.stdout.write(`${cal.rows.toLocaleString('en-US')} calibration rows${how}, ${test.rows.toLocaleString('en-US')} test rows, α = ${alpha}\n\n`);
    io.stdout.write(
      formatTable(
        ['method', 'threshold q̂', 'coverage (%)', 'mean set size', 'empty sets (%)'],
        results.map((r) => [r.method, r.threshold.toFixed(4), percent(r.coverage), r.meanSetSize.toFixed(3), percent(r.emptySets)]),
      ),
    );
  },
});

/** The rows `indices` of `m` and `labels`, in that order. */
function takeRows(m: Matrix, labels: Int32Array, indices: Int32Array): [Matrix, Int32Array] {
  const c = m.cols;
  const data = new Float64Array(indices.length * c);
  indices.forEach((row, i) => data.set(m.data.subarray(row * c, row * c + c), i * c));
  return [matrix(indices.length, c, data), Int32Array.from(indices, (row) => labels[row]!)];
}

/**
 * Why `labels` look ordered, or null: consecutive rows change label in X of the n − 1 places where a random order
 * changes in E = (n − 1)(1 − Σ_k π_k²) on average (π_k the label frequencies); warned when X < E / 2 and E ≥ 20
 * (a file sorted or grouped by class changes K − 1 times). In simulated random orders (2 to 100 classes, 40 to 5,000
 * rows, balanced and 97:3) X had mean E and a standard deviation below √E, so X < E / 2 is ≥ √E / 2 ≥ 2.2 of them out.
 */
export function labelOrderWarning(labels: Int32Array): string | null {
  const n = labels.length;
  if (n < 2) return null;
  const counts = new Map<number, number>();
  for (const y of labels) counts.set(y, (counts.get(y) ?? 0) + 1);
  let same = 0;
  for (const c of counts.values()) same += (c / n) ** 2;
  const expected = (n - 1) * (1 - same);
  let changes = 0;
  for (let i = 1; i < n; i++) if (labels[i] !== labels[i - 1]) changes++;
  if (expected < 20 || changes >= expected / 2) return null;
  return `look ordered by label: the label changes between consecutive rows ${changes.toLocaleString('en-US')} time${changes === 1 ? '' : 's'}, where a random order gives about ${Math.round(expected).toLocaleString('en-US')}`;
}
