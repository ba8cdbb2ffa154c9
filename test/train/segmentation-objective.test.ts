import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertGradients, type Tensor } from '../../src/engine/index.js';
import { objectiveLossFn } from '../../src/train/run/trainer-objective.js';
import { evalLoss } from '../losses/helpers.js';

// The segmentation path's objective (trainer-objective.ts with ignoreIndex): logits [1, C, 2, 2], masks [1, 2, 2].
const C = 3;
const SHAPE = [1, C, 2, 2] as const;
const Z = Float64Array.from([0.5, -1, 2, 0.3, 1.5, 0.2, -0.7, 1.1, -0.4, 0.9, 0.1, -2]);
const Y = Int32Array.from([2, 255, 0, 1]);

/** Logits of pixel j (NCHW → row j). */
const row = (j: number): number[] => Array.from({ length: C }, (_, k) => Z[k * 4 + j]!);
const logSoftmax = (r: number[]): number[] => {
  const m = Math.max(...r);
  const lse = m + Math.log(r.reduce((a, v) => a + Math.exp(v - m), 0));
  return r.map((v) => v - lse);
};
const settings = (loss: string, lossOptions: Record<string, unknown> = {}) => ({ loss, lossOptions, secondaryOptions: {}, weight: 1, ignoreIndex: 255 });
const build = (loss: string, options?: Record<string, unknown>) => {
  const fn = objectiveLossFn(settings(loss, options));
  return (z: Tensor, t: { labels?: Tensor }) => fn(z, t.labels!, {});
};

test('dense CE with ignore 255 = mean over the 3 labelled pixels of −log p_y (float64, by hand)', () => {
  const expected = [0, 2, 3].reduce((a, j) => a - logSoftmax(row(j))[Y[j]!]!, 0) / 3;
  const r = evalLoss(build('ce'), { logits: Z, shape: SHAPE, labels: Y });
  assert.ok(Math.abs(r.loss - expected) < 1e-12, `${r.loss} vs ${expected}`);
  // the ignored pixel has no gradient
  for (let k = 0; k < C; k++) assert.ok(r.grad[k * 4 + 1] === 0);
});

test('dense MbLS (m = 10) with ignore 255 = mean over labelled pixels of CE + α (1/C) Σ_k max(0, max_j z_j − z_k − m)', () => {
  const margin = 0.7,
    alpha = 0.1; // a small margin so the penalty is active on these logits
  let total = 0;
  for (const j of [0, 2, 3]) {
    const r = row(j);
    const top = Math.max(...r);
    total += -logSoftmax(r)[Y[j]!]! + (alpha * r.reduce((a, v) => a + Math.max(0, top - v - margin), 0)) / C;
  }
  const r = evalLoss(build('mbls', { margin, alpha }), { logits: Z, shape: SHAPE, labels: Y });
  assert.ok(Math.abs(r.loss - total / 3) < 1e-12, `${r.loss} vs ${total / 3}`);
});

for (const loss of ['ce', 'ls', 'focal', 'ecp', 'mbls']) {
  test(`${loss}: the dense objective's gradient matches central finite differences in float64`, () => {
    const fn = objectiveLossFn(settings(loss, loss === 'mbls' ? { margin: 0.7 } : {}));
    assertGradients(
      ({ z, y }: Readonly<Record<string, Tensor>>) => fn(z!, y!, {}).loss,
      {
        z: { shape: SHAPE, data: Z },
        y: { shape: [1, 2, 2], data: Y, dtype: 'int32' },
      },
      { wrt: ['z'], directions: 3, rtol: 1e-6, atol: 1e-9 },
    );
  });
}
