/**
 * Throughput of the metrics layer: N × C float32 probabilities (default 1,000,000 × 100), every top-label metric
 * plus classwise and marginal (equal-width) ECE from one `CalibrationAccumulator` pass + compute, against the
 * vectorized NumPy peer bench/metrics_numpy.py on the same data (run with /usr/bin/python3 when present).
 * Ours is timed single-threaded (one accumulator) and with `accumulateParallel` at THREADS = 2 threads (the
 * calling thread + one worker over the same shared memory, states merged in block order). The probabilities are
 * generated straight into shared memory (`sharedFloat32Array`), so the parallel run makes no copy; the cost of
 * that copy for callers with ordinary arrays (`toShared`) is measured separately on a 100,000-row slice.
 * Prints one JSON object: seconds per repeat for all three, the speed ratios (NumPy / ours, single-thread and
 * 2 threads, median and best), the largest metric difference vs NumPy and between our two runs, and the peak
 * RSS of this process. NumPy (the peer) is single-threaded: see the `note` field.
 *
 * Repeats are interleaved (ours ×1 thread, ours ×2 threads, then NumPy in a fresh process) so all see the same
 * machine load.
 *
 * `per_metric_seconds` times each top-label metric function alone on the same N top-label samples (confidence,
 * correctness; median of the repeats), next to today's equal-width ECE and the KS error from the same arrays:
 * the new metrics of issue 12 (smooth ECE with its bandwidth search, AURC/E-AURC/AUGRC, FPR95, MMCE, the
 * calibration tests, CORP, the quantile calibration curve). Their sum is part of `ours.seconds` (compute()).
 *
 * `read_once_seconds` is the memory-bandwidth floor: one single-threaded pass that only reads every probability.
 *
 * Usage: node dist/bench/metrics-throughput.js [N] [C] [repeats]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  accumulateParallel,
  calibrationCurve,
  CalibrationAccumulator,
  corpDecomposition,
  cumulativeCalibrationTests,
  errorFprAtTpr,
  expectedCalibrationError,
  ksError,
  mmce,
  selectivePredictionMetrics,
  smoothEce,
  spiegelhalterTest,
  sharedFloat32Array,
  toShared,
  type CalibrationMetrics,
} from '../src/metrics/index.js';
import { writeNpy } from '../src/io/npy.js';
import { overconfidentProbabilities } from './synthetic-probabilities.js';

const N = Number(process.argv[2] ?? 1_000_000);
const C = Number(process.argv[3] ?? 100);
const REPEATS = Number(process.argv[4] ?? 3);
const BINS = 15;
const THREADS = 2;

/** The benches' overconfident classifier (synthetic-probabilities.ts), in a shared float32 array for the workers. */
function generate(n: number, c: number, seed: number): { probs: Float32Array; labels: Int32Array } {
  const probs = sharedFloat32Array(n * c);
  return { probs, labels: overconfidentProbabilities(probs, n, c, seed) };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const h = Math.floor(s.length / 2);
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

interface NumpyRun {
  available: boolean;
  reason?: string;
  seconds: number[];
  cpuSeconds: number[];
  version?: string;
  metrics?: Record<string, number>;
}

/** One timed NumPy repeat in a fresh /usr/bin/python3 process (the file read is not timed). */
function runNumpy(script: string, dir: string): { seconds: number; cpuSeconds: number; version: string; metrics: Record<string, number> } | string {
  const run = spawnSync('/usr/bin/python3', [script, join(dir, 'probs.npy'), join(dir, 'labels.npy'), String(BINS), '1'], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (run.status !== 0) return (run.stderr || run.error?.message || 'failed').trim().split('\n').slice(-3).join(' ');
  const parsed = JSON.parse(run.stdout) as { numpy: string; seconds: number[]; cpu_seconds: number[]; metrics: Record<string, number> };
  return { seconds: parsed.seconds[0]!, cpuSeconds: parsed.cpu_seconds[0]!, version: parsed.numpy, metrics: parsed.metrics };
}

/** The fastest of three single-threaded passes that read every value once (a running sum): the bandwidth floor. */
function readOnce(values: Float32Array): number {
  let best = Infinity;
  let sink = 0;
  for (let r = 0; r < 3; r++) {
    const start = performance.now();
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    const n = values.length - (values.length % 4);
    for (let i = 0; i < n; i += 4) {
      s0 += values[i]!;
      s1 += values[i + 1]!;
      s2 += values[i + 2]!;
      s3 += values[i + 3]!;
    }
    for (let i = n; i < values.length; i++) s0 += values[i]!;
    best = Math.min(best, (performance.now() - start) / 1000);
    sink += s0 + s1 + s2 + s3;
  }
  if (!Number.isFinite(sink)) throw new Error('unreachable: the probabilities are finite');
  return best;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const { probs, labels } = generate(N, C, 20240601);
  const generateSeconds = (performance.now() - t0) / 1000;
  const readOnceSeconds = readOnce(probs);

  const here = fileURLToPath(new URL('.', import.meta.url));
  const script = [join(here, 'metrics_numpy.py'), join(here, '../../bench/metrics_numpy.py')].find((p) => existsSync(p));
  const numpy: NumpyRun = { available: existsSync('/usr/bin/python3') && script !== undefined, seconds: [], cpuSeconds: [] };
  if (!numpy.available) numpy.reason = 'no /usr/bin/python3 or bench/metrics_numpy.py';
  const dir = mkdtempSync(join(tmpdir(), 'calibkit-metrics-bench-'));
  const seconds: number[] = [];
  const cpuSeconds: number[] = [];
  const updateSeconds: number[] = [];
  const parallelSeconds: number[] = [];
  const parallelCpuSeconds: number[] = [];
  const parallelUpdateSeconds: number[] = [];
  let result: CalibrationMetrics | null = null;
  let parallelResult: CalibrationMetrics | null = null;
  try {
    if (numpy.available) {
      await writeNpy(join(dir, 'probs.npy'), probs, [N, C]);
      await writeNpy(join(dir, 'labels.npy'), labels, [N]);
    }
    // Interleaved repeats (ours, then NumPy) so that both see the same machine load.
    for (let r = 0; r < REPEATS; r++) {
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      const acc = new CalibrationAccumulator({ input: 'probabilities', bins: BINS });
      acc.update({ rows: N, cols: C, data: probs }, labels);
      const updated = performance.now();
      result = acc.compute();
      const done = performance.now();
      const cpu = process.cpuUsage(cpuStart);
      seconds.push((done - start) / 1000);
      cpuSeconds.push((cpu.user + cpu.system) / 1e6);
      updateSeconds.push((updated - start) / 1000);
      {
        const cpuStart2 = process.cpuUsage();
        const start2 = performance.now();
        const merged = await accumulateParallel({ rows: N, cols: C, data: probs }, labels, { input: 'probabilities', bins: BINS, threads: THREADS });
        const updated2 = performance.now();
        parallelResult = merged.compute();
        const done2 = performance.now();
        const cpu2 = process.cpuUsage(cpuStart2); // all threads of this process
        parallelSeconds.push((done2 - start2) / 1000);
        parallelCpuSeconds.push((cpu2.user + cpu2.system) / 1e6);
        parallelUpdateSeconds.push((updated2 - start2) / 1000);
      }
      if (numpy.available) {
        const run = runNumpy(script!, dir);
        if (typeof run === 'string') {
          numpy.available = false;
          numpy.reason = run;
        } else {
          numpy.seconds.push(run.seconds);
          numpy.cpuSeconds.push(run.cpuSeconds);
          numpy.version = run.version;
          numpy.metrics = run.metrics;
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ours = result!;
  const oursParallel = parallelResult!;
  let parallelMaxRelative = 0;
  let parallelIdentical = true;
  for (const [key, value] of Object.entries(ours)) {
    const other = (oursParallel as unknown as Record<string, unknown>)[key];
    if (typeof value !== 'number') continue;
    if (!Object.is(other, value)) parallelIdentical = false;
    if (Number.isFinite(value) && value !== 0) parallelMaxRelative = Math.max(parallelMaxRelative, Math.abs((other as number) - value) / Math.abs(value));
  }
  // Cost of copying an ordinary array into shared memory (what evaluateParallel does for non-shared input).
  const sliceRows = Math.min(N, 100_000);
  const plainSlice = probs.slice(0, sliceRows * C);
  const copyStart = performance.now();
  const copied = toShared(plainSlice);
  const copySeconds = (performance.now() - copyStart) / 1000;
  if (copied[0] !== plainSlice[0]) throw new Error('toShared copy differs');
  // Per-metric timings on the top-label samples.
  const confidence = new Float32Array(N);
  const correct = new Uint8Array(N);
  for (let i = 0; i < N; i++) {
    let best = 0;
    for (let k = 1; k < C; k++) if (probs[i * C + k]! > probs[i * C + best]!) best = k;
    confidence[i] = probs[i * C + best]!;
    correct[i] = best === labels[i] ? 1 : 0;
  }
  const perMetric: Record<string, number> = {};
  const timed: [string, () => unknown][] = [
    ['ece_equal_width', () => expectedCalibrationError(confidence, correct, { bins: BINS })],
    ['ks_error', () => ksError(confidence, correct)],
    ['smooth_ece_with_bandwidth_search', () => smoothEce(confidence, correct)],
    ['aurc_eaurc_augrc', () => selectivePredictionMetrics(confidence, correct)],
    ['fpr95', () => errorFprAtTpr(confidence, correct)],
    ['mmce', () => mmce(confidence, correct)],
    ['spiegelhalter', () => spiegelhalterTest(confidence, correct)],
    ['ks_kuiper_tests', () => cumulativeCalibrationTests(confidence, correct)],
    ['corp', () => corpDecomposition(confidence, correct)],
    ['calibration_curve_quantile', () => calibrationCurve(confidence, correct, { bins: BINS, strategy: 'quantile' })],
  ];
  for (const [name, fn] of timed) {
    const times: number[] = [];
    for (let r = 0; r < REPEATS; r++) {
      const start = performance.now();
      fn();
      times.push((performance.now() - start) / 1000);
    }
    perMetric[name] = median(times);
  }
  const peakRssMb = process.resourceUsage().maxRSS / 1024;

  const differences: Record<string, number> = {};
  let maxDifference = 0;
  if (numpy.metrics) {
    for (const [key, value] of Object.entries(numpy.metrics)) {
      const mine = (ours as unknown as Record<string, number>)[key];
      if (typeof mine !== 'number') continue;
      const d = Math.abs(mine - value);
      differences[key] = d;
      if (key !== 'sweep_bins') maxDifference = Math.max(maxDifference, d);
    }
  }
  const report = {
    bench: 'metrics-throughput',
    n: N,
    classes: C,
    bins: BINS,
    dtype: 'float32',
    metrics_computed: 'accuracy nll brier ece ece_l2 ece_lb adaece adaece_l2 mce oe classwise_ece marginal_ece ks debiased_ece sweep_ece mean_confidence mean_entropy error_auroc',
    generate_seconds: generateSeconds,
    read_once_seconds: readOnceSeconds,
    read_once_note:
      'the memory-bandwidth floor: the fastest of 3 single-threaded passes that only read every probability once (a running sum); ours.median_seconds / read_once_seconds says how far the metrics are from it',
    ours: {
      seconds: seconds,
      cpu_seconds: cpuSeconds,
      median_seconds: median(seconds),
      median_cpu_seconds: median(cpuSeconds),
      update_seconds_median: median(updateSeconds),
      elements_per_second_median: (N * C) / median(seconds),
    },
    ours_threads: {
      threads: THREADS,
      seconds: parallelSeconds,
      cpu_seconds_all_threads: parallelCpuSeconds,
      median_seconds: median(parallelSeconds),
      update_seconds_median: median(parallelUpdateSeconds),
      compute_seconds_median: median(parallelSeconds) - median(parallelUpdateSeconds),
      elements_per_second_median: (N * C) / median(parallelSeconds),
      speedup_vs_single_thread_median: median(seconds) / median(parallelSeconds),
      max_relative_difference_vs_single_thread: parallelMaxRelative,
      bit_identical_to_single_thread: parallelIdentical,
      input_in_shared_memory: true,
      to_shared_copy_seconds_per_100k_rows: (copySeconds * 100_000) / sliceRows,
      to_shared_copy_seconds_extrapolated_full: (copySeconds * N) / sliceRows,
    },
    numpy: numpy.available
      ? {
          version: numpy.version,
          seconds: numpy.seconds,
          cpu_seconds: numpy.cpuSeconds,
          median_seconds: median(numpy.seconds),
          median_cpu_seconds: median(numpy.cpuSeconds),
          chunk_rows: 16384,
        }
      : { available: false, reason: numpy.reason },
    speedup_vs_numpy_median: numpy.available ? median(numpy.seconds) / median(seconds) : null,
    speedup_vs_numpy_best: numpy.available ? Math.min(...numpy.seconds) / Math.min(...seconds) : null,
    speedup_vs_numpy_cpu_median: numpy.available ? median(numpy.cpuSeconds) / median(cpuSeconds) : null,
    speedup_vs_numpy_threads2_median: numpy.available ? median(numpy.seconds) / median(parallelSeconds) : null,
    speedup_vs_numpy_threads2_best: numpy.available ? Math.min(...numpy.seconds) / Math.min(...parallelSeconds) : null,
    note:
      'speedup_vs_numpy_* (median, best, cpu) are single-threaded ours vs single-threaded NumPy (bench/metrics_numpy.py ' +
      'runs one process, one thread of vectorized NumPy; no BLAS-threaded calls on this path). ' +
      `speedup_vs_numpy_threads2_* use ${THREADS} threads of ours (evaluateParallel: calling thread + 1 worker) against that ` +
      'same single-threaded NumPy, so it compares wall-clock time on 2 cores vs 1; ours_threads.cpu_seconds_all_threads ' +
      'is the total CPU. compute() (the final sort of N confidences) stays single-threaded. The machine has 2 cores shared ' +
      'with other work: see load_average_1min.',
    per_metric_seconds: perMetric,
    load_average_1min: loadavg()[0],
    max_abs_metric_difference_vs_numpy: numpy.available ? maxDifference : null,
    metric_differences: differences,
    sweep_bins: { ours: ours.sweep_bins, numpy: numpy.metrics?.sweep_bins ?? null },
    peak_rss_mb: Math.round(peakRssMb),
    metrics: ours,
  };
  process.stdout.write(JSON.stringify(report, null, 2) + '\n');
}

await main();
