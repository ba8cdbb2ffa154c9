import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createOptimizer, rmsprop, type RmspropOptions } from '../../src/optim/index.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { assertEvaluatedTrajectory, assertOnnxTrajectories, optionsFromTorch, type TrajectoryFixture } from './update-trajectory.js';

/** torch.optim.RMSprop trajectories (test/fixtures/scripts/make-optimizer-fixtures.py, torch 1.13, float64). */
const fx = JSON.parse(readFileSync(new URL('../../../test/fixtures/nn/rmsprop.json', import.meta.url), 'utf8')) as TrajectoryFixture;

/** PyTorch's keyword names → ours. */
const optionsOf = (torch: Record<string, unknown>): RmspropOptions =>
  optionsFromTorch(torch, { alpha: 'alpha', eps: 'epsilon', momentum: 'momentum', centered: 'centered', weight_decay: 'weightDecay' });

describe('rmsprop matches torch.optim.RMSprop', () => {
  for (const [name, c] of Object.entries(fx.cases)) {
    it(`${name}: five updates with a changing learning rate equal PyTorch's (float64 reference)`, () => {
      assertEvaluatedTrajectory(createOptimizer({ kind: 'rmsprop', ...optionsOf(c.options) }), fx, c.trajectory, name);
    });
  }

  it('runs the same centred momentum updates on ONNX Runtime (float64 to 1e-12, float32 within rounding)', () => {
    const c = fx.cases['rmsprop-centered-momentum']!;
    const opt = rmsprop(optionsOf(c.options));
    assert.deepEqual(opt.slots, ['v', 'gAvg', 'momentum']);
    assertOnnxTrajectories(opt, fx, c.trajectory);
  });

  it('is reachable from a run configuration (calib train --optimizer rmsprop) with its defaults and validated options', () => {
    const config = resolveTrainConfig({ dataset: 'mnist', optimizer: 'rmsprop', weightDecay: 0, out: 'x' });
    assert.equal(config.optimizer, 'rmsprop');
    assert.deepEqual(rmsprop().config, { alpha: 0.99, epsilon: 1e-8, momentum: 0, centered: false, weightDecay: 0 });
    assert.deepEqual(rmsprop().slots, ['v']);
    assert.throws(() => rmsprop({ alpha: 1.5 }), /^InvalidArgumentError: rmsprop options\.alpha: expected a finite number ≤ 1, got 1\.5$/);
  });
});
