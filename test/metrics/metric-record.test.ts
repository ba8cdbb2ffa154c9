import { test } from 'node:test';
import assert from 'node:assert/strict';
import { METRIC_NAMES, METRICS, metricDefinition, type MetricName } from '../../src/metrics/record/metric-registry.js';
import type { MetricDefinition } from '../../src/metrics/record/metric-definition.js';
import { DIRECTIONAL_METRIC_NAMES, metricDigits, metricHeader, metricShortName } from '../../src/metrics/record/metric-display.js';
import { evaluate } from '../../src/metrics/accumulators/evaluate.js';
import { evaluateWeighted, WEIGHTED_METRIC_NAMES, WEIGHTED_TOP_LABEL_NAMES, weightRefusal } from '../../src/metrics/weighted/weighted-evaluate.js';
import { KNOWN_COLUMNS, metricTable } from '../../src/report/metric-table.js';
import { tableColumns, metricColumn } from '../../src/suite/report/suite-table.js';
import { SHIFT_METRIC_INFO } from '../../src/suite/report/shift-tables.js';
import { chooseSweepValue, selectionMetric, selectionRuleText } from '../../src/suite/report/sweep-selection.js';
import { SELECTION_RULES } from '../../src/suite/suite-schema.js';
import { claimMetricDirection } from '../../src/suite/claims/claim-metric.js';
import { higherIsBetter } from '../../src/suite/claims/qualitative-claim.js';
import { BestEpoch, SELECTION_METRIC_KEYS } from '../../src/train/run/best-epoch.js';
import { SHIFT_METRIC_KEYS } from '../../src/train/evaluation/shift-metrics.js';
import { GROUP_FLAGS, GROUP_METRICS } from '../../src/cli/eval/group-eval.js';
import { formatMetricsTable } from '../../src/cli/eval/metrics-report.js';
import { metricsTable } from '../../src/cli/docs/generated-tables.js';
import { matrix } from '../../src/util/matrix.js';
import { SELECTION_METRICS as POSTHOC_SELECTION_METRICS } from '../../src/posthoc/composite/auto-select.js';

/**
 * The metric record (issue 27 item 2): every metric declares its direction, label and format, and whether it takes
 * sample weights; every consumer that used to keep its own list (report columns, suite and shift tables, best-epoch
 * and sweep selection, claim directions, the worst group of `calib eval --groups`, the weighted lists, `calib eval`'s
 * table and the README's metric table) is checked here to read the record, so a metric added once reaches all.
 */

const ALL = METRICS as readonly MetricDefinition[];

test('every metric of the record declares a direction, a label, a format and its weighted status', () => {
  for (const m of ALL) {
    assert.ok(['lower', 'higher', 'none'].includes(m.better), `${m.key}: better`);
    assert.ok(typeof m.label === 'string' && m.label.trim() !== '', `${m.key}: label`);
    assert.ok(metricShortName(m).trim() !== '' && !metricShortName(m).endsWith('(%)'), `${m.key}: short name without unit`);
    assert.equal(typeof m.percent, 'boolean', `${m.key}: percent`);
    const digits = metricDigits(m);
    assert.ok(Number.isInteger(digits) && digits >= 0 && digits <= 8, `${m.key}: digits`);
    if (m.weighted !== undefined) {
      if ('refused' in m.weighted) assert.ok(m.weighted.refused.length > 10, `${m.key}: refusal reason`);
      else assert.ok(['top-label', 'rows'].includes(m.weighted.scope) && typeof m.weighted.compute === 'function', `${m.key}: weighted compute`);
    }
  }
  // A few directions by their meaning (errors, losses and risks lower; accuracy and AUROC-type scores higher).
  const direction = (k: MetricName) => metricDefinition(k).better;
  for (const k of ['ece', 'nll', 'brier', 'aurc', 'fpr95', 'refinement_nll', 'kuiper'] as const) assert.equal(direction(k), 'lower', k);
  for (const k of ['accuracy', 'error_auroc', 'cov_at_5risk', 'corp_dsc'] as const) assert.equal(direction(k), 'higher', k);
  for (const k of ['mean_confidence', 'mean_entropy', 'ks_p', 'spiegelhalter_z', 'smooth_ece_bandwidth'] as const) assert.equal(direction(k), 'none', k);
});

test('report columns are the record: every metric under its --json key, no other keys but the temperature', () => {
  assert.deepEqual(Object.keys(KNOWN_COLUMNS).sort(), [...METRIC_NAMES, 'temperature'].sort());
  for (const m of ALL) {
    const c = KNOWN_COLUMNS[m.key]!;
    assert.equal(c.label, metricHeader(m), m.key);
    assert.equal(c.format, m.percent ? 'percent' : 'number', m.key);
    assert.equal(c.decimals, metricDigits(m), m.key);
    assert.equal(c.better, m.better === 'none' ? undefined : m.better, m.key);
  }
  // evaluate()'s own keys now get labels and best marks (before, 27 of its metrics printed as bare keys).
  const p = matrix(4, 2, Float64Array.from([0.9, 0.1, 0.2, 0.8, 0.6, 0.4, 0.3, 0.7]));
  const y = Int32Array.from([0, 1, 1, 1]);
  const a = evaluate(p, y, { input: 'probabilities', bins: 2 });
  const t = metricTable([
    { name: 'a', metrics: { aurc: a.aurc, cov_at_5risk: a.cov_at_5risk } },
    { name: 'b', metrics: { aurc: a.aurc + 0.01, cov_at_5risk: a.cov_at_5risk + 0.5 } },
  ]);
  assert.deepEqual(
    t.columns.map((c) => [c.label, c.better]),
    [
      ['AURC (%)', 'lower'],
      ['coverage at 5% risk (%)', 'higher'],
    ],
  );
  assert.deepEqual(
    t.rows.map((r) => r.cells.map((c) => c.best)),
    [
      [true, false],
      [false, true],
    ],
  );
});

test("suite table columns read name, unit and direction from the record (the committed reports' headers)", () => {
  const cols = tableColumns(['temperature', 'ensemble-temperature'], true, true);
  assert.deepEqual(
    cols.map((c) => c.label),
    [
      'Acc. (%)',
      'ECE (%)',
      'AdaECE (%)',
      'NLL',
      'Mean conf. (%)',
      'ECE after TS (%)',
      'NLL after TS',
      'ECE after ETS (%)',
      'NLL after ETS',
      'Train acc. (%)',
      'Train ECE (%)',
      'Acc. w/o bg (%)',
      'ECE w/o bg (%)',
      'Mean conf. w/o bg (%)',
      'ECE w/o bg after TS (%)',
      'ECE w/o bg after ETS (%)',
      'T',
    ],
  );
  assert.deepEqual(
    cols.map((c) => c.key),
    [
      'accuracy',
      'ece',
      'adaece',
      'nll',
      'mean_confidence',
      'ece@temperature',
      'nll@temperature',
      'ece@ensemble-temperature',
      'nll@ensemble-temperature',
      'train:accuracy',
      'train:ece',
      'fg:accuracy',
      'fg:ece',
      'fg:mean_confidence',
      'fg:ece@temperature',
      'fg:ece@ensemble-temperature',
      'T',
    ],
  );
  for (const c of cols.filter((c) => c.metric !== 'temperature')) {
    const d = metricDefinition(c.metric as MetricName);
    assert.equal(c.percent, d.percent, c.key);
    assert.equal(c.better, d.better === 'none' ? undefined : d.better, c.key);
  }
  // The JSON shape of a column is unchanged (key order, no `better` for mean confidence).
  assert.deepEqual(Object.keys(metricColumn('ece', { after: 'temperature', split: 'foreground' })), ['key', 'label', 'metric', 'after', 'split', 'percent', 'better']);
  assert.deepEqual(metricColumn('mean_confidence'), { key: 'mean_confidence', label: 'Mean conf. (%)', metric: 'mean_confidence', percent: true });
  // Any metric of the record has a column.
  assert.deepEqual(metricColumn('cov_at_5risk', { split: 'train' }), {
    key: 'train:cov_at_5risk',
    label: 'Train coverage at 5% risk (%)',
    metric: 'cov_at_5risk',
    split: 'train',
    percent: true,
    better: 'higher',
  });
});

test('shift metric info, best-epoch and sweep selection, claim directions and the worst group follow the record', () => {
  for (const k of SHIFT_METRIC_KEYS) {
    const d = metricDefinition(k);
    assert.deepEqual(SHIFT_METRIC_INFO[k], { name: metricShortName(d), percent: d.percent, better: d.better }, k);
  }
  assert.equal(SHIFT_METRIC_INFO.adaece_l2.name, 'ECE ℓ2 equal-mass'); // karandikar's committed severity table
  for (const [criterion, key] of Object.entries(SELECTION_METRIC_KEYS)) {
    assert.equal(new BestEpoch(criterion as keyof typeof SELECTION_METRIC_KEYS).maximize, metricDefinition(key).better === 'higher', criterion);
  }
  for (const rule of SELECTION_RULES) {
    const higher = metricDefinition(selectionMetric(rule)).better === 'higher';
    const chosen = chooseSweepValue(
      [
        { accuracy: 0.9, score: 0.1 },
        { accuracy: 0.9, score: 0.2 },
      ],
      rule,
    );
    assert.equal(chosen, higher ? 1 : 0, rule);
    assert.match(selectionRuleText(rule), higher ? /^highest/ : /^lowest/, rule);
  }
  // Any metric with a direction is a sweep rule under its --json key; the named rules keep their meaning.
  assert.deepEqual(SELECTION_RULES.filter((r) => !r.includes('-') && r !== 'refinement').sort(), [...DIRECTIONAL_METRIC_NAMES].sort());
  assert.equal(selectionRuleText('brier'), 'lowest mean validation Brier');
  assert.equal(selectionRuleText('cov_at_5risk'), 'highest mean validation coverage at 5% risk');
  assert.equal(
    chooseSweepValue(
      [
        { accuracy: 0.9, score: 0.3 },
        { accuracy: 0.8, score: 0.2 },
      ],
      'brier',
    ),
    1,
  );
  for (const k of METRIC_NAMES) {
    const d = metricDefinition(k).better;
    for (const name of [k, `fg_${k}`, `train_${k}`]) {
      assert.equal(claimMetricDirection(name), d, name);
      assert.equal(higherIsBetter(name), d === 'higher', name);
    }
  }
  assert.equal(higherIsBetter('noise_auroc'), true);
  assert.equal(higherIsBetter('miou'), true);
  assert.equal(higherIsBetter('shift_accuracy_s5'), true);
  assert.equal(higherIsBetter('shift_ece'), false);
  assert.equal(higherIsBetter('ood_confidence'), false);
  // selectCalibrator (`calib fit --method auto`, `calib compare`) ranks by the lowest held-out value: lower-is-better metrics only.
  for (const k of POSTHOC_SELECTION_METRICS) assert.equal(metricDefinition(k).better, 'lower', k);
  assert.deepEqual(
    GROUP_METRICS,
    METRIC_NAMES.filter((k) => metricDefinition(k).better !== 'none'),
  );
  assert.deepEqual(GROUP_FLAGS['group-metric'].schema.choices, DIRECTIONAL_METRIC_NAMES);
});

test("the weighted lists and refusals are the record's", () => {
  const computed = ALL.filter((m) => m.weighted !== undefined && 'compute' in m.weighted);
  assert.deepEqual(
    WEIGHTED_METRIC_NAMES,
    computed.map((m) => m.key),
  );
  assert.deepEqual(
    WEIGHTED_TOP_LABEL_NAMES,
    computed.filter((m) => m.weighted !== undefined && 'scope' in m.weighted && m.weighted.scope === 'top-label').map((m) => m.key),
  );
  for (const m of ALL) {
    const reason = weightRefusal(m.key as MetricName, { marginalDebias: false });
    if (m.weighted === undefined) assert.equal(reason, 'not implemented with sample weights yet', m.key);
    else if ('refused' in m.weighted) assert.equal(reason, m.weighted.refused, m.key);
    else assert.equal(reason, null, m.key);
  }
  // evaluateWeighted computes exactly the record's weighted metrics (unit weights: the unweighted values).
  const p = matrix(4, 2, Float64Array.from([0.9, 0.1, 0.2, 0.8, 0.6, 0.4, 0.3, 0.7]));
  const y = Int32Array.from([0, 1, 1, 1]);
  const w = evaluateWeighted(p, y, [1, 1, 1, 1], { input: 'probabilities', bins: 2, marginalDebias: false });
  const plain = evaluate(p, y, { input: 'probabilities', bins: 2, marginalDebias: false });
  assert.deepEqual(Object.keys(w.values), [...WEIGHTED_METRIC_NAMES]);
  for (const k of WEIGHTED_METRIC_NAMES) assert.ok(Math.abs(w.values[k]! - plain[k]) <= 1e-12, k);
});

test("calib eval's table and the README metric table list every metric with its label, direction and weights", () => {
  const p = matrix(4, 2, Float64Array.from([0.9, 0.1, 0.2, 0.8, 0.6, 0.4, 0.3, 0.7]));
  const table = formatMetricsTable(evaluate(p, Int32Array.from([0, 1, 1, 1]), { input: 'probabilities', bins: 2 }));
  for (const m of ALL) assert.ok(table.includes(m.label), m.key);
  const readme = metricsTable().split('\n').slice(2);
  assert.equal(readme.length, ALL.length);
  readme.forEach((row, i) => {
    const m = ALL[i]!;
    const cells = row.split(' | ');
    assert.equal(cells[0], `| \`${m.key}\``);
    assert.equal(cells[2], m.better === 'none' ? '—' : m.better, m.key);
    assert.equal(cells[3], m.weighted === undefined ? 'not yet' : 'refused' in m.weighted ? 'refused' : m.weighted.refusal ? 'yes (some settings)' : 'yes', m.key);
  });
});
