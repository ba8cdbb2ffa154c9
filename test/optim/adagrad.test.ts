import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { compile, evaluate } from '../../src/engine/index.js';
import { adagrad, type AdagradOptions, createOptimizer } from '../../src/optim/index.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { runTrajectory, type TrajectoryFixture, updateGraph } from './update-trajectory.js';

/** torch.optim.Adagrad trajectories (test/fixtures/scripts/make-adagrad-fixtures.py, torch 1.13, float64). */
const fx = JSON.parse(readFileSync(new URL('../../../test/fixtures/nn/adagrad.json', import.meta.url), 'utf8')) as TrajectoryFixture;
const P = fx.p0.length;

/** PyTorch's keyword names → ours. */
function optionsOf(torch: Record<string, unknown>): AdagradOptions {
  const names: Record<string, string> = { lr_decay: 'lrDecay', initial_accumulator_value: 'initialAccumulatorValue', eps: 'epsilon', weight_decay: 'weightDecay' };
  return Object.fromEntries(Object.entries(torch).map(([k, v]) => [names[k]!, v])) as AdagradOptions;
}

const close = (a: number[][], b: number[][], tol: number, what: string): void =>
  a.forEach((row, t) => row.forEach((v, i) => assert.ok(Math.abs(v - b[t]![i]!) <= tol * (1 + Math.abs(b[t]![i]!)), `${what} step ${t + 1} [${i}]: ${v} vs ${b[t]![i]}`)));

describe('adagrad matches torch.optim.Adagrad', () => {
  for (const [name, c] of Object.entries(fx.cases)) {
    it(`${name}: five updates with a changing learning rate equal PyTorch's (float64 reference)`, () => {
      const opt = createOptimizer({ kind: 'adagrad', ...optionsOf(c.options) });
      const g = updateGraph(opt, 'float64', P);
      close(runTrajectory(opt, (feeds) => Object.fromEntries(Object.entries(evaluate(g, feeds)).map(([k, v]) => [k, v.data])), fx), c.trajectory, 1e-12, name);
    });
  }

  it('runs the same decayed, weight-decayed updates on ONNX Runtime (float64 to 1e-12, float32 within rounding)', () => {
    const c = fx.cases['adagrad-lr-decay-wd']!;
    const opt = adagrad(optionsOf(c.options));
    const s64 = compile(updateGraph(opt, 'float64', P));
    close(runTrajectory(opt, (feeds) => s64.run(feeds) as Record<string, Float64Array>, fx), c.trajectory, 1e-12, 'onnx float64');
    const s32 = compile(updateGraph(opt, 'float32', P));
    const f32 = (feeds: Record<string, Float64Array | number>) => Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, typeof v === 'number' ? v : Float32Array.from(v)]));
    close(runTrajectory(opt, (feeds) => s32.run(f32(feeds)) as Record<string, Float32Array>, fx), c.trajectory, 1e-5, 'onnx float32');
    s64.dispose();
    s32.dispose();
  });

  it('is reachable from a run configuration (calib train --optimizer adagrad) with its defaults and validated options', () => {
    const config = resolveTrainConfig({ dataset: 'mnist', optimizer: 'adagrad', weightDecay: 0, out: 'x' });
    assert.equal(config.optimizer, 'adagrad');
    assert.deepEqual(adagrad().config, { lrDecay: 0, initialAccumulatorValue: 0, epsilon: 1e-10, weightDecay: 0 });
    assert.deepEqual(adagrad().slots, ['sumSquares']);
    assert.deepEqual(adagrad({ lrDecay: 0.5 }).scalars(3, 0.1), { lr: 0.1 / 2 });
    assert.throws(() => adagrad({ lrDecay: -1 }), /^InvalidArgumentError: adagrad options\.lrDecay: expected a finite number ≥ 0, got -1$/);
  });
});
