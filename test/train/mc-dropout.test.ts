import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropoutMask, evaluate } from '../../src/engine/index.js';
import { cifarResNet, initModel, mlp } from '../../src/nn/index.js';
import { compileEvalStep, compileMcDropoutStep, mcDropoutProbabilities, predictLogits } from '../../src/train/index.js';
import { ModelLayout } from '../../src/train/steps/model-layout.js';
import { Random } from '../../src/util/random.js';

function softmax(z: ArrayLike<number>, off: number, c: number): number[] {
  let m = -Infinity;
  for (let j = 0; j < c; j++) m = Math.max(m, z[off + j]!);
  const e = Array.from({ length: c }, (_, j) => Math.exp(z[off + j]! - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

test('MC dropout averages the softmax of K passes with host-drawn masks (float64 reference of the same graph, same mask draws)', () => {
  const model = cifarResNet({ depth: 8, width: 2, inputShape: [3, 6, 6], numClasses: 4, dropout: 0.4 });
  const layout = new ModelLayout(model);
  const init = initModel(model, 3);
  const weights = { params: layout.params.packHost(init.params, new Float32Array(layout.params.size)), buffers: layout.buffers.packHost(init.buffers, new Float32Array(layout.buffers.size)) };
  // non-trivial running statistics, so a pass in training mode would differ from one on the running statistics
  weights.buffers.forEach((_, i) => (weights.buffers[i] = i % 2 ? 1.5 + 0.1 * (i % 7) : 0.05 * (i % 5)));
  const rng = new Random(5);
  const n = 5,
    batch = 3,
    passes = 4;
  const x = Float32Array.from({ length: n * 3 * 36 }, () => rng.normal());
  const step = compileMcDropoutStep(model, { threads: 1 });
  assert.deepEqual(
    step.masks(batch).map((m) => [m.name, m.size, m.rate]),
    [['dropout.pool', batch * 8, 0.4]],
  );
  const got = mcDropoutProbabilities(step, weights, x, { passes, batch, seed: 9 });
  // Reference: the same mask sequence (batch by batch, pass by pass) through the float64 evaluator.
  const draw = new Random(9);
  const expected = new Float64Array(n * 4);
  for (let start = 0; start < n; start += batch) {
    const b = Math.min(n, start + batch) - start;
    for (let k = 0; k < passes; k++) {
      const mask = dropoutMask(draw, b * 8, 0.4);
      const z = evaluate(step.graph(b), { x: x.subarray(start * 108, (start + b) * 108), params: weights.params, buffers: weights.buffers, 'dropout.pool': mask })['logits']!.data;
      for (let i = 0; i < b; i++) softmax(z, i * 4, 4).forEach((p, j) => (expected[(start + i) * 4 + j]! += p / passes));
    }
  }
  got.forEach((v, i) => assert.ok(Math.abs(v - expected[i]!) < 1e-5, `p̄[${i}] ${v} vs ${expected[i]}`));
  for (let i = 0; i < n; i++) assert.ok(Math.abs(got.subarray(i * 4, i * 4 + 4).reduce((a, b) => a + b, 0) - 1) < 1e-12);
  // reproducible from the seed, different for another seed, and not the deterministic inference prediction
  assert.deepEqual(mcDropoutProbabilities(step, weights, x, { passes, batch, seed: 9 }), got);
  assert.notDeepEqual(mcDropoutProbabilities(step, weights, x, { passes, batch, seed: 10 }), got);
  const evalStep = compileEvalStep(model, { threads: 1 });
  const plain = predictLogits(evalStep, weights, x, batch);
  const plainProbs = Array.from({ length: n }, (_, i) => softmax(plain, i * 4, 4)).flat();
  assert.ok(plainProbs.some((p, i) => Math.abs(p - got[i]!) > 1e-3));
  step.dispose();
  evalStep.dispose();
});

test('MC dropout needs a model with dropout, and validates its options', () => {
  assert.throws(() => compileMcDropoutStep(mlp({ inputShape: [4], hidden: [3], numClasses: 2 })), /model: expected a model with dropout \(rate > 0\) for MC dropout/);
  const model = mlp({ inputShape: [4], hidden: [3], numClasses: 2, dropout: 0.3 });
  const step = compileMcDropoutStep(model, { threads: 1 });
  const layout = new ModelLayout(model);
  const init = initModel(model, 1);
  const weights = { params: layout.params.packHost(init.params, new Float32Array(layout.params.size)), buffers: layout.buffers.packHost(init.buffers, new Float32Array(layout.buffers.size)) };
  assert.throws(() => mcDropoutProbabilities(step, weights, new Float32Array(8), { passes: 0 }), /options\.passes/);
  assert.throws(() => mcDropoutProbabilities(step, weights, new Float32Array(7), { passes: 2 }), /inputs: expected a multiple of 4/);
  step.dispose();
});
