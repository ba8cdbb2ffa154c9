/**
 * Conv weight-gradient recipes at ResNet-20 layer shapes (N = 128, 3×3, pad 1), interleaved; each graph ends
 * in a sum so only a scalar leaves ORT. JSON out per variant and shape: "wall min / wall median / CPU median" ms
 * (process CPU time is robust to other load on a shared machine when threads = 1). `shifted` (kh + kw shifted
 * copies, conv-weight-grad-shifted.ts) only exists for stride 1.
 * Run: node dist/bench/engine-conv-dw.js [rounds] [threads]
 */
import * as E from '../src/engine/index.js';
import { conv2dWeightGradChunked, conv2dWeightGradGemm } from '../src/engine/ops/layers/conv2d.js';
import { conv2dWeightGradShifted } from '../src/engine/ops/layers/conv-weight-grad-shifted.js';
import { im2colCnhw } from '../src/engine/ops/layers/im2col-cnhw.js';
import { Random } from '../src/util/random.js';

const rounds = Number(process.argv[2] ?? 20);
const threads = Number(process.argv[3] ?? 2);
const rng = new Random(1);
const rand = (n: number) => Float32Array.from({ length: n }, () => rng.normal());
// [N, Ci, H, W, Co, stride]
const layers = [
  [128, 16, 32, 32, 16, 1],
  [128, 16, 32, 32, 32, 2],
  [128, 32, 16, 16, 32, 1],
  [128, 64, 8, 8, 64, 1],
] as const;
const attrs = (s: number) => ({ strides: [s, s] as [number, number], pads: [1, 1, 1, 1] as [number, number, number, number], dilations: [1, 1] as [number, number], group: 1 });
type Recipe = (x: E.Tensor, g: E.Tensor, w: readonly number[], s: number) => E.Tensor;
const recipes: Record<string, Recipe> = {
  chunk16: (x, g, w, s) => conv2dWeightGradChunked(x, g, w, attrs(s), 16),
  chunk8: (x, g, w, s) => conv2dWeightGradChunked(x, g, w, attrs(s), 8),
  gemm: (x, g, w, s) => conv2dWeightGradGemm(x, g, w, attrs(s)),
  gemmT: (x, g, w, s) => {
    const [n, co, ho, wo] = g.shape as number[];
    const gt = E.transpose(g, [1, 0, 2, 3]).reshape([co!, n! * ho! * wo!]);
    const cols = im2colCnhw(x, [3, 3], attrs(s));
    return E.transpose(E.matmul(cols, gt, { transB: true }), [1, 0]).reshape([...w]);
  },
  shifted: (x, g, w, s) => conv2dWeightGradShifted(x, g, w, attrs(s)),
};
const out: Record<string, Record<string, string>> = {};
for (const [n, ci, h, wd, co, s] of layers) {
  const ho = Math.floor((h - 1) / s) + 1;
  const f32 = (...shape: number[]) => ({ dtype: 'float32', shape }) as const;
  const specs = { x: f32(n, ci, h, wd), g: f32(n, co, ho, ho) };
  const feeds = { x: rand(n * ci * h * wd), g: rand(n * co * ho * ho) };
  const usable = Object.entries(recipes).filter(([name]) => s === 1 || name !== 'shifted');
  const sessions = Object.fromEntries(
    usable.map(([name, fn]) => [
      name,
      E.compile(
        E.trace(({ x, g }) => E.sum(fn(x!, g!, [co, ci, 3, 3], s).square()), specs),
        { threads },
      ),
    ]),
  );
  const ref = Number(sessions['chunk16']!.run(feeds)['output']![0]!);
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(sessions).map((k) => [k, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(sessions).map((k) => [k, []]));
  for (const [name, sess] of Object.entries(sessions)) {
    const v = Number(sess.run(feeds)['output']![0]!);
    if (Math.abs(v - ref) > 1e-3 * Math.abs(ref)) throw new Error(`${name} disagrees: ${v} vs ${ref}`);
  }
  for (let r = 0; r < rounds; r++)
    for (const [name, sess] of Object.entries(sessions)) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      sess.run(feeds);
      times[name]!.push(performance.now() - t0);
      const d = process.cpuUsage(c0);
      cpu[name]!.push((d.user + d.system) / 1000);
    }
  out[`${ci}->${co} ${h}x${wd} s${s}`] = Object.fromEntries(
    Object.entries(times).map(([k, t]) => {
      const v = [...t].sort((a, b) => a - b);
      const c = [...cpu[k]!].sort((a, b) => a - b);
      return [k, `${v[0]!.toFixed(2)} / ${v[v.length >> 1]!.toFixed(2)} / ${c[c.length >> 1]!.toFixed(2)}`];
    }),
  );
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
