import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitTopVersusAll, replaceTopProbability } from '../../src/posthoc/composite/top-versus-all.js';
import { calibratorFromJSON } from '../../src/posthoc/registry.js';
import { assertClose, assertProbabilityRows, mat, splits } from './helpers.js';

test('replaceTopProbability rescales the other classes, and spreads uniformly when the confidence is exactly 1', () => {
  const p = Float64Array.of(0.6, 0.3, 0.1, 1, 0, 0);
  replaceTopProbability(p, 0, 3, 0, 0.8); // others × (0.2 / 0.4)
  replaceTopProbability(p, 1, 3, 0, 0.9); // c = 1 → (0.1/2, 0.1/2)
  assertClose(p, [0.8, 0.15, 0.05, 0.9, 0.05, 0.05], 1e-15);
});

test('top-versus-all with histogram binning: hand-worked two-bin fit on the confidences', () => {
  // Confidences 0.5 (wrong), 0.6 (right), 0.9 (right), 1.0 (right, exactly 1): 2 equal-mass bins, edge 0.75.
  const probs = mat(4, 2, [0.5, 0.5, 0.6, 0.4, 0.1, 0.9, 0, 1]);
  const cal = fitTopVersusAll({ probabilities: probs }, Int32Array.of(1, 0, 1, 1), { binary: 'histogram', bins: 2 });
  const out = cal.apply({ probabilities: mat(2, 2, [0.3, 0.7, 0, 1]) });
  // 0.7 ≤ 0.75 → bin 0 → accuracy 1/2; 1.0 → bin 1 → 1.
  assertClose(out.data, [0.5, 0.5, 0, 1], 1e-15);
});

test('top-versus-all (isotonic) lowers overconfident confidences, keeps rows summing to 1 and round-trips', () => {
  const { val, test: t } = splits(5, 2000);
  const cal = fitTopVersusAll(val.input, val.labels);
  const out = cal.apply(t.input);
  assertProbabilityRows(out);
  const back = calibratorFromJSON(JSON.parse(JSON.stringify(cal.toJSON())));
  assert.deepEqual(back.apply(t.input).data, out.data);
});
