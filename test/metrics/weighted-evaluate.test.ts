import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  evaluate,
  evaluateWeighted,
  evaluateWeightedTopLabel,
  requireSampleWeights,
  topLabel,
  TopLabelAccumulator,
  WEIGHTED_METRIC_NAMES,
  WEIGHTED_TOP_LABEL_NAMES,
  weightRefusal,
  METRIC_NAMES,
  type WeightedMetricName,
} from '../../src/metrics/index.js';
import { matrix } from '../../src/util/matrix.js';
import { Random } from '../../src/util/random.js';
import { close, randomProbabilities, sampleLabels } from './helpers.js';

/** The dataset with row i repeated w_i times in place (w_i integer). */
function repeatRows(data: Float64Array, labels: Int32Array, cols: number, weights: readonly number[]): { data: Float64Array; labels: Int32Array } {
  const outData: number[] = [];
  const outLabels: number[] = [];
  weights.forEach((w, i) => {
    for (let r = 0; r < w; r++) {
      for (let k = 0; k < cols; k++) outData.push(data[i * cols + k]!);
      outLabels.push(labels[i]!);
    }
  });
  return { data: Float64Array.from(outData), labels: Int32Array.from(outLabels) };
}

const plugIn = { marginalDebias: false } as const;

for (const [input, seed] of [
  ['probabilities', 5],
  ['logits', 6],
] as const) {
  test(`integer weights w ∈ {0,1,2,3} equal repeating rows on every weighted metric (${input}, several bin counts)`, () => {
    const rng = new Random(seed);
    const n = 500;
    const c = 4;
    const probs = randomProbabilities(rng, n, c);
    const labels = sampleLabels(rng, probs, n, c);
    const data = input === 'logits' ? probs.map((p) => 3 * Math.log(p)) : probs;
    const weights = Array.from({ length: n }, () => rng.int(4));
    const repeated = repeatRows(data, labels, c, weights);
    for (const bins of [1, 7, 15, 40]) {
      for (const convention of ['(l,u]', '[l,u)'] as const) {
        const options = { input, bins, convention, ...plugIn };
        const weighted = evaluateWeighted(matrix(n, c, data), labels, weights, options);
        const plain = evaluate(matrix(repeated.labels.length, c, repeated.data), repeated.labels, options);
        assert.equal(weighted.weightSum, repeated.labels.length);
        for (const name of WEIGHTED_METRIC_NAMES) close(weighted.values[name]!, plain[name], 1e-12, `${name} bins=${bins} ${convention}`);
        assert.deepEqual(Object.keys(weighted.values), [...WEIGHTED_METRIC_NAMES]);
      }
    }
  });
}

test('unit weights equal the unweighted metrics; scaling the weights leaves the equal-width metrics unchanged', () => {
  const rng = new Random(9);
  const n = 333;
  const c = 3;
  const probs = randomProbabilities(rng, n, c);
  const labels = sampleLabels(rng, probs, n, c);
  const options = { input: 'probabilities', bins: 10, ...plugIn } as const;
  const plain = evaluate(matrix(n, c, probs), labels, options);
  const ones = evaluateWeighted(matrix(n, c, probs), labels, new Float64Array(n).fill(1), options);
  for (const name of WEIGHTED_METRIC_NAMES) close(ones.values[name]!, plain[name], 1e-12, name);
  assert.equal(ones.effectiveN, n);
  const w = Float64Array.from({ length: n }, () => rng.uniform());
  const a = evaluateWeighted(matrix(n, c, probs), labels, w, options);
  const b = evaluateWeighted(
    matrix(n, c, probs),
    labels,
    w.map((x) => x * 8),
    options,
  );
  const scaleFree: WeightedMetricName[] = ['accuracy', 'nll', 'brier', 'ece', 'ece_l2', 'mce', 'oe', 'classwise_ece', 'marginal_ece', 'ks', 'mean_confidence', 'mean_entropy'];
  for (const name of scaleFree) close(b.values[name]!, a.values[name]!, 1e-12, name);
});

test('hand-worked weighted case: accuracy, NLL, Brier, ECE, MCE, OE, KS, classwise ECE and the reliability bins', () => {
  // Two classes, rows p = [0.9, 0.1] (y = 0, correct), [0.8, 0.2] (y = 1, wrong), [0.3, 0.7] (y = 1, correct);
  // weights 1, 3, 0.5 (W = 4.5). Confidences 0.9, 0.8, 0.7; 2 bins (l,u]: all in bin (0.5, 1].
  const p = matrix(3, 2, Float64Array.from([0.9, 0.1, 0.8, 0.2, 0.3, 0.7]));
  const y = Int32Array.from([0, 1, 1]);
  const w = [1, 3, 0.5];
  const r = evaluateWeighted(p, y, w, { input: 'probabilities', bins: 2, ...plugIn });
  const W = 4.5;
  close(r.values.accuracy!, 1.5 / W, 1e-15);
  close(r.values.nll!, (-Math.log(0.9) - 3 * Math.log(0.2) - 0.5 * Math.log(0.7)) / W, 1e-15);
  close(r.values.brier!, (2 * 0.01 + 3 * 2 * 0.64 + 0.5 * 2 * 0.09) / W, 1e-15);
  // ECE = |Σ w (c − a)| / W over the one occupied bin = |0.9·1 + 0.8·3 + 0.7·0.5 − 1.5| / 4.5.
  const gap = (0.9 + 2.4 + 0.35 - 1.5) / W;
  close(r.values.ece!, gap, 1e-15);
  close(r.values.mce!, gap, 1e-15);
  close(r.values.oe!, ((0.9 + 2.4 + 0.35) / W) * gap, 1e-15);
  // KS in ascending confidence: 0.7 (w .5, a 1), 0.8 (w 3, a 0), 0.9 (w 1, a 1): prefix sums of w(c − a):
  // −0.15, −0.15 + 2.4 = 2.25, 2.25 − 0.1 = 2.15 → max 2.25 / 4.5 = 0.5.
  close(r.values.ks!, 0.5, 1e-15);
  // Classwise, class 0: p_0 = 0.9 (bin 1, y0 = 1, w 1), 0.8 (bin 1, y0 = 0, w 3), 0.3 (bin 0, y0 = 0, w .5):
  // bin 1 |0.9 + 2.4 − 1| = 2.3, bin 0 |0.15| → 2.45; class 1: 0.1 (bin 0, 0), 0.2 (bin 0, w 3, y1 = 1),
  // 0.7 (bin 1, w .5, y1 = 1): bin 0 |0.1 + 0.6 − 3| = 2.3, bin 1 |0.35 − 0.5| = 0.15 → 2.45. Mean / W.
  close(r.values.classwise_ece!, (2.45 + 2.45) / (2 * W), 1e-15);
  assert.equal(r.reliability.bins[1]!.count, W);
  assert.equal(r.reliability.bins[0]!.count, 0);
  close(r.reliability.bins[1]!.accuracy, 1.5 / W, 1e-15);
  close(r.effectiveN, (W * W) / (1 + 9 + 0.25), 1e-15);
});

test('weighted AdaECE splits a row straddling an equal-mass boundary (hand-worked)', () => {
  // Confidences 0.6 (w 1, wrong), 0.8 (w 2, right), 0.95 (w 1, right); W = 4, M = 2: bins of rank [0, 2), [2, 4):
  // bin 0 holds 0.6 (mass 1) and 0.8 (mass 1): |0.6 + 0.8 − 1| = 0.4; bin 1 holds 0.8 (1) and 0.95 (1):
  // |0.8 + 0.95 − 2| = 0.25 → AdaECE = 0.65 / 4.
  const p = matrix(3, 2, Float64Array.from([0.6, 0.4, 0.2, 0.8, 0.95, 0.05]));
  const y = Int32Array.from([1, 1, 0]);
  const r = evaluateWeighted(p, y, [1, 2, 1], { input: 'probabilities', bins: 2, metrics: ['adaece', 'adaece_l2'] });
  close(r.values.adaece!, 0.65 / 4, 1e-15);
  close(r.values.adaece_l2!, Math.sqrt((2 / 4) * 0.2 ** 2 + (2 / 4) * 0.125 ** 2), 1e-15);
  assert.deepEqual(Object.keys(r.values), ['adaece', 'adaece_l2']);
});

test('weight-0 rows are dropped: equal to evaluating the other rows', () => {
  const rng = new Random(12);
  const n = 200;
  const c = 3;
  const probs = randomProbabilities(rng, n, c);
  const labels = sampleLabels(rng, probs, n, c);
  const keep = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 0 : 1));
  const kept = repeatRows(probs, labels, c, keep);
  const r = evaluateWeighted(matrix(n, c, probs), labels, keep, { input: 'probabilities', ...plugIn });
  const plain = evaluate(matrix(kept.labels.length, c, kept.data), kept.labels, { input: 'probabilities', ...plugIn });
  for (const name of WEIGHTED_METRIC_NAMES) close(r.values[name]!, plain[name], 1e-12, name);
});

test('every metric outside the weighted set refuses weights naming itself; bad weights name the argument', () => {
  const p = matrix(2, 2, Float64Array.from([0.7, 0.3, 0.4, 0.6]));
  const y = Int32Array.from([0, 0]);
  for (const name of METRIC_NAMES) {
    const reason = weightRefusal(name, plugIn);
    if ((WEIGHTED_METRIC_NAMES as readonly string[]).includes(name)) {
      assert.equal(reason, null, name);
      continue;
    }
    assert.ok(reason !== null && reason.length > 10, name);
    assert.throws(() => evaluateWeighted(p, y, [1, 1], { input: 'probabilities', metrics: [name] }), new RegExp(`metrics: .*'${name}', which refuses weights`));
  }
  assert.match(weightRefusal('marginal_ece')!, /debiased/);
  assert.match(weightRefusal('adaece', { adaptive: 'interp' })!, /interp/);
  assert.throws(() => evaluateWeighted(p, y, [1, 1], { input: 'probabilities', metrics: ['marginal_ece'] }), /'marginal_ece', which refuses weights: the debiased/);
  // The default set leaves the debiased marginal ECE out rather than weighting it.
  assert.ok(!('marginal_ece' in evaluateWeighted(p, y, [1, 1], { input: 'probabilities' }).values));
  assert.throws(() => evaluateWeighted(p, y, [1], { input: 'probabilities' }), /weights: expected 2 weights, one per row, got 1/);
  assert.throws(() => evaluateWeighted(p, y, [1, -1], { input: 'probabilities' }), /weights\[1\]: expected a finite weight ≥ 0, got -1/);
  assert.throws(() => evaluateWeighted(p, y, [1, Number.NaN], { input: 'probabilities' }), /weights\[1\]: expected a finite weight ≥ 0, got NaN/);
  assert.throws(() => evaluateWeighted(p, y, [0, 0], { input: 'probabilities' }), /weights: expected weights that are not all zero, got all zero/);
  assert.throws(() => requireSampleWeights('x', 1, '--weights'), /--weights: expected an array of numbers/);
  assert.throws(() => requireSampleWeights([1e308, 1e308], 2), /weights: expected weights with a finite sum/);
});

test('weighted top-label results (confidence, correct) equal the full weighted evaluation and the repeated samples', () => {
  const rng = new Random(21);
  const n = 400;
  const c = 5;
  const probs = randomProbabilities(rng, n, c);
  const labels = sampleLabels(rng, probs, n, c);
  const weights = Array.from({ length: n }, () => rng.int(4));
  const { confidence, correct } = topLabel(matrix(n, c, probs), labels, 'probabilities');
  const full = evaluateWeighted(matrix(n, c, probs), labels, weights, { input: 'probabilities', bins: 12 });
  const top = evaluateWeightedTopLabel(confidence, correct, weights, { bins: 12 });
  assert.deepEqual(Object.keys(top.values), [...WEIGHTED_TOP_LABEL_NAMES]);
  for (const name of WEIGHTED_TOP_LABEL_NAMES) assert.equal(top.values[name], full.values[name], name);
  const repConfidence: number[] = [];
  const repCorrect: number[] = [];
  weights.forEach((w, i) => {
    for (let r = 0; r < w; r++) (repConfidence.push(confidence[i]!), repCorrect.push(correct[i]!));
  });
  const accumulator = new TopLabelAccumulator({ bins: 12 });
  accumulator.update(Float64Array.from(repConfidence), Uint8Array.from(repCorrect));
  const plain = accumulator.compute();
  for (const name of WEIGHTED_TOP_LABEL_NAMES) close(top.values[name]!, plain[name], 1e-12, name);
  assert.throws(() => evaluateWeightedTopLabel(confidence, correct, weights, { metrics: ['nll'] }), /metrics: expected metrics of the top label, got 'nll', which needs the whole probability vector/);
  assert.throws(() => evaluateWeightedTopLabel(confidence, correct, weights, { metrics: ['aurc'] }), /'aurc', which refuses weights: it ranks/);
  assert.throws(() => evaluateWeightedTopLabel(Float64Array.from([1.5]), Uint8Array.from([1]), [1]), /confidence: expected values in \[0, 1\]/);
});
