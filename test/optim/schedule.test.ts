import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { constantLr, cosineLr, linearWarmup, multiStepLr, perEpoch, stepLr } from '../../src/optim/index.js';

const fx = JSON.parse(readFileSync(new URL('../../../test/fixtures/nn/schedules.json', import.meta.url), 'utf8')) as Record<string, Record<string, unknown> & { values: number[] }>;

function close(a: number, b: number, what: string): void {
  assert.ok(Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
}

describe('learning-rate schedules vs torch.optim.lr_scheduler', () => {
  it('step decay equals StepLR', () => {
    const f = fx['step']!;
    const s = stepLr(0.1, 3, 0.5);
    f.values.forEach((v, t) => close(s(t), v, `t=${t}`));
  });

  it('multi-step decay equals MultiStepLR', () => {
    const s = multiStepLr(0.1, [2, 5], 0.1);
    fx['multiStep']!.values.forEach((v, t) => close(s(t), v, `t=${t}`));
  });

  it('cosine annealing equals CosineAnnealingLR up to T and stays at the minimum after', () => {
    const s = cosineLr(0.1, 10, 0.01);
    fx['cosine']!.values.forEach((v, t) => close(s(t), v, `t=${t}`));
    assert.equal(s(25), 0.01);
  });

  it('linear warm-up equals LinearLR(start_factor, total_iters) on a constant rate', () => {
    const s = linearWarmup(constantLr(0.1), 4, 0.1);
    fx['linearWarmup']!.values.forEach((v, t) => close(s(t), v, `t=${t}`));
  });

  it('composes warm-up with cosine multiplicatively and maps steps to epochs', () => {
    const s = linearWarmup(cosineLr(1, 100), 10);
    assert.equal(s(0), 0);
    close(s(5), (0.5 * (1 + Math.cos(Math.PI * 0.05))) / 2, 'warm-up half way');
    close(s(50), 0.5, 'cosine half way');
    const e = perEpoch(stepLr(1, 2, 0.1), 3);
    assert.deepEqual(
      [0, 2, 3, 5, 6, 8].map(e).map((v) => Number(v.toPrecision(12))),
      [1, 1, 1, 1, 0.1, 0.1],
    );
  });

  it('rejects bad arguments naming them', () => {
    assert.throws(() => stepLr(0.1, 0), /stepSize/);
    assert.throws(() => multiStepLr(0.1, [5, 2]), /milestones/);
    assert.throws(() => cosineLr(0.1, 10)(-1), /\bt\b/);
    assert.throws(() => constantLr(-1), /lr/);
    assert.throws(() => linearWarmup(constantLr(1), 3, 2), /startFactor/);
  });
});
