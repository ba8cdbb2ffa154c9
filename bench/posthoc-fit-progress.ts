/**
 * Benchmark: the cost of the fit progress callback (src/posthoc/fit-progress.ts). Fits each method on N × C
 * logits (default 300,000 × 100, isotonic) through `fitCalibrator` with and without `onProgress`, the two
 * interleaved so that machine load affects both alike, and prints JSON: median wall and CPU time of each, the
 * number of callback calls, and that the two calibrators are identical.
 *
 * Usage: node dist/bench/posthoc-fit-progress.js [--methods isotonic,bbq] [--rows N] [--classes C] [--rounds R]
 */
import { loadavg } from 'node:os';
import { syntheticOverconfident } from '../src/data/synthetic.js';
import { fitCalibrator, type CalibratorKind } from '../src/posthoc/index.js';

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}
const methods = flag('methods', 'isotonic').split(',') as CalibratorKind[];
const N = Number(flag('rows', '300000'));
const C = Number(flag('classes', '100'));
const rounds = Number(flag('rounds', '3'));

const set = syntheticOverconfident({ n: N, classes: C, seed: 1, separation: 3, overconfidence: 2 });
const input = { logits: { rows: N, cols: C, data: Float32Array.from(set.logits) } };

/** Wall and CPU (user + system) milliseconds of fn. */
function time<T>(fn: () => T): [T, number, number] {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const r = fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(c0);
  return [r, wall, (cpu.user + cpu.system) / 1e3];
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

const results = [];
for (const method of methods) {
  fitCalibrator(method, input, set.labels); // warm-up (JIT)
  const plain = { wall: [] as number[], cpu: [] as number[] };
  const withCallback = { wall: [] as number[], cpu: [] as number[] };
  let calls = 0;
  let identical = true;
  for (let r = 0; r < rounds; r++) {
    const [a, wa, ca] = time(() => fitCalibrator(method, input, set.labels));
    plain.wall.push(wa);
    plain.cpu.push(ca);
    calls = 0;
    const [b, wb, cb] = time(() => fitCalibrator(method, input, set.labels, undefined, { onProgress: () => calls++ }));
    withCallback.wall.push(wb);
    withCallback.cpu.push(cb);
    identical &&= JSON.stringify(a.toJSON()) === JSON.stringify(b.toJSON());
  }
  results.push({
    method,
    without: { wallMs: median(plain.wall), cpuMs: median(plain.cpu), wallMsAll: plain.wall.map(Math.round) },
    with: { wallMs: median(withCallback.wall), cpuMs: median(withCallback.cpu), wallMsAll: withCallback.wall.map(Math.round) },
    callbackCalls: calls,
    identicalCalibrators: identical,
  });
}
process.stdout.write(`${JSON.stringify({ bench: 'posthoc-fit-progress', rows: N, classes: C, rounds, load: loadavg()[0], results }, null, 2)}\n`);
