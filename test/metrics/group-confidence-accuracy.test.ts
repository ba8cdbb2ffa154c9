import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupConfidenceAccuracy } from '../../src/metrics/group-confidence-accuracy.js';
import { densityGrid, jointDensitySvg } from '../../src/report/joint-density-chart.js';
import { matrix } from '../../src/util/matrix.js';

// Probabilities of 4 samples, 2 classes: confidences 0.9, 0.6, 0.8, 0.7; labels make samples 0 and 2 correct.
const probs = matrix(4, 2, new Float64Array([0.9, 0.1, 0.4, 0.6, 0.2, 0.8, 0.7, 0.3]));
const labels = Int32Array.from([0, 0, 1, 1]);

test("groups of all N samples give the whole set's mean confidence and accuracy; groups of one give single samples", () => {
  const all = groupConfidenceAccuracy(probs, labels, { input: 'probabilities', groupSize: 4, groups: 3 });
  assert.equal(all.length, 3);
  for (const p of all) {
    assert.ok(Math.abs(p.confidence - (0.9 + 0.6 + 0.8 + 0.7) / 4) < 1e-15);
    assert.equal(p.accuracy, 0.5);
  }
  const singles = groupConfidenceAccuracy(probs, labels, { input: 'probabilities', groupSize: 1, groups: 50, seed: 3 });
  const valid = new Set(['0.9:1', '0.6:0', '0.8:1', '0.7:0']);
  for (const p of singles) assert.ok(valid.has(`${Number(p.confidence.toFixed(12))}:${p.accuracy}`), JSON.stringify(p));
  assert.equal(new Set(singles.map((p) => p.confidence)).size, 4, 'every sample drawn at some point');
  // Pairs: the mean of two distinct samples.
  const pairs = groupConfidenceAccuracy(probs, labels, { input: 'probabilities', groupSize: 2, groups: 5, seed: 1 });
  for (const p of pairs) assert.ok([0, 0.5, 1].includes(p.accuracy));
  assert.deepEqual(groupConfidenceAccuracy(probs, labels, { input: 'probabilities', groupSize: 2, groups: 5, seed: 1 }), pairs, 'same seed, same groups');
  // Logits of magnitude 1e3 are fine (softmax is max-shifted).
  const big = groupConfidenceAccuracy(matrix(2, 2, new Float32Array([1000, -1000, -1000, 1000])), Int32Array.from([0, 0]), { groupSize: 2, groups: 1 });
  assert.deepEqual(big, [{ confidence: 1, accuracy: 0.5 }]);
  assert.throws(() => groupConfidenceAccuracy(probs, labels, { input: 'probabilities', groupSize: 5 }), /options\.groupSize: expected an integer .*≤ 4/);
});

test('the density grid counts points per cell over [lo, 1]² and the chart has one panel per entry', () => {
  const pts = [
    { confidence: 0.05, accuracy: 0.05 },
    { confidence: 0.95, accuracy: 0.55 },
    { confidence: 1, accuracy: 1 },
    { confidence: 0.96, accuracy: 0.51 },
  ];
  const g = densityGrid(pts, 2, 0);
  // Cells of width 0.5: (acc row, conf col): (0,0) ← point 0; (1,1) ← points 1, 2 (1.0 is in the last cell) and 3.
  assert.deepEqual(Array.from(g), [1, 0, 0, 3]);
  // With lo = 0.5 the first point is outside.
  assert.deepEqual(Array.from(densityGrid(pts, 1, 0.5)), [3]);
  const svg = jointDensitySvg(
    [
      [
        { title: 'epoch 1', points: pts },
        { title: 'epoch 2', points: pts },
      ],
    ],
    { title: 'T', rowLabels: ['CE'] },
  );
  assert.equal((svg.match(/class="density-panel"/g) ?? []).length, 2);
  assert.match(svg, /epoch 2/);
  assert.throws(() => jointDensitySvg([[]], { title: 'T', rowLabels: ['CE'] }), /panels: expected at least one panel/);
});
