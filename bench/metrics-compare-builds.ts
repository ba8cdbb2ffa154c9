/**
 * Tolerance review of a metrics change: every metric of two builds of calibkit (their `dist` directories,
 * e.g. main's and a branch's) on the same inputs, reporting per metric the largest relative difference
 * |b − a| / max(|a|, 1e−300) and whether every value is bit-identical.
 *
 * Inputs: every class-probability and logit set of the real published predictions in
 * `../shared/data/real-predictions` (README there): the netcal-records and vgg16-cifar10-kumar probabilities and
 * the six solar-flare 2-class forecasts as float32 probabilities; the DenseNet-40 and the four SCTL CIFAR-10-LT
 * val/test logits both as logits and as their float32 softmax probabilities (so that the probability kernel sees
 * real rows); then N × C float32 random softmax rows (the generator of metrics-throughput.ts) under the default
 * '(l,u]' bins and under '[l,u)' with 10 bins. Each case also gives the process CPU seconds of each build's
 * update + compute on it (one run each, interleaved: a rough guide; metrics-throughput.ts is the timing bench).
 *
 * Usage: node dist/bench/metrics-compare-builds.js DIST_A DIST_B [N] [C]
 * (DIST_* = a directory holding src/metrics/index.js, e.g. /work/main/dist; N = 1,000,000, C = 100 by default).
 * Prints one JSON object.
 */
import { existsSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readNpy } from '../src/io/npy.js';
import { overconfidentProbabilities } from './synthetic-probabilities.js';

interface Build {
  CalibrationAccumulator: new (options: Record<string, unknown>) => {
    update(m: { rows: number; cols: number; data: Float32Array | Float64Array }, labels: Int32Array): unknown;
    compute(): Record<string, unknown>;
  };
}

interface Case {
  readonly name: string;
  readonly input: 'probabilities' | 'logits';
  readonly rows: number;
  readonly cols: number;
  readonly data: Float32Array | Float64Array;
  readonly labels: Int32Array;
  readonly options?: Record<string, unknown>;
}

const [distA, distB] = [process.argv[2], process.argv[3]];
if (!distA || !distB) {
  process.stderr.write('usage: node dist/bench/metrics-compare-builds.js DIST_A DIST_B [N] [C]\n');
  process.exit(2);
}
const N = Number(process.argv[4] ?? 1_000_000);
const C = Number(process.argv[5] ?? 100);
const REAL = resolve('../shared/data/real-predictions');

async function load(dist: string): Promise<Build> {
  const path = join(resolve(dist), 'src/metrics/index.js');
  if (!existsSync(path)) throw new Error(`no ${path}`);
  return (await import(pathToFileURL(path).href)) as Build;
}

/** Row-wise float32 softmax of float32 logits (float64 arithmetic, max-shifted). */
function softmax32(logits: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(rows * cols);
  const e = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    let max = -Infinity;
    for (let k = 0; k < cols; k++) max = Math.max(max, logits[i * cols + k]!);
    let s = 0;
    for (let k = 0; k < cols; k++) s += e[k] = Math.exp(logits[i * cols + k]! - max);
    for (let k = 0; k < cols; k++) out[i * cols + k] = e[k]! / s;
  }
  return out;
}

/** The metrics-throughput.ts generator: softmax of 2.5·(2.5·e_y + ε), ε ~ N(0, 1), as float32. */
function randomRows(n: number, c: number, seed: number): { data: Float32Array; labels: Int32Array } {
  const data = new Float32Array(n * c);
  return { data, labels: overconfidentProbabilities(data, n, c, seed) };
}

async function matrix(path: string): Promise<{ rows: number; cols: number; data: Float32Array }> {
  const a = await readNpy(path);
  return { rows: a.shape[0]!, cols: a.shape[1]!, data: a.data as Float32Array };
}

async function labelsOf(path: string): Promise<Int32Array> {
  return (await readNpy(path)).data as Int32Array;
}

async function realCases(): Promise<Case[]> {
  const cases: Case[] = [];
  if (!existsSync(REAL)) return cases;
  const probabilitySets = [...readdirSync(join(REAL, 'netcal-records')).map((d) => `netcal-records/${d}`), 'vgg16-cifar10-kumar'];
  for (const set of probabilitySets) {
    const m = await matrix(join(REAL, set, 'probs.npy'));
    cases.push({ name: set, input: 'probabilities', ...m, labels: await labelsOf(join(REAL, set, 'labels.npy')) });
  }
  const outcomes = await labelsOf(join(REAL, 'solar-flares/outcomes.npy'));
  for (const f of readdirSync(join(REAL, 'solar-flares'))
    .filter((f) => f.endsWith('-probs-2class.npy'))
    .sort()) {
    cases.push({ name: `solar-flares/${f}`, input: 'probabilities', ...(await matrix(join(REAL, 'solar-flares', f))), labels: outcomes });
  }
  const logitSets = ['densenet40-cifar10', ...readdirSync(join(REAL, 'sctl-cifar10-lt')).map((d) => `sctl-cifar10-lt/${d}`)];
  for (const set of logitSets) {
    for (const split of ['val', 'test']) {
      const m = await matrix(join(REAL, set, `${split}-logits.npy`));
      const labels = await labelsOf(join(REAL, set, `${split}-labels.npy`));
      cases.push({ name: `${set}/${split} logits`, input: 'logits', ...m, labels });
      cases.push({ name: `${set}/${split} softmax float32`, input: 'probabilities', ...m, data: softmax32(m.data, m.rows, m.cols), labels });
    }
  }
  return cases;
}

function run(build: Build, c: Case): { metrics: Record<string, unknown>; cpuSeconds: number } {
  const start = process.cpuUsage();
  const acc = new build.CalibrationAccumulator({ input: c.input, ...(c.options ?? {}) });
  acc.update({ rows: c.rows, cols: c.cols, data: c.data }, c.labels);
  const metrics = acc.compute();
  const cpu = process.cpuUsage(start);
  return { metrics, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

async function main(): Promise<void> {
  const [a, b] = [await load(distA!), await load(distB!)];
  const random = randomRows(N, C, 20240601);
  const cases: Case[] = [
    ...(await realCases()),
    { name: `random ${N}x${C} float32`, input: 'probabilities', rows: N, cols: C, ...random },
    { name: `random ${N}x${C} float32, '[l,u)' 10 bins`, input: 'probabilities', rows: N, cols: C, ...random, options: { bins: 10, convention: '[l,u)' } },
  ];
  const perMetric: Record<string, number> = {};
  const perCase: { name: string; rows: number; cols: number; input: string; differing: string[]; cpu_seconds_a: number; cpu_seconds_b: number }[] = [];
  for (const c of cases) {
    const ra = run(a, c);
    const rb = run(b, c);
    const differing: string[] = [];
    for (const [key, va] of Object.entries(ra.metrics)) {
      const vb = rb.metrics[key];
      if (typeof va !== 'number') continue;
      if (!Object.is(va, vb)) differing.push(key);
      const rel = Number.isNaN(va) && Number.isNaN(vb) ? 0 : Math.abs((vb as number) - va) / Math.max(Math.abs(va), 1e-300);
      perMetric[key] = Math.max(perMetric[key] ?? 0, rel);
    }
    perCase.push({ name: c.name, rows: c.rows, cols: c.cols, input: c.input, differing, cpu_seconds_a: ra.cpuSeconds, cpu_seconds_b: rb.cpuSeconds });
  }
  const report = {
    bench: 'metrics-compare-builds',
    a: resolve(distA!),
    b: resolve(distB!),
    cases: perCase.length,
    bit_identical: perCase.every((c) => c.differing.length === 0),
    max_relative_difference_per_metric: perMetric,
    per_case: perCase,
    load_average_1min: loadavg()[0],
  };
  process.stdout.write(JSON.stringify(report, null, 2) + '\n');
}

await main();
