import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitTopLabel } from '../../src/posthoc/composite/top-label-calibrator.js';
import { calibratorFromJSON } from '../../src/posthoc/registry.js';
import { assertClose, assertProbabilityRows, mat, splits } from './helpers.js';

test('top-label histogram binning: one map per predicted class, ⌊n_l / pointsPerBin⌋ bins (hand-worked)', () => {
  // Class 0 predicted on rows 0–3 (conf 0.6, 0.7, 0.8, 0.9; correct: no, yes, yes, yes) → 2 bins, edge 0.75:
  // bin 0 accuracy 1/2, bin 1 accuracy 1. Class 1 predicted on rows 4–5 (conf 0.55, 0.95; right, wrong) → 1 bin: 1/2.
  // Class 2 never predicted → identity.
  const probs = mat(6, 3, [0.6, 0.3, 0.1, 0.7, 0.2, 0.1, 0.8, 0.1, 0.1, 0.9, 0.05, 0.05, 0.3, 0.55, 0.15, 0.05, 0.95, 0]);
  const cal = fitTopLabel({ probabilities: probs }, Int32Array.of(1, 0, 0, 0, 1, 2), { pointsPerBin: 2 });
  assert.equal(cal.maps[2], null);
  const out = cal.apply({ probabilities: mat(3, 3, [0.65, 0.25, 0.1, 0.2, 0.7, 0.1, 0.1, 0.2, 0.7]) });
  // Row 0: class 0, 0.65 → 1/2, others × (0.5/0.35). Row 1: class 1 → 1/2, others × (0.5/0.3). Row 2: unchanged.
  assertClose(out.data, [0.5, (0.25 * 0.5) / 0.35, (0.1 * 0.5) / 0.35, (0.2 * 0.5) / 0.3, 0.5, (0.1 * 0.5) / 0.3, 0.1, 0.2, 0.7], 1e-15);
});

test('top-label calibration on synthetic data: rows sum to 1, JSON round trip is exact', () => {
  const { val, test: t } = splits(4, 2000);
  for (const binary of ['histogram', 'isotonic', 'platt'] as const) {
    const cal = fitTopLabel(val.input, val.labels, { binary });
    const out = cal.apply(t.input);
    assertProbabilityRows(out, binary);
    assert.deepEqual(calibratorFromJSON(JSON.parse(JSON.stringify(cal.toJSON()))).apply(t.input).data, out.data);
  }
});
