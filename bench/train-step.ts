/**
 * Train-step benchmark: one compiled step (forward + cross-entropy + backward + SGD momentum 0.9, weight decay
 * 5e-4) of an MLP 784-512-512-10 or a CIFAR ResNet-20/32/56 at a given batch size, against PyTorch doing the
 * same step (same architecture, init scheme, optimizer, batch; torch.set_num_threads = --threads) measured in
 * the same run, interleaved round by round (bench/torch_train_step.py as a persistent peer process).
 * Prints ONE JSON object: model, batch, ms_per_step (median of the timed steps after warm-up), ms_min,
 * samples_per_s, compile_ms (trace + ONNX + session) with its parts, and — when /usr/bin/python3 has torch —
 * torch_ms_per_step, torch_ms_min and ratio = torch_ms_per_step / ms_per_step (> 1: we are faster).
 * --replicas R splits each batch over R data-parallel replicas on worker threads (train/steps/replicated-step.ts).
 * --no-nchwc keeps every convolution on ORT's portable Conv (A/B against the NCHWc kernels, the default).
 * Each side also reports its process CPU time per step (cpu_ms_per_step, torch_cpu_ms_per_step, cpu_ratio). On a
 * machine shared with other work, wall times stretch with the load while CPU time does not: with --threads 1
 * (no thread pool spinning on either side) cpu_ratio is a load-robust proxy of the single-thread speed ratio.
 * With --profile, ORT's own profiler times one more batch of steps and the JSON gets the time per ONNX op type
 * (wall time of each kernel: under load it over-weights some kernels, e.g. ReLU-mask Casts and NCHWc reorders,
 * against a CPU-time sample — see the issue-24 notebook in src/engine/README.md), and the count of each op type
 * in ORT's optimised model (`optimizedModelFilePath`, after ORT's own rewrites such as its NCHWc transformer);
 * by_family sums the kernels by op family (bench/op-families.ts: forward conv, dX conv, dW im2col / copies / GEMM, BN, ReLU
 * backward, reorders, transposes…) and by_family_node_min the same over each node's fastest profiled run (the
 * table to quote under load: a node's minimum leaves out the time the process spent descheduled); total_kernel_ms (the kernels' sum) and model_run_ms (ORT's whole run per step) beside ms_per_step give the step's
 * cost outside the kernels (bench/device-round6.sh, section 3).
 *
 *   npm run -s bench -- train-step --model mlp|lenet|resnet20|resnet32|resnet56|fmnist-resnet20 [--batch 128] [--steps N] [--rounds R]
 *                                  [--threads 2] [--replicas R] [--packing flat|tensors] [--no-torch] [--no-nchwc] [--profile] [--json]
 * --steps: timed steps per implementation (default 200 MLP, 12 ResNet), split into --rounds (default 4) rounds
 * that alternate between us and PyTorch, after one warm-up round of the same length. The JSON is always printed
 * (--json is accepted for symmetry); `npm run -s` keeps npm's banner out of stdout.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { type Feed, type Graph, lowerToOnnx } from '../src/engine/index.js';
import { encodeModel } from '../src/engine/onnx/onnx-model.js';
import { decodeOnnx } from '../src/deploy/onnx-file.js';
import { nchwcBlockSize } from '../src/engine/runtime/nchwc.js';
import { cifarResNet, lenet, type Model, mlp, parameterCount } from '../src/nn/index.js';
import { sgd } from '../src/optim/index.js';
import { compileTrainStep, createTrainState, crossEntropy, EvalStep } from '../src/train/index.js';
import { Random } from '../src/util/random.js';
import { TorchPeer } from './torch-peer.js';
import { opFamilies } from './op-families.js';

interface Args {
  model: string;
  batch: number;
  steps: number;
  rounds: number;
  threads: number;
  replicas: number;
  packing: 'flat' | 'tensors';
  torch: boolean;
  profile: boolean;
  nchwc: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const get = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const model = get('model') ?? 'mlp';
  const isMlp = model === 'mlp';
  return {
    model,
    batch: Number(get('batch') ?? 128),
    steps: Number(get('steps') ?? (isMlp || model === 'lenet' ? 200 : 12)),
    rounds: Number(get('rounds') ?? 4),
    threads: Number(get('threads') ?? 2),
    replicas: Number(get('replicas') ?? 1),
    packing: (get('packing') ?? 'flat') as 'flat' | 'tensors',
    torch: !argv.includes('--no-torch'),
    profile: argv.includes('--profile'),
    nchwc: !argv.includes('--no-nchwc'),
  };
}

function buildModel(name: string): Model {
  if (name === 'mlp') return mlp();
  if (name === 'lenet') return lenet({ batchNorm: false }); // as torch_train_step.py's LeNet (calib's default has batch norm)
  const m = /^resnet(\d+)$/.exec(name);
  if (m) return cifarResNet({ depth: Number(m[1]) });
  const f = /^fmnist-resnet(\d+)$/.exec(name);
  if (f) return cifarResNet({ depth: Number(f[1]), inputShape: [1, 28, 28] });
  throw new Error(`--model: expected mlp, lenet, resnet20/32/56 (CIFAR 3×32×32) or fmnist-resnet20 (1×28×28), got ${name}`);
}

function median(v: readonly number[]): number {
  const s = [...v].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/** Classifies a lowered node for the profile: Conv nodes with group > 1 or a 3-D kernel are the weight-gradient im2col. */
function nodeRoles(graph: Graph, nchwcBlock: number): Map<string, string> {
  const roles = new Map<string, string>();
  lowerToOnnx(graph, { nchwcBlock }).nodes.forEach((n, k) => {
    let role = n.opType;
    if (n.domain === 'com.microsoft.nchwc') role = `nchwc.${n.opType}`;
    else if (n.opType === 'Conv') {
      const g = n.attrs['group'];
      const ks = n.attrs['kernel_shape'];
      if (ks && ks.type === 'ints' && ks.value.length === 3) role = 'Conv (dW im2col, 3-D one-hot CNHW)';
      else role = g && g.type === 'int' && g.value > 1 ? 'Conv (dW im2col, grouped one-hot)' : 'Conv (forward and dX)';
    }
    roles.set(`n${k}_${n.opType}`, role);
  });
  return roles;
}

/** Sum by family of each node's minimum kernel time over the profiled runs (ms; `total` first). */
function familyMinima(nodeMin: ReadonlyMap<string, number>, families: ReadonlyMap<string, string>): Record<string, number> {
  const sums: Record<string, number> = {};
  let total = 0;
  for (const [node, ms] of nodeMin) {
    const family = families.get(node) ?? 'unclassified';
    sums[family] = (sums[family] ?? 0) + ms;
    total += ms;
  }
  const sorted = Object.entries(sums).sort((a, b) => b[1] - a[1]);
  return { total: Number(total.toFixed(2)), ...Object.fromEntries(sorted.map(([k, v]) => [k, Number(v.toFixed(2))])) };
}

/** Count of each op type (`domain.OpType` outside the default domain) among the nodes of an ONNX model. */
function opTypeCounts(model: Uint8Array): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const node of decodeOnnx(model, 'optimized model').graph?.node ?? []) {
    const key = node.domain ? `${node.domain}.${node.opType ?? ''}` : (node.opType ?? '');
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1]));
}

/**
 * ORT's profiler over `steps` runs of a graph: ms per step by op type (Conv split by role), and the op types of
 * the model as ORT optimised it (`ort_optimized_ops`).
 */
async function profile(graph: Graph, feeds: Record<string, Feed>, steps: number, threads: number, nchwc: boolean): Promise<Record<string, unknown>> {
  const nchwcBlock = nchwc ? nchwcBlockSize() : 0;
  const dir = mkdtempSync(join(tmpdir(), 'calibkit-prof-'));
  try {
    const optimized = join(dir, 'optimized.onnx');
    const session = await ort.InferenceSession.create(encodeModel(lowerToOnnx(graph, { nchwcBlock })), {
      enableProfiling: true,
      profileFilePrefix: join(dir, 'p'),
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      optimizedModelFilePath: optimized,
      logSeverityLevel: 3,
    });
    const optimizedOps = opTypeCounts(readFileSync(optimized));
    const ortFeeds: Record<string, ort.Tensor> = {};
    for (const t of graph.inputs) {
      if (t.source.kind !== 'input') continue;
      const v = feeds[t.source.name]!;
      const data = typeof v === 'number' ? Float32Array.of(v) : v;
      ortFeeds[t.source.name] = new ort.Tensor(t.dtype as 'float32', data as Float32Array, t.shape as number[]);
    }
    for (let i = 0; i < steps; i++) await session.run(ortFeeds);
    session.endProfiling();
    await session.release();
    const file = readdirSync(dir).find((f) => f.endsWith('.json'));
    if (!file) return { ort_optimized_ops: optimizedOps };
    const events = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { cat: string; name: string; dur: number; args?: { op_name?: string } }[];
    const roles = nodeRoles(graph, nchwcBlock);
    const families = opFamilies(lowerToOnnx(graph, { nchwcBlock }).nodes);
    const byOp: Record<string, number> = {};
    const byFamily: Record<string, number> = {};
    const nodeMin = new Map<string, number>(); // each node's fastest run: robust to descheduling under load
    let total = 0;
    // ORT's own time per session.run (its 'model_run' event: executor, allocations and kernels, without the binding
    // and the feeds and fetches on the JavaScript side).
    const modelRunMs = events.filter((e) => e.cat === 'Session' && e.name === 'model_run').reduce((a, e) => a + e.dur / 1000, 0) / steps;
    for (const e of events) {
      if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time') || !e.args?.op_name) continue;
      const key = roles.get(e.name.slice(0, -'_kernel_time'.length)) ?? e.args.op_name;
      byOp[key] = (byOp[key] ?? 0) + e.dur / 1000 / steps;
      const node = e.name.slice(0, -'_kernel_time'.length);
      const family = families.get(node) ?? 'unclassified';
      byFamily[family] = (byFamily[family] ?? 0) + e.dur / 1000 / steps;
      nodeMin.set(node, Math.min(nodeMin.get(node) ?? Infinity, e.dur / 1000));
      total += e.dur / 1000 / steps;
    }
    const sorted = Object.entries(byOp)
      .sort((a, b) => b[1] - a[1])
      .filter(([, v]) => v >= 0.05);
    return {
      total_kernel_ms: Number(total.toFixed(2)),
      model_run_ms: Number(modelRunMs.toFixed(2)),
      ...Object.fromEntries(sorted.map(([k, v]) => [k, Number(v.toFixed(2))])),
      by_family_node_min: familyMinima(nodeMin, families),
      by_family: Object.fromEntries(
        Object.entries(byFamily)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => [k, Number(v.toFixed(2))]),
      ),
      ort_optimized_ops: optimizedOps,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const model = buildModel(args.model);
  const optimizer = sgd({ momentum: 0.9, weightDecay: 5e-4 });
  const rng = new Random(1);
  const per = model.input.shape.reduce((a, b) => a * b, 1);
  const batch = { x: Float32Array.from({ length: args.batch * per }, () => rng.normal()), y: Int32Array.from({ length: args.batch }, () => rng.int(model.numClasses)) };

  const t0 = performance.now();
  const step = compileTrainStep(model, crossEntropy, optimizer, { batch: args.batch, packing: args.packing, threads: args.threads, nchwc: args.nchwc, replicas: args.replicas });
  const state = createTrainState(model, optimizer, 0);
  if (args.replicas > 1) step.run(createTrainState(model, optimizer, 0), batch, 0.01); // the shards' sessions load on first use
  const compileMs = performance.now() - t0;
  const stats = step.compileStats()[args.replicas > 1 || step.updatesOnHost ? `gradient:${Math.ceil(args.batch / args.replicas)}` : String(args.batch)]!; // the gradient graph with replicas or a host update

  const peer = args.torch ? await TorchPeer.start(args.model, args.batch, args.threads) : null;
  const ours: number[] = [];
  const theirs: number[] = [];
  const oursCpu: number[] = [];
  const theirsCpu: number[] = [];
  let lastLoss = NaN;
  let minorFaults = 0; // minor page faults of our timed steps (first-touch memory: ≈ 20 µs a page on the project's VM)
  // --steps timed steps each, in --rounds rounds alternating ours / PyTorch; round 0 (same length) is warm-up.
  const perRound = Math.max(1, Math.ceil(args.steps / args.rounds));
  for (let r = 0; r <= args.rounds; r++) {
    const mine: number[] = [];
    const mineCpu: number[] = [];
    const faultsBefore = process.resourceUsage().minorPageFault;
    for (let i = 0; i < perRound; i++) {
      const c = process.cpuUsage();
      const s = performance.now();
      lastLoss = step.run(state, batch, 0.01).loss;
      mine.push(performance.now() - s);
      const d = process.cpuUsage(c);
      mineCpu.push((d.user + d.system) / 1000);
    }
    const faults = process.resourceUsage().minorPageFault - faultsBefore;
    const other = peer ? await peer.peer.run(perRound) : { ms: [], cpuMs: [] };
    if (r > 0) {
      minorFaults += faults;
      ours.push(...mine);
      theirs.push(...other.ms);
      oursCpu.push(...mineCpu);
      theirsCpu.push(...other.cpuMs);
    }
  }
  peer?.peer.stop();
  const msPerStep = median(ours);
  const result: Record<string, unknown> = {
    model: args.model,
    parameters: parameterCount(model),
    batch: args.batch,
    threads: args.threads,
    replicas: args.replicas,
    packing: args.packing,
    timed_steps: ours.length,
    ms_per_step: Number(msPerStep.toFixed(3)),
    ms_min: Number(Math.min(...ours).toFixed(3)),
    cpu_ms_per_step: Number(median(oursCpu).toFixed(3)),
    minor_faults_per_step: Number((minorFaults / ours.length).toFixed(1)),
    samples_per_s: Number(((1000 * args.batch) / msPerStep).toFixed(1)),
    compile_ms: Number(compileMs.toFixed(1)),
    trace_ms: Number(stats.traceMs.toFixed(1)),
    session_ms: Number(stats.sessionMs.toFixed(1)),
    graph_nodes: stats.nodes,
    update_on_host: step.updatesOnHost, // SGD momentum + weight decay: the update runs after session.run (optim/sgd-host-kernel.ts)
    final_loss: lastLoss,
  };
  if (peer) {
    const torchMs = median(theirs);
    Object.assign(result, {
      torch_version: peer.info.torch,
      torch_parameters: peer.info.params,
      torch_ms_per_step: Number(torchMs.toFixed(3)),
      torch_ms_min: Number(Math.min(...theirs).toFixed(3)),
      ratio: Number((torchMs / msPerStep).toFixed(3)),
      ratio_min: Number((Math.min(...theirs) / Math.min(...ours)).toFixed(3)),
      torch_cpu_ms_per_step: Number(median(theirsCpu).toFixed(3)),
      cpu_ratio: Number((median(theirsCpu) / median(oursCpu)).toFixed(3)),
    });
  } else result['torch'] = 'unavailable (/usr/bin/python3 without torch, or --no-torch)';
  if (args.profile) {
    const n = Math.max(3, Math.min(perRound, 10));
    // The graph the step runs: the gradient-only graph when the optimizer updates on the host (then outside ORT).
    const profiled = step.updatesOnHost ? step.compiled(args.batch, 'gradient').graph : step.graph(args.batch);
    result['profile_train_step_ms_by_op'] = await profile(profiled, step.feeds(state, batch, 0.01), n, args.threads, args.nchwc);
    const evalStep = new EvalStep(model);
    result['profile_forward_only_ms_by_op'] = await profile(
      evalStep.graph(args.batch),
      { x: batch.x, params: state.params, ...(state.buffers.length ? { buffers: state.buffers } : {}) },
      n,
      args.threads,
      args.nchwc,
    );
  }
  result['load_average'] = loadavg().map((v) => Number(v.toFixed(2)));
  step.dispose();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
