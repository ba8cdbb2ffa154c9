import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, expectedCalibrationError, reliabilityDiagram, CalibrationAccumulator } from '../../src/metrics/index.js';
import { checkReliabilityData } from '../../src/report/check-reliability-data.js';
import { Random } from '../../src/util/random.js';
import { close, randomProbabilities, sampleLabels } from './helpers.js';

test('reliability data of a hand-worked case: edges, counts, accuracy, confidence, gap, empty bins NaN', () => {
  const d = reliabilityDiagram(Float64Array.from([0.9, 0.8, 0.3, 0.6]), Uint8Array.from([1, 0, 0, 1]), { bins: 5, convention: '[l,u)' });
  assert.equal(d.bins.length, 5);
  assert.deepEqual(
    d.bins.map((b) => [b.lower, b.upper, b.count]),
    [
      [0, 0.2, 0],
      [0.2, 0.4, 1],
      [0.4, 0.6, 0],
      [0.6, 0.8, 1],
      [0.8, 1, 2],
    ],
  );
  assert.ok(Number.isNaN(d.bins[0]!.accuracy) && Number.isNaN(d.bins[0]!.meanConfidence) && Number.isNaN(d.bins[0]!.gap));
  close(d.bins[4]!.meanConfidence, 0.85, 1e-15);
  assert.equal(d.bins[4]!.accuracy, 0.5);
  close(d.bins[4]!.gap, -0.35, 1e-15);
  close(d.ece, 0.35, 1e-15);
  assert.equal(d.total, 4);
  assert.equal(d.accuracy, 0.5);
  close(d.meanConfidence, 0.65, 1e-15);
  assert.equal(d.convention, '[l,u)');
});

test('reliability data from the accumulator is consistent with ECE and accepted by the report layer', () => {
  const rng = new Random(14);
  const n = 1000;
  const c = 5;
  const p = randomProbabilities(rng, n, c, 3);
  const y = sampleLabels(rng, p, n, c, 0.3);
  for (const convention of ['(l,u]', '[l,u)'] as const) {
    const acc = new CalibrationAccumulator({ input: 'probabilities', bins: 12, convention }).update({ rows: n, cols: c, data: p }, y);
    const d = acc.reliability();
    const r = evaluate({ rows: n, cols: c, data: p }, y, { input: 'probabilities', bins: 12, convention });
    assert.equal(
      d.bins.reduce((s, b) => s + b.count, 0),
      n,
    );
    close(d.ece, r.ece, 1e-15);
    close(d.accuracy, r.accuracy, 1e-15);
    close(d.meanConfidence, r.mean_confidence, 1e-15);
    const { confidence, correct } = acc.top.samples();
    close(d.ece, expectedCalibrationError(confidence, correct, { bins: 12, convention }), 1e-15);
    let weighted = 0;
    for (const b of d.bins) if (b.count > 0) weighted += (b.count / n) * Math.abs(b.gap);
    close(weighted, d.ece, 1e-15);
    assert.doesNotThrow(() => checkReliabilityData(d));
  }
});
