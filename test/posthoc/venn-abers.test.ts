import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitVennAbers, fitVennAbersTable, vennAbersPredict } from '../../src/posthoc/nonparametric/venn-abers.js';
import { calibratorFromJSON } from '../../src/posthoc/registry.js';
import { assertClose, assertProbabilityRows, loadCalibrators12Reference, mat, splits } from './helpers.js';

test('Venn–Abers p0, p1 and merged p equal the ip200/venn-abers reference (binary, with ties)', () => {
  const ref = loadCalibrators12Reference().venn_abers;
  const s = Float64Array.from(ref.cal_scores);
  const probs = mat(
    s.length,
    2,
    Array.from(s).flatMap((v) => [1 - v, v]),
  );
  const cal = fitVennAbers({ probabilities: probs }, Int32Array.from(ref.cal_labels));
  const table = cal.tables[0]!;
  const q = ref.test_scores as number[];
  assertClose(
    q.map((v) => vennAbersPredict(table, v).p0),
    ref.p0,
    1e-12,
    0,
    'p0',
  );
  assertClose(
    q.map((v) => vennAbersPredict(table, v).p1),
    ref.p1,
    1e-12,
    0,
    'p1',
  );
  const out = cal.apply({
    probabilities: mat(
      q.length,
      2,
      q.flatMap((v) => [1 - v, v]),
    ),
  });
  assertClose(
    Array.from({ length: q.length }, (_, i) => out.data[2 * i + 1]!),
    ref.p,
    1e-12,
    0,
    'p',
  );
});

test('Venn–Abers by hand: calibration scores 0.2 (0), 0.4 (1), 0.6 (0), 0.8 (1)', () => {
  const table = fitVennAbersTable(Float64Array.of(0.2, 0.4, 0.6, 0.8), Float64Array.of(0, 1, 0, 1));
  // Test score 0.5 (between 0.4 and 0.6). With label 0: points 0, 1, 0(test), 0, 1 → PAV pools 1, 0, 0 → 1/3.
  // With label 1: 0, 1, 1(test), 0, 1 → pools 1, 1, 0 → 2/3. p = (2/3) / (1 − 1/3 + 2/3) = 1/2.
  const r = vennAbersPredict(table, 0.5);
  assertClose([r.p0, r.p1, r.p], [1 / 3, 2 / 3, 0.5], 1e-15);
  // Below every score with label 1: 1, 0, 1, 0, 1 → pools (1, 0) → 1/2 at the test point; label 0 → 0.
  const low = vennAbersPredict(table, 0.1);
  assertClose([low.p0, low.p1], [0, 0.5], 1e-15);
});

test('Venn–Abers multiclass modes give rows summing to 1 and round-trip through JSON', () => {
  const { val, test: t } = splits(4, 600);
  for (const mode of ['top-label', 'one-vs-rest'] as const) {
    const cal = fitVennAbers(val.input, val.labels, { mode });
    const out = cal.apply(t.input);
    assertProbabilityRows(out, mode);
    assert.deepEqual(calibratorFromJSON(JSON.parse(JSON.stringify(cal.toJSON()))).apply(t.input).data, out.data);
  }
});
