import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitDirichlet, odirPenalty } from '../../src/posthoc/scaling/dirichlet.js';
import { identityParameters, linearObjective, type Penalty } from '../../src/posthoc/scaling/linear-scaling.js';
import type { LinearStructure } from '../../src/posthoc/scaling/affine-calibrator.js';
import { fitMatrix, matrixPenalty } from '../../src/posthoc/scaling/matrix.js';
import { fitVector, vectorPenalty } from '../../src/posthoc/scaling/vector.js';
import { assertClose, assertProbabilityRows, lcg, loadReference, mat, naiveSoftmax, splits } from './helpers.js';

const C = 4;
const N = 50;

function problem(seed: number) {
  const r = lcg(seed);
  const x = Float64Array.from({ length: N * C }, () => 6 * (r() - 0.5) - 2);
  const labels = Int32Array.from({ length: N }, () => Math.floor(r() * C));
  return { x, labels, r };
}

function objective(x: Float64Array, labels: Int32Array, structure: LinearStructure, penalty: Penalty | undefined, theta: Float64Array) {
  return linearObjective(x, N, C, labels, structure, penalty, theta, new Float64Array(theta.length));
}

const cases: [string, LinearStructure, Penalty | undefined][] = [
  ['vector, no penalty', 'diagonal', undefined],
  ['vector, l2', 'diagonal', vectorPenalty(C, 0.3)],
  ['matrix, no penalty', 'full', undefined],
  ['matrix, l2', 'full', matrixPenalty(C, 0.3)],
  ['dirichlet, ODIR', 'full', odirPenalty(C, 0.2, 0.1)],
  ['dirichlet, λ only', 'full', odirPenalty(C, 0.2, 0)],
];

test('the linear-scaling objective gradient matches central differences (every structure and penalty)', () => {
  for (const [name, structure, penalty] of cases) {
    const { x, labels, r } = problem(7);
    const theta = identityParameters(structure, C).map((v) => v + (r() - 0.5));
    const g = new Float64Array(theta.length);
    linearObjective(x, N, C, labels, structure, penalty, theta, g);
    const dir = Float64Array.from(theta, () => r() - 0.5);
    const h = 1e-6;
    const f = (t: number) =>
      objective(
        x,
        labels,
        structure,
        penalty,
        theta.map((v, i) => v + t * dir[i]!),
      );
    const fd = (f(h) - f(-h)) / (2 * h);
    const analytic = g.reduce((s, v, i) => s + v * dir[i]!, 0);
    assert.ok(Math.abs(fd - analytic) < 1e-7, `${name}: ${analytic} vs ${fd}`);
  }
});

test('the NLL is invariant to the softmax shift, and the projection minimises each penalty along it', () => {
  const { x, labels, r } = problem(8);
  const theta = identityParameters('full', C).map((v) => v + (r() - 0.5));
  const shifted = Float64Array.from(theta);
  const v = Array.from({ length: C }, () => r() - 0.5);
  for (let k = 0; k < C; k++) {
    for (let j = 0; j < C; j++) shifted[k * C + j] = shifted[k * C + j]! + v[j]!;
    shifted[C * C + k] = shifted[C * C + k]! + 0.7;
  }
  const nll = (t: Float64Array) => objective(x, labels, 'full', undefined, t);
  assert.ok(Math.abs(nll(theta) - nll(shifted)) < 1e-12);
  for (const [name, structure, penalty] of cases) {
    if (!penalty) continue;
    const base = structure === 'full' ? theta : identityParameters('diagonal', C).map((t) => t + (r() - 0.5));
    const projected = Float64Array.from(base);
    penalty.project(projected);
    const value = (t: Float64Array) => penalty.value(t, new Float64Array(t.length));
    for (let trial = 0; trial < 5; trial++) {
      const moved = Float64Array.from(projected);
      const c = r() - 0.5;
      for (let k = 0; k < C; k++) {
        if (structure === 'full') for (let j = 0; j < C; j++) moved[k * C + j] = moved[k * C + j]! + v[j]! * c;
        moved[moved.length - C + k] = moved[moved.length - C + k]! + c;
      }
      assert.ok(value(moved) >= value(projected) - 1e-15, `${name}: trial ${trial}`);
    }
  }
});

test('matrix scaling matches scikit-learn multinomial logistic regression on logits', () => {
  const ref = loadReference().matrix;
  const n = ref.labels.length;
  const cal = fitMatrix({ logits: mat(n, ref.classes, ref.logits) }, Int32Array.from(ref.labels), { tolerance: 1e-9 });
  const out = cal.apply({ logits: mat(ref.testLogits.length / ref.classes, ref.classes, ref.testLogits) });
  assertClose(out.data, ref.expected, 1e-6, 0, 'matrix');
});

test('vector scaling and Dirichlet ODIR match independent NumPy/SciPy fits', () => {
  const ref = loadReference();
  const v = ref.vector;
  const vc = fitVector({ logits: mat(v.labels.length, v.classes, v.logits) }, Int32Array.from(v.labels), { tolerance: 1e-9 });
  assertClose(vc.apply({ logits: mat(v.testLogits.length / v.classes, v.classes, v.testLogits) }).data, v.expected, 1e-6, 0, 'vector');
  const d = ref.dirichlet;
  const dc = fitDirichlet({ logits: mat(d.labels.length, d.classes, d.logits) }, Int32Array.from(d.labels), { lambda: d.lambda, mu: d.mu, tolerance: 1e-9 });
  assertClose(dc.apply({ logits: mat(d.testLogits.length / d.classes, d.classes, d.testLogits) }).data, d.expected, 1e-6, 0, 'dirichlet');
  // Same objective value as SciPy's minimum (so the same problem was solved).
  const x = new Float64Array(d.logits.length);
  const lp = naiveSoftmax(d.logits, d.labels.length, d.classes);
  for (let i = 0; i < x.length; i++) x[i] = Math.log(lp[i]!);
  const f = linearObjective(x, d.labels.length, d.classes, Int32Array.from(d.labels), 'full', odirPenalty(d.classes, d.lambda, d.mu), dc.parameters, new Float64Array(dc.parameters.length));
  assert.ok(Math.abs(f - d.objective) < 1e-10, `${f} vs ${d.objective}`);
});

test('Dirichlet calibration starts from the identity: on calibrated probabilities it stays close to it', () => {
  const { val, test: t } = splits(3, 4000, 1);
  const cal = fitDirichlet(val.input, val.labels);
  const out = cal.apply(t.input);
  const p = naiveSoftmax(t.logits, 4000, 3);
  let mean = 0;
  for (let i = 0; i < p.length; i++) mean += Math.abs(out.data[i]! - p[i]!) / p.length;
  assert.ok(mean < 0.01, `mean |q − p| = ${mean}`);
  // The fitted W is close to I and b to 0.
  const w = cal.weights;
  for (let k = 0; k < 3; k++) for (let j = 0; j < 3; j++) assert.ok(Math.abs(w[k * 3 + j]! - (k === j ? 1 : 0)) < 0.15, `W[${k}][${j}] = ${w[k * 3 + j]}`);
  assertProbabilityRows(out);
});

test('calibrated logits of the linear calibrators are W x + b, and their softmax is apply', () => {
  const { val, test: t } = splits(3, 500);
  for (const cal of [fitVector(val.input, val.labels), fitMatrix(val.input, val.labels, { l2: 0.01 }), fitDirichlet(val.input, val.labels)]) {
    const z = cal.applyLogits(t.input);
    assertClose(naiveSoftmax(z.data, 500, 3), cal.apply(t.input).data, 1e-15, 0, cal.kind);
    const w = cal.weights;
    const b = cal.bias;
    const x = cal.kind === 'dirichlet' ? naiveSoftmax(t.logits, 500, 3).map(Math.log) : t.logits;
    for (let i = 0; i < 500; i += 97) {
      for (let k = 0; k < 3; k++) {
        let s = b[k]!;
        for (let j = 0; j < 3; j++) s += (cal.structure === 'full' ? w[k * 3 + j]! : j === k ? w[k]! : 0) * x[i * 3 + j]!;
        assert.ok(Math.abs(z.data[i * 3 + k]! - s) < 1e-12, `${cal.kind} (${i}, ${k})`);
      }
    }
  }
});
