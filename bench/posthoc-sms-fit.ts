/**
 * Issue #25 item 6: what one structured matrix scaling (SMS) fit costs at C = 100, and where. On the netcal
 * DenseNet-BC-100 CIFAR-100 probabilities (../shared, read in place) split even rows (fit, 5,000) / odd rows (test,
 * 5,000) — the split of probmetrics' reference values in test/fixtures/posthoc/reference-structured-scaling.json —
 * it prints one JSON object: the fit's CPU seconds (process.cpuUsage, user + system), the optimiser's iterations
 * and objective evaluations (FitOptions.onSolved), the CPU seconds of one objective + gradient evaluation at the
 * fit's size (median of --repeats), test log loss against probmetrics' and the load average beside them.
 *
 * Usage: node dist/bench/posthoc-sms-fit.js [--method sms|svs] [--model densenet-bc-100|lenet-5|wideresnet-16-4]
 *          [--tolerance T] [--max-iterations N] [--repeats R] [--variants all] [--no-peer]
 * The NumPy peer (bench/sms_objective_numpy.py, one BLAS thread) times the same evaluation right after ours.
 * (npm run bench -- posthoc-sms-fit …). Only densenet-bc-100 has probmetrics reference values.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { readNpy } from '../src/io/npy.js';
import { fitSms, fitSvs } from '../src/posthoc/index.js';
import type { SolverSummary } from '../src/posthoc/fit-progress.js';
import { fitLinear, identityParameters, linearObjective, type LinearSolverOptions } from '../src/posthoc/scaling/linear-scaling.js';
import { checkPredictions } from '../src/posthoc/predictions.js';
import { ridgeStrengths, structuredPenalty, StructuredScalingCalibrator } from '../src/posthoc/scaling/structured-scaling.js';
import { fitMixedTemperature, logInPlace, mixedProbabilities } from '../src/posthoc/temperature/ts-mix.js';

const ROOT = fileURLToPath(new URL('../../../shared/data/real-predictions/', import.meta.url));
const REFERENCE = JSON.parse(readFileSync(fileURLToPath(new URL('../../test/fixtures/posthoc/reference-structured-scaling.json', import.meta.url)), 'utf8'));
const argv = process.argv.slice(2);
const valueOf = (flag: string) => {
  const at = argv.indexOf(flag);
  return at >= 0 ? argv[at + 1] : undefined;
};
const method = valueOf('--method') ?? 'sms';
const model = valueOf('--model') ?? 'densenet-bc-100';
const repeats = Number(valueOf('--repeats') ?? 10);
const tolerance = valueOf('--tolerance');
const maxIterations = valueOf('--max-iterations');
if (method !== 'sms' && method !== 'svs') fail('--method', 'sms or svs', method);
if (!['densenet-bc-100', 'lenet-5', 'wideresnet-16-4'].includes(model)) fail('--model', 'densenet-bc-100, lenet-5 or wideresnet-16-4', model);
if (!(Number.isInteger(repeats) && repeats >= 1)) fail('--repeats', 'a positive integer', String(repeats));
if (!existsSync(ROOT)) fail('data', `${ROOT} to exist (the real predictions live beside the repository in ../shared)`, 'absent');

function fail(what: string, expected: string, got: string): never {
  process.stderr.write(`posthoc-sms-fit: ${what}: expected ${expected}, got ${JSON.stringify(got)}\n`);
  process.exit(2);
}

const cpuSeconds = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
};

const dir = `${ROOT}netcal-records/${model}-cifar-100/`;
const probs = await readNpy(`${dir}probs.npy`);
const labelsAll = Int32Array.from((await readNpy(`${dir}labels.npy`)).data as Int32Array);
const [N, C] = [probs.shape[0]!, probs.shape[1]!];
/** Rows with index ≡ parity (mod 2), each row renormalised to sum 1 as the reference script does. */
function half(parity: number) {
  const rows = Math.floor((N - parity + 1) / 2);
  const data = new Float64Array(rows * C);
  const y = new Int32Array(rows);
  for (let r = 0; r < rows; r++) {
    const i = 2 * r + parity;
    let s = 0;
    for (let k = 0; k < C; k++) s += (probs.data as Float32Array)[i * C + k]!;
    for (let k = 0; k < C; k++) data[r * C + k] = (probs.data as Float32Array)[i * C + k]! / s;
    y[r] = labelsAll[i]!;
  }
  return { input: { probabilities: { rows, cols: C, data } }, labels: y };
}
const fitSet = half(0);
const testSet = half(1);

// One objective + gradient evaluation of the full map at the fit's size, from the identity (median of repeats).
const stage = fitMixedTemperature(fitSet.input, fitSet.labels, 1, 'sms');
const features = logInPlace(mixedProbabilities(checkPredictions('input', fitSet.input), stage, 'sms'));
const rows = fitSet.labels.length;
const structure = method === 'sms' ? 'full' : 'diagonal';
const ridge = ridgeStrengths({ lambdaIntercept: 1, lambdaDiagonal: 1, lambdaOffDiagonal: 1, rho: 1, tau: 1 }, C, rows);
const penalty = structuredPenalty(structure, C, ridge);
const theta = identityParameters(structure, C);
const gradient = new Float64Array(theta.length);
const perEvaluation: number[] = [];
for (let r = 0; r < repeats; r++) {
  const t0 = process.cpuUsage();
  linearObjective(features, rows, C, fitSet.labels, structure, penalty, theta, gradient);
  perEvaluation.push(cpuSeconds(t0));
}
perEvaluation.sort((a, b) => a - b);
/** NumPy's CPU seconds for the same evaluation (bench/sms_objective_numpy.py, one BLAS thread), right after ours. */
function numpyPeer(): unknown {
  if (argv.includes('--no-peer') || !existsSync('/usr/bin/python3')) return 'not run';
  const script = fileURLToPath(new URL('../../bench/sms_objective_numpy.py', import.meta.url));
  const env = { ...process.env, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1', MKL_NUM_THREADS: '1' };
  const run = spawnSync('/usr/bin/python3', [script, String(rows), String(C), String(repeats)], { encoding: 'utf8', env });
  return run.status === 0 ? JSON.parse(run.stdout) : `failed: ${run.stderr.trim().split('\n').pop()}`;
}
const numpy = numpyPeer();

/** --variants: the solver choices side by side on the same features (fitLinear directly), CPU and evaluations each. */
if (argv.includes('--variants')) {
  const gtol = Number(tolerance ?? 1e-6);
  const cap = Number(maxIterations ?? 2000);
  const variants: { name: string; solver: LinearSolverOptions; warm?: boolean }[] = [
    { name: 'curvature', solver: { curvatureScaling: true } },
    { name: 'curvature+ftol1e-9', solver: { curvatureScaling: true, relativeTolerance: 1e-9 } },
    { name: 'curvature+ftol1e-9+svs-start', solver: { curvatureScaling: true, relativeTolerance: 1e-9 }, warm: true },
    { name: 'curvature+ftol1e-9+svs-start+m30', solver: { curvatureScaling: true, relativeTolerance: 1e-9, memory: 30 }, warm: true },
  ].filter((v) => (valueOf('--variants') ?? '').split(',').some((n) => n === 'all' || n === v.name));
  const out: Record<string, unknown>[] = [];
  for (const v of variants) {
    let summary: SolverSummary | undefined;
    let svsSummary: SolverSummary | undefined;
    const t0 = process.cpuUsage();
    let start: Float64Array | undefined;
    if (v.warm) {
      const diag = fitLinear('svs', features, rows, C, fitSet.labels, 'diagonal', structuredPenalty('diagonal', C, ridge), 2000, 1e-6, { onSolved: (s) => (svsSummary = s) });
      start = new Float64Array(C * C + C);
      for (let k = 0; k < C; k++) {
        start[k * C + k] = diag[k]!;
        start[C * C + k] = diag[C + k]!;
      }
    }
    let result: Record<string, unknown>;
    try {
      const th = fitLinear('sms', features, rows, C, fitSet.labels, 'full', penalty, cap, gtol, { onSolved: (s) => (summary = s) }, { ...v.solver, ...(start && { start }) });
      const cpu = cpuSeconds(t0);
      const cal = new StructuredScalingCalibrator({ kind: 'sms', structure: 'full' }, C, stage, th, {});
      const p = cal.apply(testSet.input);
      let nll = 0;
      for (let i = 0; i < testSet.labels.length; i++) nll -= Math.log(p.data[i * C + testSet.labels[i]!]!);
      result = { fit_cpu_s: cpu, test_log_loss: nll / testSet.labels.length };
    } catch (e) {
      result = { fit_cpu_s: cpuSeconds(t0), error: (e as Error).message.split('\n')[0] };
    }
    out.push({ variant: v.name, ...result, solver: summary, ...(svsSummary && { svs_start_solver: svsSummary }), load_average: loadavg().map((x) => Math.round(x * 100) / 100) });
    process.stderr.write(`${JSON.stringify(out[out.length - 1])}\n`);
  }
  process.stdout.write(
    `${JSON.stringify({ bench: 'posthoc-sms-fit', mode: 'variants', set: `${model}-cifar-100`, gradient_tolerance: gtol, evaluation_cpu_s_median: perEvaluation[Math.floor(repeats / 2)], numpy_peer: numpy, probmetrics_test_log_loss: REFERENCE.densenet_bc_100_cifar100_even_odd?.sms?.test_log_loss, variants: out }, null, 1)}\n`,
  );
  process.exit(0);
}

const options = {
  ...(tolerance !== undefined && { tolerance: Number(tolerance) }),
  ...(maxIterations !== undefined && { maxIterations: Number(maxIterations) }),
};
let solved: SolverSummary | undefined;
const load = loadavg();
const t0 = process.cpuUsage();
let error: string | undefined;
let testLogLoss: number | undefined;
try {
  const fit = method === 'sms' ? fitSms : fitSvs;
  const calibrator = fit(fitSet.input, fitSet.labels, options, { onSolved: (s) => (solved = s) });
  const out = calibrator.apply(testSet.input);
  let nll = 0;
  for (let i = 0; i < testSet.labels.length; i++) nll -= Math.log(out.data[i * C + testSet.labels[i]!]!);
  testLogLoss = nll / testSet.labels.length;
} catch (e) {
  error = (e as Error).message.split('\n')[0];
}
const fitCpu = cpuSeconds(t0);
const reference = model === 'densenet-bc-100' ? REFERENCE.densenet_bc_100_cifar100_even_odd[method].test_log_loss : undefined;
process.stdout.write(
  `${JSON.stringify(
    {
      bench: 'posthoc-sms-fit',
      method,
      set: `${model}-cifar-100`,
      split: 'even rows fit / odd rows test',
      rows,
      classes: C,
      options,
      fit_cpu_s: fitCpu,
      solver: solved,
      evaluation_cpu_s_median: perEvaluation[Math.floor(repeats / 2)],
      evaluation_repeats: repeats,
      numpy_peer: numpy,
      test_log_loss: testLogLoss,
      probmetrics_test_log_loss: reference,
      ...(error !== undefined && { error }),
      load_average: { at_start: load.map((v) => Math.round(v * 100) / 100), at_end: loadavg().map((v) => Math.round(v * 100) / 100) },
    },
    null,
    1,
  )}\n`,
);
