import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpDecomposition } from '../../src/metrics/corp-decomposition.js';
import { conformalMetrics, fitConformal, predictionSets } from '../../src/metrics/conformal-prediction.js';
import { oodScores } from '../../src/metrics/selective/ood-scores.js';
import { matrix } from '../../src/util/matrix.js';
import { Random } from '../../src/util/random.js';
import { close, randomProbabilities, sampleLabels } from './helpers.js';

test('CORP on a hand-worked case: PAV pools the violating pair, score = MCB − DSC + UNC', () => {
  // p = (0.2, 0.4, 0.8), y = (0, 1, 0) → PAV on means (0, 1, 0): pool last two → (0, 0.5, 0.5).
  const d = corpDecomposition(Float64Array.from([0.2, 0.4, 0.8]), Uint8Array.from([0, 1, 0]));
  const score = (0.04 + 0.36 + 0.64) / 3;
  const recal = (0 + 0.25 + 0.25) / 3;
  close(d.score, score, 1e-15, 'score');
  close(d.mcb, score - recal, 1e-15, 'mcb');
  close(d.unc, (1 / 3) * (2 / 3), 1e-15, 'unc');
  close(d.dsc, (1 / 3) * (2 / 3) - recal, 1e-15, 'dsc');
  close(d.mcb - d.dsc + d.unc, d.score, 1e-15, 'identity');
});

test('CORP: an isotonic (already recalibrated) forecast has MCB 0', () => {
  const d = corpDecomposition(Float64Array.from([0.1, 0.1, 0.5, 0.5, 0.9]), Uint8Array.from([0, 0, 1, 0, 1]));
  // Recalibrated values 0, 0, 0.5, 0.5, 1 differ from p: MCB = mean (p−y)² − mean (p̂−y)² > 0.
  assert.ok(d.mcb > 0);
  const e = corpDecomposition(Float64Array.from([0, 0, 0.5, 0.5, 1]), Uint8Array.from([0, 0, 1, 0, 1]));
  close(e.mcb, 0, 1e-15, 'mcb of a calibrated isotonic forecast');
});

test('conformal sets: hand-worked LAC threshold and APS/RAPS sets', () => {
  // Calibration: 4 rows; LAC scores 1 − p_y = 0.1, 0.3, 0.5, 0.7; α = 0.4 → rank ⌈5 · 0.6⌉ = 3 → q̂ = 0.5.
  const cal = matrix(4, 2, Float64Array.from([0.9, 0.1, 0.7, 0.3, 0.5, 0.5, 0.3, 0.7]));
  const y = [0, 0, 0, 0];
  const lac = fitConformal(cal, y, { method: 'lac', alpha: 0.4 });
  assert.equal(lac.threshold, 0.5);
  const test2 = matrix(2, 2, Float64Array.from([0.6, 0.4, 0.5, 0.5]));
  assert.deepEqual(Array.from(predictionSets(test2, lac)), [1, 0, 1, 1]);
  // APS scores of y = 0: mass down to class 0 = 0.9, 0.7, 1.0 (tie 0.5/0.5: class 0 first → 0.5), 1.0.
  const aps = fitConformal(cal, y, { method: 'aps', alpha: 0.4 });
  assert.equal(aps.threshold, 0.9); // sorted 0.5, 0.7, 0.9, 1.0 → 3rd
  // RAPS with λ = 1, k_reg = 1: rank-2 classes get +1.
  const raps = fitConformal(cal, y, { method: 'raps', alpha: 0.4, lambda: 1, kReg: 1 });
  assert.equal(raps.threshold, 0.9); // scores 0.9, 0.7, 0.5, 2.0
  // Too few calibration samples for α: the threshold is +∞ and every set is full.
  assert.equal(fitConformal(cal, y, { method: 'lac', alpha: 0.1 }).threshold, Infinity);
});

test('conformal prediction reaches coverage ≥ 1 − α on exchangeable data, and RAPS sets are no larger than APS sets', () => {
  const rng = new Random(11);
  const n = 4000;
  const c = 10;
  const probs = randomProbabilities(rng, n, c, 2);
  const labels = sampleLabels(rng, probs, n, c, 0.2);
  const half = n / 2;
  const cal = matrix(half, c, probs.subarray(0, half * c));
  const tst = matrix(half, c, probs.subarray(half * c));
  for (const method of ['lac', 'aps', 'raps'] as const) {
    const fitted = fitConformal(cal, labels.subarray(0, half), { method, alpha: 0.1 });
    const m = conformalMetrics(tst, labels.subarray(half), fitted);
    assert.ok(m.coverage >= 0.88 && m.coverage <= 0.93, `${method} coverage ${m.coverage}`);
    assert.ok(m.meanSetSize >= 1 && m.meanSetSize < c, `${method} size ${m.meanSetSize}`);
  }
});

test('OOD scores: max logit, energy, entropy and MSP by hand, stable for logits of magnitude 1e3', () => {
  const z = matrix(2, 3, Float64Array.from([1, 2, 3, 1000, -1000, 1000]));
  const lse0 = Math.log(Math.exp(1) + Math.exp(2) + Math.exp(3));
  close(oodScores(z, 'energy')[0]!, lse0, 1e-14, 'energy');
  close(oodScores(z, 'energy')[1]!, 1000 + Math.log(2), 1e-12, 'energy large');
  assert.equal(oodScores(z, 'max-logit')[1], 1000);
  close(oodScores(z, 'msp')[1]!, 0.5, 1e-15, 'msp');
  close(oodScores(z, 'entropy')[1]!, -Math.log(2), 1e-15, 'neg entropy');
  const p = [1, 2, 3].map((v) => Math.exp(v - lse0));
  close(
    oodScores(z, 'entropy')[0]!,
    p.reduce((s, v) => s + v * Math.log(v), 0),
    1e-14,
    'neg entropy',
  );
  const probs = matrix(1, 2, Float64Array.from([1, 0]));
  assert.equal(oodScores(probs, 'entropy', 'probabilities')[0], 0);
  assert.throws(() => oodScores(probs, 'energy', 'probabilities'), /score/);
});
