import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bbqBinRange, fitBbq, fitBbqEnsemble } from '../../src/posthoc/nonparametric/bbq.js';
import { fitEnir, fitEnirEnsemble } from '../../src/posthoc/nonparametric/enir.js';
import { elbow, modelScores } from '../../src/posthoc/nonparametric/model-averaging.js';
import { fitNearIsotonic, fitNearIsotonicStep } from '../../src/posthoc/nonparametric/near-isotonic.js';
import { nearIsotonicAt, nearIsotonicPath } from '../../src/posthoc/nonparametric/near-isotonic-regression.js';
import { calibratorFromJSON, fitCalibrator } from '../../src/posthoc/registry.js';
import { applyStepEnsemble, collapseStepEnsemble, type StepEnsemble } from '../../src/posthoc/nonparametric/step-ensemble.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { assertClose, assertProbabilityRows, lcg, mat, rowsToMatrix, splits } from './helpers.js';

/** Written by test/fixtures/scripts/make-bbq-enir-fixtures.py from netcal @ 2a3db8d (command and notes in the file). */
const ref = JSON.parse(readFileSync(fileURLToPath(new URL('../../../test/fixtures/posthoc/reference-bbq-enir.json', import.meta.url)), 'utf8'));
const s = Float64Array.from(ref.binary.scores as number[]);
const y = Float64Array.from(ref.binary.labels as number[]);
const testScores = ref.binary.test as number[];
const onTest = (e: StepEnsemble) => testScores.map((x) => applyStepEnsemble(e, x));

// netcal scores the models' log-likelihood in float32 (PyTorch), we in float64: the weights agree to ~1e-6.
test('BBQ equals netcal BBQ (BIC and AIC) on 300 binary scores', () => {
  assertClose(onTest(fitBbqEnsemble(s, y, 'bic')), ref.bbq, 1e-6, 0, 'bbq');
  assertClose(onTest(fitBbqEnsemble(s, y, 'aic')), ref.bbq_aic, 1e-6, 0, 'bbq aic');
});

test('the near-isotonic path equals netcal NearIsotonicRegression knot by knot (λ, bounds, values, sizes)', () => {
  const path = nearIsotonicPath(s, y);
  assert.equal(path.length, ref.nir_path.length);
  path.forEach((k, i) => {
    const r = ref.nir_path[i];
    assert.equal(k.lambda, r.lambda, `λ of knot ${i}`);
    assert.deepEqual(Array.from(k.upper), r.upper, `bounds of knot ${i}`);
    assertClose(k.values, r.values, 1e-15, 0, `values of knot ${i}`);
    assert.deepEqual(Array.from(k.sizes), r.sizes, `sizes of knot ${i}`);
  });
  // The last knot is the isotonic fit: non-decreasing values.
  const last = path[path.length - 1]!.values;
  for (let j = 1; j < last.length; j++) assert.ok(last[j]! >= last[j - 1]! - 1e-12);
});

test('ENIR equals netcal ENIR (BIC and AIC, path knots with their own fits) on 300 binary scores', () => {
  assertClose(onTest(fitEnirEnsemble(s, y, 'bic')), ref.enir, 1e-6, 0, 'enir');
  assertClose(onTest(fitEnirEnsemble(s, y, 'aic')), ref.enir_aic, 1e-6, 0, 'enir aic');
});

test('BBQ and ENIR one-vs-rest on 4 classes equal netcal (one-vs-all models, rows renormalised)', () => {
  const input = { probabilities: rowsToMatrix(ref.multiclass.probs) };
  const labels = Int32Array.from(ref.multiclass.labels as number[]);
  const t = { probabilities: rowsToMatrix(ref.multiclass.test) };
  assertClose(fitBbq(input, labels).apply(t).data, (ref.bbq_multiclass as number[][]).flat(), 1e-6, 0, 'bbq');
  assertClose(fitEnir(input, labels).apply(t).data, (ref.enir_multiclass as number[][]).flat(), 1e-6, 0, 'enir');
});

test('the near-isotonic fit at any λ minimises ½Σ(t − β)² + λΣ(β_i − β_{i+1})₊ (random perturbations never lower it)', () => {
  const rand = lcg(7);
  const n = 60;
  const sc = Float64Array.from({ length: n }, () => rand());
  const t = Float64Array.from(sc, (v) => (rand() < v ? 1 : 0));
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => sc[a]! - sc[b]!);
  const path = nearIsotonicPath(sc, t);
  const objective = (beta: Float64Array, lambda: number) => {
    let f = 0;
    for (let r = 0; r < n; r++) f += 0.5 * (t[order[r]!]! - beta[r]!) ** 2;
    for (let r = 0; r + 1 < n; r++) f += lambda * Math.max(0, beta[r]! - beta[r + 1]!);
    return f;
  };
  for (const lambda of [0, 0.05, 0.3, 1, 2.5, 10, 1000]) {
    const fit = nearIsotonicAt(path, lambda);
    const beta = Float64Array.from(order, (i) => applyStepEnsemble({ weights: Float64Array.of(1), steps: [fit] }, sc[i]!));
    const best = objective(beta, lambda);
    for (let trial = 0; trial < 300; trial++) {
      const b = Float64Array.from(beta, (v) => v + (rand() - 0.5) * 1e-3);
      assert.ok(objective(b, lambda) >= best - 1e-12, `λ = ${lambda}, trial ${trial}`);
    }
  }
});

test('near-isotonic by hand: outcomes 1, 0 at scores 0.2, 0.6 meet at λ = ½ and stay pooled', () => {
  const path = nearIsotonicPath(Float64Array.of(0.6, 0.2), Float64Array.of(0, 1));
  // β(λ) = (1 − λ, λ) until they meet at λ = ½ (slopes −1 and +1), then the isotonic fit ½, ½.
  assert.deepEqual(
    path.map((k) => k.lambda),
    [0, 0.5],
  );
  assert.deepEqual(Array.from(nearIsotonicAt(path, 0.2).values), [0.8, 0.2]);
  assert.deepEqual(Array.from(nearIsotonicAt(path, 0.2).upper), [0.4, 1]);
  assert.deepEqual(Array.from(nearIsotonicAt(path, 3).values), [0.5]);
  const one = fitNearIsotonicStep(Float64Array.of(0.6, 0.2), Float64Array.of(0, 1), { select: 'lambda', lambda: 0 });
  assert.equal(applyStepEnsemble(one, 0.3), 1);
  assert.equal(applyStepEnsemble(one, 0.4), 1); // (l, u]: the bound belongs to the lower group
  assert.equal(applyStepEnsemble(one, 0.41), 0);
});

test('model averaging by hand: BIC weights exp(−ΔBIC/2) and the elbow keeps the models before the drop', () => {
  // LL −10, −10.5, −30 with d = 1, 2, 1 on n = e² samples: BIC 22, 25, 62.
  const w = modelScores([-10, -10.5, -30], [1, 2, 1], Math.exp(2), 'bic');
  assertClose(w, [1, Math.exp(-1.5), Math.exp(-20)], 1e-15);
  // Each drop divided by the variance of the weights (≈ 0.184) exceeds α = 0.001: all three kept.
  const all = elbow(w);
  assert.deepEqual(all.kept, [0, 1, 2]);
  const total = 1 + Math.exp(-1.5) + Math.exp(-20);
  assertClose(all.weights, [1 / total, Math.exp(-1.5) / total, Math.exp(-20) / total], 1e-15);
  // A zero drop stops the cut: 1, then one of the equal 0.5 (the later index first, as numpy's argsort()[::-1]).
  const cut = elbow(Float64Array.of(1, 0.5, 0.5, 0.1));
  assert.deepEqual(cut.kept, [0, 2]);
  assertClose(cut.weights, [2 / 3, 1 / 3], 1e-15);
  assert.deepEqual(bbqBinRange(1000), { min: 1, max: 100 });
  assert.deepEqual(bbqBinRange(12), { min: 1, max: 3 });
});

test('BBQ, ENIR and near-isotonic: binary, one-vs-rest and top-label modes give probability rows and round-trip through JSON', () => {
  for (const C of [2, 4]) {
    const { val, test: t } = splits(C, 800);
    for (const kind of ['bbq', 'enir', 'near-isotonic'] as const) {
      for (const mode of ['one-vs-rest', 'top-label'] as const) {
        const cal = fitCalibrator(kind, val.input, val.labels, { mode } as never);
        const out = cal.apply(t.input);
        assertProbabilityRows(out, `${kind} ${mode} C=${C}`);
        const back = calibratorFromJSON(JSON.parse(JSON.stringify(cal.toJSON())));
        assert.deepEqual(back.apply(t.input).data, out.data, `${kind} ${mode}`);
        assert.ok(Object.isFrozen(cal) && Object.isFrozen((cal as unknown as { settings: object }).settings));
      }
    }
  }
});

test('logits of magnitude 1e3 and probabilities of exactly 0 and 1 give finite probability rows', () => {
  const { val } = splits(3, 400);
  const big = mat(3, 3, [1000, -1000, 0, -1000, 1000, 999, 0, 0, 0]);
  const hard = mat(2, 3, [1, 0, 0, 0, 0.5, 0.5]);
  for (const fit of [fitBbq, fitEnir, fitNearIsotonic]) {
    const cal = fit(val.input, val.labels);
    assertProbabilityRows(cal.apply({ logits: big }), 'logits 1e3');
    assertProbabilityRows(cal.apply({ probabilities: hard }), 'exact 0 and 1');
  }
});

test('bad options and JSON name the field', () => {
  const { val } = splits(3, 200);
  assert.throws(() => fitBbq(val.input, val.labels, { score: 'mdl' } as never), /bbq options\.score: expected one of 'bic', 'aic'/);
  assert.throws(() => fitNearIsotonic(val.input, val.labels, { lambda: -1 }), /near-isotonic options\.lambda/);
  const json = fitEnir(val.input, val.labels).toJSON() as any;
  json.ensembles[1].steps[0].values[0] = 1.5;
  assert.throws(
    () => calibratorFromJSON(json),
    (e: unknown) => e instanceof InvalidArgumentError && /json\.ensembles\[1\]\.steps\[0\]\.values\[0\]/.test(String(e)),
  );
  const short = fitBbq(val.input, val.labels).toJSON() as any;
  short.ensembles.pop();
  assert.throws(() => calibratorFromJSON(short), /json\.ensembles: expected an array of 3 ensembles/);
});

test('an ensemble collapsed to one step function (the ONNX form) equals the ensemble bit for bit', () => {
  const rand = lcg(3);
  for (const e of [fitBbqEnsemble(s, y), fitEnirEnsemble(s, y), fitEnirEnsemble(s, y, 'aic')]) {
    const one = collapseStepEnsemble(e);
    const points = [0, 1, ...testScores, ...Array.from(one.upper), ...Array.from({ length: 2000 }, () => rand())];
    for (const x of points) assert.equal(applyStepEnsemble({ weights: Float64Array.of(1), steps: [one] }, x), applyStepEnsemble(e, x), `s = ${x}`);
  }
});
