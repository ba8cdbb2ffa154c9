import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { compile, evaluate } from '../../src/engine/index.js';
import { createOptimizer, rmsprop, type RmspropOptions } from '../../src/optim/index.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { runTrajectory, type TrajectoryFixture, updateGraph } from './update-trajectory.js';

/** torch.optim.RMSprop trajectories (test/fixtures/scripts/make-rmsprop-fixtures.py, torch 1.13, float64). */
const fx = JSON.parse(readFileSync(new URL('../../../test/fixtures/nn/rmsprop.json', import.meta.url), 'utf8')) as TrajectoryFixture;
const P = fx.p0.length;

/** PyTorch's keyword names → ours. */
function optionsOf(torch: Record<string, unknown>): RmspropOptions {
  const names: Record<string, string> = { alpha: 'alpha', eps: 'epsilon', momentum: 'momentum', centered: 'centered', weight_decay: 'weightDecay' };
  return Object.fromEntries(Object.entries(torch).map(([k, v]) => [names[k]!, v])) as RmspropOptions;
}

const close = (a: number[][], b: number[][], tol: number, what: string): void =>
  a.forEach((row, t) => row.forEach((v, i) => assert.ok(Math.abs(v - b[t]![i]!) <= tol * (1 + Math.abs(b[t]![i]!)), `${what} step ${t + 1} [${i}]: ${v} vs ${b[t]![i]}`)));

describe('rmsprop matches torch.optim.RMSprop', () => {
  for (const [name, c] of Object.entries(fx.cases)) {
    it(`${name}: five updates with a changing learning rate equal PyTorch's (float64 reference)`, () => {
      const opt = createOptimizer({ kind: 'rmsprop', ...optionsOf(c.options) });
      const g = updateGraph(opt, 'float64', P);
      close(runTrajectory(opt, (feeds) => Object.fromEntries(Object.entries(evaluate(g, feeds)).map(([k, v]) => [k, v.data])), fx), c.trajectory, 1e-12, name);
    });
  }

  it('runs the same centred momentum updates on ONNX Runtime (float64 to 1e-12, float32 within rounding)', () => {
    const c = fx.cases['rmsprop-centered-momentum']!;
    const opt = rmsprop(optionsOf(c.options));
    assert.deepEqual(opt.slots, ['v', 'gAvg', 'momentum']);
    const s64 = compile(updateGraph(opt, 'float64', P));
    close(runTrajectory(opt, (feeds) => s64.run(feeds) as Record<string, Float64Array>, fx), c.trajectory, 1e-12, 'onnx float64');
    const s32 = compile(updateGraph(opt, 'float32', P));
    const f32 = (feeds: Record<string, Float64Array | number>) => Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, typeof v === 'number' ? v : Float32Array.from(v)]));
    close(runTrajectory(opt, (feeds) => s32.run(f32(feeds)) as Record<string, Float32Array>, fx), c.trajectory, 1e-5, 'onnx float32');
    s64.dispose();
    s32.dispose();
  });

  it('is reachable from a run configuration (calib train --optimizer rmsprop) with its defaults and validated options', () => {
    const config = resolveTrainConfig({ dataset: 'mnist', optimizer: 'rmsprop', weightDecay: 0, out: 'x' });
    assert.equal(config.optimizer, 'rmsprop');
    assert.deepEqual(rmsprop().config, { alpha: 0.99, epsilon: 1e-8, momentum: 0, centered: false, weightDecay: 0 });
    assert.deepEqual(rmsprop().slots, ['v']);
    assert.throws(() => rmsprop({ alpha: 1.5 }), /^InvalidArgumentError: rmsprop options\.alpha: expected a finite number ≤ 1, got 1\.5$/);
  });
});
