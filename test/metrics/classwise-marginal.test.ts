import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClasswiseAccumulator, classwiseCalibrationError, marginalCalibrationError } from '../../src/metrics/index.js';
import { Random } from '../../src/util/random.js';
import { close, mean, naiveBin, randomProbabilities, sampleLabels } from './helpers.js';

const probs = { rows: 2, cols: 2, data: Float64Array.from([0.7, 0.3, 0.4, 0.6]) };
const labels = Int32Array.from([0, 0]);

test('classwise ECE of a hand-worked two-class case', () => {
  // M = 2, (l,u]: class 0 has 0.7 (y=1) and 0.4 (y=1) in different bins: (0.3 + 0.6)/2; class 1 likewise.
  close(classwiseCalibrationError(probs, labels, { bins: 2 }), 0.45, 1e-15);
});

test('marginal error of the hand-worked case: plug-in ℓ2, and 0 when debiasing singleton bins', () => {
  // Each class: bins of one sample with squared gaps 0.09 and 0.36, weights 1/2.
  close(marginalCalibrationError(probs, labels, { bins: 2, binning: 'equal-width', debias: false }), Math.sqrt(0.225), 1e-15);
  assert.equal(marginalCalibrationError(probs, labels, { bins: 2, binning: 'equal-width' }), 0);
  assert.throws(() => marginalCalibrationError(probs, labels, { p: 1 }), /p: expected 2 when debias is true/);
  close(marginalCalibrationError(probs, labels, { bins: 2, binning: 'equal-width', debias: false, p: 1 }), 0.45, 1e-15);
});

test('classwise and marginal errors match per-class filtering on random data', () => {
  const rng = new Random(31);
  const n = 800;
  const c = 6;
  const p = randomProbabilities(rng, n, c, 2);
  const y = sampleLabels(rng, p, n, c, 0.4);
  for (const convention of ['(l,u]', '[l,u)'] as const) {
    for (const bins of [1, 5, 15]) {
      let sce = 0;
      let marginalPlugin = 0;
      let marginalDebiased = 0;
      for (let k = 0; k < c; k++) {
        const groups: number[][] = Array.from({ length: bins }, () => []);
        for (let i = 0; i < n; i++) groups[naiveBin(p[i * c + k]!, bins, convention)]!.push(i);
        let sq = 0;
        let dsq = 0;
        for (const g of groups) {
          if (g.length === 0) continue;
          const freq = mean(g.map((i) => (y[i] === k ? 1 : 0)));
          const mp = mean(g.map((i) => p[i * c + k]!));
          sce += (g.length / n) * Math.abs(freq - mp);
          sq += (g.length / n) * (freq - mp) ** 2;
          if (g.length >= 2) dsq += (g.length / n) * ((freq - mp) ** 2 - (freq * (1 - freq)) / (g.length - 1));
        }
        marginalPlugin += sq;
        marginalDebiased += Math.max(dsq, 0);
      }
      const m = { rows: n, cols: c, data: p };
      close(classwiseCalibrationError(m, y, { bins, convention }), sce / c, 1e-12);
      close(marginalCalibrationError(m, y, { bins, convention, binning: 'equal-width', debias: false }), Math.sqrt(marginalPlugin / c), 1e-12);
      close(marginalCalibrationError(m, y, { bins, convention, binning: 'equal-width' }), Math.sqrt(marginalDebiased / c), 1e-12);
    }
  }
});

test('the classwise state holds per class and bin the count, Σp and label count, and merges additively', () => {
  const rng = new Random(4);
  const n = 300;
  const c = 3;
  const p = randomProbabilities(rng, n, c);
  const y = sampleLabels(rng, p, n, c);
  const whole = new ClasswiseAccumulator({ classes: c, bins: 4 });
  whole.update({ rows: n, cols: c, data: p }, y);
  const a = new ClasswiseAccumulator({ classes: c, bins: 4 });
  const b = new ClasswiseAccumulator({ classes: c, bins: 4 });
  a.update({ rows: 100, cols: c, data: p.subarray(0, 300) }, y.subarray(0, 100));
  b.update({ rows: 200, cols: c, data: p.subarray(300) }, y.subarray(100));
  a.merge(b);
  assert.deepEqual(a.counts, whole.counts);
  assert.deepEqual(a.sumLabel, whole.sumLabel);
  assert.equal(a.count, n);
  let total = 0;
  for (let k = 0; k < c; k++) {
    const sums = whole.classSums(k);
    const count = sums.counts.reduce((s, v) => s + v, 0);
    assert.equal(count, n, 'every sample is binned once per class');
    assert.equal(
      sums.sumCorrect.reduce((s, v) => s + v, 0),
      y.filter((v) => v === k).length,
    );
    let sp = 0;
    for (let i = 0; i < n; i++) sp += p[i * c + k]!;
    close(
      sums.sumConfidence.reduce((s, v) => s + v, 0),
      sp,
      1e-12,
    );
    total += sp;
  }
  close(total, n, 1e-9);
  close(a.classwiseEce(), whole.classwiseEce(), 1e-15);
  assert.throws(() => a.merge(new ClasswiseAccumulator({ classes: 4, bins: 4 })), /other: expected a classwise state with 3 classes/);
});
