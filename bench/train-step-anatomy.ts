/**
 * Where a compiled train step's time goes outside the GEMMs (issue 24, "step overhead"): process CPU time per step
 * of the pieces of `TrainStep.run` and of the trainer's batch assembly, at several batch sizes, interleaved round by
 * round with PyTorch doing the same step (bench/torch_train_step.py), and the least-squares line
 * time = a + b·batch through each, whose intercept a is the fixed cost per step.
 *
 * Pieces, each timed on its own (process.cpuUsage around the call; medians over the timed steps):
 *   step        TrainStep.run as the trainer calls it (feeds, session.run, the state update: since round six the
 *               gradient graph plus the fused host SGD update, optim/sgd-host-kernel.ts)
 *   feeds       TrainStep.feeds alone (the feed record, optimizer scalars, dropout masks)
 *   native      the binding's run of the whole step graph with the update inside it, prebuilt ORT tensors (ORT's work
 *               plus the copy of every output into a new JS buffer)
 *   gradient    the same graph without the optimizer update (forward, loss, backward, the flat gradient as output)
 *   forward     the inference forward (EvalStep graph) of the batch
 *   gather      gatherBatch of B random rows of a 60,000-row dataset of the model's input shape into new arrays
 *   gather_reused  the same into a BatchScratch (memory reused from step to step, as the train loop does)
 * and `torch`, PyTorch's whole step (zero_grad, forward, backward, SGD step, loss.item()).
 *
 *   npm run -s bench -- train-step-anatomy [--model mlp|lenet] [--batches 1,16,64,128,256,512] [--steps 30] [--rounds 5] [--threads 1] [--no-torch]
 *
 * Prints one JSON object: per batch size the medians and the means (ms) of every piece, and the fit a + b·batch of
 * the medians. The mean is what a whole run pays: garbage collections (each step's outputs are new ArrayBuffers)
 * and page faults land on some steps only.
 */
import { loadavg } from 'node:os';
import { lowerGraph, nativeSessionOptions } from '../src/engine/runtime/session.js';
import { loadNativeSession, OrtTensor } from '../src/engine/runtime/ort-binding.js';
import { compile, type Feed } from '../src/engine/index.js';
import { BatchScratch, gatherBatch } from '../src/data/batching.js';
import { lenet, type Model, mlp } from '../src/nn/index.js';
import { sgd } from '../src/optim/index.js';
import { compileTrainStep, createTrainState, crossEntropy, EvalStep } from '../src/train/index.js';
import { Random } from '../src/util/random.js';
import { TorchPeer } from './torch-peer.js';

interface Args {
  model: string;
  batches: number[];
  steps: number;
  rounds: number;
  threads: number;
  torch: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const get = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    model: get('model') ?? 'mlp',
    batches: (get('batches') ?? '1,16,64,128,256,512').split(',').map(Number),
    steps: Number(get('steps') ?? 30),
    rounds: Number(get('rounds') ?? 5),
    threads: Number(get('threads') ?? 1),
    torch: !process.argv.includes('--no-torch'),
  };
}

function buildModel(name: string): Model {
  if (name === 'mlp') return mlp();
  if (name === 'lenet') return lenet({ batchNorm: false }); // as torch_train_step.py's LeNet
  throw new Error(`--model: expected mlp or lenet, got ${name}`);
}

function median(v: readonly number[]): number {
  const s = [...v].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/** CPU ms of one call. */
function cpuMs(f: () => unknown): number {
  const c = process.cpuUsage();
  f();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
}

/** Least-squares line y = a + b·x. */
function fit(xs: readonly number[], ys: readonly number[]): { a_ms: number; b_ms_per_row: number } {
  const n = xs.length;
  const mx = xs.reduce((s, v) => s + v, 0) / n;
  const my = ys.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  const b = sxx > 0 ? sxy / sxx : 0;
  return { a_ms: Number((my - b * mx).toFixed(3)), b_ms_per_row: Number(b.toFixed(5)) };
}

/** ORT tensors of `feeds` for a native session (scalars as 1-element float32 tensors). */
function ortFeeds(graph: { inputs: readonly { dtype: string; shape: readonly number[]; source: { kind: string; name?: string } }[] }, feeds: Record<string, Feed>): Record<string, OrtTensor> {
  const out: Record<string, OrtTensor> = {};
  for (const t of graph.inputs) {
    const name = (t.source as { name: string }).name;
    const v = feeds[name]!;
    const data = typeof v === 'number' ? Float32Array.of(v) : v;
    out[name] = new OrtTensor(t.dtype as 'float32', data as Float32Array, t.shape as number[]);
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const model = buildModel(args.model);
  const optimizer = sgd({ momentum: 0.9, weightDecay: 5e-4 });
  const rng = new Random(1);
  const per = model.input.shape.reduce((a, b) => a * b, 1);
  const rows = 60000;
  const dataset = {
    kind: 'image' as const,
    name: 'synthetic',
    images: Float32Array.from({ length: rows * per }, () => rng.uniform()),
    labels: Int32Array.from({ length: rows }, () => rng.int(model.numClasses)),
    shape: [1, 28, 28] as [number, number, number],
    classes: model.numClasses,
  };
  const pieces = ['step', 'feeds', 'native', 'gradient', 'forward', 'gather', 'gather_reused', 'torch'] as const;
  const perBatch: Record<string, Record<string, number>> = {};
  const meanBatch: Record<string, Record<string, number>> = {};
  for (const b of args.batches) {
    const batch = { x: Float32Array.from({ length: b * per }, () => rng.normal()), y: Int32Array.from({ length: b }, () => rng.int(model.numClasses)) };
    const step = compileTrainStep(model, crossEntropy, optimizer, { batch: b, threads: args.threads });
    const state = createTrainState(model, optimizer, 0);
    const lowered = lowerGraph(step.graph(b));
    const native = loadNativeSession(lowered.bytes, nativeSessionOptions(args.threads));
    const fetches = Object.fromEntries(native.outputNames.map((n) => [n, null]));
    const nativeFeeds = ortFeeds(step.graph(b), step.feeds(state.clone(), batch, 0.01));
    const gradient = compile(step.compiled(b, 'gradient').graph, { threads: args.threads });
    const gradientFeeds: Record<string, Feed> = { x: batch.x, y: batch.y, params: state.params };
    const evalStep = new EvalStep(model, { threads: args.threads });
    const order = new Random(7).permutation(rows);
    const scratch = new BatchScratch();
    const peer = args.torch ? await TorchPeer.start(args.model, b, args.threads) : null;
    const times: Record<string, number[]> = Object.fromEntries(pieces.map((p) => [p, []]));
    const perRound = Math.max(1, Math.ceil(args.steps / args.rounds));
    let position = 0;
    for (let r = 0; r <= args.rounds; r++) {
      const round: Record<string, number[]> = Object.fromEntries(pieces.map((p) => [p, []]));
      for (let i = 0; i < perRound; i++) round['step']!.push(cpuMs(() => step.run(state, batch, 0.01)));
      for (let i = 0; i < perRound; i++) round['feeds']!.push(cpuMs(() => step.feeds(state, batch, 0.01)));
      for (let i = 0; i < perRound; i++) round['native']!.push(cpuMs(() => native.run(nativeFeeds, fetches)));
      for (let i = 0; i < perRound; i++) round['gradient']!.push(cpuMs(() => gradient.run(gradientFeeds)));
      for (let i = 0; i < perRound; i++) round['forward']!.push(cpuMs(() => evalStep.run(state, batch.x)));
      for (let i = 0; i < perRound; i++) {
        const indices = order.subarray(position, position + b);
        position = (position + b) % (rows - b);
        round['gather']!.push(cpuMs(() => gatherBatch(dataset, { epoch: 0, batch: 0, indices })));
      }
      for (let i = 0; i < perRound; i++) {
        const indices = order.subarray(position, position + b);
        position = (position + b) % (rows - b);
        round['gather_reused']!.push(cpuMs(() => gatherBatch(dataset, { epoch: 0, batch: 0, indices }, scratch)));
      }
      if (peer) round['torch'] = (await peer.peer.run(perRound)).cpuMs;
      if (r > 0) for (const p of pieces) times[p]!.push(...round[p]!);
    }
    peer?.peer.stop();
    perBatch[String(b)] = Object.fromEntries(pieces.filter((p) => times[p]!.length > 0).map((p) => [p, Number(median(times[p]!).toFixed(3))]));
    meanBatch[String(b)] = Object.fromEntries(pieces.filter((p) => times[p]!.length > 0).map((p) => [p, Number((times[p]!.reduce((a, v) => a + v, 0) / times[p]!.length).toFixed(3))]));
    step.dispose();
    native.dispose();
    gradient.dispose();
    evalStep.dispose();
  }
  const batches = args.batches;
  const fits = Object.fromEntries(
    pieces
      .filter((p) => batches.every((b) => perBatch[String(b)]![p] !== undefined))
      .map((p) => [
        p,
        fit(
          batches,
          batches.map((b) => perBatch[String(b)]![p]!),
        ),
      ]),
  );
  const result = {
    model: args.model,
    threads: args.threads,
    steps_per_batch_size: args.steps,
    rounds: args.rounds,
    cpu_ms_median: perBatch,
    cpu_ms_mean: meanBatch,
    fit_cpu_ms: fits,
    load_average: loadavg().map((v) => Number(v.toFixed(2))),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
