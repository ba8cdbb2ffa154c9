/**
 * In-process A/B of two builds of the engine on one train (or eval) step: this process imports the model, optimizer
 * and trainer modules from two compiled `dist` directories (a copy of the base build made before a change, and the
 * candidate), compiles the same step from each (same model, initialisation, batch), and alternates the two step by
 * step (ABBA order), timing each step by process CPU time (`process.cpuUsage`, one thread). On a machine shared with
 * other work this resolves differences of a few percent that separate processes (train-step's cpu_ratio moves ±20 %
 * between processes at load 20) do not: both builds see the same load at the same moments. It is how the issue-24
 * rounds decided what to keep (src/engine/README.md, engine notebook).
 *
 *   cp -r dist /tmp/base-dist            # before the change (and ln -s "$PWD/node_modules" /tmp/node_modules)
 *   npm run build                        # the candidate
 *   npm run -s bench -- engine-step-ab --base /tmp/base-dist --candidate dist [--model fmnist-resnet8]
 *                                      [--mode train|eval] [--batch 128] [--steps 30]
 *
 * Models: fmnist-resnet8 (the deep-scale architecture), fmnist-resnet20, resnet20 (CIFAR 3×32×32), lenet (no batch
 * norm), mlp. Eval mode times the inference graph (EvalStep) after three train steps (non-trivial running
 * statistics). Prints one JSON object: CPU ms median, minimum and first quartile of each build, the median over
 * step pairs of candidate ÷ base (`paired`, < 1: the candidate is faster), the graph node counts, the load
 * average, and how far the two builds' outputs are apart (train: the last loss of each; eval: the largest
 * absolute logit difference) — a numerics check beside the timing.
 */
import { loadavg } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    candidate: { type: 'string' },
    model: { type: 'string', default: 'fmnist-resnet8' },
    mode: { type: 'string', default: 'train' },
    batch: { type: 'string', default: '128' },
    steps: { type: 'string', default: '30' },
  },
});

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(2);
}

if (!values.base || !values.candidate) fail('--base DIR and --candidate DIR (compiled dist directories) are required');
if (values.mode !== 'train' && values.mode !== 'eval') fail(`--mode: expected train or eval, got ${values.mode}`);
const batch = Number(values.batch);
const steps = Number(values.steps);
if (!Number.isInteger(batch) || batch < 1) fail(`--batch: expected a positive integer, got ${values.batch}`);
if (!Number.isInteger(steps) || steps < 2) fail(`--steps: expected an integer ≥ 2, got ${values.steps}`);

/** One build's step: run() does one step and returns what the numerics check compares. */
interface Build {
  readonly run: () => Float32Array | number;
  readonly nodes: number;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- modules of another build are loaded dynamically */
async function load(dist: string): Promise<Build> {
  const root = isAbsolute(dist) ? dist : resolve(dist);
  const imp = (path: string): Promise<any> => import(pathToFileURL(`${root}/src/${path}`).href);
  const [nn, optim, train, util] = await Promise.all([imp('nn/index.js'), imp('optim/index.js'), imp('train/index.js'), imp('util/random.js')]);
  const name = values.model!;
  const depth = /^(?:fmnist-)?resnet(\d+)$/.exec(name);
  const model =
    name === 'mlp'
      ? nn.mlp()
      : name === 'lenet'
        ? nn.lenet({ batchNorm: false })
        : depth && name.startsWith('fmnist-')
          ? nn.cifarResNet({ depth: Number(depth[1]), inputShape: [1, 28, 28] })
          : depth
            ? nn.cifarResNet({ depth: Number(depth[1]) })
            : fail(`--model: expected fmnist-resnet8, fmnist-resnet20, resnet20, lenet or mlp, got ${name}`);
  const optimizer = optim.sgd({ momentum: 0.9, weightDecay: 5e-4 });
  const rng = new util.Random(1);
  const per = (model.input.shape as number[]).reduce((a, b) => a * b, 1);
  const data = { x: Float32Array.from({ length: batch * per }, () => rng.normal()), y: Int32Array.from({ length: batch }, () => rng.int(model.numClasses)) };
  const step = train.compileTrainStep(model, train.crossEntropy, optimizer, { batch, threads: 1 });
  const state = train.createTrainState(model, optimizer, 0);
  const stats = step.compileStats();
  const nodes = (stats[String(batch)] ?? stats[`gradient:${batch}`]).nodes as number; // the gradient graph when the update runs on the host
  if (values.mode === 'train') return { run: () => step.run(state, data, 0.01).loss as number, nodes };
  for (let i = 0; i < 3; i++) step.run(state, data, 0.01);
  const evalStep = new train.EvalStep(model, { threads: 1 });
  return { run: () => evalStep.run(state, data.x).logits as Float32Array, nodes: evalStep.graph(batch).nodes.length as number };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const quartile = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(0.25 * (xs.length - 1))]!;
const round = (v: number): number => Number(v.toFixed(2));

const base = await load(values.base);
const candidate = await load(values.candidate);
let outBase = base.run(),
  outCandidate = candidate.run();
const cpuMs = (build: Build): number => {
  const c = process.cpuUsage();
  const out = build.run();
  const d = process.cpuUsage(c);
  if (build === base) outBase = out;
  else outCandidate = out;
  return (d.user + d.system) / 1000;
};
const a: number[] = [],
  b: number[] = [];
for (let i = 0; i < steps; i++) {
  if (i % 2) {
    a.push(cpuMs(base));
    b.push(cpuMs(candidate));
  } else {
    b.push(cpuMs(candidate));
    a.push(cpuMs(base));
  }
}
let difference: number;
if (typeof outBase === 'number' || typeof outCandidate === 'number') difference = Math.abs(Number(outBase) - Number(outCandidate));
else {
  difference = 0;
  for (let i = 0; i < outBase.length; i++) difference = Math.max(difference, Math.abs(outBase[i]! - outCandidate[i]!));
}
process.stdout.write(
  `${JSON.stringify({
    bench: 'engine-step-ab',
    model: values.model,
    mode: values.mode,
    batch,
    steps,
    base: values.base,
    candidate: values.candidate,
    base_nodes: base.nodes,
    candidate_nodes: candidate.nodes,
    base_cpu_ms_median: round(median(a)),
    candidate_cpu_ms_median: round(median(b)),
    base_cpu_ms_min: round(Math.min(...a)),
    candidate_cpu_ms_min: round(Math.min(...b)),
    base_cpu_ms_q25: round(quartile(a)),
    candidate_cpu_ms_q25: round(quartile(b)),
    paired: Number(median(a.map((v, i) => b[i]! / v)).toFixed(3)),
    [values.mode === 'train' ? 'last_loss_abs_difference' : 'logits_max_abs_difference']: difference,
    load_average: loadavg().map((v) => Number(v.toFixed(1))),
  })}\n`,
);
