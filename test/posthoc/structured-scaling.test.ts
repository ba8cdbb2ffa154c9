import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fitSms, fitSvs, fitTsMix, fitTemperature, calibratorFromJSON } from '../../src/posthoc/index.js';
import { identityParameters, linearObjective } from '../../src/posthoc/scaling/linear-scaling.js';
import type { LinearStructure } from '../../src/posthoc/scaling/affine-calibrator.js';
import { ridgeStrengths, structuredPenalty } from '../../src/posthoc/scaling/structured-scaling.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { assertClose, assertProbabilityRows, lcg, mat, naiveNll } from './helpers.js';
import { readLabels, readMatrix, sharedDataOrSkip } from '../real-predictions/shared-data.js';

/** Written by test/fixtures/scripts/make-structured-scaling-fixtures.py (probmetrics' own calibrators). */
const REFERENCE = JSON.parse(readFileSync(fileURLToPath(new URL('../../../test/fixtures/posthoc/reference-structured-scaling.json', import.meta.url)), 'utf8'));

test('the structured ridge penalty: gradient matches float64 central differences, and the projection minimises it along the softmax-invariant shifts', () => {
  const C = 4;
  const N = 40;
  const r = lcg(11);
  const x = Float64Array.from({ length: N * C }, () => 4 * (r() - 0.5));
  const labels = Int32Array.from({ length: N }, () => Math.floor(r() * C));
  for (const structure of ['diagonal', 'full'] as LinearStructure[]) {
    const penalty = structuredPenalty(structure, C, { intercept: 0.3, diagonal: 0.2, offDiagonal: 0.7 })!;
    const theta = identityParameters(structure, C).map((v) => v + (r() - 0.5));
    const g = new Float64Array(theta.length);
    linearObjective(x, N, C, labels, structure, penalty, theta, g);
    const dir = Float64Array.from(theta, () => r() - 0.5);
    const f = (t: number) =>
      linearObjective(
        x,
        N,
        C,
        labels,
        structure,
        penalty,
        theta.map((v, i) => v + t * dir[i]!),
        new Float64Array(theta.length),
      );
    const h = 1e-6;
    const fd = (f(h) - f(-h)) / (2 * h);
    const analytic = g.reduce((s, v, i) => s + v * dir[i]!, 0);
    assert.ok(Math.abs(fd - analytic) < 1e-7, `${structure}: ${analytic} vs ${fd}`);
    // The projected point has a penalty no larger than any other point along the invariant directions.
    const projected = Float64Array.from(theta);
    penalty.project(projected);
    const value = (t: Float64Array) => penalty.value(t, new Float64Array(t.length));
    for (let trial = 0; trial < 20; trial++) {
      const moved = Float64Array.from(projected);
      const nw = structure === 'full' ? C * C : C;
      const c = r() - 0.5;
      for (let k = 0; k < C; k++) moved[nw + k] = moved[nw + k]! + c;
      if (structure === 'full')
        for (let j = 0; j < C; j++) {
          const v = r() - 0.5;
          for (let k = 0; k < C; k++) moved[k * C + j] = moved[k * C + j]! + v;
        }
      assert.ok(value(moved) >= value(projected) - 1e-15, `${structure}: projection is the minimiser`);
    }
  }
});

test('the structured penalty states its curvature: 2λ per parameter, equal to the change of its gradient along that parameter', () => {
  const C = 3;
  const ridge = { intercept: 0.3, diagonal: 0.2, offDiagonal: 0.7 };
  for (const structure of ['diagonal', 'full'] as LinearStructure[]) {
    const penalty = structuredPenalty(structure, C, ridge)!;
    const theta = identityParameters(structure, C).map((v, i) => v + 0.1 * i);
    const at = (t: Float64Array) => {
      const g = new Float64Array(t.length);
      penalty.value(t, g);
      return g;
    };
    const g0 = at(theta);
    for (let i = 0; i < theta.length; i++) {
      const moved = Float64Array.from(theta);
      moved[i] = moved[i]! + 0.5;
      const second = (at(moved)[i]! - g0[i]!) / 0.5;
      assert.ok(Math.abs(penalty.curvature!(i) - second) < 1e-12, `${structure} ${i}: ${penalty.curvature!(i)} vs ${second}`);
    }
  }
});

test('ridge strengths scale as in probmetrics: λ·C^ρ/N^τ, off-diagonal λ·(C(C−1))^ρ/N^τ', () => {
  const s = { lambdaIntercept: 1, lambdaDiagonal: 2, lambdaOffDiagonal: 3, rho: 1, tau: 1, mixtureConstant: 1, maxIterations: 1, tolerance: 1 };
  assert.deepEqual(ridgeStrengths(s, 10, 5000), { intercept: 10 / 5000, diagonal: 20 / 5000, offDiagonal: (3 * 90) / 5000 });
});

test('ts-mix, SVS and SMS equal probmetrics on a small seeded problem (fixture from its own calibrators)', () => {
  const small = REFERENCE.small;
  const C = small.classes;
  const nVal = small.validation_rows;
  const logits = (small.logits as number[][]).flat();
  const labels = Int32Array.from(small.labels as number[]);
  const val = mat(nVal, C, logits.slice(0, nVal * C));
  const testRows = labels.length - nVal;
  const test = mat(testRows, C, logits.slice(nVal * C));
  const yVal = labels.slice(0, nVal);
  // The parameters to 2e-6 need the optimum itself: the solver's floor of 64 ε on the decrease (what vector / matrix /
  // Dirichlet use), not the default stop on a 1e-9 decrease of the loss.
  const tight = { tolerance: 1e-10, maxIterations: 10000, objectiveTolerance: 64 * Number.EPSILON };
  const fits = {
    'ts-mix': fitTsMix({ logits: val }, yVal),
    svs: fitSvs({ logits: val }, yVal, tight),
    sms: fitSms({ logits: val }, yVal, tight),
    // probmetrics' own start (W = I, b = 0) reaches the same optimum.
    'sms from the identity': fitSms({ logits: val }, yVal, { ...tight, start: 'identity' }),
  };
  for (const [kind, cal] of Object.entries(fits)) {
    const ref = small.fits[kind.split(' ')[0]!];
    const json = cal.toJSON();
    assert.ok(Math.abs((json.temperature as number) / ref.temperature - 1) < 1e-8, `${kind}: T ${json.temperature} vs ${ref.temperature}`);
    if (kind.startsWith('sms')) assert.equal((json.settings as Record<string, unknown>).start, kind === 'sms' ? 'svs' : 'identity');
    if (kind === 'ts-mix') assert.equal(json.uniformWeight, ref.uniformWeight);
    else {
      assertClose((json.weights as number[] | number[][]).flat(), (ref.weights as number[] | number[][]).flat(), 2e-6, 0, `${kind} weights`);
      // The bias is defined up to a common shift; the reference's ridge fixes it the same way (Σ b minimal).
      assertClose(json.bias as number[], ref.bias, 2e-6, 0, `${kind} bias`);
    }
    const out = cal.apply({ logits: test });
    assertProbabilityRows(out, kind);
    assertClose(out.data, (ref.test_probabilities as number[][]).flat(), 1e-7, 0, `${kind} test probabilities`);
  }
});

test('ts-mix, SVS and SMS on DenseNet-40 CIFAR-10 (5,000 / 10,000) reproduce probmetrics test log loss', async (t) => {
  if (!sharedDataOrSkip(t)) return;
  const val = await readMatrix('densenet40-cifar10/val-logits.npy');
  const yVal = await readLabels('densenet40-cifar10/val-labels.npy');
  const test = await readMatrix('densenet40-cifar10/test-logits.npy');
  const yTest = await readLabels('densenet40-cifar10/test-labels.npy');
  const ref = REFERENCE.densenet40_cifar10;
  const tight = { tolerance: 1e-7 };
  const fits = { 'ts-mix': fitTsMix({ logits: val }, yVal), svs: fitSvs({ logits: val }, yVal, tight), sms: fitSms({ logits: val }, yVal, tight) };
  for (const [kind, cal] of Object.entries(fits)) {
    const nll = naiveNll(cal.apply({ logits: test }).data, yTest, 10);
    assert.ok(Math.abs((cal.toJSON().temperature as number) / ref[kind].temperature - 1) < 1e-8, `${kind} T`);
    assert.ok(Math.abs(nll - ref[kind].test_log_loss) < 1e-6, `${kind}: test log loss ${nll} vs probmetrics ${ref[kind].test_log_loss}`);
  }
  // The structured maps improve on TS here, as in LogisticCalibrationBenchmark results/ComputerVision/results.csv.
  assert.ok(ref.svs.test_log_loss < ref['ts-mix'].test_log_loss && ref.sms.test_log_loss < ref['ts-mix'].test_log_loss);
});

test('SMS and SVS at C = 100 (netcal DenseNet-BC-100, 5,000 even rows → 5,000 odd rows) reproduce probmetrics test log loss, SMS in few evaluations', async (t) => {
  if (!sharedDataOrSkip(t)) return;
  const all = await readMatrix('netcal-records/densenet-bc-100-cifar-100/probs.npy');
  const labels = await readLabels('netcal-records/densenet-bc-100-cifar-100/labels.npy');
  const C = 100;
  // Rows renormalised to sum 1 and split even / odd, as make-structured-scaling-fixtures.py does.
  const half = (parity: number) => {
    const rows = all.rows / 2;
    const data = new Float64Array(rows * C);
    const y = new Int32Array(rows);
    for (let r = 0; r < rows; r++) {
      const i = 2 * r + parity;
      let s = 0;
      for (let k = 0; k < C; k++) s += all.data[i * C + k]!;
      for (let k = 0; k < C; k++) data[r * C + k] = all.data[i * C + k]! / s;
      y[r] = labels[i]!;
    }
    return { input: { probabilities: mat(rows, C, data) }, labels: y };
  };
  const val = half(0);
  const test = half(1);
  const ref = REFERENCE.densenet_bc_100_cifar100_even_odd;
  let evaluations = 0;
  const sms = fitSms(val.input, val.labels, undefined, { onSolved: (s) => (evaluations = s.evaluations) });
  const svs = fitSvs(val.input, val.labels);
  for (const [kind, cal] of [
    ['sms', sms],
    ['svs', svs],
  ] as const) {
    const nll = naiveNll(cal.apply(test.input).data, test.labels, C);
    assert.ok(Math.abs(nll - ref[kind].test_log_loss) < 1e-5, `${kind}: test log loss ${nll} vs probmetrics ${ref[kind].test_log_loss}`);
  }
  // Measured 2026-11-28 (bench/posthoc-sms-fit.ts): 104 evaluations from the SVS start with curvature scaling and
  // 30 correction pairs; the feature-moment standardisation from the identity used before took 1,145.
  assert.ok(evaluations > 0 && evaluations <= 300, `SMS objective evaluations: ${evaluations}`);
});

test('SVS and SMS do not collapse at C = 100 (netcal DenseNet-BC-100, 600 validation rows): test log loss within 3% of TS', async (t) => {
  if (!sharedDataOrSkip(t)) return;
  const all = await readMatrix('netcal-records/densenet-bc-100-cifar-100/probs.npy');
  const labels = await readLabels('netcal-records/densenet-bc-100-cifar-100/labels.npy');
  const C = 100;
  const take = (start: number, count: number) => ({
    input: { probabilities: { rows: count, cols: C, data: all.data.slice(start * C, (start + count) * C) } },
    labels: labels.slice(start, start + count),
  });
  const val = take(0, 600);
  const test = take(5000, 5000);
  const nll = (p: { data: Float64Array }) => naiveNll(p.data, test.labels, C);
  const ts = nll(fitTemperature(val.input, val.labels).apply(test.input));
  const svs = nll(fitSvs(val.input, val.labels, { tolerance: 1e-4 }).apply(test.input));
  const sms = nll(fitSms(val.input, val.labels, { tolerance: 1e-4 }).apply(test.input));
  // Unregularised matrix scaling reaches 11–39 on such sets (LogisticCalibrationBenchmark
  // results/ComputerVision/results.csv). With 600 rows SMS is measured slightly above TS (0.884 vs 0.873); on the
  // full 5,000-row split it is below (bench/posthoc-2026.ts).
  assert.ok(svs <= ts * 1.03 && sms <= ts * 1.03, `no collapse: TS ${ts}, SVS ${svs}, SMS ${sms}`);
});

test('ts-mix, SVS and SMS survive logits of magnitude 1e3 and probabilities of exactly 0 and 1', () => {
  const r = lcg(5);
  const N = 60;
  const C = 3;
  const labels = Int32Array.from({ length: N }, () => Math.floor(r() * C));
  const big = mat(
    N,
    C,
    Array.from({ length: N * C }, (_, i) => (i % C === (labels[Math.floor(i / C)]! + (Math.floor(i / C) % 4 === 0 ? 1 : 0)) % C ? 1000 : 0) + 800 * (r() - 0.5)),
  );
  const predicted = Array.from(labels, (y, i) => (i % 5 === 0 ? (y + 1) % C : y));
  const hard = mat(
    N,
    C,
    Array.from({ length: N * C }, (_, i) => (i % C === predicted[Math.floor(i / C)]! ? 1 : 0)),
  );
  for (const input of [{ logits: big }, { probabilities: hard }]) {
    for (const cal of [fitTsMix(input, labels), fitSvs(input, labels, { tolerance: 1e-4 }), fitSms(input, labels, { tolerance: 1e-4 })]) {
      const out = cal.apply(input);
      assertProbabilityRows(out, cal.kind);
      assert.ok(Number.isFinite(naiveNll(out.data, labels, C)), `${cal.kind}: finite log loss`);
      const back = calibratorFromJSON(JSON.parse(JSON.stringify(cal.toJSON())));
      assert.deepEqual(back.apply(input).data, out.data);
    }
  }
});

test('bad options and JSON are refused naming the field', () => {
  const val = mat(4, 2, [2, 0, 0, 2, 1, 0, 0, 1]);
  const labels = Int32Array.from([0, 1, 1, 0]);
  assert.throws(
    () => fitSvs({ logits: val }, labels, { lambdaDiagonal: -1 }),
    (e: unknown) => e instanceof InvalidArgumentError && /svs options\.lambdaDiagonal/.test(e.message),
  );
  assert.throws(() => fitTsMix({ logits: val }, labels, { mixtureConstant: Number.NaN }), InvalidArgumentError);
  const json = { ...fitTsMix({ logits: val }, labels).toJSON(), uniformWeight: 1.5 };
  assert.throws(
    () => calibratorFromJSON(json),
    (e: unknown) => e instanceof InvalidArgumentError && /json\.uniformWeight/.test(e.message),
  );
});
