import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { adagrad, type AdagradOptions, createOptimizer } from '../../src/optim/index.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { assertEvaluatedTrajectory, assertOnnxTrajectories, optionsFromTorch, type TrajectoryFixture } from './update-trajectory.js';

/** torch.optim.Adagrad trajectories (test/fixtures/scripts/make-optimizer-fixtures.py, torch 1.13, float64). */
const fx = JSON.parse(readFileSync(new URL('../../../test/fixtures/nn/adagrad.json', import.meta.url), 'utf8')) as TrajectoryFixture;

/** PyTorch's keyword names → ours. */
const optionsOf = (torch: Record<string, unknown>): AdagradOptions =>
  optionsFromTorch(torch, { lr_decay: 'lrDecay', initial_accumulator_value: 'initialAccumulatorValue', eps: 'epsilon', weight_decay: 'weightDecay' });

describe('adagrad matches torch.optim.Adagrad', () => {
  for (const [name, c] of Object.entries(fx.cases)) {
    it(`${name}: five updates with a changing learning rate equal PyTorch's (float64 reference)`, () => {
      assertEvaluatedTrajectory(createOptimizer({ kind: 'adagrad', ...optionsOf(c.options) }), fx, c.trajectory, name);
    });
  }

  it('runs the same decayed, weight-decayed updates on ONNX Runtime (float64 to 1e-12, float32 within rounding)', () => {
    const c = fx.cases['adagrad-lr-decay-wd']!;
    assertOnnxTrajectories(adagrad(optionsOf(c.options)), fx, c.trajectory);
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
