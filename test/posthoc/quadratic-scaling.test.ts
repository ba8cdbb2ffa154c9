import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readNpy, writeNpy } from '../../src/io/npy.js';
import { calibratorFromJSON, fitCalibrator } from '../../src/posthoc/index.js';
import { CalibrationFitError } from '../../src/posthoc/fit-error.js';
import { fitPlatt } from '../../src/posthoc/scaling/platt.js';
import { fitQuadraticScaling, QUADRATIC_LOGIT_LIMIT } from '../../src/posthoc/scaling/quadratic-scaling.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';
import { assertProbabilityRows, lcg, mat } from './helpers.js';

/**
 * Quadratic scaling q₁ = σ(a + b x + c x²) (src/posthoc/scaling/quadratic-scaling.ts) against scikit-learn
 * LogisticRegression(penalty=None) on [x, x²] (fixture from test/fixtures/scripts/make-quadratic-scaling-fixtures.py),
 * its ridge optimum by the gradient written from the formula, Platt on affine data, extreme inputs, JSON, the CLI
 * and refusals. The ONNX export is checked against `apply` in test/deploy/export-equivalence.test.ts.
 */

const ref = JSON.parse(readFileSync(fileURLToPath(new URL('../../../test/fixtures/posthoc/reference-quadratic-scaling.json', import.meta.url)), 'utf8'));

const logitsOf = (x: readonly number[]) => ({
  logits: mat(
    x.length,
    2,
    x.flatMap((v) => [0, v]),
  ),
});
const sigmoid = (s: number) => 1 / (1 + Math.exp(-s));

function assertParameters(q: { a: number; b: number; c: number }, expected: { a: number; b: number; c: number }, tolerance: number, what: string): number {
  let worst = 0;
  for (const key of ['a', 'b', 'c'] as const) {
    const d = Math.abs(q[key] - expected[key]);
    worst = Math.max(worst, d);
    assert.ok(d <= tolerance, `${what} ${key}: ${q[key]} vs ${expected[key]} (|Δ| = ${d.toExponential(2)})`);
  }
  return worst;
}

test('quadratic-scaling reproduces scikit-learn LogisticRegression(penalty=None) on [x, x²]: logits, probabilities with exact 0 / 1, sample weights', (t) => {
  const cases: [string, ReturnType<typeof logitsOf> | { probabilities: ReturnType<typeof mat> }, Float64Array | undefined][] = [
    ['logits', logitsOf(ref.logits.x), undefined],
    [
      'probabilities',
      {
        probabilities: mat(
          ref.probabilities.p1.length,
          2,
          (ref.probabilities.p1 as number[]).flatMap((p) => [1 - p, p]),
        ),
      },
      undefined,
    ],
    ['weighted', logitsOf(ref.weighted.x), Float64Array.from(ref.weighted.weights)],
  ];
  for (const [name, input, sampleWeights] of cases) {
    const labels = Int32Array.from(ref[name].labels);
    const q = fitCalibrator('quadratic-scaling', input, labels, undefined, sampleWeights ? { sampleWeights } : {}).toJSON() as unknown as { a: number; b: number; c: number };
    const exact = assertParameters(q, ref[name].sklearn, 1e-8, `${name} (newton-cholesky)`);
    const lbfgs = assertParameters(q, ref[name].lbfgs, 1e-4, `${name} (lbfgs)`);
    // probabilities: ours is the tighter optimum (mean-loss gradient ≤ 4e-15 vs newton-cholesky's 8.5e-8 on x²).
    t.diagnostic(`${name}: max |Δ| vs newton-cholesky ${exact.toExponential(2)}, vs lbfgs ${lbfgs.toExponential(2)}`);
  }
});

test('the ridge fit is the stationary point of mean log loss + λ_a a² + λ_c c² (gradient written from the formula)', () => {
  const x: number[] = ref.logits.x;
  const y: number[] = ref.logits.labels;
  const lambdaIntercept = 0.05;
  const lambdaQuadratic = 2;
  const q = fitQuadraticScaling(logitsOf(x), Int32Array.from(y), { lambdaIntercept, lambdaQuadratic });
  const g = [0, 0, 0];
  for (let i = 0; i < x.length; i++) {
    const r = sigmoid(q.a + q.b * x[i]! + q.c * x[i]! * x[i]!) - y[i]!;
    g[0]! += r / x.length;
    g[1]! += (r * x[i]!) / x.length;
    g[2]! += (r * x[i]! * x[i]!) / x.length;
  }
  g[0]! += 2 * lambdaIntercept * q.a;
  g[2]! += 2 * lambdaQuadratic * q.c;
  for (const v of g) assert.ok(Math.abs(v) < 1e-10, `gradient ${g}`);
  const unpenalised = fitQuadraticScaling(logitsOf(x), Int32Array.from(y));
  assert.ok(Math.abs(q.c) < Math.abs(unpenalised.c) && Math.abs(q.a) < Math.abs(unpenalised.a), 'the ridge shrinks a and c');
  assert.deepEqual(q.toJSON().settings, { lambdaIntercept, lambdaQuadratic });
});

test('on data drawn from an affine logit (c = 0) quadratic scaling finds c ≈ 0 and recovers platt’s fit', () => {
  const r = lcg(25);
  const n = 20000;
  const x = Array.from({ length: n }, () => 6 * (r() - 0.5));
  const labels = Int32Array.from(x, (v) => (r() < sigmoid(-0.3 + 1.5 * v) ? 1 : 0));
  const input = logitsOf(x);
  const q = fitQuadraticScaling(input, labels);
  const platt = fitPlatt(input, labels);
  assert.ok(Math.abs(q.c) < 0.02, `c = ${q.c}`);
  // c forced to 0 by the ridge: the same model as platt, which differs only by its smoothed targets (O(1/N)).
  const affine = fitQuadraticScaling(input, labels, { lambdaQuadratic: 1e8 });
  assert.ok(Math.abs(affine.c) < 1e-6, `c = ${affine.c}`);
  assert.ok(Math.abs(affine.b - platt.a) < 2e-3 && Math.abs(affine.a - platt.b) < 2e-3, `(${affine.a}, ${affine.b}) vs platt (${platt.b}, ${platt.a})`);
  assert.ok(Math.abs(affine.b - 1.5) < 0.1 && Math.abs(affine.a + 0.3) < 0.1);
});

test('probabilities exactly 0 and 1 and logits of magnitude 1e3 stay finite and clip to the same x = ±708.4', () => {
  const r = lcg(7);
  const n = 300;
  const f = Array.from({ length: n }, () => 8 * (r() - 0.5));
  const labels = Int32Array.from(f, (v) => (r() < sigmoid(0.2 + 0.9 * v - 0.05 * v * v) ? 1 : 0));
  for (let i = 0; i < 6; i++) {
    f[i] = i % 2 === 0 ? 1e3 : -1e3;
    labels[i] = i % 2 === 0 ? 1 : 0;
  }
  const fromLogits = fitQuadraticScaling(logitsOf(f), labels);
  const probabilities = mat(
    n,
    2,
    f.flatMap((v) => (v === 1e3 ? [0, 1] : v === -1e3 ? [1, 0] : [sigmoid(-v), sigmoid(v)])),
  );
  const fromProbabilities = fitQuadraticScaling({ probabilities }, labels);
  for (const key of ['a', 'b', 'c'] as const) {
    assert.ok(Number.isFinite(fromLogits[key]), key);
    assert.ok(Math.abs(fromLogits[key] - fromProbabilities[key]) < 1e-6, `${key}: ${fromLogits[key]} vs ${fromProbabilities[key]}`);
  }
  const extreme = logitsOf([1e3, -1e3, 1e300, -1e300, 0]);
  const out = fromLogits.apply(extreme);
  assertProbabilityRows(out);
  const z = fromLogits.applyLogits(extreme).data;
  const s = (v: number) => fromLogits.a + (fromLogits.b + fromLogits.c * v) * v;
  assert.equal(z[1], s(QUADRATIC_LOGIT_LIMIT));
  assert.equal(z[3], s(-QUADRATIC_LOGIT_LIMIT));
  assert.equal(z[5], z[1]);
  const fromExactProbabilities = fromLogits.apply({ probabilities: mat(2, 2, [0, 1, 1, 0]) }).data;
  assert.deepEqual(Array.from(fromExactProbabilities), Array.from(out.data.subarray(0, 4)));
});

test('JSON round trip is bit-identical; calib fit --method quadratic-scaling and calib apply reach it', async () => {
  const labels = Int32Array.from(ref.logits.labels);
  const input = logitsOf(ref.logits.x);
  const q = fitQuadraticScaling(input, labels, { lambdaQuadratic: 0.01 });
  const back = calibratorFromJSON(JSON.parse(JSON.stringify(q.toJSON())));
  assert.deepEqual(back.toJSON(), q.toJSON());
  assert.deepEqual(Array.from(back.apply(input).data), Array.from(q.apply(input).data));

  const dir = tempDir('quadratic-scaling');
  const p = (name: string) => join(dir, name);
  const n = labels.length;
  await writeNpy(p('z.npy'), Float64Array.from(input.logits.data), [n, 2]);
  await writeNpy(p('y.npy'), labels, [n]);
  const fit = await run(['fit', '--method', 'quadratic-scaling', '--logits', p('z.npy'), '--labels', p('y.npy'), '--opt', 'lambdaQuadratic=0.01', '--out', p('q.json')]);
  assert.equal(fit.code, 0, fit.stderr);
  assert.deepEqual(JSON.parse(readFileSync(p('q.json'), 'utf8')), JSON.parse(JSON.stringify(q.toJSON())));
  const applied = await run(['apply', '--calibrator', p('q.json'), '--logits', p('z.npy'), '--out', p('q.npy')]);
  assert.equal(applied.code, 0, applied.stderr);
  const written = await readNpy(p('q.npy'));
  const expected = q.apply(input).data;
  let worst = 0;
  for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(written.data[i]! - expected[i]!));
  assert.ok(worst < 1e-6, `calib apply vs apply: ${worst}`);

  await writeNpy(
    p('z3.npy'),
    Float64Array.from({ length: 3 * n }, (_, i) => Math.sin(i)),
    [n, 3],
  );
  const three = await run(['fit', '--method', 'quadratic-scaling', '--logits', p('z3.npy'), '--labels', p('y.npy'), '--out', p('x.json')]);
  assert.equal(three.code, 2);
  assert.match(three.stderr, /^calib: error: .*quadratic-scaling.*(binary|2 classes)/);
  assert.equal(three.stderr.trim().split('\n').length, 1);
  const bad = await run(['fit', '--method', 'quadratic-scaling', '--logits', p('z.npy'), '--labels', p('y.npy'), '--opt', 'lambdaQuadratic=-1', '--out', p('x.json')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^calib: error: quadratic-scaling options\.lambdaQuadratic: expected a finite number ≥ 0/);
  assert.equal(bad.stderr.trim().split('\n').length, 1);
});

test('bad input is refused in one line naming it: 3 classes, bad options, bad JSON, separable labels', () => {
  const three = { logits: mat(4, 3, [0, 1, 2, 1, 0, 2, 2, 1, 0, 0, 0, 1]) };
  const oneLine = (re: RegExp) => (e: unknown) => e instanceof InvalidArgumentError && re.test(e.message) && !e.message.includes('\n');
  assert.throws(() => fitCalibrator('quadratic-scaling', three, Int32Array.of(0, 1, 2, 0)), oneLine(/input\.logits\.cols: expected 2 classes \(quadratic-scaling calibration is binary\)/));
  const input = logitsOf(ref.logits.x);
  const labels = Int32Array.from(ref.logits.labels);
  assert.throws(() => fitQuadraticScaling(input, labels, { lambdaIntercept: -0.1 }), oneLine(/quadratic-scaling options\.lambdaIntercept: expected a finite number ≥ 0/));
  assert.throws(() => fitQuadraticScaling(input, labels, { lambdaQuadratc: 1 } as never), oneLine(/quadratic-scaling options\.lambdaQuadratc/));
  const json = fitQuadraticScaling(input, labels).toJSON();
  assert.throws(() => calibratorFromJSON({ ...json, classes: 3 }), oneLine(/json\.classes: expected 2 \(quadratic scaling is binary\)/));
  assert.throws(() => calibratorFromJSON({ ...json, c: 'x' }), oneLine(/json\.c/));
  // Separable labels (y = 1 exactly where x > 0): no finite unpenalised optimum.
  const x = Array.from({ length: 40 }, (_, i) => i - 19.5);
  assert.throws(
    () =>
      fitQuadraticScaling(
        logitsOf(x),
        Int32Array.from(x, (v) => (v > 0 ? 1 : 0)),
      ),
    (e: unknown) => e instanceof CalibrationFitError && /separable/.test(e.message),
  );
  assert.throws(
    () =>
      fitQuadraticScaling(
        logitsOf(x),
        Int32Array.from(x, (v) => (Math.abs(v) < 5 ? 1 : 0)),
      ),
    (e: unknown) => e instanceof CalibrationFitError && /separable/.test(e.message),
  );
  assert.throws(
    () => fitQuadraticScaling(logitsOf(x), new Int32Array(x.length)),
    (e: unknown) => e instanceof CalibrationFitError && /separable/.test(e.message),
  );
  const ridged = fitQuadraticScaling(
    logitsOf(x),
    Int32Array.from(x, (v) => (Math.abs(v) < 5 ? 1 : 0)),
    { lambdaIntercept: 0.1, lambdaQuadratic: 0.1 },
  );
  assert.ok(ridged.c < 0 && Number.isFinite(ridged.a), 'a ridge gives separable labels a finite fit');
});
