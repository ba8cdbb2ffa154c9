import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../src/engine/index.js';
import { convInputGradTransposedPreferred } from '../../src/engine/ops/layers/conv-input-grad-transposed.js';
import { window2d } from '../../src/engine/ops/layers/conv-geometry.js';

/** Op names of the gradient graph of Σ conv2d(x, w)·u with respect to x. */
function inputGradOps(xShape: number[], wShape: number[], padding: number): string[] {
  const f32 = (...shape: number[]) => ({ dtype: 'float32' as const, shape });
  const graph = E.trace(
    ({ x, w }) => {
      const y = E.conv2d(x!, w!, { padding });
      return E.grad(y.mul(y).sum(), [x!])[0]!;
    },
    { x: f32(...xShape), w: f32(...wShape) },
  );
  return graph.nodes.map((n) => n.op.name);
}

test('a widening stride-1 layer off the NCHWc kernels takes its input gradient by ConvTranspose (LeNet 6 → 16, 5×5 valid)', () => {
  const attrs = { ...window2d('conv2d', {}), group: 1 };
  assert.equal(convInputGradTransposedPreferred([128, 6, 14, 14], [128, 16, 10, 10], [16, 6, 5, 5], attrs), true);
  const ops = inputGradOps([2, 6, 14, 14], [16, 6, 5, 5], 0);
  assert.ok(ops.includes('convTranspose2d'), ops.join(' '));
});

test('ResNet layers (channels on the NCHWc block) and narrowing layers keep the flipped convolution', () => {
  const same = { ...window2d('conv2d', { padding: 1 }), group: 1 };
  assert.equal(convInputGradTransposedPreferred([128, 16, 28, 28], [128, 16, 28, 28], [16, 16, 3, 3], same), false);
  assert.equal(convInputGradTransposedPreferred([128, 12, 8, 8], [128, 6, 8, 8], [6, 12, 3, 3], same), false);
  assert.ok(!inputGradOps([2, 16, 6, 6], [16, 16, 3, 3], 1).includes('convTranspose2d'));
});
