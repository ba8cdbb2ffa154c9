/**
 * Finite-difference gradient checks of whole small models in float64 (reference evaluator, random directions):
 * the loss of a batch w.r.t. every parameter at once. Smooth activations avoid ReLU kinks where the model
 * offers them; the ReLU ResNet uses random inputs (a pre-activation within ε = 1e-6 of 0 is improbable, and
 * the test is deterministic).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkGradients, type Tensor } from '../../src/engine/index.js';
import { cifarResNet, initModel, lenet, type Model, mlp, textCnn } from '../../src/nn/index.js';
import { crossEntropy } from '../../src/train/index.js';
import { Random } from '../../src/util/random.js';

function check(model: Model, batch: number, seed: number, training: boolean): void {
  const state = initModel(model, seed);
  const rng = new Random(seed + 1);
  const per = model.input.shape.reduce((a, b) => a * b, 1);
  const inputs: Record<string, { shape: number[]; data: ArrayLike<number>; dtype?: 'float64' | 'int32' }> = {
    x:
      model.input.dtype === 'int32'
        ? { shape: [batch, ...model.input.shape], data: Array.from({ length: batch * per }, () => rng.int(10)), dtype: 'int32' }
        : { shape: [batch, ...model.input.shape], data: Array.from({ length: batch * per }, () => rng.normal()) },
    y: { shape: [batch], data: Array.from({ length: batch }, () => rng.int(model.numClasses)), dtype: 'int32' },
  };
  for (const d of model.params) inputs[`p:${d.path}`] = { shape: [...d.shape], data: state.params[d.path]! };
  for (const d of model.buffers) inputs[`b:${d.path}`] = { shape: [...d.shape], data: state.buffers[d.path]! };
  const wrt = model.params.map((d) => `p:${d.path}`);
  const report = checkGradients(
    (inp: Readonly<Record<string, Tensor>>) => {
      const params = Object.fromEntries(model.params.map((d) => [d.path, inp[`p:${d.path}`]!]));
      const buffers = Object.fromEntries(model.buffers.map((d) => [d.path, inp[`b:${d.path}`]!]));
      const { logits } = model.forward(params, buffers, inp['x']!, { training });
      return crossEntropy(logits, inp['y']!, {}).loss;
    },
    inputs,
    { wrt, directions: 3, seed, rtol: 1e-6 },
  );
  for (const d of report.directions) assert.ok(d.ok, `analytic ${d.analytic} vs numeric ${d.numeric} (error ${d.error.toExponential(2)})`);
  // Every parameter gets a gradient signal.
  for (const n of wrt)
    assert.ok(
      report.gradients[n]!.some((g) => g !== 0),
      `${n} has a non-zero gradient`,
    );
}

describe('whole-model gradients by finite differences (float64)', () => {
  it('tiny MLP (tanh) gradients of the mean cross-entropy match central differences', () => {
    check(mlp({ inputShape: [5], hidden: [4, 3], numClasses: 3, activation: 'tanh' }), 4, 1, true);
  });

  it('tiny CNN with batch norm in training mode (softplus, average pooling) matches central differences', () => {
    check(lenet({ inputShape: [2, 12, 12], channels: [3, 2], hidden: [4], numClasses: 3, activation: 'softplus', pool: 'avg', batchNorm: true }), 3, 2, true);
  });

  it('tiny CNN in inference mode (running statistics) matches central differences', () => {
    check(lenet({ inputShape: [1, 12, 12], channels: [2, 2], hidden: [3], numClasses: 2, activation: 'tanh', pool: 'avg', batchNorm: true }), 2, 3, false);
  });

  it('tiny CIFAR ResNet (option-A shortcuts, ReLU, batch norm) matches central differences', () => {
    check(cifarResNet({ depth: 8, width: 2, inputShape: [3, 6, 6], numClasses: 3 }), 2, 4, true);
  });

  it('tiny text CNN (embedding, max over time) matches central differences', () => {
    check(textCnn({ vocabularySize: 10, sequenceLength: 5, embeddingDim: 3, filters: 2, filterWidths: [2, 3], numClasses: 2, dropout: 0 }), 3, 5, true);
  });
});
