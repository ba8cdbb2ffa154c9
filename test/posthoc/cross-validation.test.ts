/**
 * Out-of-fold fits (issue 25 item 3) and the automatic choice (item 4): stratified folds checkable by hand, the
 * out-of-fold metrics recomputed independently from per-fold fits, refit vs ensemble, refusals of K; and a choice
 * on synthetic data whose answer is known.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calibratorFromJSON, crossValidate, CvEnsembleCalibrator, fitCalibrator, predictionRows, selectCalibrator, stratifiedFolds } from '../../src/posthoc/index.js';
import { calibratorToOnnx } from '../../src/posthoc/onnx/index.js';
import { lcg, mat, naiveEce, naiveNll, naiveSoftmax, splits } from './helpers.js';

test('stratified folds by hand: 3 rows of each of 2 classes in 3 folds → one of each class per fold', () => {
  const labels = Int32Array.from([0, 1, 0, 1, 0, 1]);
  const foldOf = stratifiedFolds(labels, 3, 5);
  for (let k = 0; k < 3; k++) {
    const members = [...foldOf.keys()].filter((i) => foldOf[i] === k);
    assert.deepEqual(members.map((i) => labels[i]).sort(), [0, 1], `fold ${k}: rows ${members}`);
  }
  // Seeded: the same seed gives the same folds, another seed (here) another assignment.
  assert.deepEqual(stratifiedFolds(labels, 3, 5), foldOf);
  // 7 rows (5 of class 0, 2 of class 1) in 2 folds: sizes 4 and 3, class 1 split 1 + 1.
  const skew = Int32Array.from([0, 0, 1, 0, 0, 1, 0]);
  const f2 = stratifiedFolds(skew, 2, 0);
  assert.deepEqual(
    [0, 1].map((k) => f2.filter((f) => f === k).length),
    [4, 3],
  );
  assert.deepEqual(
    [0, 1].map((k) => [...f2.keys()].filter((i) => f2[i] === k && skew[i] === 1).length),
    [1, 1],
  );
});

test('K < 2, K > N and K above a class count are refused, naming the argument', () => {
  const labels = Int32Array.from([0, 0, 0, 1, 1, 2, 2, 2]);
  assert.throws(() => stratifiedFolds(labels, 1, 0, '--cv'), /--cv: expected an integer K ≥ 2 \(folds\), got 1/);
  assert.throws(() => stratifiedFolds(labels, 9, 0, '--cv'), /--cv: expected at most 8 folds \(one per validation row\), got K = 9/);
  assert.throws(() => stratifiedFolds(labels, 3, 0, '--cv'), /--cv: expected at most 2 folds \(class 1 has 2 validation rows/);
  assert.throws(() => stratifiedFolds(labels, 2.5, 0, '--cv'), /--cv: expected an integer K ≥ 2/);
});

test('out-of-fold metrics equal per-fold temperature fits recomputed independently; refit = fit on all rows', () => {
  const { val } = splits(4, 400, 3, 1.2);
  const cv = crossValidate('temperature', val.input, val.labels, undefined, { folds: 4, seed: 3 });
  const C = 4;
  const oof = new Float64Array(400 * C);
  for (let k = 0; k < 4; k++) {
    const train = [...cv.foldOf.keys()].filter((i) => cv.foldOf[i] !== k);
    const held = [...cv.foldOf.keys()].filter((i) => cv.foldOf[i] === k);
    const t = (
      fitCalibrator(
        'temperature',
        predictionRows(val.input, train),
        Int32Array.from(train, (i) => val.labels[i]!),
      ).toJSON() as unknown as { temperature: number }
    ).temperature;
    for (const i of held) oof.set(naiveSoftmax(val.logits.subarray(i * C, (i + 1) * C), 1, C, t), i * C);
  }
  assert.ok(Math.abs(cv.metrics.nll - naiveNll(oof, val.labels, C)) < 1e-12, `${cv.metrics.nll} vs ${naiveNll(oof, val.labels, C)}`);
  assert.ok(Math.abs(cv.metrics.ece - naiveEce(oof, val.labels, C, 15)) < 1e-12);
  let brier = 0;
  for (let i = 0; i < 400; i++) for (let c = 0; c < C; c++) brier += (oof[i * C + c]! - (val.labels[i] === c ? 1 : 0)) ** 2;
  assert.ok(Math.abs(cv.metrics.brier - brier / 400) < 1e-12);
  // The out-of-fold NLL is above the in-sample one (each row's temperature was fitted without it).
  const all = fitCalibrator('temperature', val.input, val.labels);
  assert.equal((cv.calibrator.toJSON() as Record<string, unknown>)['temperature'], (all.toJSON() as Record<string, unknown>)['temperature']);
  const json = cv.calibrator.toJSON() as Record<string, any>;
  assert.equal(json['fit'].cv.final, 'refit');
  assert.equal(json['fit'].cv.folds, 4);
  assert.deepEqual(calibratorFromJSON(JSON.parse(JSON.stringify(json))).toJSON(), json);
});

test('--cv-ensemble: the mean of the fold calibrators, read back from JSON; ONNX export refused clearly', () => {
  const { val, test: held } = splits(3, 300, 3, 1.2);
  const cv = crossValidate('vector', val.input, val.labels, undefined, { folds: 3, final: 'ensemble' });
  assert.ok(cv.calibrator instanceof CvEnsembleCalibrator);
  const q = cv.calibrator.apply(held.input);
  const parts = cv.foldCalibrators.map((c) => c.apply(held.input));
  for (let i = 0; i < q.data.length; i++) assert.ok(Math.abs(q.data[i]! - (parts[0]!.data[i]! + parts[1]!.data[i]! + parts[2]!.data[i]!) / 3) < 1e-15);
  const back = calibratorFromJSON(JSON.parse(JSON.stringify(cv.calibrator.toJSON())));
  assert.deepEqual(back.apply(held.input).data, q.data);
  assert.throws(() => calibratorToOnnx(back, { name: 'x', kind: 'logits' }), /calibrator: expected a single calibrator .*got a cv-ensemble/);
  assert.throws(() => calibratorFromJSON({ ...cv.calibrator.toJSON(), members: [cv.calibrator.toJSON()['members'] as unknown[]][0]!.slice(0, 1) }), /json.members: expected an array of at least 2/);
});

/** Logits whose softmax at T = 1 is calibrated after dividing by `temperature`: labels drawn from softmax(z / T). */
function temperatureWorld(n: number, classes: number, temperature: number, seed: number) {
  const r = lcg(seed);
  const logits = new Float64Array(n * classes);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < classes; k++) logits[i * classes + k] = 4 * (r() - 0.5) * temperature;
    const p = naiveSoftmax(logits.subarray(i * classes, (i + 1) * classes), 1, classes, temperature);
    let u = r();
    let y = 0;
    while (y < classes - 1 && u > p[y]!) u -= p[y++]!;
    labels[i] = y;
  }
  return { logits: mat(n, classes, logits), labels };
}

test('auto: data generated by a temperature → a one-parameter temperature method is chosen', () => {
  const { logits, labels } = temperatureWorld(1500, 3, 2.5, 21);
  const s = selectCalibrator({ logits }, labels, { folds: 5, candidates: ['temperature', 'vector', 'matrix', 'isotonic', 'histogram'] });
  assert.equal(s.chosen, 'temperature', s.reason);
  assert.ok(s.table.find((r) => r.method === 'temperature')!.tied);
});

test('auto: a class-wise distortion (class 0 boosted by a bias) that no temperature fixes → vector scaling or richer wins', () => {
  const { logits, labels } = temperatureWorld(3000, 3, 1, 22);
  // The model over-predicts class 0 by +2 nats: a bias, not a temperature, undoes it.
  for (let i = 0; i < 3000; i++) logits.data[i * 3] = logits.data[i * 3]! + 2;
  const s = selectCalibrator({ logits }, labels, { folds: 5, candidates: ['temperature', 'ts-mix', 'vector', 'matrix'] });
  assert.ok(['vector', 'matrix'].includes(s.chosen), s.reason);
  const t = s.table.find((r) => r.method === 'temperature')!;
  assert.equal(t.tied, false, 'temperature is worse beyond the bootstrap interval');
  assert.ok(t.lower! > 0);
});
