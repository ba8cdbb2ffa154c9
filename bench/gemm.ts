/**
 * GEMM alone: ONNX Runtime's MLAS SGEMM (a one-node ONNX model, Gemm or MatMul as the engine emits it, run through
 * the same synchronous binding the engine uses) against PyTorch's torch.mm and NumPy's matmul on the same shapes,
 * measured in the same run (bench/gemm_torch.py as a persistent peer), at 1 and 2 intra-op threads.
 * GFLOP/s = 2·M·N·K ÷ time. The shapes are the GEMMs our train steps run (read off ORT's profiler on the compiled
 * steps, batch 128):
 *   - MLP 784-512-512-10: each layer's forward Gemm (x · Wᵀ), weight gradient Gemm (dYᵀ · x) and input gradient
 *     MatMul (dY · W; the first layer has none);
 *   - CIFAR ResNet-20 (3×32×32, widths 16/32/64): the weight-gradient Gemms [M, K] · [N, K]ᵀ with K = N·H·W — the stem's
 *     im2col, the stride-1 layers' shifted copies ([3·Co, K] · [3·Ci, K]ᵀ), the stride-2 layers' im2col — with their
 *     count per step, and each stage's forward convolution written as the im2col GEMM [Co, 9·Ci] · [9·Ci, N·H·W]
 *     (an equivalent only: our forward runs ORT's NCHWc direct convolution and PyTorch's runs oneDNN's);
 *   - 1024³ for the peak rate, and 1×1×1 for the fixed cost of one call on each side.
 * Each case: one warm-up, then --rounds rounds alternating ours / torch / numpy, each round R products timed as one
 * batch (R chosen so that a round of ours takes about --round-ms). Per side: median and minimum wall ms per product,
 * median process CPU ms per product, GFLOP/s from each, minor page faults per product (first-touch memory costs
 * ≈ 20 µs a page on the project's VM, and ORT's Gemm faults on its output-sized buffers there: read ms beside
 * them); ratio_* = the peer's median ÷ ours (> 1: ours faster). ort_kernel: the Gemm/MatMul kernel's own time from
 * ORT's profiler over the same number of runs (without the binding's call and the output's allocation and copy),
 * and kernel_ratio_torch = torch.mm's median ÷ the kernel's: MLAS against MKL (or OpenBLAS) as kernels.
 * Prints one JSON line per case and thread count as it goes (a killed run keeps the lines so far), after one line
 * describing the peer (versions, BLAS, PyTorch's CPU capability) per thread count.
 *
 *   node dist/bench/gemm.js [--threads 1,2] [--rounds 5] [--round-ms 80] [--only mlp|resnet20|square|floor|TEXT] [--no-peer] [--quick]
 * --quick (a test of the bench, not a measurement): 2 rounds of 10 ms, four cases. $PYTHON: the peer's Python (default /usr/bin/python3).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { encodeModel, type OnnxNode } from '../src/engine/onnx/onnx-model.js';
import { loadNativeSession, type NativeSession, OrtTensor } from '../src/engine/runtime/ort-binding.js';
import { Random } from '../src/util/random.js';

/** C[M, N] = op(A) · op(B); op(A) = A [M, K] or (ta) the transpose of a stored [K, M]; op(B) likewise with [K, N] / [N, K]. */
interface GemmCase {
  readonly name: string;
  readonly group: 'mlp' | 'resnet20' | 'square' | 'floor';
  readonly m: number;
  readonly k: number;
  readonly n: number;
  readonly ta: boolean;
  readonly tb: boolean;
  /** How many times one train step runs this GEMM (null: not a GEMM of ours, an equivalent or a reference). */
  readonly perStep: number | null;
}

const gemm = (name: string, group: GemmCase['group'], m: number, k: number, n: number, ta: boolean, tb: boolean, perStep: number | null): GemmCase => ({ name, group, m, k, n, ta, tb, perStep });
const B = 128;
/** N·H·W at each ResNet-20 stage (32², 16², 8² at batch 128). */
const K1 = B * 32 * 32;
const K2 = B * 16 * 16;
const K3 = B * 8 * 8;

const CASES: readonly GemmCase[] = [
  gemm('floor 1x1x1', 'floor', 1, 1, 1, false, false, null),
  gemm('mlp fc1 forward x·Wt', 'mlp', B, 784, 512, false, true, 1),
  gemm('mlp fc2 forward x·Wt', 'mlp', B, 512, 512, false, true, 1),
  gemm('mlp head forward x·Wt', 'mlp', B, 512, 10, false, true, 1),
  gemm('mlp fc1 dW dYt·x', 'mlp', 512, B, 784, true, false, 1),
  gemm('mlp fc2 dW dYt·x', 'mlp', 512, B, 512, true, false, 1),
  gemm('mlp head dW dYt·x', 'mlp', 10, B, 512, true, false, 1),
  gemm('mlp fc2 dX dY·W', 'mlp', B, 512, 512, false, false, 1),
  gemm('mlp head dX dY·W', 'mlp', B, 10, 512, false, false, 1),
  gemm('resnet20 stem dW im2col 3->16 32x32', 'resnet20', 16, K1, 27, false, true, 1),
  gemm('resnet20 stage1 dW shifted 16->16 32x32', 'resnet20', 48, K1, 48, false, true, 6),
  gemm('resnet20 stage2 dW im2col stride2 16->32 16x16', 'resnet20', 32, K2, 144, false, true, 1),
  gemm('resnet20 stage2 dW shifted 32->32 16x16', 'resnet20', 96, K2, 96, false, true, 5),
  gemm('resnet20 stage3 dW im2col stride2 32->64 8x8', 'resnet20', 64, K3, 288, false, true, 1),
  gemm('resnet20 stage3 dW shifted 64->64 8x8', 'resnet20', 192, K3, 192, false, true, 5),
  gemm('resnet20 stem forward as im2col GEMM', 'resnet20', 16, 27, K1, false, false, null),
  gemm('resnet20 stage1 forward as im2col GEMM', 'resnet20', 16, 144, K1, false, false, null),
  gemm('resnet20 stage2 forward as im2col GEMM', 'resnet20', 32, 288, K2, false, false, null),
  gemm('resnet20 stage3 forward as im2col GEMM', 'resnet20', 64, 576, K3, false, false, null),
  gemm('square 1024', 'square', 1024, 1024, 1024, false, false, null),
];

interface Args {
  threads: number[];
  rounds: number;
  roundMs: number;
  only: string | null;
  peer: boolean;
  quick: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const get = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const quick = argv.includes('--quick');
  const threads = (get('threads') ?? '1,2').split(',').map(Number);
  if (!threads.every((t) => Number.isInteger(t) && t >= 1)) throw new Error(`--threads: expected a comma-separated list of positive integers, got ${get('threads')}`);
  const rounds = Number(get('rounds') ?? (quick ? 2 : 5));
  const roundMs = Number(get('round-ms') ?? (quick ? 10 : 80));
  if (!(Number.isInteger(rounds) && rounds >= 1)) throw new Error(`--rounds: expected a positive integer, got ${get('rounds')}`);
  if (!(roundMs > 0)) throw new Error(`--round-ms: expected a positive number, got ${get('round-ms')}`);
  return { threads, rounds, roundMs, only: get('only') ?? null, peer: !argv.includes('--no-peer'), quick };
}

const median = (v: readonly number[]): number => {
  const s = [...v].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
};
const round = (x: number, d = 4): number => Number(x.toPrecision(d));

/** A one-node model: Gemm when an operand is transposed (the engine's forward and weight gradients), else MatMul. */
function gemmModel(c: GemmCase): Uint8Array {
  const aShape = c.ta ? [c.k, c.m] : [c.m, c.k];
  const bShape = c.tb ? [c.n, c.k] : [c.k, c.n];
  const node: OnnxNode =
    c.ta || c.tb
      ? { opType: 'Gemm', inputs: ['a', 'b'], outputs: ['c'], domain: '', attrs: { transA: { type: 'int', value: c.ta ? 1 : 0 }, transB: { type: 'int', value: c.tb ? 1 : 0 } } }
      : { opType: 'MatMul', inputs: ['a', 'b'], outputs: ['c'], domain: '', attrs: {} };
  return encodeModel({
    graphName: 'gemm',
    nodes: [node],
    initializers: [],
    inputs: [
      { name: 'a', dtype: 'float32', shape: aShape },
      { name: 'b', dtype: 'float32', shape: bShape },
    ],
    outputs: [{ name: 'c', dtype: 'float32', shape: [c.m, c.n] }],
    opsets: { '': 18 },
    producer: 'calibkit-bench',
  });
}

function gemmSession(c: GemmCase, threads: number): NativeSession {
  return loadNativeSession(gemmModel(c), {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    enableCpuMemArena: true,
    enableMemPattern: true,
    executionProviders: ['cpu'],
    logSeverityLevel: 3,
  });
}

/** The peer: bench/gemm_torch.py, one process per thread count (NumPy's BLAS reads its thread count at import). */
class Peer {
  private readonly lines: AsyncIterableIterator<string>;
  private constructor(private readonly proc: ChildProcessWithoutNullStreams) {
    this.lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  }
  static async start(threads: number): Promise<{ peer: Peer; info: Record<string, unknown> } | null> {
    const python = process.env['PYTHON'] ?? '/usr/bin/python3';
    if (!existsSync(python)) return null;
    const script = fileURLToPath(new URL('../../bench/gemm_torch.py', import.meta.url));
    const proc = spawn(python, [script, String(threads)], { stdio: ['pipe', 'pipe', 'pipe'] });
    proc.stderr.pipe(process.stderr);
    const peer = new Peer(proc);
    try {
      return { peer, info: await peer.next() };
    } catch {
      return null; // no torch or NumPy there: the peer exited before its first line
    }
  }
  private async next(): Promise<Record<string, unknown>> {
    const r = await this.lines.next();
    if (r.done) throw new Error('gemm peer exited');
    return JSON.parse(r.value) as Record<string, unknown>;
  }
  async run(lib: 'torch' | 'numpy', c: GemmCase, reps: number, maxMs: number): Promise<{ ms: number; cpuMs: number; faults: number }> {
    this.proc.stdin.write(`${JSON.stringify({ cmd: 'run', lib, m: c.m, k: c.k, n: c.n, ta: c.ta ? 1 : 0, tb: c.tb ? 1 : 0, reps, max_ms: maxMs })}\n`);
    const r = await this.next();
    return { ms: r['ms'] as number, cpuMs: r['cpu_ms'] as number, faults: r['minor_faults'] as number };
  }
  stop(): void {
    this.proc.stdin.write('{"cmd":"quit"}\n');
    this.proc.stdin.end();
  }
}

interface Side {
  ms: number[];
  cpuMs: number[];
  faults: number[];
}

function summary(side: Side, flop: number): Record<string, number> {
  const ms = median(side.ms);
  const cpu = median(side.cpuMs);
  return {
    ms_median: round(ms),
    ms_min: round(Math.min(...side.ms)),
    cpu_ms_median: round(cpu),
    gflops: round(flop / ms / 1e6, 3),
    gflops_best: round(flop / Math.min(...side.ms) / 1e6, 3),
    gflops_cpu: round(flop / cpu / 1e6, 3),
    minor_faults_per_product: round(median(side.faults), 3),
  };
}

/**
 * The GEMM kernel's own time: ORT's profiler over `reps` runs of the same model (the node's kernel_time events,
 * median ms), i.e. MLAS without the binding's call and the output's allocation and copy that session.run includes.
 */
async function kernelMs(c: GemmCase, threads: number, feeds: Record<string, OrtTensor>, reps: number): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'calibkit-gemm-prof-'));
  try {
    const session = await ort.InferenceSession.create(gemmModel(c), {
      enableProfiling: true,
      profileFilePrefix: join(dir, 'p'),
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      logSeverityLevel: 3,
    });
    for (let i = 0; i < reps; i++) await session.run(feeds);
    session.endProfiling();
    await session.release();
    const file = readdirSync(dir).find((f) => f.endsWith('.json'));
    if (!file) return [];
    const events = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { cat: string; name: string; dur: number }[];
    return events.filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time')).map((e) => e.dur / 1000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Checks ORT's product on a few entries against float64 sums (C[i, j] = Σ_k op(A)[i, k] · op(B)[k, j]), so that a
 * case measures the product its shape says: |C − ref| ≤ 1e-5 · Σ_k |op(A)[i, k] · op(B)[k, j]| (float32 rounding).
 */
function checkProduct(c: GemmCase, a: Float32Array, b: Float32Array, product: Float32Array): void {
  const opA = (i: number, k: number): number => (c.ta ? a[k * c.m + i]! : a[i * c.k + k]!);
  const opB = (k: number, j: number): number => (c.tb ? b[j * c.k + k]! : b[k * c.n + j]!);
  for (const [i, j] of [
    [0, 0],
    [c.m - 1, c.n - 1],
    [c.m >> 1, c.n >> 2],
    [(c.m * 7) >> 3, (c.n * 3) >> 2],
  ] as const) {
    let ref = 0;
    let scale = 0;
    for (let k = 0; k < c.k; k++) {
      ref += opA(i, k) * opB(k, j);
      scale += Math.abs(opA(i, k) * opB(k, j));
    }
    const got = product[i * c.n + j]!;
    if (!(Math.abs(got - ref) <= 1e-5 * scale + 1e-30)) throw new Error(`gemm ${c.name}: C[${i}, ${j}] = ${got}, expected ${ref} (float64)`);
  }
}

async function measure(c: GemmCase, threads: number, args: Args, peer: Peer | null): Promise<Record<string, unknown>> {
  const rng = new Random(0);
  const a = Float32Array.from({ length: c.m * c.k }, () => rng.normal());
  const b = Float32Array.from({ length: c.k * c.n }, () => rng.normal());
  const session = gemmSession(c, threads);
  const feeds = { a: new OrtTensor('float32', a, c.ta ? [c.k, c.m] : [c.m, c.k]), b: new OrtTensor('float32', b, c.tb ? [c.n, c.k] : [c.k, c.n]) };
  const fetches = { c: null };
  try {
    checkProduct(c, a, b, session.run(feeds, fetches)['c']!.data as Float32Array);
    // Warm-up (first-touch memory is slow here): at least five products and half a round's time; the median of
    // the last three sets R, the products per round. Each peer then warms up with one round of its own.
    const warm: number[] = [];
    const warmStart = performance.now();
    while (warm.length < 5 || performance.now() - warmStart < args.roundMs / 2) {
      const t0 = performance.now();
      session.run(feeds, fetches);
      warm.push(performance.now() - t0);
    }
    const reps = Math.max(3, Math.min(20000, Math.round(args.roundMs / Math.max(median(warm.slice(-3)), 1e-3))));
    if (peer) {
      await peer.run('torch', c, reps, 4 * args.roundMs);
      await peer.run('numpy', c, reps, 4 * args.roundMs);
    }
    const ours: Side = { ms: [], cpuMs: [], faults: [] };
    const torch: Side = { ms: [], cpuMs: [], faults: [] };
    const numpy: Side = { ms: [], cpuMs: [], faults: [] };
    for (let r = 0; r < args.rounds; r++) {
      const f0 = process.resourceUsage().minorPageFault;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < reps; i++) session.run(feeds, fetches);
      ours.ms.push((performance.now() - t0) / reps);
      const d = process.cpuUsage(c0);
      ours.cpuMs.push((d.user + d.system) / 1000 / reps);
      ours.faults.push((process.resourceUsage().minorPageFault - f0) / reps);
      if (peer) {
        for (const [lib, side] of [
          ['torch', torch],
          ['numpy', numpy],
        ] as const) {
          const x = await peer.run(lib, c, reps, 4 * args.roundMs);
          side.ms.push(x.ms);
          side.cpuMs.push(x.cpuMs);
          side.faults.push(x.faults);
        }
      }
    }
    const flop = 2 * c.m * c.n * c.k;
    // The kernel alone: the profiled runs after the first (its warm-up), at most 200.
    const kernel = (await kernelMs(c, threads, feeds, Math.min(reps * args.rounds, 200) + 1)).slice(1);
    const out: Record<string, unknown> = {
      bench: 'gemm',
      case: c.name,
      group: c.group,
      m: c.m,
      k: c.k,
      n: c.n,
      trans_a: c.ta,
      trans_b: c.tb,
      ort_op: c.ta || c.tb ? 'Gemm' : 'MatMul',
      checked: true,
      per_step: c.perStep,
      threads,
      gflop: round(flop / 1e9, 4),
      reps_per_round: reps,
      rounds: args.rounds,
      ort: summary(ours, flop),
      ort_kernel: kernel.length > 0 ? { ms_median: round(median(kernel)), ms_min: round(Math.min(...kernel)), gflops: round(flop / median(kernel) / 1e6, 3), profiled_runs: kernel.length } : null,
    };
    if (peer) {
      const ratio = (x: Side, y: Side, key: 'ms' | 'cpuMs'): number => round(median(x[key]) / median(y[key]), 3);
      Object.assign(out, {
        torch: summary(torch, flop),
        numpy: summary(numpy, flop),
        ratio_torch: ratio(torch, ours, 'ms'),
        kernel_ratio_torch: kernel.length > 0 ? round(median(torch.ms) / median(kernel), 3) : null,
        cpu_ratio_torch: ratio(torch, ours, 'cpuMs'),
        ratio_numpy: ratio(numpy, ours, 'ms'),
        cpu_ratio_numpy: ratio(numpy, ours, 'cpuMs'),
      });
    }
    out['load_average'] = loadavg().map((v) => round(v, 3));
    return out;
  } finally {
    session.dispose();
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const quickNames = new Set(['floor 1x1x1', 'mlp fc1 forward x·Wt', 'mlp fc1 dW dYt·x', 'resnet20 stage3 dW shifted 64->64 8x8']);
  const cases = CASES.filter((c) => (args.only ? c.group === args.only || c.name.includes(args.only) : !args.quick || quickNames.has(c.name)));
  if (cases.length === 0) throw new Error(`--only: no case matches ${args.only}; groups are mlp, resnet20, square, floor`);
  for (const threads of args.threads) {
    const started = args.peer ? await Peer.start(threads) : null;
    process.stdout.write(`${JSON.stringify({ bench: 'gemm-peer', threads, ...(started ? started.info : { peer: 'unavailable ($PYTHON without torch and numpy, or --no-peer)' }) })}\n`);
    try {
      for (const c of cases) process.stdout.write(`${JSON.stringify(await measure(c, threads, args, started?.peer ?? null))}\n`);
    } finally {
      started?.peer.stop();
    }
  }
}

try {
  await main();
} catch (e) {
  process.stderr.write(`gemm: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(2);
}
