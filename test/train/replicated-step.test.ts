/**
 * Data-parallel replicas (train/steps/replicated-step.ts): shard sizes; a replicated MLP step equals the single-session
 * step; a replicated batch-norm CNN step equals the float64 reference evaluator running each shard's gradient
 * graph, combined and updated by hand; the trainer's exact resume holds with replicas; configurations that cannot
 * be split are refused naming the key.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { evaluate } from '../../src/engine/index.js';
import { lenet, mlp } from '../../src/nn/index.js';
import { sgd } from '../../src/optim/index.js';
import { compileTrainStep, createTrainState, crossEntropy } from '../../src/train/index.js';
import { shardSizes } from '../../src/train/steps/replicated-step.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { resumeTraining, train } from '../../src/train/run/trainer.js';
import { loadRunData } from '../../src/train/run/trainer-data.js';
import { Random } from '../../src/util/random.js';
import { tempDir } from '../io/temp-dir.js';

describe('replicated train step', () => {
  it('splits a batch into shards of ⌈B/R⌉ then ⌊B/R⌋ rows', () => {
    assert.deepEqual(shardSizes(7, 2), [4, 3]);
    assert.deepEqual(shardSizes(7, 3), [3, 2, 2]);
    assert.deepEqual(shardSizes(128, 2), [64, 64]);
    assert.deepEqual(shardSizes(2, 2), [1, 1]);
  });

  it('an MLP trained with 2 or 3 replicas follows the single-session step (mean loss: gradients average exactly)', () => {
    const model = mlp({ inputShape: [20], hidden: [16], numClasses: 3 });
    const optimizer = sgd({ momentum: 0.9, weightDecay: 5e-4 });
    const B = 7;
    const rng = new Random(3);
    const x = Float32Array.from({ length: B * 20 }, () => rng.normal());
    const y = Int32Array.from({ length: B }, () => rng.int(3));
    const trajectory = (replicas: number) => {
      const step = compileTrainStep(model, crossEntropy, optimizer, { batch: B, replicas });
      const state = createTrainState(model, optimizer, 5);
      const losses = Array.from({ length: 5 }, () => step.run(state, { x, y }, 0.1).loss);
      step.dispose();
      return { losses, params: state.params, momentum: state.opt['momentum']!, step: state.step };
    };
    const one = trajectory(1);
    for (const r of [2, 3]) {
      const many = trajectory(r);
      assert.equal(many.step, 5);
      many.losses.forEach((l, t) => assert.ok(Math.abs(l - one.losses[t]!) < 1e-6, `replicas ${r}, step ${t}: ${l} vs ${one.losses[t]}`));
      const worst = many.params.reduce((m, v, i) => Math.max(m, Math.abs(v - one.params[i]!)), 0);
      assert.ok(worst < 1e-6, `replicas ${r}: parameters differ by ${worst}`);
      const worstM = many.momentum.reduce((m, v, i) => Math.max(m, Math.abs(v - one.momentum[i]!)), 0);
      assert.ok(worstM < 1e-5, `replicas ${r}: momentum differs by ${worstM}`);
    }
    assert.ok(one.losses[4]! < one.losses[0]!, 'the loss decreases');
  });

  it('a batch-norm CNN step with 2 replicas equals per-shard float64 gradients, size-weighted, then SGD by hand', () => {
    const model = lenet({ inputShape: [1, 12, 12], channels: [3, 4], hidden: [6], numClasses: 3, batchNorm: true });
    const optimizer = sgd({ momentum: 0.9, weightDecay: 5e-4 });
    const B = 5;
    const step = compileTrainStep(model, crossEntropy, optimizer, { batch: B, replicas: 2 });
    const state = createTrainState(model, optimizer, 31);
    const rng = new Random(32);
    const x = Float32Array.from({ length: B * 144 }, () => rng.normal());
    const y = Int32Array.from({ length: B }, () => rng.int(3));
    const p0 = Float64Array.from(state.params),
      b0 = Float64Array.from(state.buffers);
    const sizes = shardSizes(B, 2);
    const grad = new Float64Array(p0.length),
      buffers = new Float64Array(b0.length);
    let loss = 0;
    let offset = 0;
    for (const size of sizes) {
      const graph = step.compiled(size, 'gradient').graph;
      const out = evaluate(graph, { x: x.slice(offset * 144, (offset + size) * 144), y: y.slice(offset, offset + size), params: p0, buffers: b0 });
      const w = size / B;
      out['grad']!.data.forEach((g, i) => (grad[i]! += w * g));
      out['buffers']!.data.forEach((v, i) => (buffers[i]! += w * v));
      loss += w * out['loss']!.data[0]!;
      offset += size;
    }
    const r = step.run(state, { x, y }, 0.05);
    assert.ok(Math.abs(r.loss - loss) < 1e-5 * (1 + loss), `loss ${r.loss} vs ${loss}`);
    // First SGD step: the momentum buffer is d = g + wd·p, and p ← p − lr·d.
    const expected = p0.map((p, i) => p - 0.05 * (grad[i]! + 5e-4 * p));
    const worst = state.params.reduce((m, v, i) => Math.max(m, Math.abs(v - expected[i]!) / (1 + Math.abs(expected[i]!))), 0);
    assert.ok(worst < 1e-5, `parameters differ by ${worst}`);
    const worstB = state.buffers.reduce((m, v, i) => Math.max(m, Math.abs(v - buffers[i]!) / (1 + Math.abs(buffers[i]!))), 0);
    assert.ok(worstB < 1e-5, `running statistics differ by ${worstB}`);
    step.dispose();
  });

  it('refuses replicas it cannot split, naming the option', () => {
    const model = mlp({ inputShape: [4], hidden: [3], numClasses: 2 });
    assert.throws(
      () => compileTrainStep(model, crossEntropy, sgd({}), { batch: 4, replicas: 2, extras: { perm: { dtype: 'int32', shape: [-1] } } }),
      /options\.replicas: expected 1 for a step whose extra input perm is batch-shaped but not row-wise/,
    );
    assert.throws(() => compileTrainStep(model, crossEntropy, sgd({}), { batch: 4, replicas: 0 }), /options\.replicas: expected a positive integer/);
    const base = { dataset: 'mnist', epochs: 1, out: 'runs/never-written' };
    assert.throws(() => resolveTrainConfig({ ...base, replicas: 2, mixup: 0.2, mixupKind: 'manifold' }), /config\.replicas: expected 1 with manifold mixup/);
    assert.throws(() => resolveTrainConfig({ ...base, replicas: 300, batch: 128 }), /config\.replicas: expected at most the batch size 128/);
    assert.throws(() => resolveTrainConfig({ ...base, replicas: 2, secondary: 'mmce', arcPlacement: 'holdout' }), /config\.replicas: expected 1 with arcPlacement 'holdout'/);
  });

  it('a run with 2 replicas stopped mid-epoch and resumed ends with the same weights, bit for bit', async () => {
    const dir = tempDir('replicated-run');
    const config = resolveTrainConfig({ dataset: 'mnist', subset: 400, testSubset: 100, modelOptions: { hidden: [16] }, epochs: 2, batch: 50, replicas: 2, out: join(dir, 'a') });
    const data = await loadRunData(config);
    const a = await train(config, { data });
    const controller = new AbortController();
    const stopped = await train({ ...config, out: join(dir, 'b') }, { data, signal: controller.signal, onStep: ({ epoch, steps }) => epoch === 1 && steps === 10 && controller.abort() });
    assert.equal(stopped.status, 'stopped');
    const resumed = await resumeTraining(join(dir, 'b'), { data });
    assert.equal(resumed.status, 'completed');
    assert.ok(Buffer.from(a.state.params.buffer).equals(Buffer.from(resumed.state.params.buffer)), 'parameters identical');
    const single = await train({ ...config, replicas: 1, out: join(dir, 'c') }, { data });
    const worst = single.state.params.reduce((m, v, i) => Math.max(m, Math.abs(v - a.state.params[i]!)), 0);
    assert.ok(worst < 1e-4, `an MLP trained with 2 replicas stays within float32 rounding of 1 replica (${worst})`);
  });
});
