import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, trace } from '../../src/engine/index.js';
import { sgd } from '../../src/optim/index.js';
import { sgdHostKernelAvailable, sgdMomentumHostUpdate } from '../../src/optim/sgd-host-kernel.js';
import { mlp } from '../../src/nn/index.js';
import { compileTrainStep, createTrainState, crossEntropy } from '../../src/train/index.js';
import { Random } from '../../src/util/random.js';

/** The traced SGD update run by ORT: the reference the host kernel must match bit for bit. */
function graphUpdate(n: number, decay: number, momentum: number): (p: Float32Array, g: Float32Array, m: Float32Array, lr: number) => { p: Float32Array; m: Float32Array } {
  const opt = sgd({ momentum, weightDecay: decay });
  const f32 = (...shape: number[]) => ({ dtype: 'float32' as const, shape });
  const session = compile(
    trace(
      ({ p, g, m, lr }) => {
        const r = opt.update({ param: p, grad: g, state: { momentum: m }, scalars: { lr }, decayMask: 1 });
        return { p: r.param, m: r.state['momentum']! };
      },
      { p: f32(n), g: f32(n), m: f32(n), lr: f32() },
    ),
    { threads: 1 },
  );
  return (p, g, m, lr) => {
    const out = session.run({ p, g, m, lr });
    return { p: out['p'] as Float32Array, m: out['m'] as Float32Array };
  };
}

describe('SGD-momentum host kernel (WebAssembly SIMD)', () => {
  it('is available on this Node', () => assert.ok(sgdHostKernelAvailable()));

  it('matches the traced update bit for bit, tails (n mod 4), several 16384-element chunks, signed zeros, magnitudes from 1e-30 to 1e30 included', () => {
    const rng = new Random(3);
    for (const n of [1, 3, 4, 7, 1030, 40003]) {
      const reference = graphUpdate(n, 5e-4, 0.9);
      const values = (): Float32Array => Float32Array.from({ length: n }, (_, i) => (i % 11 === 0 ? (i % 2 ? -0 : 0) : rng.normal() * 10 ** Math.floor(rng.uniform() * 60 - 30)));
      const p = values(),
        g = values(),
        m = values();
      const want = reference(p, g, m, 0.037);
      sgdMomentumHostUpdate(p, g, m, 5e-4, 0.9, 0.037);
      for (let i = 0; i < n; i++) {
        assert.ok(Object.is(p[i], want.p[i]), `n ${n}, p[${i}]: ${p[i]} vs ${want.p[i]}`);
        assert.ok(Object.is(m[i], want.m[i]), `n ${n}, m[${i}]: ${m[i]} vs ${want.m[i]}`);
      }
    }
  });

  it('sgd offers it only where it is exact: momentum and weight decay, no dampening or Nesterov', () => {
    assert.ok(sgd({ momentum: 0.9, weightDecay: 5e-4 }).hostUpdate);
    assert.equal(sgd({ momentum: 0.9 }).hostUpdate, undefined);
    assert.equal(sgd({ weightDecay: 5e-4 }).hostUpdate, undefined);
    assert.equal(sgd({ momentum: 0.9, weightDecay: 5e-4, dampening: 0.1 }).hostUpdate, undefined);
    assert.equal(sgd({ momentum: 0.9, weightDecay: 5e-4, nesterov: true }).hostUpdate, undefined);
  });

  it('a train step with the host update gives the same state and losses as the update in the graph', () => {
    const model = mlp({ inputShape: [5], hidden: [7], numClasses: 3 });
    const opt = sgd({ momentum: 0.9, weightDecay: 5e-4 });
    const host = compileTrainStep(model, crossEntropy, opt, { batch: 6, threads: 1 });
    const inGraph = compileTrainStep(model, crossEntropy, opt, { batch: 6, threads: 1, hostUpdate: false });
    assert.ok(host.updatesOnHost);
    assert.ok(!inGraph.updatesOnHost);
    const a = createTrainState(model, opt, 4),
      b = createTrainState(model, opt, 4);
    const rng = new Random(9);
    for (let t = 0; t < 6; t++) {
      const batch = { x: Float32Array.from({ length: 30 }, () => rng.normal()), y: Int32Array.from({ length: 6 }, () => rng.int(3)) };
      assert.equal(host.run(a, batch, 0.1).loss, inGraph.run(b, batch, 0.1).loss);
    }
    assert.deepEqual(a.params, b.params);
    assert.deepEqual(a.opt['momentum'], b.opt['momentum']);
    assert.equal(a.step, 6);
    host.dispose();
    inGraph.dispose();
  });
});
