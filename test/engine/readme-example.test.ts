import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compile, evaluate, grad, softmaxCrossEntropy, trace, type Tensor } from '../../src/engine/index.js';
import { Random } from '../../src/util/random.js';

// The README's example at a small size: an SGD step of a 2-layer MLP with cross-entropy, as one graph.
const N = 8,
  D = 6,
  H = 5,
  C = 3;
const f32 = (...shape: number[]) => ({ dtype: 'float32', shape }) as const;
const specs = { x: f32(N, D), y: { dtype: 'int32', shape: [N] } as const, w1: f32(D, H), b1: f32(H), w2: f32(H, C), b2: f32(C) };

function sgdStep({ x, y, w1, b1, w2, b2 }: Record<keyof typeof specs, Tensor>) {
  const logits = x.matmul(w1).add(b1).relu().matmul(w2).add(b2);
  const { loss } = softmaxCrossEntropy(logits, y);
  const params = [w1, b1, w2, b2];
  const grads = grad(loss, params);
  const [nw1, nb1, nw2, nb2] = params.map((p, i) => p.sub(grads[i]!.mul(0.1)));
  return { loss, w1: nw1!, b1: nb1!, w2: nw2!, b2: nb2! };
}

test('the README example traces, compiles, runs, and matches the float64 reference', () => {
  const rng = new Random(3);
  const rand = (n: number) => Float32Array.from({ length: n }, () => rng.normal() * 0.5);
  const feeds = { x: rand(N * D), y: Int32Array.from({ length: N }, (_, i) => i % C), w1: rand(D * H), b1: rand(H), w2: rand(H * C), b2: rand(C) };
  const graph = trace(sgdStep, specs);
  const session = compile(graph);
  const out = session.run(feeds);
  const ref = evaluate(graph, feeds);
  for (const name of ['loss', 'w1', 'b1', 'w2', 'b2']) {
    const got = out[name] as Float32Array;
    assert.equal(got.length, ref[name]!.data.length);
    got.forEach((v, i) => assert.ok(Math.abs(v - ref[name]!.data[i]!) < 1e-5, `${name}[${i}]: ${v} vs ${ref[name]!.data[i]}`));
  }
  // Repeating the step decreases the loss.
  let state: Record<string, Float32Array> = { w1: feeds.w1, b1: feeds.b1, w2: feeds.w2, b2: feeds.b2 };
  const losses: number[] = [];
  for (let k = 0; k < 100; k++) {
    const r = session.run({ ...feeds, ...state });
    losses.push((r.loss as Float32Array)[0]!);
    state = { w1: r.w1 as Float32Array, b1: r.b1 as Float32Array, w2: r.w2 as Float32Array, b2: r.b2 as Float32Array };
  }
  assert.ok(losses[99]! < losses[0]! * 0.7, `loss went ${losses[0]} → ${losses[99]}`);
  session.dispose();
});
