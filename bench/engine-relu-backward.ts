/**
 * Micro-benchmark of ReLU-backward mask recipes at ResNet-20 stage shapes (N = 128), interleaved; each graph
 * ends in a full sum so the large result is not a graph output. JSON out (min / median process CPU ms per run:
 * robust to other load on a shared machine; with threads = 1 it is the single-thread cost). `greater_only` times
 * the mask alone (Cast(Greater) + one Add), the floor of every recipe.
 * Run: node dist/bench/engine-relu-backward.js [threads = 2]
 */
import * as E from '../src/engine/index.js';
import { Random } from '../src/util/random.js';

const rng = new Random(1);
const threads = Number(process.argv[2] ?? 2);
const rand = (n: number) => Float32Array.from({ length: n }, () => rng.normal());
const shapes = [[128, 16, 32, 32], [128, 64, 8, 8]] as const;
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
  const sessions = Object.fromEntries(Object.entries(recipes).map(([name, fn]) => [name, E.compile(E.trace(({ g, y }) => E.sum(fn(g!, y!)), specs), { threads })]));
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(recipes).map((k) => [k, []]));
  for (const sess of Object.values(sessions)) { sess.run(feeds); sess.run(feeds); }
  for (let r = 0; r < 40; r++) for (const [name, sess] of Object.entries(sessions)) { const t0 = process.cpuUsage(); sess.run(feeds); const d = process.cpuUsage(t0); times[name]!.push((d.user + d.system) / 1000); }
  out[s.join('x')] = Object.fromEntries(Object.entries(times).map(([k, t]) => { const v = [...t].sort((a, b) => a - b); return [k, { min: +v[0]!.toFixed(3), median: +v[20]!.toFixed(3) }]; }));
}
process.stdout.write(JSON.stringify(out) + '\n');
