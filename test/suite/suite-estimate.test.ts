import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { type CostClass, costClass } from '../../src/suite/estimate/run-cost-class.js';
import { type CostReference, referenceFor } from '../../src/suite/estimate/run-cost-references.js';
import { estimateSuite, formatEstimate, formatHours, type RunProgress } from '../../src/suite/estimate/suite-estimate.js';
import { epochSeconds, suiteRunProgress } from '../../src/suite/estimate/suite-run-times.js';
import { parseSuite } from '../../src/suite/suite-schema.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { run } from '../cli/capture.js';
import { tempDir } from '../io/temp-dir.js';
import { tinySuite } from './tiny-suite.js';

const dir = tempDir('suite-estimate');

const CLASS: CostClass = { dataset: 'fashion-mnist', model: 'cifar-resnet-8', modelOptions: '{"width":16}', trainImages: 10000, validation: 5000, batch: 128, threads: 1 };
const REFERENCE: CostReference = { cost: CLASS, secondsPerEpoch: 12, overheadEpochs: 1.5, source: 'pilot' };

function progress(id: string, method: string, epochsDone: number, epochSeconds: number[], extra: Partial<RunProgress> = {}): RunProgress {
  return { id, method, cost: CLASS, epochs: 10, epochsDone, done: false, epochSeconds, ...extra };
}

test('each unfinished run costs (epochs left + final) × its seconds per epoch: own epochs, then its method, then its class, then the reference', () => {
  const runs = [
    progress('done', 'ce', 10, [5, 5], { done: true }),
    progress('own', 'ce', 4, [10, 14, 12, 12]), // 6 epochs left at 12 s, + 1.5 final
    progress('same-method', 'ce', 0, []), // ce runs' epochs pooled: 5, 5, 10, 14, 12, 12 → 58 / 6
    progress('same-class', 'mbls', 0, []), // no mbls epochs: the class's pooled epochs, the same 58 / 6 here
    progress('other', 'focal', 0, [], { cost: { ...CLASS, trainImages: 5000 } }), // no epochs of its class: reference × 5000 / 10000
    progress('unknown', 'ce', 0, [], { cost: { ...CLASS, model: 'mlp' } }),
  ];
  const e = estimateSuite(runs, 2, [REFERENCE]);
  const by = Object.fromEntries(e.runs.map((r) => [r.id, r]));
  assert.deepEqual([by['done']!.seconds, by['done']!.source], [0, 'run']);
  assert.deepEqual([by['own']!.seconds, by['own']!.source], [7.5 * 12, 'run']);
  assert.equal(by['same-method']!.source, 'method');
  assert.ok(Math.abs(by['same-method']!.seconds - 11.5 * (58 / 6)) < 1e-9);
  assert.equal(by['same-class']!.source, 'suite');
  assert.ok(Math.abs(by['same-class']!.seconds - 11.5 * (58 / 6)) < 1e-9);
  assert.deepEqual([by['other']!.seconds, by['other']!.source], [11.5 * 12 * 0.5, 'reference']);
  assert.equal(by['unknown']!.source, 'none');
  assert.ok(Number.isNaN(by['unknown']!.seconds));
  const sum = 7.5 * 12 + 2 * 11.5 * (58 / 6) + 11.5 * 6;
  assert.ok(Math.abs(e.runSeconds - sum) < 1e-9);
  assert.ok(Math.abs(e.machineSeconds - sum / 2) < 1e-9, 'two jobs side by side halve the machine time');
  assert.deepEqual([e.total, e.done, e.left, e.started, e.unmeasured, e.epochsLeft], [6, 1, 5, 1, 1, 6 + 10 * 4]);
});

test('a suite not started is estimated from the reference alone: runs × minutes per run / jobs', () => {
  const runs = Array.from({ length: 30 }, (_, i) => progress(`r${i}`, 'ce', 0, []));
  const e = estimateSuite(runs, 2, [REFERENCE]);
  assert.equal(e.runSeconds, 30 * 11.5 * 12);
  assert.equal(e.machineSeconds, (30 * 11.5 * 12) / 2);
  const lines = formatEstimate(e, 1);
  assert.equal(lines[0], 'left: 30 of 30 runs (0 started, 300 epochs to train)');
  assert.equal(lines[1], `estimate: 30 runs × 2.3 min per run (1 thread each) / 2 side by side ≈ ${formatHours(e.machineSeconds)} of machine time`);
  assert.equal(formatHours(e.machineSeconds), '35 min');
  assert.match(lines[2]!, /30 from the measured reference \(pilot\)/);
  assert.throws(() => estimateSuite(runs, 0, [REFERENCE]), /jobs: expected an integer ≥ 1, got 0/);
});

test('a finished suite has nothing left; runs without any measurement are named and left out of the sum', () => {
  const done = estimateSuite([progress('a', 'ce', 10, [3], { done: true })], 1, []);
  assert.deepEqual([done.left, done.runSeconds, done.machineSeconds], [0, 0, 0]);
  assert.deepEqual(formatEstimate(done, 2), ['left: 0 of 1 runs (0 started, 0 epochs to train)']);
  const unknown = estimateSuite([progress('a', 'ce', 0, [])], 1, []);
  const lines = formatEstimate(unknown, 2);
  assert.equal(lines.length, 2);
  assert.match(lines[1]!, /1 run\(s\) without a measurement .*: not in the estimate/);
});

test('formatHours: minutes below an hour, hours with one decimal above', () => {
  assert.equal(formatHours(59 * 60), '59 min');
  assert.equal(formatHours(3600 * 2.26), '2.3 h');
  assert.equal(formatHours(Number.NaN), '?');
});

test('the cost class: training images are subset − validation (a count or a fraction), dropout does not count, threads do', () => {
  const config = resolveTrainConfig({ dataset: 'fashion-mnist', subset: 15000, validation: 5000, model: 'cifar-resnet-8', modelOptions: { width: 16, dropout: 0.3 }, out: 'x' });
  assert.deepEqual(costClass(config, 1), CLASS);
  assert.equal(costClass({ ...config, validation: 0.2 }, 1).trainImages, 12000);
  assert.equal(costClass({ ...config, subset: undefined }, 1).trainImages, null);
  assert.equal(costClass(config, 2).threads, 2);
});

test('referenceFor: the same class, or one differing only in training images (scaled); nothing for another model or thread count', () => {
  assert.deepEqual(referenceFor(CLASS, [REFERENCE]), { reference: REFERENCE, scale: 1 });
  assert.deepEqual(referenceFor({ ...CLASS, trainImages: 20000 }, [REFERENCE]), { reference: REFERENCE, scale: 2 });
  assert.equal(referenceFor({ ...CLASS, threads: 2 }, [REFERENCE]), undefined);
  assert.equal(referenceFor({ ...CLASS, modelOptions: '{"width":8}' }, [REFERENCE]), undefined);
  assert.equal(referenceFor({ ...CLASS, trainImages: null }, [REFERENCE]), undefined);
});

test('suiteRunProgress reads each run directory: done runs, trained epochs and their epoch_time_s; a missing directory is all pending', async () => {
  const suite = parseSuite({ name: 'times', base: { dataset: 'mnist', subset: 300, validation: 100, epochs: 3 }, methods: [{ name: 'ce' }, { name: 'ls', loss: 'ls' }], seeds: [0, 1] });
  const runs = expandSuite(suite, 'quick');
  const out = join(dir, 'times');
  const write = (id: string, file: string, text: string): void => {
    mkdirSync(join(out, 'runs', id), { recursive: true });
    writeFileSync(join(out, 'runs', id, file), text);
  };
  const line = (epoch: number, t: number): string => `${JSON.stringify({ epoch, epoch_time_s: t })}\n`;
  write('ce-seed0', 'log.jsonl', line(1, 4) + line(2, 6) + line(3, 5));
  write('ce-seed0', 'summary.json', '{}');
  write('ce-seed0', 'posthoc.json', '{}');
  write('ce-seed1', 'log.jsonl', `${line(1, 8)}{"epoch": 2, "epoch_ti`); // cut by a crash mid-line
  const got = await suiteRunProgress(out, runs, 1);
  assert.deepEqual(
    got.map((r) => [r.id, r.done, r.epochsDone, r.epochSeconds]),
    [
      ['ce-seed0', true, 3, [4, 6, 5]],
      ['ce-seed1', false, 1, [8]],
      ['ls-seed0', false, 0, []],
      ['ls-seed1', false, 0, []],
    ],
  );
  assert.deepEqual(await epochSeconds(join(out, 'runs', 'nothing')), []);
  const pending = await suiteRunProgress(undefined, runs, 1);
  assert.ok(pending.every((r) => !r.done && r.epochsDone === 0));
  // ce-seed1: 2 epochs left at its own 8 s; the ls runs: no ls epochs yet, so the class's pooled 4, 6, 5, 8 → 5.75 s × 3
  const e = estimateSuite(got, 1, []);
  assert.equal(e.runSeconds, 2 * 8 + 2 * 3 * 5.75);
});

test("suite run --dry-run prints the plan and writes nothing; on a suite directory it estimates what is left from the runs' epochs, as status does", async () => {
  const file = join(dir, 'tiny.json');
  writeFileSync(file, JSON.stringify(tinySuite({ seeds: [0, 1] })));
  const out = join(dir, 'dry');
  const plan = await run(['suite', 'run', file, '--out', out, '--jobs', '2', '--threads', '2', '--dry-run']);
  assert.equal(plan.code, 0, plan.stderr);
  assert.equal(existsSync(out), false, 'a dry run creates nothing');
  assert.deepEqual(plan.stdout.split('\n'), [
    'suite tiny (quick): 4 runs, 2 side by side with 1 thread(s) each (dry run: nothing trains)',
    'left: 4 of 4 runs (0 started, 8 epochs to train)',
    '  4 run(s) without a measurement (no epoch trained yet and no measured reference for their model, data and threads): not in the estimate',
    '',
  ]);
  // The same suite, started: suite.json written, ce-seed0 done (2 epochs of 30 s), mbls-seed0 one epoch of 50 s in.
  const record = { format: 1, scale: 'quick', suite: parseSuite(tinySuite({ seeds: [0, 1] })), runs: expandSuite(parseSuite(tinySuite({ seeds: [0, 1] })), 'quick') };
  mkdirSync(join(out, 'runs'), { recursive: true });
  writeFileSync(join(out, 'suite.json'), JSON.stringify(record));
  const log = (times: number[]): string => times.map((t, i) => `${JSON.stringify({ epoch: i + 1, epoch_time_s: t })}\n`).join('');
  for (const [id, times, done] of [
    ['ce-seed0', [30, 30], true],
    ['mbls-seed0', [50], false],
  ] as const) {
    mkdirSync(join(out, 'runs', id), { recursive: true });
    writeFileSync(join(out, 'runs', id, 'log.jsonl'), log([...times]));
    if (done) for (const f of ['summary.json', 'posthoc.json']) writeFileSync(join(out, 'runs', id, f), '{}');
  }
  // left: mbls-seed0 1 epoch × 50 s (its own), ce-seed1 2 × 30 s (ce's epochs), mbls-seed1 2 × 50 s (mbls's epochs): 210 s / 2 jobs
  const expected = [
    'left: 3 of 4 runs (1 started, 5 epochs to train)',
    'estimate: 3 runs × 1.2 min per run (1 thread each) / 2 side by side ≈ 2 min of machine time',
    "  minutes per run: 1 from their own epochs, 2 from finished epochs of the suite's runs",
  ];
  const again = await run(['suite', 'run', file, '--out', out, '--jobs', '2', '--threads', '2', '--dry-run']);
  assert.deepEqual(again.stdout.split('\n').slice(1, 4), expected);
  assert.match(again.stdout, new RegExp(`^suite tiny \\(quick\\): 4 runs in ${out.replace(/[/\\\\.]/g, '\\$&')}, 2 side by side`));
  const status = await run(['suite', 'status', out, '--jobs', '2', '--threads', '2']);
  assert.equal(status.code, 1, 'not finished');
  assert.deepEqual(status.stdout.trimEnd().split('\n').slice(-3), expected);
});

test('the five paper suites at the deep scale are estimated from the measured reference before anything runs', async () => {
  const plan = await run(['suite', 'run', 'mbls', '--scale', 'deep', '--jobs', '2', '--threads', '2', '--dry-run', '--out', join(dir, 'never')]);
  assert.equal(plan.code, 0, plan.stderr);
  assert.match(plan.stdout, /^estimate: \d+ runs × [\d.]+ min per run \(1 thread each\) \/ 2 side by side ≈ [\d.]+ (h|min) of machine time$/m);
  assert.match(plan.stdout, /from the measured reference \(deep-scale pilot/);
  assert.equal(existsSync(join(dir, 'never')), false);
});

test('a dry run refuses the --out that the real run would refuse (a file, a directory of another suite) and writes nothing', async () => {
  const file = join(dir, 'a-file');
  writeFileSync(file, 'mine');
  const onFile = await run(['suite', 'run', 'mbls', '--scale', 'deep', '--dry-run', '--out', file]);
  assert.equal(onFile.code, 2);
  assert.equal(onFile.stdout, '');
  assert.match(onFile.stderr, /^calib: error: --out: .*\(a file\)\n$/);
  assert.equal(readFileSync(file, 'utf8'), 'mine');
  const foreign = join(dir, 'foreign');
  mkdirSync(foreign);
  writeFileSync(join(foreign, 'notes.txt'), 'mine');
  const onForeign = await run(['suite', 'run', 'mbls', '--scale', 'deep', '--dry-run', '--out', foreign]);
  assert.equal(onForeign.code, 2);
  assert.match(onForeign.stderr, /^calib: error: --out: .*notes\.txt/);
});
