import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { compile, evaluate, type Graph } from '../../src/engine/index.js';
import { adam, adamw, createOptimizer, type Optimizer, sgd } from '../../src/optim/index.js';
import { runTrajectory as runTrajectoryOf, type TrajectoryFixture, updateGraph as updateGraphOf } from './update-trajectory.js';

const fx = JSON.parse(readFileSync(new URL('../../../test/fixtures/nn/optimizers.json', import.meta.url), 'utf8')) as TrajectoryFixture;
const P = fx.p0.length;
const updateGraph = (opt: Optimizer, dtype: 'float32' | 'float64', decayMask?: number[]): Graph => updateGraphOf(opt, dtype, P, decayMask);
const runTrajectory = (opt: Optimizer, run: (feeds: Record<string, Float64Array | number>) => Record<string, ArrayLike<number>>): number[][] => runTrajectoryOf(opt, run, fx);

const builders: Record<string, () => Optimizer> = {
  sgd: () => sgd(),
  'sgd-momentum-wd': () => sgd({ momentum: 0.9, weightDecay: 5e-4 }),
  'sgd-nesterov': () => sgd({ momentum: 0.9, nesterov: true, weightDecay: 1e-2 }),
  'sgd-dampening': () => sgd({ momentum: 0.8, dampening: 0.3 }),
  adam: () => adam(),
  'adam-wd': () => adam({ beta1: 0.8, beta2: 0.99, epsilon: 1e-6, weightDecay: 0.1 }),
  adamw: () => adamw({ weightDecay: 0.05 }),
};

describe('optimizers match torch.optim trajectories', () => {
  for (const [name, build] of Object.entries(builders)) {
    it(`${name}: five updates with a changing learning rate equal PyTorch's (float64 reference)`, () => {
      const opt = build();
      const g = updateGraph(opt, 'float64');
      const traj = runTrajectory(opt, (feeds) => Object.fromEntries(Object.entries(evaluate(g, feeds)).map(([k, v]) => [k, v.data])));
      const ref = fx.cases[name]!.trajectory;
      traj.forEach((row, t) => row.forEach((v, i) => assert.ok(Math.abs(v - ref[t]![i]!) <= 1e-12 * (1 + Math.abs(ref[t]![i]!)), `${name} step ${t + 1} [${i}]: ${v} vs ${ref[t]![i]}`)));
    });
  }

  it('runs the same updates on ONNX Runtime in float32 within float32 rounding', () => {
    for (const name of ['sgd-nesterov', 'adamw']) {
      const opt = builders[name]!();
      const session = compile(updateGraph(opt, 'float64'));
      const traj = runTrajectory(opt, (feeds) => session.run(feeds) as Record<string, Float64Array>);
      const ref = fx.cases[name]!.trajectory;
      traj.forEach((row, t) => row.forEach((v, i) => assert.ok(Math.abs(v - ref[t]![i]!) < 1e-12 * (1 + Math.abs(ref[t]![i]!)))));
      const s32 = compile(updateGraph(opt, 'float32'));
      const traj32 = runTrajectory(opt, (feeds) => {
        const f32 = Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, typeof v === 'number' ? v : Float32Array.from(v)]));
        return s32.run(f32) as Record<string, Float32Array>;
      });
      traj32.forEach((row, t) => row.forEach((v, i) => assert.ok(Math.abs(v - ref[t]![i]!) < 1e-5 * (1 + Math.abs(ref[t]![i]!)))));
      session.dispose();
      s32.dispose();
    }
  });
});

describe('optimizer rules', () => {
  it('feeds SGD dampening as 1 on the first step (PyTorch clones the first gradient) and 1 − τ later', () => {
    const o = sgd({ momentum: 0.8, dampening: 0.3 });
    assert.deepEqual(o.scalars(1, 0.1), { lr: 0.1, damp: 1 });
    assert.deepEqual(o.scalars(2, 0.1), { lr: 0.1, damp: 0.7 });
    assert.deepEqual(sgd({ momentum: 0.9 }).scalarNames, ['lr']);
  });

  it('computes Adam bias corrections on the host from the 1-based step', () => {
    const s = adamw({ beta1: 0.5, beta2: 0.75, weightDecay: 0.1 }).scalars(2, 0.2);
    assert.ok(Math.abs(s['stepSize']! - 0.2 / 0.75) < 1e-15);
    assert.ok(Math.abs(s['bc2Sqrt']! - Math.sqrt(1 - 0.5625)) < 1e-15);
    assert.ok(Math.abs(s['decay']! - 0.98) < 1e-15);
  });

  it('skips weight decay where the mask is 0, exactly as with no decay', () => {
    for (const [withWd, noWd] of [
      [sgd({ momentum: 0.9, weightDecay: 0.1 }), sgd({ momentum: 0.9 })],
      [adam({ weightDecay: 0.1 }), adam()],
      [adamw({ weightDecay: 0.1 }), adamw({ weightDecay: 0 })],
    ] as [Optimizer, Optimizer][]) {
      const mask = [1, 0, 1, 0, 1, 0, 1];
      const gm = updateGraph(withWd, 'float64', mask);
      const g0 = updateGraph(noWd, 'float64');
      const g1 = updateGraph(withWd, 'float64');
      const ev = (g: Graph) => (feeds: Record<string, Float64Array | number>) => Object.fromEntries(Object.entries(evaluate(g, feeds)).map(([k, v]) => [k, v.data]));
      const masked = runTrajectory(withWd, ev(gm));
      const none = runTrajectory(noWd, ev(g0));
      const full = runTrajectory(withWd, ev(g1));
      for (let i = 0; i < P; i++) {
        const ref = mask[i] ? full : none;
        assert.ok(
          masked.every((row, t) => Math.abs(row[i]! - ref[t]![i]!) < 1e-14),
          `${withWd.kind} element ${i}`,
        );
      }
      assert.ok(
        full.some((row, t) => row.some((v, i) => v !== none[t]![i])),
        'decay changes something',
      );
    }
  });

  it('validates hyperparameters and builds by name', () => {
    assert.throws(() => sgd({ momentum: -1 }), /momentum/);
    assert.throws(() => sgd({ nesterov: true }), /nesterov/);
    assert.throws(() => adam({ beta1: 1.5 }), /beta1/);
    assert.throws(() => sgd().scalars(0, 0.1), /step/);
    assert.throws(() => createOptimizer({ kind: 'adadelta' } as never), /spec\.kind/);
    assert.equal(createOptimizer({ kind: 'adamw' }).config['weightDecay'], 0.01);
    assert.deepEqual(createOptimizer({ kind: 'sgd', momentum: 0.9 }).slots, ['momentum']);
  });

  it('checks options by their schemas (util/schema.ts): errors name the path, unknown keys are refused', () => {
    assert.throws(() => sgd({ momentum: -1 }), /^InvalidArgumentError: sgd options\.momentum: expected a finite number ≥ 0, got -1$/);
    assert.throws(() => sgd({ nesterov: 'yes' as never }), /^InvalidArgumentError: sgd options\.nesterov: expected true or false, got "yes"$/);
    assert.throws(() => createOptimizer({ kind: 'adam', beta1: 2 }, 'run.optimizer'), /^InvalidArgumentError: run\.optimizer\.beta1: expected a finite number ≤ 1, got 2$/);
    assert.throws(
      () => createOptimizer({ kind: 'sgd', momentun: 0.9 } as never),
      /^InvalidArgumentError: sgd options\.momentun: expected a known key \(did you mean momentum\?\), got an unknown key$/,
    );
    assert.deepEqual(createOptimizer({ kind: 'sgd' }).config, { momentum: 0, dampening: 0, weightDecay: 0, nesterov: false });
    assert.deepEqual(createOptimizer({ kind: 'adam' }).config, { beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: 0 });
  });
});
