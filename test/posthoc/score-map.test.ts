import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyScoreMap, equalMassEdges, fitScoreMap, scoreMapFromJSON, scoreMapToJSON } from '../../src/posthoc/nonparametric/score-map.js';
import { assertClose, loadCalibrators12Reference } from './helpers.js';

test('equal-mass edges: midpoints between numpy array_split parts, last edge 1 (hand-worked)', () => {
  // 7 sorted scores in 3 parts of sizes 3, 2, 2: [0.1 0.2 0.3] [0.4 0.5] [0.6 0.7] → edges 0.35, 0.55, 1.
  const edges = equalMassEdges(Float64Array.of(0.5, 0.1, 0.7, 0.3, 0.2, 0.6, 0.4), 3);
  assertClose(edges, [0.35, 0.55, 1], 1e-15);
  // Repeated scores give repeated midpoints, which are dropped (fewer bins).
  assert.deepEqual(Array.from(equalMassEdges(Float64Array.of(1, 1, 1, 1), 4)), [1]);
});

test('histogram score map equals verified_calibration HistogramCalibrator (reference fixture)', () => {
  const ref = loadCalibrators12Reference().kumar_histogram;
  const map = fitScoreMap('histogram', Float64Array.from(ref.scores), Float64Array.from(ref.outcomes), ref.bins);
  const got = (ref.queries as number[]).map((q) => applyScoreMap(map, q));
  assertClose(got, ref.expected, 1e-15, 0, 'calibrated');
});

test('histogram score map: a score on an edge belongs to the lower bin, a confidence of exactly 1 to the last', () => {
  const map = fitScoreMap('histogram', Float64Array.of(0.2, 0.4, 0.6, 1), Float64Array.of(0, 0, 1, 1), 2);
  // edges: (0.4 + 0.6)/2 = 0.5, 1 → bin 0 = [.., 0.5], bin 1 = (0.5, 1].
  assert.equal(applyScoreMap(map, 0.5), 0);
  assert.equal(applyScoreMap(map, 0.5000001), 1);
  assert.equal(applyScoreMap(map, 1), 1);
});

test('score maps round-trip through JSON and invalid maps are rejected naming the field', () => {
  for (const kind of ['histogram', 'isotonic', 'platt'] as const) {
    const map = fitScoreMap(kind, Float64Array.of(0.1, 0.3, 0.6, 0.8, 0.9, 0.95), Float64Array.of(0, 1, 0, 1, 1, 1), 3);
    const back = scoreMapFromJSON('m', JSON.parse(JSON.stringify(scoreMapToJSON(map))));
    for (const q of [0, 0.2, 0.5, 0.97, 1]) assert.equal(applyScoreMap(back, q), applyScoreMap(map, q), `${kind} at ${q}`);
  }
  assert.throws(() => scoreMapFromJSON('m', { kind: 'histogram', edges: [0.5, 0.4], values: [0, 1] }), /m\.edges\[1\]/);
  assert.throws(() => scoreMapFromJSON('m', { kind: 'nope' }), /m\.kind/);
});
