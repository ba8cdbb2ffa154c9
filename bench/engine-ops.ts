/**
 * Engine recipe benchmark, printed as JSON: alternatives for the expensive gradients (conv dW and dX, batch
 * norm, ReLU backward) at ResNet-20 stage shapes (N = 128), the cost of feeding many tensors vs one flat
 * vector, per-run overhead, and an MLP 784-512-512-10 SGD step — with PyTorch's time for the same work
 * measured in the same run when /usr/bin/python3 has torch (bench/engine_ops_torch.py).
 * Variants are interleaved round by round; min and median in ms. The machine is noisy: compare ratios.
 * Run: node dist/bench/engine-ops.js [--quick]
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import * as E from '../src/engine/index.js';
import { conv2dInputGrad, conv2dWeightGradChunked, conv2dWeightGradGemm } from '../src/engine/ops/layers/conv2d.js';
import { Random } from '../src/util/random.js';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 3 : 10;
const rng = new Random(0);
const rand = (n: number) => Float32Array.from({ length: n }, () => rng.normal());
const f32 = (...shape: number[]) => ({ dtype: 'float32', shape }) as const;

interface Timing {
  min: number;
  median: number;
}
function measure(variants: Record<string, { session: E.Session; feeds: Record<string, E.Feed> }>, rounds = ROUNDS): Record<string, Timing> {
  const times: Record<string, number[]> = {};
  for (const [k, v] of Object.entries(variants)) {
    v.session.run(v.feeds);
    v.session.run(v.feeds);
    times[k] = [];
  }
  for (let r = 0; r < rounds; r++) {
    for (const [k, v] of Object.entries(variants)) {
      const t0 = performance.now();
      v.session.run(v.feeds);
      times[k]!.push(performance.now() - t0);
    }
  }
  return Object.fromEntries(
    Object.entries(times).map(([k, t]) => {
      const s = [...t].sort((a, b) => a - b);
      return [k, { min: round(s[0]!), median: round(s[Math.floor(s.length / 2)]!) }];
    }),
  );
}
const round = (v: number) => Math.round(v * 100) / 100;

const result: Record<string, unknown> = { machine: { cpus: (await import('node:os')).cpus().length }, rounds: ROUNDS };
const stages = quick
  ? [[16, 32]]
  : [
      [16, 32],
      [32, 16],
      [64, 8],
    ];
const N = 128;

// Conv 3×3 stride 1 pad 1: forward, dX (flipped conv vs ConvTranspose), dW (im2col chunks vs "conv as weight gradient").
const convResults: Record<string, unknown> = {};
for (const [c, hw] of stages as [number, number][]) {
  const xs = f32(N, c, hw, hw),
    ws = f32(c, c, 3, 3);
  const attrs = { strides: [1, 1] as [number, number], pads: [1, 1, 1, 1] as [number, number, number, number], dilations: [1, 1] as [number, number], group: 1 };
  const x = rand(N * c * hw * hw),
    w = rand(c * c * 9),
    g = rand(N * c * hw * hw);
  const v: Record<string, { session: E.Session; feeds: Record<string, E.Feed> }> = {};
  const add = (name: string, graph: E.Graph, feeds: Record<string, E.Feed>) => (v[name] = { session: E.compile(graph), feeds });
  add(
    'forward',
    E.trace(({ x, w }) => E.conv2d(x, w, { padding: 1 }), { x: xs, w: ws }),
    { x, w },
  );
  add(
    'dX flipped conv (used)',
    E.trace(({ g, w }) => conv2dInputGrad(g, w, xs.shape, attrs), { g: xs, w: ws }),
    { g, w },
  );
  add(
    'dX ConvTranspose',
    E.trace(({ g, w }) => E.convTranspose2d(g, w, { padding: 1 }), { g: xs, w: ws }),
    { g, w },
  );
  for (const chunk of quick ? [16] : [8, 16, 32, 128]) {
    add(
      `dW im2col+GEMM chunk ${chunk}${chunk === 16 ? ' (used for grouped convs)' : ''}`,
      E.trace(({ x, g }) => conv2dWeightGradChunked(x, g, ws.shape, attrs, chunk), { x: xs, g: xs }),
      { x, g },
    );
  }
  add(
    'dW im2colCnhw + one GEMM (used)',
    E.trace(({ x, g }) => conv2dWeightGradGemm(x, g, ws.shape, attrs), { x: xs, g: xs }),
    { x, g },
  );
  add(
    'dW conv over swapped axes',
    E.trace(({ x, g }) => E.conv2d(x.transpose([1, 0, 2, 3]), g.transpose([1, 0, 2, 3]), { padding: 1 }).transpose([1, 0, 2, 3]), { x: xs, g: xs }),
    { x, g },
  );
  convResults[`${c}ch ${hw}x${hw}`] = measure(v);
  for (const s of Object.values(v)) s.session.dispose();
}
result.conv3x3 = convResults;

// Batch norm (training) forward + backward at the first stage; ReLU backward recipes.
{
  const [c, hw] = stages[0]!;
  const xs = f32(N, c!, hw!, hw!);
  const x = rand(N * c! * hw! * hw!),
    gy = rand(x.length),
    gamma = Float32Array.from({ length: c! }, () => 1),
    beta = new Float32Array(c!);
  const bnStep = (fused: boolean) =>
    E.trace(
      ({ x, gy, gamma, beta }) => {
        const bn = (fused ? E.batchNormTraining : E.batchNormTrainingComposite)(x, gamma, beta);
        const [dx, dg, db] = E.vjp([bn.y], [gy], [x, gamma, beta]);
        return { y: bn.y, dx: dx!, dg: dg!, db: db! };
      },
      { x: xs, gy: xs, gamma: f32(c!), beta: f32(c!) },
    );
  const feeds = { x, gy, gamma, beta };
  result.batchNormTrainForwardBackward = measure({
    'fused BatchNormalization + [N,C,HW] backward (used)': { session: E.compile(bnStep(true)), feeds },
    'composite ReduceMean path': { session: E.compile(bnStep(false)), feeds },
  });
  const y = x.map((v) => Math.max(v, 0));
  const reluMul = E.trace(({ y, g }) => g.mul(y.greater(0).cast('float32')), { y: xs, g: xs });
  const reluWhere = E.trace(({ y, g }) => E.where(y.greater(0), g, 0), { y: xs, g: xs });
  result.reluBackward = measure({
    'Mul(g, Cast(Greater(y,0))) (used)': { session: E.compile(reluMul), feeds: { y, g: gy } },
    'Where(Greater(y,0), g, 0)': { session: E.compile(reluWhere), feeds: { y, g: gy } },
  });
}

// IO: 156 parameter tensors in and out vs one flat vector in and out (same total size as ResNet-20, 0.27 M).
{
  // 52 conv-like weights [16,16,3,3] and 104 vectors of 1450: 156 tensors, 270,608 elements.
  const shapes: [string, number[]][] = Array.from({ length: 156 }, (_, i) => [`p${i}`, i % 3 === 0 ? [16, 16, 3, 3] : [1450]]);
  const layout = new E.FlatLayout(shapes);
  const specs = Object.fromEntries(shapes.map(([n, s]) => [n, f32(...s)]));
  const many = E.trace((t) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v.mul(0.5)])), specs);
  const flat = E.trace(({ p }) => ({ p: layout.pack(Object.fromEntries(Object.entries(layout.unpack(p)).map(([k, v]) => [k, v.mul(0.5)]))) }), { p: f32(layout.size) });
  const flatDirect = E.trace(({ p }) => ({ p: p.mul(0.5) }), { p: f32(layout.size) });
  const manyFeeds = Object.fromEntries(shapes.map(([n, s]) => [n, rand(s.reduce((a, b) => a * b, 1))]));
  result.parameterIO = {
    tensors: shapes.length,
    elements: layout.size,
    ...measure(
      {
        '156 tensors in and out': { session: E.compile(many), feeds: manyFeeds },
        'flat vector, unpacked and repacked in the graph': { session: E.compile(flat), feeds: { p: rand(layout.size) } },
        'flat vector, element-wise on the flat vector': { session: E.compile(flatDirect), feeds: { p: rand(layout.size) } },
      },
      ROUNDS * 5,
    ),
  };
}

// Per-run overhead: engine's synchronous run vs the public async InferenceSession.run, on a 1-node graph.
{
  const g = E.trace(({ x }) => x.mul(2), { x: f32(16) });
  const s = E.compile(g);
  const pub = await ort.InferenceSession.create(E.toOnnx(g), { intraOpNumThreads: 2 });
  const x = rand(16);
  const n = quick ? 200 : 2000;
  for (let i = 0; i < 50; i++) s.run({ x });
  let t0 = performance.now();
  for (let i = 0; i < n; i++) s.run({ x });
  const sync = (performance.now() - t0) / n;
  const tensor = new ort.Tensor('float32', x, [16]);
  for (let i = 0; i < 50; i++) await pub.run({ x: tensor });
  t0 = performance.now();
  for (let i = 0; i < n; i++) await pub.run({ x: tensor });
  const async = (performance.now() - t0) / n;
  result.runOverheadMicroseconds = { engineSyncRun: Math.round(sync * 1000), publicAsyncRun: Math.round(async * 1000) };
}

// MLP 784-512-512-10 SGD step at batch 128, parameters packed in one flat vector.
{
  const layout = new E.FlatLayout({ w1: [784, 512], b1: [512], w2: [512, 512], b2: [512], w3: [512, 10], b3: [10] });
  const step = E.trace(
    ({ x, y, p }) => {
      const t = layout.unpack(p);
      const logits = x.matmul(t.w1!).add(t.b1!).relu().matmul(t.w2!).add(t.b2!).relu().matmul(t.w3!).add(t.b3!);
      const { loss } = E.softmaxCrossEntropy(logits, y);
      const names = layout.entries.map((e) => e.name);
      const grads = E.grad(
        loss,
        names.map((n) => t[n]!),
      );
      return { loss, p: layout.pack(Object.fromEntries(names.map((n, i) => [n, t[n]!.sub(grads[i]!.mul(0.01))]))) };
    },
    { x: f32(128, 784), y: { dtype: 'int32', shape: [128] }, p: f32(layout.size) },
  );
  const feeds = { x: rand(128 * 784), y: Int32Array.from({ length: 128 }, (_, i) => i % 10), p: rand(layout.size).map((v) => v * 0.05) };
  result.mlpStep = { nodes: step.nodes.length, ...measure({ 'MLP 784-512-512-10 SGD step, batch 128': { session: E.compile(step), feeds } }, ROUNDS * 3) };
}

// PyTorch peer, same shapes, same machine, same run.
const peer = join(process.cwd(), 'bench', 'engine_ops_torch.py');
if (existsSync('/usr/bin/python3') && existsSync(peer)) {
  try {
    result.pytorch = JSON.parse(execFileSync('/usr/bin/python3', [peer, ...(quick ? ['--quick'] : [])], { encoding: 'utf8', timeout: 600000 }));
  } catch (e) {
    result.pytorch = { error: String((e as Error).message).split('\n')[0] };
  }
}
console.log(JSON.stringify(result, null, 2));
