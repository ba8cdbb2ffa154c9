import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../src/engine/index.js';
import { Random } from '../../src/util/random.js';

const f32 = (...shape: number[]) => ({ dtype: 'float32', shape }) as const;

test('fused training batch norm matches the composite ReduceMean path on ORT, values and gradients, with several BN nodes', () => {
  // Two BN layers with the same channel count whose statistics are consumed only inside the graph: the
  // configuration in which ORT once returned the variance as the mean (shared identical initializers).
  const rng = new Random(5);
  const x = Float32Array.from({ length: 4 * 3 * 5 * 5 }, () => rng.normal() * 2 + 1);
  const gamma = Float32Array.from({ length: 3 }, () => 0.5 + rng.uniform());
  const beta = Float32Array.from({ length: 3 }, () => rng.normal());
  const build = (fused: boolean) =>
    E.compile(
      E.trace(
        ({ x, gamma, beta }) => {
          const bn = fused ? E.batchNormTraining : E.batchNormTrainingComposite;
          const a = bn(x, gamma, beta);
          const b = bn(a.y.relu(), gamma, beta);
          const loss = b.y.mul(b.y).mean().add(a.mean.sum()).add(b.variance.sum());
          const [dx, dg, db] = E.grad(loss, [x, gamma, beta]);
          return { loss, dx: dx!, dg: dg!, db: db! };
        },
        { x: f32(4, 3, 5, 5), gamma: f32(3), beta: f32(3) },
      ),
    );
  const fused = build(true).run({ x, gamma, beta });
  const composite = build(false).run({ x, gamma, beta });
  for (const k of ['loss', 'dx', 'dg', 'db']) {
    const a = fused[k] as Float32Array,
      b = composite[k] as Float32Array;
    a.forEach((v, i) => assert.ok(Math.abs(v - b[i]!) <= 1e-4 * (1 + Math.abs(b[i]!)), `${k}[${i}]: fused ${v} vs composite ${b[i]}`));
  }
});

test('running statistics follow PyTorch: momentum-weighted mean and UNBIASED variance', () => {
  // x [4, 1] = [1, 2, 3, 6]: batch mean 3, biased var 3.5, unbiased 14/3.
  const g = E.trace(
    ({ x, rm, rv, s, b }) => {
      const r = E.batchNorm(x, s, b, rm, rv, { training: true, momentum: 0.1 });
      return { y: r.y, rm: r.runningMean, rv: r.runningVar };
    },
    { x: f32(4, 1), rm: f32(1), rv: f32(1), s: f32(1), b: f32(1) },
  );
  const out = E.compile(g).run({ x: Float32Array.of(1, 2, 3, 6), rm: Float32Array.of(0.5), rv: Float32Array.of(2), s: Float32Array.of(1), b: Float32Array.of(0) });
  assert.ok(Math.abs((out.rm as Float32Array)[0]! - (0.9 * 0.5 + 0.1 * 3)) < 1e-6);
  assert.ok(Math.abs((out.rv as Float32Array)[0]! - (0.9 * 2 + (0.1 * 14) / 3)) < 1e-6);
  const y = out.y as Float32Array;
  const sd = Math.sqrt(3.5 + 1e-5);
  [1, 2, 3, 6].forEach((v, i) => assert.ok(Math.abs(y[i]! - (v - 3) / sd) < 1e-6));
});

test('inference batch norm uses the running statistics and is differentiable', () => {
  const report = E.checkGradients(({ x, s, b, rm, rv }) => E.batchNorm(x!, s!, b!, rm!, rv!, { training: false }).y, {
    x: { shape: [2, 2, 1, 1], data: [1, 2, 3, 4] },
    s: { shape: [2], data: [1.5, 0.5] },
    b: { shape: [2], data: [0, 1] },
    rm: { shape: [2], data: [0.2, -1] },
    rv: { shape: [2], data: [2, 0.5] },
  });
  assert.ok(report.ok, JSON.stringify(report.directions));
  const out = E.evaluate(
    E.trace(({ x, s, b, rm, rv }) => E.batchNormInference(x, s, b, rm, rv, 0), { x: f32(1, 2), s: f32(2), b: f32(2), rm: f32(2), rv: f32(2) }),
    { x: [3, 3], s: [2, 1], b: [1, 0], rm: [1, 2], rv: [4, 1] },
  ).output!.data;
  assert.deepEqual(Array.from(out), [(2 * (3 - 1)) / 2 + 1, (3 - 2) / 1]);
});

test('dropout masks are seeded host draws, scaled by 1/(1 − p)', () => {
  const m1 = E.dropoutMask(new Random(9), 10000, 0.3);
  const m2 = E.dropoutMask(new Random(9), 10000, 0.3);
  assert.deepEqual(m1, m2);
  const kept = m1.reduce((a, b) => a + b, 0) / m1.length;
  assert.ok(Math.abs(kept - 0.7) < 0.02, `kept fraction ${kept}`);
  const out = E.compile(E.trace(({ x, m }) => E.dropout(x, m, 0.5), { x: f32(4), m: f32(4) })).run({ x: Float32Array.of(1, 2, 3, 4), m: Float32Array.of(1, 0, 0, 1) });
  assert.deepEqual(Array.from(out.output as Float32Array), [2, 0, 0, 8]);
});
