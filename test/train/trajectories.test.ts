/**
 * Whole train steps against independent computations: an MLP trained with SGD-momentum + weight decay on ORT
 * follows the loss trajectory of hand-derived gradients in plain float64 TypeScript, and a small CNN with
 * batch norm follows the float64 reference evaluator running the very same traced step graph.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluate } from '../../src/engine/index.js';
import { lenet, mlp } from '../../src/nn/index.js';
import { sgd } from '../../src/optim/index.js';
import { compileTrainStep, createTrainState, crossEntropy } from '../../src/train/index.js';
import { Random } from '../../src/util/random.js';

/** Plain-TypeScript MLP (ReLU) with manual backprop: W [out, in] row-major, mean softmax cross-entropy. */
function handMlpStep(layers: { w: Float64Array; b: Float64Array; nIn: number; nOut: number }[], x: Float64Array, y: Int32Array, n: number): { loss: number; gw: Float64Array[]; gb: Float64Array[] } {
  const acts: Float64Array[] = [x];
  let h = x;
  layers.forEach((l, k) => {
    const z = new Float64Array(n * l.nOut);
    for (let i = 0; i < n; i++)
      for (let o = 0; o < l.nOut; o++) {
        let s = l.b[o]!;
        for (let j = 0; j < l.nIn; j++) s += h[i * l.nIn + j]! * l.w[o * l.nIn + j]!;
        z[i * l.nOut + o] = k < layers.length - 1 ? Math.max(0, s) : s;
      }
    acts.push(z);
    h = z;
  });
  const c = layers[layers.length - 1]!.nOut;
  let loss = 0;
  let delta = new Float64Array(n * c); // dL/dz of the last layer
  for (let i = 0; i < n; i++) {
    let m = -Infinity;
    for (let k = 0; k < c; k++) m = Math.max(m, h[i * c + k]!);
    let s = 0;
    for (let k = 0; k < c; k++) s += Math.exp(h[i * c + k]! - m);
    loss += -(h[i * c + y[i]!]! - m - Math.log(s)) / n;
    for (let k = 0; k < c; k++) delta[i * c + k] = (Math.exp(h[i * c + k]! - m) / s - (k === y[i] ? 1 : 0)) / n;
  }
  const gw: Float64Array[] = [],
    gb: Float64Array[] = [];
  for (let k = layers.length - 1; k >= 0; k--) {
    const l = layers[k]!,
      a = acts[k]!;
    const w = new Float64Array(l.nOut * l.nIn),
      b = new Float64Array(l.nOut);
    for (let i = 0; i < n; i++)
      for (let o = 0; o < l.nOut; o++) {
        const d = delta[i * l.nOut + o]!;
        b[o]! += d;
        for (let j = 0; j < l.nIn; j++) w[o * l.nIn + j]! += d * a[i * l.nIn + j]!;
      }
    gw[k] = w;
    gb[k] = b;
    if (k > 0) {
      const prev = new Float64Array(n * l.nIn);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < l.nIn; j++) {
          if (a[i * l.nIn + j]! <= 0) continue; // ReLU mask of the previous layer's output
          let s = 0;
          for (let o = 0; o < l.nOut; o++) s += delta[i * l.nOut + o]! * l.w[o * l.nIn + j]!;
          prev[i * l.nIn + j] = s;
        }
      delta = prev;
    }
  }
  return { loss, gw, gb };
}

describe('train-step trajectories', () => {
  it('an MLP trained with SGD momentum 0.9 and weight decay follows hand-derived float64 gradients', () => {
    const model = mlp({ inputShape: [6], hidden: [8, 5], numClasses: 3 });
    const optimizer = sgd({ momentum: 0.9, weightDecay: 5e-4 });
    const n = 8;
    const step = compileTrainStep(model, crossEntropy, optimizer, { batch: n });
    const state = createTrainState(model, optimizer, 21);
    const rng = new Random(22);
    const x = Float32Array.from({ length: n * 6 }, () => rng.normal());
    const y = Int32Array.from({ length: n }, () => rng.int(3));
    // Reference state in float64 from the same initial parameters.
    const views = step.layout.params.views(state.params);
    const dims = [
      [6, 8],
      [8, 5],
      [5, 3],
    ];
    const names = ['fc1', 'fc2', 'head'];
    const layers = names.map((nm, k) => ({ w: Float64Array.from(views[`${nm}.weight`]!), b: Float64Array.from(views[`${nm}.bias`]!), nIn: dims[k]![0]!, nOut: dims[k]![1]! }));
    const mom = layers.map((l) => ({ w: new Float64Array(l.w.length), b: new Float64Array(l.b.length) }));
    const lrs = [0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.01, 0.01];
    const ours: number[] = [],
      ref: number[] = [];
    for (const lr of lrs) {
      ours.push(step.run(state, { x, y }, lr).loss);
      const r = handMlpStep(layers, Float64Array.from(x), y, n);
      ref.push(r.loss);
      layers.forEach((l, k) => {
        for (const [p, g, m] of [
          [l.w, r.gw[k]!, mom[k]!.w],
          [l.b, r.gb[k]!, mom[k]!.b],
        ] as const) {
          for (let i = 0; i < p.length; i++) {
            const d = g[i]! + 5e-4 * p[i]!;
            m[i] = 0.9 * m[i]! + d;
            p[i] = p[i]! - lr * m[i]!;
          }
        }
      });
    }
    ours.forEach((l, t) => assert.ok(Math.abs(l - ref[t]!) < 2e-6 * (1 + ref[t]!), `step ${t}: ${l} vs ${ref[t]}`));
    assert.ok(ref[ref.length - 1]! < ref[0]! - 0.1, 'the loss decreases');
    const final = step.layout.params.views(state.params);
    names.forEach((nm, k) => {
      final[`${nm}.weight`]!.forEach((v, i) => assert.ok(Math.abs(v - layers[k]!.w[i]!) < 1e-5, `${nm}.weight[${i}]`));
      final[`${nm}.bias`]!.forEach((v, i) => assert.ok(Math.abs(v - layers[k]!.b[i]!) < 1e-5, `${nm}.bias[${i}]`));
    });
    step.dispose();
  });

  it('a small CNN with batch norm follows the float64 reference evaluator running the same traced step', () => {
    const model = lenet({ inputShape: [1, 12, 12], channels: [3, 4], hidden: [6], numClasses: 3, batchNorm: true });
    const optimizer = sgd({ momentum: 0.9, weightDecay: 5e-4, nesterov: true });
    const n = 4;
    const step = compileTrainStep(model, crossEntropy, optimizer, { batch: n });
    const state = createTrainState(model, optimizer, 31);
    const rng = new Random(32);
    const x = Float32Array.from({ length: n * 144 }, () => rng.normal());
    const y = Int32Array.from({ length: n }, () => rng.int(3));
    let ref: Record<string, Float64Array> = { params: Float64Array.from(state.params), buffers: Float64Array.from(state.buffers), 'opt.momentum': new Float64Array(state.params.length) };
    const graph = step.graph(n);
    for (let t = 0; t < 4; t++) {
      const feeds = { ...step.feeds(state, { x, y }, 0.05), ...ref };
      const out = evaluate(graph, feeds);
      const r = step.run(state, { x, y }, 0.05);
      const refLoss = out['loss']!.data[0]!;
      assert.ok(Math.abs(r.loss - refLoss) < 1e-5 * (1 + refLoss), `step ${t}: loss ${r.loss} vs ${refLoss}`);
      ref = { params: out['params']!.data, buffers: out['buffers']!.data, 'opt.momentum': out['opt.momentum']!.data };
      const worst = (a: Float32Array, b: Float64Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!) / (1 + Math.abs(b[i]!))), 0);
      assert.ok(worst(state.params, ref['params']!) < 1e-4, `step ${t}: parameters differ by ${worst(state.params, ref['params']!)}`);
      assert.ok(worst(state.buffers, ref['buffers']!) < 1e-5, `step ${t}: running statistics differ by ${worst(state.buffers, ref['buffers']!)}`);
    }
    step.dispose();
  });
});
