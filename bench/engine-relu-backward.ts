/**
 * Micro-benchmark of ReLU-backward mask recipes at ResNet-20 stage shapes (N = 128), interleaved; each graph
 * ends in a full sum so the large result is not a graph output. JSON out (min / median process CPU ms per run:
 * robust to other load on a shared machine; with threads = 1 it is the single-thread cost). `greater_only` times
 * the mask alone (Cast(Greater) + one Add), the floor of every recipe.
 * The second part (`bn`) times batch-norm backward pieces on [N, C, HW] views: the per-channel reduction Σ over
 * axes [0, 2] as ONE ReduceSum node (ORT's multi-axis path, the lowering before issue 24) vs the engine's lowering
 * (ReduceSum [2] then [0]); dx = k·g + b·x + c as Mul/Mul/Add/Add (before) vs Mul + Add of one `channelAffine`;
 * and the whole emitted backward of relu(batchNormTraining(x)) w.r.t. x, γ, β (`bn_relu_vjp`, forward included).
 * Run: node dist/bench/engine-relu-backward.js [threads = 2]
 */
import * as E from '../src/engine/index.js';
import { apply1 } from '../src/engine/ir/apply.js';
import type { Primitive } from '../src/engine/ir/primitive.js';
import { loadavg } from 'node:os';
import { Random } from '../src/util/random.js';

const rng = new Random(1);
const threads = Number(process.argv[2] ?? 2);
const rand = (n: number) => Float32Array.from({ length: n }, () => rng.normal());
const shapes = [
  [128, 16, 32, 32],
  [128, 64, 8, 8],
] as const;
type Recipe = (g: E.Tensor, y: E.Tensor) => E.Tensor;
const recipes: Record<string, Recipe> = {
  baseline_sum: (g) => g,
  cast_greater: (g, y) => g.mul(E.cast(E.greater(y, 0), 'float32')),
  sign: (g, y) => g.mul(E.sign(y)),
  ceil_min: (g, y) => g.mul(E.floor(E.minimum(y, 1).neg()).neg()),
  where: (g, y) => E.where(E.greater(y, 0), g, 0),
  greater_only: (g, y) => E.cast(E.greater(y, 0), 'float32').add(g),
};
const out: Record<string, Record<string, { min: number; median: number }>> = {};
for (const s of shapes) {
  const size = s[0] * s[1] * s[2] * s[3];
  const yv = rand(size).map((v) => Math.max(v, 0));
  const feeds = { g: rand(size), y: yv };
  const f32 = (...shape: number[]) => ({ dtype: 'float32', shape }) as const;
  const specs = { g: f32(...s), y: f32(...s) };
  const sessions = Object.fromEntries(
    Object.entries(recipes).map(([name, fn]) => [
      name,
      E.compile(
        E.trace(({ g, y }) => E.sum(fn(g!, y!)), specs),
        { threads },
      ),
    ]),
  );
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(recipes).map((k) => [k, []]));
  for (const sess of Object.values(sessions)) {
    sess.run(feeds);
    sess.run(feeds);
  }
  for (let r = 0; r < 40; r++)
    for (const [name, sess] of Object.entries(sessions)) {
      const t0 = process.cpuUsage();
      sess.run(feeds);
      const d = process.cpuUsage(t0);
      times[name]!.push((d.user + d.system) / 1000);
    }
  out[s.join('x')] = Object.fromEntries(
    Object.entries(times).map(([k, t]) => {
      const v = [...t].sort((a, b) => a - b);
      return [k, { min: +v[0]!.toFixed(3), median: +v[20]!.toFixed(3) }];
    }),
  );
}

/** ReduceSum over axes [0, 2] of [N, C, HW] as a single ONNX node (what the engine emitted before issue 24). */
const reduceSum02OneNode: Primitive<Record<string, never>> = {
  name: 'bench_reduce_sum_0_2_one_node',
  infer: ([x]) => [{ dtype: x!.dtype, shape: [1, x!.shape[1]!, 1] }],
  emit: (node, ctx) => ctx.node('ReduceSum', [node.inputs[0]!, ctx.int64s([0, 2])], node.outputs, { keepdims: { type: 'int', value: 1 } }),
  reference: () => {
    throw new Error('bench only');
  },
};
type BnRecipe = (t: { g: E.Tensor; x: E.Tensor; k: E.Tensor; b: E.Tensor; c: E.Tensor }) => E.Tensor;
const bnRecipes: Record<string, BnRecipe> = {
  baseline_sum: ({ g }) => E.sum(g),
  reduce_0_2_one_node: ({ g }) => E.sum(apply1(reduceSum02OneNode, [g], {})),
  reduce_0_2_engine: ({ g }) => E.sum(E.sum(g, [0, 2], true)),
  dx_mul_add: ({ g, x, k, b, c }) => {
    const col = (t: E.Tensor) => t.reshape([1, -1, 1]);
    return E.sum(
      g
        .mul(col(k))
        .add(x.mul(col(b)))
        .add(col(c)),
    );
  },
  dx_channel_affine: ({ g, x, k, b, c }) => E.sum(g.mul(k.reshape([1, -1, 1])).add(E.channelAffine(x, b, c))),
  bn_relu_vjp: ({ g, x, k, b }) => {
    const [dx, dk, db] = E.vjp([E.relu(E.batchNormTraining(x, k, b).y)], [g], [x, k, b]);
    return E.sum(dx!).add(E.sum(dk!)).add(E.sum(db!));
  },
};
const bnOut: Record<string, Record<string, { min: number; median: number }>> = {};
for (const s of shapes) {
  const [n, ch, h, w] = s;
  const view = [n, ch, h * w];
  const size = n * ch * h * w;
  const f32 = (...shape: number[]) => ({ dtype: 'float32', shape }) as const;
  const specs = { g: f32(...view), x: f32(...view), k: f32(ch), b: f32(ch), c: f32(ch) };
  const feeds = { g: rand(size), x: rand(size), k: rand(ch), b: rand(ch), c: rand(ch) };
  const sessions = Object.fromEntries(
    Object.entries(bnRecipes).map(([name, fn]) => [
      name,
      E.compile(
        E.trace((t) => fn(t as Parameters<BnRecipe>[0]), specs),
        { threads },
      ),
    ]),
  );
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(bnRecipes).map((k) => [k, []]));
  for (const sess of Object.values(sessions)) {
    sess.run(feeds);
    sess.run(feeds);
  }
  for (let r = 0; r < 40; r++)
    for (const [name, sess] of Object.entries(sessions)) {
      const t0 = process.cpuUsage();
      sess.run(feeds);
      const d = process.cpuUsage(t0);
      times[name]!.push((d.user + d.system) / 1000);
    }
  bnOut[s.join('x')] = Object.fromEntries(
    Object.entries(times).map(([k, t]) => {
      const v = [...t].sort((a, b) => a - b);
      return [k, { min: +v[0]!.toFixed(3), median: +v[20]!.toFixed(3) }];
    }),
  );
}
process.stdout.write(JSON.stringify({ relu: out, bn: bnOut, threads, load_average: loadavg().map((v) => +v.toFixed(2)) }) + '\n');
