import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BUILTIN_SUITES } from '../../src/suite/builtin-suites.js';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { computeJson, computeText, formatMeasured, measureSuite, unionSeconds } from '../../src/suite/estimate/suite-measured.js';
import { readSuiteSessions, recordSuiteSession, SESSIONS_FILE, type SuiteSession } from '../../src/suite/estimate/suite-sessions.js';
import { parseSuite } from '../../src/suite/suite-schema.js';
import { run } from '../cli/capture.js';
import { tempDir } from '../io/temp-dir.js';
import { tinySuite } from './tiny-suite.js';

const dir = tempDir('suite-measured');
const T0 = 1_800_000_000; // seconds since the epoch: the synthetic suite's first launch

function session(jobs: number | null): SuiteSession {
  return { started: '2026-11-28T09:00:00.000Z', jobs, threads: [1], executor: jobs === null ? 'queue' : 'local', host: 'h', pid: 1, calibkit: 'test' };
}

function file(path: string, text: string, at: number): void {
  writeFileSync(path, text);
  utimesSync(path, at, at);
}

const log = (times: number[]): string => times.map((t, i) => `${JSON.stringify({ epoch: i + 1, epoch_time_s: t })}\n`).join('');

/**
 * A suite directory of the tiny suite (2 seeds: ce-seed0, mbls-seed0, ce-seed1, mbls-seed1) whose times are known:
 *   ce-seed0    launched T0, epochs 30 + 30 s, last epoch at T0 + 70, summary.json at T0 + 95, ood.json at T0 + 100
 *               (the trainer's last output), posthoc.json refitted at T0 + 5000 (not the run's) → 60 + 30 s, [T0, T0 + 100]
 *   mbls-seed0  copied from another suite (identity.json reusedFrom): not counted
 *   ce-seed1    launched T0 + 50, one epoch of 50 s at T0 + 120, resumed once, unfinished → 50 s, [T0 + 50, T0 + 120]
 *   mbls-seed1  not started
 * Run time 140 s; union of the intervals [T0, T0 + 120] = 120 s; 90 s per finished run.
 */
function syntheticSuite(name: string, suiteName = 'tiny'): { out: string; runs: ReturnType<typeof expandSuite> } {
  const out = join(dir, name);
  const suite = parseSuite({ ...tinySuite({ seeds: [0, 1] }), name: suiteName });
  const runs = expandSuite(suite, 'quick');
  mkdirSync(join(out, 'logs'), { recursive: true });
  writeFileSync(join(out, 'suite.json'), JSON.stringify({ format: 1, scale: 'quick', suite, runs }));
  const runDir = (id: string): string => {
    mkdirSync(join(out, 'runs', id), { recursive: true });
    return join(out, 'runs', id);
  };
  const a = runDir('ce-seed0');
  file(join(out, 'logs', 'ce-seed0.config.json'), '{}', T0);
  file(join(out, 'logs', 'ce-seed0.txt'), '$ calib train --config x --out y --force --progress lines\n', T0 + 95);
  file(join(a, 'log.jsonl'), log([30, 30]), T0 + 70);
  file(join(a, 'summary.json'), '{}', T0 + 95);
  file(join(a, 'ood.json'), '{}', T0 + 100);
  file(join(a, 'posthoc.json'), '{}', T0 + 5000);
  const b = runDir('mbls-seed0');
  file(join(b, 'log.jsonl'), log([500, 500]), T0 - 5000);
  file(join(b, 'summary.json'), '{}', T0 - 4000);
  file(join(b, 'posthoc.json'), '{}', T0 - 3000);
  file(join(b, 'identity.json'), JSON.stringify({ reusedFrom: '/elsewhere/runs/mbls-seed0' }), T0 + 1);
  const c = runDir('ce-seed1');
  file(join(out, 'logs', 'ce-seed1.config.json'), '{}', T0 + 50);
  file(join(out, 'logs', 'ce-seed1.txt'), '$ calib train --config x --out y --force --progress lines\n$ calib train --resume y --progress lines\n', T0 + 120);
  file(join(c, 'log.jsonl'), log([50]), T0 + 120);
  return { out, runs };
}

test('unionSeconds: the length of the union of intervals given in ms, gaps excluded, reversed or non-finite ones skipped', () => {
  assert.equal(
    unionSeconds([
      [0, 10_000],
      [5_000, 15_000],
      [20_000, 25_000],
    ]),
    20,
  );
  assert.equal(
    unionSeconds([
      [20_000, 25_000],
      [0, 30_000],
      [40_000, 39_000],
      [Number.NaN, 5],
    ]),
    30,
  );
  assert.equal(unionSeconds([]), 0);
});

test('measureSuite: run time = epochs + finishing of the runs trained here, ÷ the recorded runs side by side; the wall span is the union of their intervals', async () => {
  const { out, runs } = syntheticSuite('a');
  const none = await measureSuite(out, runs);
  assert.deepEqual([none.finished, none.unfinished, none.reused, none.total], [1, 1, 1, 4]);
  assert.equal(none.runSeconds, 140);
  assert.deepEqual([none.jobs, none.jobsSource], [null, null]);
  assert.ok(Number.isNaN(none.machineSeconds), 'no runs side by side known: no machine-hours');
  assert.equal(none.spanSeconds, 120);
  assert.equal(none.secondsPerFinishedRun, 90);
  assert.equal(none.resumed, 1);
  assert.deepEqual(
    none.runs.map((r) => [r.id, r.kind, r.epochSeconds, r.finishSeconds]),
    [
      ['ce-seed0', 'finished', 60, 30],
      ['ce-seed1', 'unfinished', 50, 0],
      ['mbls-seed0', 'reused', 0, 0],
    ],
  );
  const given = await measureSuite(out, runs, 4);
  assert.deepEqual([given.jobs, given.jobsSource, given.machineSeconds], [4, 'given', 35]);
  await recordSuiteSession(out, session(2));
  const recorded = await measureSuite(out, runs, 4);
  assert.deepEqual([recorded.jobs, recorded.jobsSource, recorded.machineSeconds], [2, 'recorded', 70], 'the recorded --jobs wins over the given one');
  assert.deepEqual(formatMeasured(recorded).slice(0, 2), [
    'measured so far: 2 runs trained here (1 finished, 1 unfinished; 1 reused): 2 min of run time ÷ 2 side by side (recorded in sessions.json) = 0.02 machine-hours; 1.5 min per finished run',
    '  wall span with a run in progress: 2 min (1 run(s) resumed after a stop: their pauses are inside it)',
  ]);
  assert.match(
    computeText(recorded),
    /^1 runs trained in this directory and finished, 1 unfinished, 1 copied from other suites \(--reuse-from\)\. Run time 0\.04 h .* = 0\.02 machine-hours; 1\.5 wall minutes per finished run \(0\.8 machine-minutes\)\. Wall span with at least one run in progress: 0\.03 h/,
  );
  const j = computeJson(recorded);
  assert.deepEqual([j['runs_finished'], j['runs_unfinished'], j['runs_reused'], j['jobs'], j['jobs_source'], j['minutes_per_finished_run']], [1, 1, 1, 2, 'recorded', 1.5]);
  assert.ok(Math.abs((j['machine_hours'] as number) - 70 / 3600) < 1e-12);
  assert.ok(Math.abs((j['span_hours'] as number) - 120 / 3600) < 1e-12);
  // Sessions that ran different --jobs leave no one number: the given one is used, and the text says why.
  await recordSuiteSession(out, session(1));
  const mixed = await measureSuite(out, runs, 3);
  assert.deepEqual([mixed.jobs, mixed.jobsSource, mixed.recordedJobs], [3, 'given', [2, 1]]);
  assert.match(formatMeasured(mixed)[0]!, /÷ 3 side by side \(--jobs; the sessions ran 2 and 1\)/);
  assert.match(computeText(await measureSuite(out, runs)), /runs side by side not recorded .*machine-hours not stated/);
});

test("the epochs' CPU time (log.jsonl cpu_time_s) is summed over the runs whose logs record it, beside the wall times", async () => {
  const { out, runs } = syntheticSuite('cpu');
  // ce-seed0's epochs record CPU time (12.5 + 14.5 s); ce-seed1's log (written before it existed) does not: left out.
  const lines = [30, 30].map((t, i) => `${JSON.stringify({ epoch: i + 1, epoch_time_s: t, cpu_time_s: [12.5, 14.5][i] })}\n`);
  file(join(out, 'runs', 'ce-seed0', 'log.jsonl'), lines.join(''), T0 + 70);
  const m = await measureSuite(out, runs, 2);
  assert.equal(m.cpuSeconds, 27);
  assert.equal(m.cpuEpochs, 2);
  assert.equal(m.cpuRuns, 1);
  assert.equal(m.runSeconds, 140, 'the wall measure is unchanged');
  assert.match(formatMeasured(m).join('\n'), /CPU time of the epochs .*: 0\.01 CPU-hours over 2 epochs of 1 run\(s\), 13\.5 CPU-s per epoch/);
  assert.match(computeText(m), /13\.5 CPU-s per epoch\.$/);
  const json = computeJson(m);
  assert.equal(json['cpu_epochs'], 2);
  assert.equal(json['cpu_seconds_per_epoch'], 13.5);
  // No log with CPU times: nothing stated.
  const plain = await measureSuite(syntheticSuite('no-cpu').out, runs, 2);
  assert.equal(plain.cpuEpochs, 0);
  assert.doesNotMatch(formatMeasured(plain).join('\n'), /CPU time/);
  assert.equal(computeJson(plain)['cpu_hours'], null);
});

test('sessions.json: appended atomically per suite run; a missing or unreadable file reads as no sessions and is started afresh', async () => {
  const out = join(dir, 'sessions');
  mkdirSync(out, { recursive: true });
  assert.deepEqual(await readSuiteSessions(out), []);
  await recordSuiteSession(out, session(2));
  await recordSuiteSession(out, session(null));
  assert.deepEqual(
    (await readSuiteSessions(out)).map((s) => s.jobs),
    [2, null],
  );
  writeFileSync(join(out, SESSIONS_FILE), '{"sessions": [');
  assert.deepEqual(await readSuiteSessions(out), []);
  await recordSuiteSession(out, session(1));
  assert.deepEqual(JSON.parse(readFileSync(join(out, SESSIONS_FILE), 'utf8')), { format: 1, sessions: [session(1)] });
});

test('calib suite status states what was measured so far; a suite that trained nothing here says so', async () => {
  const { out } = syntheticSuite('status');
  const status = await run(['suite', 'status', out, '--jobs', '2']);
  assert.equal(status.code, 1, status.stderr);
  assert.match(
    status.stdout,
    /^measured so far: 2 runs trained here \(1 finished, 1 unfinished; 1 reused\): 2 min of run time ÷ 2 side by side \(--jobs; not recorded in sessions\.json\) = 0\.02 machine-hours/m,
  );
  const empty = join(dir, 'empty');
  const suite = parseSuite(tinySuite());
  mkdirSync(join(empty, 'runs'), { recursive: true });
  writeFileSync(join(empty, 'suite.json'), JSON.stringify({ format: 1, scale: 'quick', suite, runs: expandSuite(suite, 'quick') }));
  assert.match((await run(['suite', 'status', empty])).stdout, /^measured so far: no run trained in this directory$/m);
});

test('calib suite budget --measured-root puts each suite directory <name>-<scale> beside its plan; bad roots are refused', async () => {
  // The built-in demo suite at the quick scale, with the synthetic times above under its own run ids.
  const demo = parseSuite(structuredClone(BUILTIN_SUITES['demo']!.suite), 'demo');
  const runs = expandSuite(demo, 'quick');
  const root = join(dir, 'root');
  const out = join(root, 'demo-quick');
  mkdirSync(join(out, 'runs', runs[0]!.id), { recursive: true });
  writeFileSync(join(out, 'suite.json'), JSON.stringify({ format: 1, scale: 'quick', suite: demo, runs }));
  const a = join(out, 'runs', runs[0]!.id);
  file(join(a, 'log.jsonl'), log([1800, 1800]), T0 + 3600);
  file(join(a, 'summary.json'), '{}', T0 + 7200);
  file(join(a, 'posthoc.json'), '{}', T0 + 90000);
  await recordSuiteSession(out, session(2));
  const md = join(dir, 'budget.md');
  const r = await run(['suite', 'budget', 'demo', '--scale', 'quick', '--jobs', '2', '--threads', '2', '--measured-root', root, '--markdown', md]);
  assert.equal(r.code, 0, r.stderr);
  // One finished run of 3600 s of epochs + 3600 s of finishing, 2 side by side: 1 machine-hour.
  assert.match(
    r.stdout,
    new RegExp(
      `measured: 1 finished \\+ 0 unfinished of ${runs.length} runs, 1\\.0 machine-hours so far \\(2 side by side \\(recorded in sessions\\.json\\)\\); the finished runs: planned \\S+ h, measured 1\\.0 h`,
    ),
  );
  const page = readFileSync(md, 'utf8');
  assert.match(page, /--measured-root .*root --markdown/);
  assert.match(page, /## Measured so far/);
  assert.match(page, new RegExp(`\\| demo \\| \\S+ \\| 1 finished \\+ 0 unfinished of ${runs.length} \\| 2 side by side \\(recorded in sessions\\.json\\) \\| 1\\.0 \\| \\S+ \\| 1\\.0 \\|`));
  // A suite without a directory under the root is "not started".
  const fresh = await run(['suite', 'budget', 'demo', '--scale', 'quick', '--measured-root', dir]);
  assert.match(fresh.stdout, /measured: not started/);
  for (const [bad, why] of [
    [join(dir, 'nowhere'), 'not found'],
    [md, 'not a directory'],
  ] as const) {
    const e = await run(['suite', 'budget', 'demo', '--scale', 'quick', '--measured-root', bad]);
    assert.equal(e.code, 2);
    assert.equal(e.stderr, `calib: error: --measured-root: expected a folder holding suite directories <name>-<scale>, got ${JSON.stringify(bad)} (${why})\n`);
  }
  // A directory named for demo at quick scale that holds another suite is refused, naming both.
  const wrong = join(dir, 'wrong-root');
  mkdirSync(wrong);
  symlinkSync(syntheticSuite('other').out, join(wrong, 'demo-quick'));
  const w = await run(['suite', 'budget', 'demo', '--scale', 'quick', '--measured-root', wrong]);
  assert.equal(w.code, 2);
  assert.match(w.stderr, /^calib: error: --measured-root: expected suite directories named <name>-<scale> .*, got suite tiny at scale quick\n$/);
});

test('calib report --jobs must be a positive integer', async () => {
  const r = await run(['report', join(dir, 'a'), '--jobs', '0']);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'calib: error: --jobs: expected an integer ≥ 1, got 0\n');
});
