/**
 * Issue #25 item 6: the post-hoc calibrators of 2026 on real published predictions (../shared/data/real-predictions,
 * read in place). Fits temperature, ts-mix, svs, sms, vector, matrix and dirichlet on a fit split and prints, per
 * set and method, test log loss (mean NLL), test ECE (15 equal-width bins) and the fit's CPU seconds
 * (process.cpuUsage, user + system, of this process) as one JSON object on stdout.
 *
 * Sets and splits:
 * - densenet40-cifar10: its own validation (5,000) → test (10,000) split, logits as published.
 * - netcal-records/{densenet-bc-100,lenet-5,wideresnet-16-4}-cifar-100: 10,000 test-set probabilities only, split
 *   50/50 by a seeded shuffle (mulberry32, --seed, default 0) into fit and test halves. The probabilities are
 *   given to every method as logits z = log max(p, 1e-45) (float32's smallest positive value; softmax(z) = p up to
 *   that clamp), so that temperature, vector and matrix scaling act on log-probabilities.
 *
 * SMS on the 100-class sets runs only with --include-sms (it took minutes per fit before the curvature scaling of
 * linear-scaling.ts; bench/posthoc-sms-fit.ts measures one fit).
 * Usage: npm run bench -- posthoc-real-predictions [--only NAME-SUBSTRING] [--include-sms] [--seed S] [--out FILE]
 * --out FILE writes the JSON there (atomically, once every set is done) instead of stdout; the JSON records the
 * command, the start and end dates and the load average. The README table of issue #25 is generated from the files
 * committed under bench/results/posthoc-real-predictions/ (src/cli/docs/posthoc-bench-table.ts).
 * Progress: one JSON line per fitted method on stderr.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { readNpy } from '../src/io/npy.js';
import { evaluate } from '../src/metrics/index.js';
import { fitCalibrator, type CalibratorKind } from '../src/posthoc/index.js';
import type { SolverSummary } from '../src/posthoc/fit-progress.js';
import { atomicWriteFile } from '../src/util/atomic-write.js';
import type { Matrix } from '../src/util/matrix.js';

const ROOT = fileURLToPath(new URL('../../../shared/data/real-predictions/', import.meta.url));
const METHODS: readonly CalibratorKind[] = ['temperature', 'ts-mix', 'svs', 'sms', 'vector', 'matrix', 'dirichlet'];
const argv = process.argv.slice(2);
const valueOf = (flag: string) => {
  const at = argv.indexOf(flag);
  return at >= 0 ? argv[at + 1] : undefined;
};
const only = valueOf('--only') ?? '';
const includeSms = argv.includes('--include-sms');
const out = valueOf('--out');
const started = new Date().toISOString();
const loadAtStart = loadavg().map((v) => Math.round(v * 100) / 100);
const seed = Number(valueOf('--seed') ?? 0);
if (!Number.isInteger(seed) || seed < 0) {
  process.stderr.write(`--seed: expected a non-negative integer, got ${JSON.stringify(valueOf('--seed'))}\n`);
  process.exit(2);
}
if (!existsSync(ROOT)) {
  process.stderr.write(`posthoc-real-predictions: ${ROOT} is absent (the data live beside the repository in ../shared)\n`);
  process.exit(2);
}

interface Split {
  x: Matrix<Float64Array>;
  y: Int32Array;
}
interface RealSet {
  name: string;
  input: string;
  split: string;
  fit: Split;
  test: Split;
}

async function npyMatrix(path: string): Promise<Matrix<Float64Array>> {
  const a = await readNpy(ROOT + path);
  return { rows: a.shape[0]!, cols: a.shape[1]!, data: Float64Array.from(a.data as Float32Array) };
}
async function npyLabels(path: string): Promise<Int32Array> {
  return Int32Array.from((await readNpy(ROOT + path)).data as Int32Array);
}

/** mulberry32: a small seeded generator for the 50/50 split. */
function mulberry32(s: number): () => number {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function take(x: Matrix<Float64Array>, y: Int32Array, rows: readonly number[]): Split {
  const C = x.cols;
  const data = new Float64Array(rows.length * C);
  rows.forEach((r, i) => data.set(x.data.subarray(r * C, (r + 1) * C), i * C));
  return { x: { rows: rows.length, cols: C, data }, y: Int32Array.from(rows, (r) => y[r]!) };
}

async function sets(): Promise<RealSet[]> {
  const out: RealSet[] = [];
  const dn = 'densenet40-cifar10';
  out.push({
    name: dn,
    input: 'logits',
    split: 'published validation (5,000) → test (10,000)',
    fit: { x: await npyMatrix(`${dn}/val-logits.npy`), y: await npyLabels(`${dn}/val-labels.npy`) },
    test: { x: await npyMatrix(`${dn}/test-logits.npy`), y: await npyLabels(`${dn}/test-labels.npy`) },
  });
  for (const model of ['densenet-bc-100', 'lenet-5', 'wideresnet-16-4']) {
    const dir = `netcal-records/${model}-cifar-100`;
    const p = await npyMatrix(`${dir}/probs.npy`);
    const y = await npyLabels(`${dir}/labels.npy`);
    for (let i = 0; i < p.data.length; i++) p.data[i] = Math.log(Math.max(p.data[i]!, 1e-45));
    const order = Array.from({ length: p.rows }, (_, i) => i);
    const random = mulberry32(seed);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const half = Math.floor(p.rows / 2);
    out.push({
      name: `${model}-cifar-100`,
      input: 'log-probabilities (log max(p, 1e-45)) as logits',
      split: `seeded shuffle (mulberry32 seed ${seed}) of the 10,000 test rows: ${half} fit → ${p.rows - half} test`,
      fit: take(p, y, order.slice(0, half)),
      test: take(p, y, order.slice(half)),
    });
  }
  return out.filter((s) => s.name.includes(only));
}

const results: Record<string, unknown>[] = [];
for (const set of await sets()) {
  const raw = evaluate(set.test.x, set.test.y, { input: 'logits' });
  const methods: Record<string, unknown> = {};
  for (const kind of METHODS) {
    if (kind === 'sms' && set.fit.x.cols > 10 && !includeSms) {
      methods[kind] = { skipped: 'SMS at C > 10 runs only with --include-sms' };
      continue;
    }
    try {
      let solver: SolverSummary | undefined;
      const t0 = process.cpuUsage();
      const calibrator = fitCalibrator(kind, { logits: set.fit.x }, set.fit.y, undefined, { onSolved: (s) => (solver = s) });
      const used = process.cpuUsage(t0);
      const m = evaluate(calibrator.apply({ logits: set.test.x }), set.test.y, { input: 'probabilities' });
      methods[kind] = {
        nll: m.nll,
        ece: m.ece,
        accuracy: m.accuracy,
        fit_cpu_s: (used.user + used.system) / 1e6,
        ...(solver && { solver: { iterations: solver.iterations, evaluations: solver.evaluations, reason: solver.reason } }),
      };
    } catch (e) {
      methods[kind] = { error: (e as Error).message.split('\n')[0] };
    }
    process.stderr.write(`${JSON.stringify({ set: set.name, method: kind, ...(methods[kind] as object) })}\n`);
  }
  results.push({ set: set.name, input: set.input, classes: set.fit.x.cols, split: set.split, raw: { nll: raw.nll, ece: raw.ece, accuracy: raw.accuracy }, methods });
}
const report = {
  bench: 'posthoc-real-predictions',
  command: `node dist/bench/posthoc-real-predictions.js ${argv.join(' ')}`.trim(),
  date: `${started} → ${new Date().toISOString()}`,
  node: process.version,
  load_average: { at_start: loadAtStart, at_end: loadavg().map((v) => Math.round(v * 100) / 100) },
  data: '../shared/data/real-predictions/',
  ece_bins: 15,
  include_sms: includeSms,
  seed,
  sets: results,
};
const text = `${JSON.stringify(report, null, 1)}\n`;
if (out === undefined) process.stdout.write(text);
else await atomicWriteFile(out, text);
