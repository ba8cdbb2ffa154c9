import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitHistogram, histogramFromJSON } from '../../src/posthoc/nonparametric/histogram.js';
import { assertClose, assertProbabilityRows, mat, naiveSoftmax, splits } from './helpers.js';

test('histogram binning: bin values are class frequencies, empty bins their midpoint (hand-worked, M = 2)', () => {
  // p_1 per row: 0.2, 0.4, 0.5, 0.9, 1.0 → bins (l, u] with M = 2: [0, 0.5] holds 0.2, 0.4, 0.5; (0.5, 1] holds 0.9, 1.0.
  const probs = mat(5, 2, [0.8, 0.2, 0.6, 0.4, 0.5, 0.5, 0.1, 0.9, 0, 1]);
  const labels = Int32Array.of(0, 1, 1, 1, 0);
  const cal = fitHistogram({ probabilities: probs }, labels, { bins: 2 });
  // class 1: bin 0 → 2/3 (rows 1, 2 of rows 0–2), bin 1 → 1/2; class 0 (p_0 = 0.8, 0.6, 0.5, 0.1, 0): bin 0
  // holds 0.5, 0.1, 0 → labels 1, 1, 0 → 1/3; bin 1 holds 0.8, 0.6 → labels 0, 1 → 1/2.
  assert.deepEqual(cal.toJSON().values, [
    [1 / 3, 1 / 2],
    [2 / 3, 1 / 2],
  ]);
  const out = cal.apply({ probabilities: mat(2, 2, [0.5, 0.5, 0.3, 0.7]) });
  // Row 0: (1/3, 2/3) → already sums to 1. Row 1: p_0 = 0.3 → 1/3, p_1 = 0.7 → 1/2 → normalised (2/5, 3/5).
  assertClose(out.data, [1 / 3, 2 / 3, 2 / 5, 3 / 5], 1e-15, 0, 'apply');
  // An empty bin gets its midpoint: with M = 4, class 1 has no p_1 in (0.5, 0.75].
  const four = fitHistogram({ probabilities: probs }, labels, { bins: 4 });
  assert.equal((four.toJSON().values as number[][])[1]![2], 0.625);
});

test('histogram binning puts a probability on a bin edge in the lower bin, as the metrics layer does', () => {
  // 1/3 is the upper edge of bin 0 for M = 3 ((0, 1/3]); 1/3 + 1e-16 goes to bin 1.
  const probs = mat(4, 2, [2 / 3, 1 / 3, 0.9, 0.1, 0.5, 0.5, 0.4, 0.6]);
  const cal = fitHistogram({ probabilities: probs }, Int32Array.of(1, 0, 0, 1), { bins: 3 });
  const v = cal.toJSON().values as number[][];
  // bin 0: p_1 = 1/3 (label 1) and 0.1 (label 0); bin 1: 0.5 (label 0) and 0.6 (label 1); bin 2 empty → 2.5/3.
  assertClose(v[1]!, [1 / 2, 1 / 2, 2.5 / 3], 1e-15, 0, 'class 1');
});

test('histogram binning matches a naive per-class implementation and its rows sum to 1', () => {
  const { val, test: t } = splits(4, 800);
  const M = 10;
  const cal = fitHistogram(val.input, val.labels, { bins: M });
  const pv = naiveSoftmax(val.logits, 800, 4);
  const pt = naiveSoftmax(t.logits, 800, 4);
  const out = cal.apply(t.input);
  assertProbabilityRows(out, 'histogram');
  const binOf = (p: number) => {
    let m = 0;
    while (m < M - 1 && p > (m + 1) / M) m++;
    return m;
  };
  for (let i = 0; i < 800; i += 37) {
    const raw = [0, 1, 2, 3].map((k) => {
      const b = binOf(pt[i * 4 + k]!);
      let count = 0;
      let hits = 0;
      for (let j = 0; j < 800; j++) {
        if (binOf(pv[j * 4 + k]!) !== b) continue;
        count++;
        if (val.labels[j] === k) hits++;
      }
      return count > 0 ? hits / count : (b + 0.5) / M;
    });
    const s = raw.reduce((a, b) => a + b, 0);
    for (let k = 0; k < 4; k++) assert.ok(Math.abs(out.data[i * 4 + k]! - raw[k]! / s) < 1e-15);
  }
  assert.deepEqual(histogramFromJSON(JSON.parse(JSON.stringify(cal.toJSON()))).apply(t.input), out);
});

test('a row whose bins all have value 0 becomes uniform', () => {
  // Class 0 is never the label and class 1 always is, except that p_1 = 0.1 never occurs with label 1.
  const cal = fitHistogram({ probabilities: mat(2, 2, [0.9, 0.1, 0.2, 0.8]) }, Int32Array.of(0, 1), { bins: 2 });
  // p = (0.9, 0.1): class 0 bin 1 → 1 (row 0 has label 0); class 1 bin 0 → 0. Row (0.2, 0.8): class 0 bin 0 → 0, class 1 bin 1 → 1.
  // Query (0.2, 0.1) is not a probability row; use (0.4, 0.6) vs a crafted model: all-zero values → uniform.
  const zero = histogramFromJSON({
    ...cal.toJSON(),
    values: [
      [0, 0],
      [0, 0],
    ],
  });
  assert.deepEqual(Array.from(zero.apply({ probabilities: mat(1, 2, [0.3, 0.7]) }).data), [0.5, 0.5]);
});
