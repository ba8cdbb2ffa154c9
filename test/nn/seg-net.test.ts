import assert from 'node:assert/strict';
import { it } from 'node:test';
import { checkGradients, evaluate, type Tensor } from '../../src/engine/index.js';
import { objectiveLossFn } from '../../src/train/run/trainer-objective.js';
import { createModel, initModel, outputSize, parameterCount, segNet } from '../../src/nn/index.js';
import { compileEvalStep } from '../../src/train/index.js';
import { Random } from '../../src/util/random.js';

it('seg-net declares conv / BN / conv-transpose / 1×1 head parameters with PyTorch shapes', () => {
  const m = segNet({ inputShape: [1, 8, 8], numClasses: 3, width: 2 });
  assert.deepEqual(
    m.params.map((d) => [d.path, d.shape]),
    [
      ['enc1.weight', [2, 1, 3, 3]],
      ['enc1_bn.weight', [2]],
      ['enc1_bn.bias', [2]],
      ['enc2.weight', [4, 2, 3, 3]],
      ['enc2_bn.weight', [4]],
      ['enc2_bn.bias', [4]],
      ['middle.weight', [4, 4, 3, 3]],
      ['middle_bn.weight', [4]],
      ['middle_bn.bias', [4]],
      ['context.weight', [4, 16]],
      ['context.bias', [4]],
      ['dec1.weight', [4, 4, 2, 2]],
      ['dec1_bn.weight', [4]],
      ['dec1_bn.bias', [4]],
      ['dec2.weight', [4, 2, 2, 2]],
      ['dec2_bn.weight', [2]],
      ['dec2_bn.bias', [2]],
      ['head.weight', [3, 2, 1, 1]],
      ['head.bias', [3]],
    ],
  );
  assert.equal(parameterCount(m), 18 + 4 + 72 + 8 + 144 + 8 + 64 + 4 + 64 + 8 + 32 + 4 + 6 + 3);
  assert.deepEqual(m.outputSpatial, [8, 8]);
  assert.equal(outputSize(m), 3 * 64);
  assert.deepEqual(createModel({ kind: 'seg-net', width: 2, inputShape: [1, 8, 8], numClasses: 3 }).config, m.config);
  assert.throws(() => segNet({ inputShape: [1, 10, 10] }), /seg-net options\.inputShape: expected H and W divisible by 4, got 10×10/);
});

it('seg-net maps [B, 1, H, W] to finite logits [B, C, H, W] on ORT, equal to the float64 reference', () => {
  const model = segNet({ inputShape: [1, 8, 8], numClasses: 3, width: 2 });
  const state = initModel(model, 5);
  const rng = new Random(6);
  const x = Float32Array.from({ length: 2 * 64 }, () => rng.uniform());
  const step = compileEvalStep(model);
  const flat = step.layout.pack(state);
  const { logits } = step.run(flat, x);
  assert.equal(logits.length, 2 * 3 * 64);
  const ref = evaluate(step.graph(2), { x, params: flat.params, buffers: flat.buffers })['logits']!;
  assert.deepEqual(ref.shape, [2, 3, 8, 8]);
  ref.data.forEach((v, i) => assert.ok(Math.abs(v - logits[i]!) < 1e-4 * (1 + Math.abs(v)), `logit ${i}: ${logits[i]} vs ${v}`));
  step.dispose();
});

it('seg-net (training mode, max-pool, conv-transpose, context vector, skips) gradients of the dense CE with ignore match central differences', () => {
  const model = segNet({ inputShape: [1, 4, 4], numClasses: 3, width: 2 });
  const state = initModel(model, 7);
  const rng = new Random(8);
  const b = 2;
  const inputs: Record<string, { shape: number[]; data: ArrayLike<number>; dtype?: 'float64' | 'int32' }> = {
    x: { shape: [b, 1, 4, 4], data: Array.from({ length: b * 16 }, () => rng.normal()) },
    y: { shape: [b, 4, 4], data: Array.from({ length: b * 16 }, () => (rng.uniform() < 0.2 ? 255 : rng.int(3))), dtype: 'int32' },
  };
  for (const d of model.params) inputs[`p:${d.path}`] = { shape: [...d.shape], data: state.params[d.path]! };
  for (const d of model.buffers) inputs[`b:${d.path}`] = { shape: [...d.shape], data: state.buffers[d.path]! };
  const wrt = model.params.map((d) => `p:${d.path}`);
  const loss = objectiveLossFn({ loss: 'ce', lossOptions: {}, secondaryOptions: {}, weight: 1, ignoreIndex: 255 });
  const report = checkGradients(
    (inp: Readonly<Record<string, Tensor>>) => {
      const params = Object.fromEntries(model.params.map((d) => [d.path, inp[`p:${d.path}`]!]));
      const buffers = Object.fromEntries(model.buffers.map((d) => [d.path, inp[`b:${d.path}`]!]));
      const { logits } = model.forward(params, buffers, inp['x']!, { training: true });
      return loss(logits, inp['y']!, {}).loss;
    },
    inputs,
    { wrt, directions: 3, seed: 9, rtol: 1e-6 },
  );
  for (const d of report.directions) assert.ok(d.ok, `analytic ${d.analytic} vs numeric ${d.numeric} (error ${d.error.toExponential(2)})`);
  for (const n of wrt)
    assert.ok(
      report.gradients[n]!.some((g) => g !== 0),
      `${n} has a non-zero gradient`,
    );
});
