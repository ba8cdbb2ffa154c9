/**
 * Where a finished run's finishing (the classification task's `finalise`: validation / test / training logits,
 * model.onnx, summary.json and, with `ood: true`, run-finalise.ts `runOod`) spends its CPU time, and whether a build
 * reproduces the run's files: the run's data splits, model and best checkpoint are loaded (setup, not timed), then
 * `finalise` runs again exactly as at the end of training, writing into --out, with process CPU time (every thread)
 * split into
 *   finalize   before the first OOD set: val / test / train logits, model.onnx, summary metrics, the OOD dataset's load
 *   generate   making the evaluated images: Gaussian noise, the OOD subset, each corruption × severity
 *   infer      the predictor (evaluation step in evalBatch batches, or MC dropout) on every OOD set
 *   metrics    ood.json's metrics (shiftReport) and the files (shift/*.npy, ood.json, summary.json): after the last set
 * and per corruption the CPU of its generation and inference over the severities. With --compare, the files of --out
 * are compared with the run's own: every .npy (run folder and shift/) element by element (max |difference|, exact
 * when 0), model.onnx byte for byte, and the numbers of ood.json and summary.json (max |difference|).
 *
 *   npm run -s bench -- ood-anatomy --run DIR --out DIR [--compare] [--threads T]
 *
 * The run directory is only read (config.json, checkpoint-best.ckpt, shift/, ood.json).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readNpy } from '../src/io/npy.js';
import { runPaths } from '../src/train/artefacts/run-directory.js';
import { runSplits } from '../src/train/run/trainer-data.js';
import { loadDataset, type DatasetName } from '../src/data/load-dataset.js';
import { resolveTrainConfig } from '../src/train/train-config.js';
import { setupRun } from '../src/train/run/run-setup.js';
import { loadRunCheckpoint } from '../src/train/run/run-checkpoint.js';
import type { RunPredictor } from '../src/train/run/run-predictor.js';
import { classificationTask } from '../src/train/tasks/classification-task.js';
import type { TrainProgress } from '../src/train/run/progress.js';

const { values } = parseArgs({ options: { run: { type: 'string' }, out: { type: 'string' }, compare: { type: 'boolean', default: false }, threads: { type: 'string' } } });
if (values.run === undefined || values.out === undefined) throw new Error('give --run DIR (a finished run with ood: true) and --out DIR');
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

const raw = JSON.parse(readFileSync(runPaths(values.run).config, 'utf8')) as Record<string, unknown>;
const config = resolveTrainConfig({ ...raw, out: values.out, ...(values.threads !== undefined ? { threads: Number(values.threads) } : {}) });
const splits = await loadDataset(config.dataset as DatasetName, config.datasetOptions as never);
const data = runSplits(splits, config);
const setup = setupRun(config, data, classificationTask);
const { state: weights, metadata } = await loadRunCheckpoint(runPaths(values.run).bestCheckpoint, setup);
await rm(values.out, { recursive: true, force: true });
await mkdir(values.out, { recursive: true });

let infer = 0;
const perSet: Record<string, { generate: number; infer: number }> = {};
let current = 'setup';
let mark = cpu();
let firstMessage: number | null = null;
let lastInferEnd = 0;
const predictor: RunPredictor = {
  logits(w, inputs) {
    const t = cpu();
    perSet[current]!.generate += t - mark;
    const z = setup.predictor.logits(w, inputs);
    lastInferEnd = cpu();
    const d = lastInferEnd - t;
    infer += d;
    perSet[current]!.infer += d;
    mark = lastInferEnd;
    return z;
  },
  mcDropout: setup.predictor.mcDropout,
  dispose: () => {},
};
const progress: TrainProgress = {
  start: () => {},
  step: () => {},
  epoch: () => {},
  finish: () => {},
  message(text) {
    const m = /^ood: (.*?)(?: severity \d)?$/.exec(text);
    if (m === null) return;
    current = m[1]!.startsWith('OOD dataset') ? 'ood-dataset' : m[1]!.startsWith('in-distribution') ? 'in-distribution' : m[1]!;
    perSet[current] ??= { generate: 0, infer: 0 };
    mark = cpu();
    firstMessage ??= mark;
  },
};
const start = cpu();
let inferBefore = 0;
await classificationTask.finalise({
  config,
  paths: runPaths(values.out),
  model: setup.model,
  predictor: {
    ...predictor,
    logits: (w, x) => {
      if (firstMessage !== null) return predictor.logits(w, x);
      const t = cpu();
      const z = setup.predictor.logits(w, x);
      inferBefore += cpu() - t;
      return z;
    },
  },
  weights,
  data,
  best: metadata.best,
  records: metadata.records,
  progress,
});
const total = cpu() - start;
const end = start + total;
setup.dispose();

const result: Record<string, unknown> = { bench: 'ood-anatomy', run: values.run, threads: config.threads, load: r3(loadavg()[0]!), total_cpu_s: r3(total), infer_cpu_s: r3(infer) };
// Generation of a set = its CPU between its progress message and its inference; what follows the last set is the metrics and files.
const generate = Object.values(perSet).reduce((a, v) => a + v.generate, 0);
result['generate_cpu_s'] = r3(generate);
result['finalize_cpu_s'] = r3((firstMessage ?? start) - start);
result['finalize_infer_cpu_s'] = r3(inferBefore);
result['metrics_and_files_cpu_s'] = r3(end - lastInferEnd);
result['per_set_cpu_s'] = Object.fromEntries(Object.entries(perSet).map(([k, v]) => [k, { generate: r3(v.generate), infer: r3(v.infer) }]));

if (values.compare) {
  let maxDiff = 0;
  let files = 0;
  let differing = 0;
  const npys = [...readdirSync(values.run).filter((f) => f.endsWith('.npy')), ...readdirSync(join(values.run, 'shift')).map((f) => join('shift', f))].sort();
  for (const f of npys) {
    const a = (await readNpy(join(values.run, f))).data as ArrayLike<number>;
    const b = (await readNpy(join(values.out, f))).data as ArrayLike<number>;
    if (a.length !== b.length) throw new Error(`${f}: ${a.length} vs ${b.length} values`);
    let d = 0;
    for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
    files++;
    if (d > 0) differing++;
    maxDiff = Math.max(maxDiff, d);
  }
  const numbers = (v: unknown, out: number[]): number[] => {
    if (typeof v === 'number') out.push(v);
    else if (Array.isArray(v)) v.forEach((x) => numbers(x, out));
    else if (v !== null && typeof v === 'object') Object.values(v).forEach((x) => numbers(x, out));
    return out;
  };
  const jsonDiff = (file: string): { numbers: number; max_abs_diff: number } => {
    const ja = numbers(JSON.parse(readFileSync(join(values.run!, file), 'utf8')), []);
    const jb = numbers(JSON.parse(readFileSync(join(values.out!, file), 'utf8')), []);
    let d = ja.length === jb.length ? 0 : Infinity;
    for (let i = 0; i < Math.min(ja.length, jb.length); i++) d = Math.max(d, Math.abs(ja[i]! - jb[i]!));
    return { numbers: ja.length, max_abs_diff: d };
  };
  const onnxSame = Buffer.compare(readFileSync(join(values.run, 'model.onnx')), readFileSync(join(values.out, 'model.onnx'))) === 0;
  result['compare'] = {
    npy_files: files,
    npy_files_differing: differing,
    npy_max_abs_diff: maxDiff,
    model_onnx_identical: onnxSame,
    ood_json: jsonDiff('ood.json'),
    summary_json: jsonDiff('summary.json'),
  };
}
process.stdout.write(`${JSON.stringify(result)}\n`);
