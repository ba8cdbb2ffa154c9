import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';
import { tinySuite } from './tiny-suite.js';

const dir = tempDir('suite-run');
const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function writeSuite(name: string, suite: Record<string, unknown>): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(suite));
  return path;
}

/** The report page's structure, checked without a browser. */
function checkHtml(html: string, methods: readonly string[], verdicts: number): void {
  assert.match(html, /^<!DOCTYPE html>/);
  assert.doesNotMatch(html, /<script|<link |<img |@import|url\(http/i, 'self-contained: no scripts, no external resources');
  assert.deepEqual(
    [...html.matchAll(/(?:src|href)="([^"#][^"]*)"/g)].map((m) => m[1]),
    [],
    'nothing fetched',
  );
  const table = /<table class="results">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  assert.match(table, /<th>Acc\. \(%\)<\/th><th>ECE \(%\)<\/th>/);
  assert.match(table, /<th>ECE after TS \(%\)<\/th><th>NLL after TS<\/th><th>T<\/th>/);
  for (const m of methods) assert.match(table, new RegExp(`<th scope="row">${m}</th>`));
  assert.ok((table.match(/<b>/g) ?? []).length >= 4, 'best value per column in bold');
  assert.equal((html.match(/<tr class="verdict">/g) ?? []).length, verdicts);
  assert.match(html, /<td class="verdict-(holds|contradicted|inconclusive)">/);
  for (const id of ['fig-reliability-before', 'fig-reliability-temperature', 'fig-epochs-val_ece', 'fig-epochs-val_accuracy']) {
    const fig = new RegExp(`<figure id="${id}"><svg [^>]*viewBox="[^"]+"[\\s\\S]*?</svg><figcaption>`).exec(html);
    assert.ok(fig, id);
    assert.match(fig[0], /<g class="legend"/, `${id} has a legend`);
  }
  assert.equal((/<figure id="fig-reliability-before">[\s\S]*?<\/figure>/.exec(html)![0].match(/class="reliability-diagram"/g) ?? []).length, methods.length, 'one small multiple per method');
  const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
  assert.equal(new Set(ids).size, ids.length, 'element ids are unique on the page');
  assert.match(html, /15 bins/);
  assert.match(html, /\(l,u\]/);
}

/** Whether process `pid` still runs. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const json = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

test('suite run trains every run into an ordinary run directory, fits TS, writes the report; a second call skips them', async () => {
  const file = writeSuite('tiny', tinySuite());
  const out = join(dir, 'a');
  const r = await run(['suite', 'run', file, '--out', out, '--jobs', '2', '--threads', '2', '--progress', 'lines']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.match(r.stdout, /suite tiny \(quick\): 2 runs into .*, 2 side by side with 1 thread\(s\) each/);
  assert.match(r.stdout, /^done   ce-seed0 \(/m);
  assert.match(r.stdout, /suite: 2\/2 done, 0 running, 0 left/);
  assert.match(r.stdout, /"mbls < ce on ece": (holds|contradicted|inconclusive) \(difference/);
  for (const id of ['ce-seed0', 'mbls-seed0']) {
    for (const f of ['config.json', 'log.jsonl', 'summary.json', 'test-logits.npy', 'val-labels.npy', 'posthoc.json']) assert.ok(existsSync(join(out, 'runs', id, f)), `${id}/${f}`);
  }
  const config = json(join(out, 'runs', 'mbls-seed0', 'config.json'));
  assert.equal(config['loss'], 'mbls');
  assert.equal(config['threads'], 1);
  // posthoc.json holds what calib fit + calib eval give on the run directory's files.
  const posthoc = json(join(out, 'runs', 'ce-seed0', 'posthoc.json')) as {
    test: Record<string, number>;
    calibrators: { temperature: { calibrator: { temperature: number }; test: Record<string, number> } };
  };
  const ev = await run(['eval', '--logits', join(out, 'runs', 'ce-seed0', 'test-logits.npy'), '--labels', join(out, 'runs', 'ce-seed0', 'test-labels.npy'), '--json']);
  assert.equal(ev.code, 0, ev.stderr);
  const evJson = JSON.parse(ev.stdout) as Record<string, number>;
  for (const k of ['accuracy', 'ece', 'nll', 'adaece', 'brier']) assert.equal(posthoc.test[k], evJson[k], k);
  const fit = await run([
    'fit',
    '--method',
    'temperature',
    '--logits',
    join(out, 'runs', 'ce-seed0', 'val-logits.npy'),
    '--labels',
    join(out, 'runs', 'ce-seed0', 'val-labels.npy'),
    '--out',
    join(dir, 'ts.json'),
  ]);
  assert.equal(fit.code, 0, fit.stderr);
  assert.equal((json(join(dir, 'ts.json')) as { temperature: number }).temperature, posthoc.calibrators.temperature.calibrator.temperature);
  const plot = await run([
    'plot',
    '--logits',
    join(out, 'runs', 'ce-seed0', 'test-logits.npy'),
    '--labels',
    join(out, 'runs', 'ce-seed0', 'test-labels.npy'),
    '--calibrator',
    join(dir, 'ts.json'),
    '--before-after',
    'overlay',
    '--out',
    join(dir, 'ba.svg'),
  ]);
  assert.equal(plot.code, 0, plot.stderr);
  assert.match(
    plot.stdout,
    new RegExp(
      `^wrote before/after temperature \\(overlay\\) of 200 samples \\(ECE ${(posthoc.test['ece']! * 100).toFixed(2)}% -> ${(posthoc.calibrators.temperature.test['ece']! * 100).toFixed(2)}%`,
    ),
  );
  assert.match(readFileSync(join(dir, 'ba.svg'), 'utf8'), /class="series-after"/);
  for (const f of ['report.md', 'report.html', 'report.json']) assert.ok(existsSync(join(out, f)), f);
  const report = json(join(out, 'report.json')) as { runs: { id: string; test: Record<string, number> }[]; verdicts: { claim: string; outcome: string }[] };
  assert.deepEqual(
    report.runs.map((x) => x.id),
    ['ce-seed0', 'mbls-seed0'],
  );
  assert.equal(report.runs[0]!.test['ece'], evJson['ece']);
  assert.deepEqual(
    report.verdicts.map((v) => v.claim),
    ['mbls < ce on ece', 'mbls < ce on nll after temperature'],
  );

  checkHtml(readFileSync(join(out, 'report.html'), 'utf8'), ['CE', 'MbLS'], 2);
  const md = readFileSync(join(out, 'report.md'), 'utf8');
  for (const m of md.matchAll(/\]\((report-figures\/[^)]+\.svg)\)/g)) assert.ok(existsSync(join(out, m[1]!)), m[1]);
  assert.match(md, /\| Method \| Acc\. \(%\) \| ECE \(%\) \|/);
  // The run recorded its runs side by side (sessions.json), so the report's Compute paragraph states machine-hours.
  const sessions = json(join(out, 'sessions.json')) as { sessions: { jobs: number; threads: number[]; executor: string }[] };
  assert.deepEqual(
    sessions.sessions.map((x) => [x.jobs, x.threads, x.executor]),
    [[2, [1], 'local']],
  );
  const compute = (json(join(out, 'report.json')) as { compute: Record<string, unknown> }).compute;
  assert.deepEqual([compute['runs_finished'], compute['runs_reused'], compute['jobs'], compute['jobs_source']], [2, 0, 2, 'recorded']);
  assert.ok((compute['machine_hours'] as number) > 0 && (compute['machine_hours'] as number) <= (compute['run_hours'] as number) / 2 + 1e-12);
  assert.match(md, /\*\*Compute:\*\* 2 runs trained in this directory and finished, 0 unfinished, 0 copied from other suites .*÷ 2 side by side \(recorded in sessions\.json\)/);

  const again = await run(['suite', 'run', file, '--out', out, '--progress', 'none', '--report=false']);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /2\/2 runs done \(0 trained now/);
  // A second session with other --jobs: the record keeps both, and the measure no longer has one number to divide by.
  assert.equal((json(join(out, 'sessions.json')) as { sessions: unknown[] }).sessions.length, 2);
  const status = await run(['suite', 'status', out]);
  assert.equal(status.code, 0);
  assert.match(status.stdout, /2 runs — 2 done, 0 failed, 0 interrupted, 0 not started/);
  assert.match(status.stdout, /^measured so far: 2 runs trained here \(2 finished, 0 unfinished; 0 reused\): .* ÷ 1 side by side \(--jobs; the sessions ran 2 and 1\)/m);

  // A run whose lock a live process holds is being trained or finalised: status says running, not broken.
  const lock = join(out, 'runs', 'ce-seed0', 'run.lock');
  const posthocFile = join(out, 'runs', 'ce-seed0', 'posthoc.json');
  const kept = readFileSync(posthocFile);
  rmSync(posthocFile);
  writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), started: '2026-11-28T06:00:00.000Z' }));
  const busy = await run(['suite', 'status', out]);
  assert.equal(busy.code, 1);
  assert.match(busy.stdout, /2 runs — 1 done, 0 failed, 0 interrupted, 0 not started, 1 running/);
  assert.match(busy.stdout, new RegExp(`running {2}ce-seed0 .*in progress: process ${process.pid} holds its lock`));
  // A lock left by a process that is gone is stale: the run's own state shows (post-hoc step left).
  const gone = spawnSync(process.execPath, ['-e', '0']).pid;
  writeFileSync(lock, JSON.stringify({ pid: gone, host: hostname(), started: '2026-11-28T06:00:00.000Z' }));
  const stale = await run(['suite', 'status', out]);
  assert.match(stale.stdout, /trained {2}ce-seed0 .*post-hoc step left/);
  rmSync(lock);
  writeFileSync(posthocFile, kept);

  // An output missing beside the final checkpoint (a run stopped during its final evaluation): resumed, not retrained.
  const runDir = join(out, 'runs', 'ce-seed0');
  const logBefore = readFileSync(join(runDir, 'log.jsonl'), 'utf8');
  const testLogits = readFileSync(join(runDir, 'test-logits.npy'));
  rmSync(join(runDir, 'test-logits.npy'));
  const missing = await run(['suite', 'status', out]);
  assert.match(missing.stdout, /broken {3}ce-seed0 .*test-logits\.npy: missing — calib suite run resumes it from its final checkpoint/);
  const resumed = await run(['suite', 'run', file, '--out', out, '--progress', 'lines', '--report=false']);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stdout, /^resume ce-seed0: broken files: .*test-logits\.npy: missing \(redoing its final evaluation\)$/m);
  assert.equal(readFileSync(join(runDir, 'log.jsonl'), 'utf8'), logBefore, 'no epoch trained again');
  assert.deepEqual(readFileSync(join(runDir, 'test-logits.npy')), testLogits, 'the same logits from the same weights');
});

test('one failing run does not stop the others: the summary names it, the exit code is 1, a re-run completes it', async () => {
  const file = writeSuite('fail', tinySuite({ name: 'fail' }));
  const out = join(dir, 'b');
  mkdirSync(join(out, 'runs'), { recursive: true });
  // The directory of this suite (--out takes no other), with a file where a run directory should be.
  writeFileSync(join(out, 'suite.json'), JSON.stringify({ format: 1, scale: 'quick', suite: { name: 'fail' }, runs: [] }));
  writeFileSync(join(out, 'runs', 'ce-seed0'), 'a file where the run directory should be');
  const r = await run(['suite', 'run', file, '--out', out, '--progress', 'lines']);
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stdout, /^ {2}failed: ce-seed0: /m);
  assert.equal(JSON.parse(readFileSync(join(out, 'logs', 'ce-seed0.failed.json'), 'utf8')).kind, 'error', 'a failure that is not a divergence');
  assert.match(r.stdout, /1\/2 runs done/);
  assert.ok(existsSync(join(out, 'runs', 'mbls-seed0', 'posthoc.json')));
  assert.ok(existsSync(join(out, 'report.html')), 'the report covers the finished runs');
  assert.match(
    readFileSync(join(out, 'report.md'), 'utf8'),
    /\*\*Partial report:\*\* 1 of 2 runs finished; a claim reading a method with an unfinished run is not evaluated .* Not finished: ce-seed0/,
  );
  const status = await run(['suite', 'status', out]);
  assert.equal(status.code, 1);
  assert.match(status.stdout, /failed {3}ce-seed0/);
  rmSync(join(out, 'runs', 'ce-seed0'));
  const again = await run(['suite', 'run', file, '--out', out, '--progress', 'none']);
  assert.equal(again.code, 0, again.stdout);
  assert.match(again.stdout, /2\/2 runs done \(1 trained now/);
});

test('a run whose training loss becomes NaN is recorded by the trainer as diverged: failed.json kind "diverged", the report lists it as diverged', async () => {
  const file = writeSuite(
    'nan',
    tinySuite({
      name: 'nan',
      methods: [
        { name: 'ce', label: 'CE' },
        { name: 'hot', label: 'CE at lr 1e10', lr: 1e10 },
      ],
      compare: [],
    }),
  );
  const out = join(dir, 'nan');
  const r = await run(['suite', 'run', file, '--out', out, '--progress', 'none']);
  assert.equal(r.code, 1, r.stdout);
  const failed = JSON.parse(readFileSync(join(out, 'logs', 'hot-seed0.failed.json'), 'utf8'));
  assert.equal(failed.kind, 'diverged');
  assert.match(failed.error, /the training loss became (NaN|-?Infinity)/);
  assert.deepEqual(JSON.parse(readFileSync(join(out, 'runs', 'hot-seed0', 'failure.json'), 'utf8')).kind, 'diverged', "the trainer's own record");
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
  assert.deepEqual(
    report.diverged.map((d: { id: string }) => d.id),
    ['hot-seed0'],
  );
});

test('a suite killed mid-run (SIGKILL) resumes to the same results as an uninterrupted one', async () => {
  const suite = tinySuite({ name: 'kill', base: { ...(tinySuite().base as object), epochs: 8 }, methods: [{ name: 'ce' }], compare: [] });
  const file = writeSuite('kill', suite);
  const clean = join(dir, 'clean');
  const r0 = await run(['suite', 'run', file, '--out', clean, '--threads', '1', '--progress', 'none', '--report=false']);
  assert.equal(r0.code, 0, r0.stdout);

  const out = join(dir, 'killed');
  const child = spawn(process.execPath, [CLI, 'suite', 'run', file, '--out', out, '--threads', '1', '--progress', 'none', '--report=false'], { stdio: 'ignore' });
  const log = join(out, 'runs', 'ce-seed0', 'log.jsonl');
  const t0 = Date.now();
  while (!(existsSync(log) && readFileSync(log, 'utf8').split('\n').length > 2)) {
    if (Date.now() - t0 > 120_000) throw new Error('the run never reached epoch 2');
    await new Promise((res) => setTimeout(res, 50));
  }
  child.kill('SIGKILL');
  await new Promise((res) => child.on('close', res));
  assert.ok(!existsSync(join(out, 'runs', 'ce-seed0', 'summary.json')), 'killed before the end');
  // The orphaned training child notices its parent is gone (train-child.ts) and dies; wait for its lock's PID to go.
  const lock = join(out, 'runs', 'ce-seed0', 'run.lock');
  const orphan = existsSync(lock) ? (JSON.parse(readFileSync(lock, 'utf8')) as { pid: number }).pid : null;
  const killedAt = Date.now();
  while (orphan !== null && processAlive(orphan)) {
    if (Date.now() - killedAt > 10_000) throw new Error(`the orphaned training child ${orphan} kept running after its parent was killed`);
    await new Promise((res) => setTimeout(res, 50));
  }
  const status = await run(['suite', 'status', out]);
  assert.match(status.stdout, /(partial|pending) +ce-seed0/);
  const r1 = await run(['suite', 'run', file, '--out', out, '--progress', 'lines', '--threads', '1', '--report=false']);
  assert.equal(r1.code, 0, r1.stdout);
  const a = json(join(clean, 'runs', 'ce-seed0', 'posthoc.json'));
  const b = json(join(out, 'runs', 'ce-seed0', 'posthoc.json'));
  assert.deepEqual(b['test'], a['test']);
  assert.deepEqual(b['calibrators'], a['calibrators']);
});

test('calib suite list / show / errors', async () => {
  const list = await run(['suite', 'list']);
  assert.match(list.stdout, /^demo +CE, LS, focal, MbLS and mixup/m);
  const show = await run(['suite', 'show', 'demo', '--scale', 'machine']);
  const shown = JSON.parse(show.stdout) as { base: Record<string, unknown>; scales?: unknown };
  assert.equal(shown.base['epochs'], 60);
  assert.equal(shown.scales, undefined, 'a standalone file at that scale');
  const file = join(dir, 'shown.json');
  writeFileSync(file, show.stdout);
  assert.equal((await run(['suite', 'show', file])).code, 0, 'what show prints is a valid suite file');
  const bad = writeSuite('bad', { ...tinySuite(), methods: [{ name: 'ce', epochz: 3 }] });
  const e = await run(['suite', 'run', bad, '--out', join(dir, 'never')]);
  assert.equal(e.code, 2);
  assert.match(e.stderr, /^calib: error: .*bad\.json\.methods\[0\]\.epochz: expected a known key \(did you mean epochs\?\), got an unknown key\n$/);
  assert.ok(!existsSync(join(dir, 'never')));
  assert.match(
    (await run(['suite', 'run', 'no-such-suite'])).stderr,
    /suite run: expected a built-in suite \(demo, demo-margin, maronas, thulasidasan, mbls, mbls-segmentation, acls, karandikar, thulasidasan-text, mbls-text\) or a readable suite file, got "no-such-suite"/,
  );
  assert.match((await run(['suite', 'status', join(dir, 'nothing')])).stderr, /expected a suite directory/);
});
