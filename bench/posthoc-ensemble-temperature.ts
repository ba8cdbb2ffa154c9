/**
 * Benchmark: ensemble temperature scaling (src/posthoc/temperature/ensemble-temperature.ts) on 50,000 × 100 float32 logits,
 * both losses, against temperature scaling by NLL on the same data (ratio) and, when a checkout of the official
 * Mix-n-Match code is given, against the official `temperature_scaling` + `ensemble_scaling` run by /usr/bin/python3
 * on the same logits (numpy/scipy): time and the fitted T and w side by side. Prints JSON.
 *
 * Usage: node dist/bench/posthoc-ensemble-temperature.js [--official DIR]   (DIR holds util_calibration.py,
 * github.com/zhang64-llnl/Mix-n-Match-Calibration at e41afbaf8181a0bd2fb194f9e9d30bcbe5b7f6c3)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticOverconfident } from '../src/data/synthetic.js';
import { fitEnsembleTemperature } from '../src/posthoc/temperature/ensemble-temperature.js';
import { fitTemperature } from '../src/posthoc/temperature/temperature.js';

const N = 50_000;
const C = 100;
const set = syntheticOverconfident({ n: N, classes: C, seed: 1, separation: 3, overconfidence: 2 });
// A fifth of the labels replaced at random, so that the uniform member gets a weight.
for (let i = 0; i < N; i += 5) set.labels[i] = (set.labels[i]! + 1 + (i % (C - 1))) % C;
const logits = Float32Array.from(set.logits);
const input = { logits: { rows: N, cols: C, data: logits } };

function time<T>(fn: () => T): [T, number] {
  const t0 = process.hrtime.bigint();
  const r = fn();
  return [r, Number(process.hrtime.bigint() - t0) / 1e6];
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

function measure<T>(fn: () => T, repeats = 5): { result: T; ms: number } {
  fn(); // warm-up (JIT)
  const times: number[] = [];
  let result = fn();
  for (let i = 0; i < repeats; i++) {
    const [r, ms] = time(fn);
    result = r;
    times.push(ms);
  }
  return { result, ms: median(times) };
}

const ts = measure(() => fitTemperature(input, set.labels));
const ours: Record<string, { ms: number; temperature: number; weights: number[]; ratioToTemperatureScaling: number }> = {};
for (const loss of ['mse', 'nll'] as const) {
  const r = measure(() => fitEnsembleTemperature(input, set.labels, { loss }));
  ours[loss] = { ms: r.ms, temperature: r.result.temperature, weights: Array.from(r.result.weights), ratioToTemperatureScaling: r.ms / ts.ms };
}

let official: unknown = null;
const at = process.argv.indexOf('--official');
if (at > 0 && existsSync(join(process.argv[at + 1] ?? '', 'util_calibration.py'))) {
  const dir = mkdtempSync(join(tmpdir(), 'calibkit-bench-'));
  try {
    writeFileSync(join(dir, 'logits.f32'), Buffer.from(logits.buffer, logits.byteOffset, logits.byteLength));
    writeFileSync(join(dir, 'labels.i32'), Buffer.from(set.labels.buffer, set.labels.byteOffset, set.labels.byteLength));
    const script = `
import contextlib, io, json, sys, time
import numpy as np
sys.path.insert(0, sys.argv[1])
import util_calibration as u
z = np.fromfile(sys.argv[2] + '/logits.f32', dtype=np.float32).reshape(${N}, ${C}).astype(np.float64)
y = np.fromfile(sys.argv[2] + '/labels.i32', dtype=np.int32)
q = np.eye(${C})[y]
out = {}
for loss, name in (('mse', 'mse'), ('ce', 'nll')):
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        t = u.temperature_scaling(z, q, loss)
        w = u.ensemble_scaling(z, q, loss, t, ${C})
    out[name] = {'ms': (time.perf_counter() - t0) * 1e3, 'temperature': float(t[0]), 'weights': [float(v) for v in w]}
print(json.dumps(out))
`;
    const r = spawnSync('/usr/bin/python3', ['-c', script, process.argv[at + 1]!, dir], { encoding: 'utf8', maxBuffer: 1 << 20 });
    official = r.status === 0 ? JSON.parse(r.stdout) : { error: r.stderr.trim().split('\n').pop() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  JSON.stringify(
    {
      benchmark: 'posthoc-ensemble-temperature',
      rows: N,
      classes: C,
      dtype: 'float32',
      loadAverage: loadavg()[0],
      temperatureScalingMs: ts.ms,
      ensembleTemperature: ours,
      official,
    },
    null,
    2,
  ),
);
