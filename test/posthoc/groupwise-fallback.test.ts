import { test } from 'node:test';
import assert from 'node:assert/strict';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { fitCalibrator, fitGroupwise, groupwiseFromJSON, predictionRows, type Predictions } from '../../src/posthoc/index.js';
import { InvalidArgumentError } from '../../src/util/errors.js';

// 3 classes, 160 rows. Group 'easy' (rows 0–39) has its logits replaced so that every row is right with a large
// margin: temperature scaling has no NLL minimum there (T → 0), a CalibrationFitError. 'rest' is the other 120 rows.
const N = 160;
const C = 3;
const set = syntheticOverconfident({ n: N, classes: C, seed: 11 });
const labels = Int32Array.from(set.labels);
const logits = Float64Array.from(set.logits);
for (let i = 0; i < 40; i++) for (let k = 0; k < C; k++) logits[i * C + k] = k === labels[i] ? 5 : 0;
const GROUPS = Array.from({ length: N }, (_, i) => (i < 40 ? 'easy' : 'rest'));
const input: Predictions = { logits: { rows: N, cols: C, data: logits } };
const rows = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, j) => from + j);

test('fitGroupwise: a group whose own fit fails (all rows correct) falls back to the pooled calibrator, recorded with the reason', () => {
  assert.throws(() => fitCalibrator('temperature', predictionRows(input, rows(0, 40)), labels.subarray(0, 40)), /NLL keeps decreasing/);
  const gw = fitGroupwise('temperature', input, labels, GROUPS);
  const easy = gw.groups.find((g) => g.id === 'easy')!;
  assert.equal(easy.calibrator, null);
  assert.equal(easy.fallback!.reason, 'fit_failed');
  assert.match(easy.fallback!.detail, /NLL keeps decreasing as T → 0/);
  const rest = gw.groups.find((g) => g.id === 'rest')!;
  assert.equal(rest.fallback, null);
  // Rows of 'easy' are calibrated by the pooled temperature: softmax(z / T_pooled), computed here by hand.
  const t = gw.pooled.toJSON()['temperature'] as number;
  const out = gw.apply(input, GROUPS).data;
  for (const i of [0, 17, 39]) {
    const e = Array.from({ length: C }, (_, k) => Math.exp(logits[i * C + k]! / t));
    const s = e.reduce((a, b) => a + b, 0);
    for (let k = 0; k < C; k++) assert.ok(Math.abs(out[i * C + k]! - e[k]! / s) < 1e-12);
  }
  const routing = gw.route(GROUPS);
  assert.deepEqual([routing.ownRows, routing.smallGroupRows, routing.failedGroupRows, routing.unseenRows], [120, 0, 40, 0]);
  // The JSON records the fallback; it reads back bit for bit.
  const json = gw.toJSON() as any;
  assert.deepEqual(json.groups[0].fallback.reason, 'fit_failed');
  assert.equal(json.groups[1].fallback, undefined);
  assert.deepEqual(groupwiseFromJSON(JSON.parse(JSON.stringify(json))).toJSON(), json);
});

test('fitGroupwise: a group below minGroupSize records fallback too_small; files without fallback (older) read as too_small', () => {
  const gw = fitGroupwise('temperature', input, labels, GROUPS, undefined, { minGroupSize: 50 });
  const json = gw.toJSON() as any;
  assert.deepEqual(json.groups[0].fallback, { reason: 'too_small', detail: '40 < 50 rows' });
  const legacy = JSON.parse(JSON.stringify(json));
  delete legacy.groups[0].fallback;
  assert.deepEqual(groupwiseFromJSON(legacy).groups[0]!.fallback, { reason: 'too_small', detail: '40 < 50 rows' });
  // A null calibrator of a large group needs a fallback reason; a reason that contradicts the sizes is refused.
  const large = JSON.parse(JSON.stringify(fitGroupwise('temperature', input, labels, GROUPS).toJSON()));
  delete large.groups[0].fallback;
  assert.throws(
    () => groupwiseFromJSON(large),
    (e: unknown) => e instanceof InvalidArgumentError && /json\.groups\[0\]\.calibrator/.test(e.message),
  );
  large.groups[0].fallback = { reason: 'too_small', detail: 'x' };
  assert.throws(
    () => groupwiseFromJSON(large),
    (e: unknown) => e instanceof InvalidArgumentError && /json\.groups\[0\]\.fallback\.reason: expected 'fit_failed'/.test(e.message),
  );
  const own = JSON.parse(JSON.stringify(json));
  own.groups[1].fallback = { reason: 'fit_failed', detail: 'x' };
  assert.throws(
    () => groupwiseFromJSON(own),
    (e: unknown) => e instanceof InvalidArgumentError && /json\.groups\[1\]\.fallback/.test(e.message),
  );
});

test('fitGroupwise with sample weights: each fit is the weighted fit of its rows; weight 2 equals the row repeated', () => {
  const weights = Float64Array.from({ length: N }, (_, i) => (i % 3 === 0 ? 2 : 1));
  const ids = Array.from({ length: N }, (_, i) => (i % 2 === 0 ? 'even' : 'odd'));
  const gw = fitGroupwise('temperature', { logits: { rows: N, cols: C, data: Float64Array.from(set.logits) } }, labels, ids, undefined, { sampleWeights: weights });
  // The 'even' group's temperature equals an unweighted fit on its rows with every weight-2 row written twice.
  const even = Array.from({ length: N / 2 }, (_, j) => 2 * j);
  const repeated = even.flatMap((i) => (weights[i] === 2 ? [i, i] : [i]));
  const plain = { logits: { rows: N, cols: C, data: Float64Array.from(set.logits) } };
  const tRepeated = fitCalibrator(
    'temperature',
    predictionRows(plain, repeated),
    Int32Array.from(repeated, (i) => labels[i]!),
  ).toJSON()['temperature'] as number;
  const tEven = gw.groups.find((g) => g.id === 'even')!.calibrator!.toJSON()['temperature'] as number;
  assert.ok(Math.abs(tEven - tRepeated) <= 1e-6 * tRepeated, `${tEven} vs ${tRepeated}`);
  const tPooled = gw.pooled.toJSON()['temperature'] as number;
  const all = Array.from({ length: N }, (_, i) => i).flatMap((i) => (weights[i] === 2 ? [i, i] : [i]));
  const tAll = fitCalibrator(
    'temperature',
    predictionRows(plain, all),
    Int32Array.from(all, (i) => labels[i]!),
  ).toJSON()['temperature'] as number;
  assert.ok(Math.abs(tPooled - tAll) <= 1e-6 * tAll);
  assert.throws(() => fitGroupwise('temperature', plain, labels, ids, undefined, { sampleWeights: new Float64Array(3) }), /sampleWeights/);
});
