import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

/**
 * The hardness catalogue, issue 28 ("a suite's results are exactly what its settings produce"): run identity,
 * stale results, broken runs, --out, limits before work. Every case goes through the CLI in-process. The suites are
 * tiny (300 MNIST images, a 16-unit MLP, one epoch), so the whole file trains about a dozen runs of a few seconds.
 */

const dir = tempDir('hardness-suite');
const p = (...parts: string[]): string => join(dir, ...parts);

const BASE = { dataset: 'mnist', subset: 300, testSubset: 200, validation: 100, modelOptions: { hidden: [16] }, batch: 50, epochs: 1, select: 'last', threads: 1 };

function suite(extra: Record<string, unknown> = {}, methods?: unknown[]): Record<string, unknown> {
  return { name: 'ident', base: BASE, methods: methods ?? [{ name: 'ce' }, { name: 'ls', loss: 'ls' }], compare: ['ls < ce on ece'], ...extra };
}

function writeSuite(name: string, s: Record<string, unknown>): string {
  const file = p(`${name}.json`);
  writeFileSync(file, JSON.stringify(s));
  return file;
}

async function suiteRun(file: string, out: string, extra: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await run(['suite', 'run', file, '--out', out, '--progress', 'none', ...extra]);
  assert.equal(r.code, 0, `suite run ${file} --out ${out}: ${r.stdout}${r.stderr}`);
  return r;
}

/** report.json (of a suite directory, or a file) without what legitimately differs between two directories (durations, timestamps). */
function reportOf(out: string): unknown {
  const path = out.endsWith('.json') ? out : join(out, 'report.json');
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v)
          // Timings, and the Compute paragraph's measured hours of this machine, differ from run to run.
          .filter(([k]) => !/time|seconds|duration|per_s$|^compute$/.test(k))
          .map(([k, x]) => [k, strip(x)]),
      );
    return v;
  };
  return strip(JSON.parse(readFileSync(path, 'utf8')));
}

/** Exit 2, one stderr line matching `pattern`, no stack trace. */
async function refused(argv: string[], pattern: RegExp): Promise<string> {
  const r = await run(argv);
  assert.equal(r.code, 2, `${argv.join(' ')} -> ${r.code}: ${r.stdout}${r.stderr}`);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
  assert.match(r.stderr, pattern);
  return r.stderr;
}

const copy = (from: string, to: string): string => {
  cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  return to;
};

// The suite every case below starts from, trained once: A.
const A = p('A');
const fileA = writeSuite('a', suite());

test(
  'issue 28 case 1 (done when): a rerun after a change of bins, post-hoc calibrators, a hyperparameter or the data subset gives exactly the report a fresh directory gives',
  { timeout: 900_000 },
  async () => {
    const first = await suiteRun(fileA, A);
    assert.match(first.stdout, /2\/2 runs done \(2 trained now/);
    // base.threads is honoured when --threads is not given (the default would be the CPU count).
    const cfg = JSON.parse(readFileSync(join(A, 'runs', 'ce-seed0', 'config.json'), 'utf8')) as { threads: number };
    if (availableParallelism() > 1) assert.equal(cfg.threads, 1, 'base.threads, not the --threads default');
    const initial = reportOf(A);

    // 1. Bins 15 → 20 and a second calibrator: only the post-hoc step is redone, and the report is a fresh one's.
    const s1 = suite({ bins: 20, posthoc: ['temperature', 'isotonic'] });
    const r1 = await suiteRun(writeSuite('s1', s1), A);
    assert.match(r1.stdout, /2\/2 runs done \(0 trained now, 2 post-hoc refitted/);
    assert.match(r1.stdout, /^refit {3}ce-seed0: post-hoc settings changed \(calibrators temperature → temperature, isotonic; bins 15 → 20\)$/m);
    const fresh1 = p('fresh1');
    await suiteRun(writeSuite('s1', s1), fresh1);
    assert.deepEqual(reportOf(A), reportOf(fresh1));
    assert.notDeepEqual(reportOf(A), initial, 'the bins change changes the report');
    const table = (reportOf(A) as { tables: { columns: { label: string }[] }[] }).tables[0]!;
    assert.ok(
      table.columns.some((c) => /isotonic|Iso/i.test(c.label)),
      'the new calibrator has its column',
    );

    // 2. A hyperparameter of one method: that run alone is retrained, saying why.
    const s2 = suite({ bins: 20, posthoc: ['temperature', 'isotonic'] }, [
      { name: 'ce', lr: 0.05 },
      { name: 'ls', loss: 'ls' },
    ]);
    const r2 = await suiteRun(writeSuite('s2', s2), A);
    assert.match(r2.stdout, /^retrain ce-seed0: training settings changed \(lr 0\.1 → 0\.05\)$/m);
    assert.match(r2.stdout, /2\/2 runs done \(1 trained now/);
    assert.doesNotMatch(r2.stdout, /ls-seed0:/, 'the unchanged run is left alone');

    // 3. The data subset of the other method: that run is retrained; the whole report is a fresh directory's.
    const s3 = suite({ bins: 20, posthoc: ['temperature', 'isotonic'] }, [
      { name: 'ce', lr: 0.05 },
      { name: 'ls', loss: 'ls', subset: 250 },
    ]);
    const r3 = await suiteRun(writeSuite('s3', s3), A);
    assert.match(r3.stdout, /^retrain ls-seed0: training settings changed \(subset 300 → 250\)$/m);
    assert.match(r3.stdout, /2\/2 runs done \(1 trained now/);
    const fresh3 = p('fresh3');
    await suiteRun(writeSuite('s3', s3), fresh3);
    assert.deepEqual(reportOf(A), reportOf(fresh3));

    // Back to the first suite: both runs retrained, post-hoc refitted, the first report again.
    const back = await suiteRun(fileA, A);
    assert.match(back.stdout, /2\/2 runs done \(2 trained now/);
    assert.deepEqual(reportOf(A), initial);
  },
);

test('issue 28 case 2: calib report states the settings the runs recorded, not an edited suite.json (lr 0.1 → 0.5)', async () => {
  const d = copy(A, p('edited-record'));
  const recordPath = join(d, 'suite.json');
  const record = JSON.parse(readFileSync(recordPath, 'utf8')) as { runs: { config: { lr: number } }[] };
  for (const r of record.runs) r.config.lr = 0.5;
  writeFileSync(recordPath, JSON.stringify(record));
  const r = await run(['report', d]);
  assert.equal(r.code, 0, r.stderr);
  const md = readFileSync(join(d, 'report.md'), 'utf8');
  assert.match(md, /, lr 0\.1,/);
  assert.doesNotMatch(md, /lr 0\.5,/);
  assert.match(md, /runs ce-seed0, ls-seed0 were trained with other settings than suite\.json lists \(config\.json → suite\.json: lr 0\.1 → 0\.5\)/);
  const json = JSON.parse(readFileSync(join(d, 'report.json'), 'utf8')) as { runs: { config: { lr: number } }[]; notes: string[] };
  assert.deepEqual(
    json.runs.map((x) => x.config.lr),
    [0.1, 0.1],
  );
  assert.equal(json.notes.length, 1);
});

test(
  'issue 28 case 3: a run filed under another method (a copy, a symbolic link, an edited config.json) is refused by the report and retrained by suite run, the original left alone',
  { timeout: 300_000 },
  async () => {
    // A copy of the CE run as the LS run.
    const c = copy(A, p('copied'));
    rmSync(join(c, 'runs', 'ls-seed0'), { recursive: true });
    cpSync(join(c, 'runs', 'ce-seed0'), join(c, 'runs', 'ls-seed0'), { recursive: true });
    await refused(['report', c], /^calib: error: run ls-seed0: .*copied\/runs\/ls-seed0\/identity\.json records run ce-seed0 \(method ce, seed 0\): a copy of another run$/m);
    const status = await run(['suite', 'status', c]);
    assert.equal(status.code, 1);
    assert.match(status.stdout, /^ {2}broken {3}ls-seed0 .*identity\.json records run ce-seed0/m);

    // An edited config.json.
    const e = copy(A, p('hand-edited'));
    const cfgPath = join(e, 'runs', 'ce-seed0', 'config.json');
    writeFileSync(cfgPath, readFileSync(cfgPath, 'utf8').replace('"lr": 0.1', '"lr": 0.5'));
    await refused(['report', e], /run ce-seed0: .*hand-edited\/runs\/ce-seed0\/config\.json differs from the settings the run was trained with/);

    // A symbolic link to the CE run: refused; suite run replaces the link (not its target) by a trained LS run.
    const l = copy(A, p('linked'));
    rmSync(join(l, 'runs', 'ls-seed0'), { recursive: true });
    symlinkSync('ce-seed0', join(l, 'runs', 'ls-seed0'));
    await refused(['report', l], /run ls-seed0: .*linked\/runs\/ls-seed0 is a symbolic link \(to ce-seed0\)/);
    const ceBefore = readdirSync(join(l, 'runs', 'ce-seed0')).map((f) => [f, readFileSync(join(l, 'runs', 'ce-seed0', f))]);
    // --threads given overrides the suite's base.threads.
    const repaired = await suiteRun(fileA, l, ['--threads', '2', '--report=false']);
    assert.match(repaired.stdout, /^retrain ls-seed0: .*is a symbolic link/m);
    assert.match(repaired.stdout, /2\/2 runs done \(1 trained now/);
    assert.ok(!lstatSync(join(l, 'runs', 'ls-seed0')).isSymbolicLink());
    for (const [f, bytes] of ceBefore) assert.deepEqual(readFileSync(join(l, 'runs', 'ce-seed0', f as string)), bytes, `ce-seed0/${f} untouched`);
    assert.equal((JSON.parse(readFileSync(join(l, 'runs', 'ls-seed0', 'config.json'), 'utf8')) as { threads: number }).threads, 2, '--threads overrides base.threads');
    assert.equal((JSON.parse(readFileSync(join(l, 'runs', 'ls-seed0', 'identity.json'), 'utf8')) as { method: string }).method, 'ls');
    const ok = await run(['report', l]);
    assert.equal(ok.code, 0, ok.stderr);
  },
);

test("issue 28 case 4: --out must be new, empty or the same suite's; anything else is refused before any write", async () => {
  const user = p('users-dir');
  mkdirSync(user);
  writeFileSync(join(user, 'report.html'), '<p>my own report</p>');
  await refused(
    ['suite', 'run', fileA, '--out', user, '--progress', 'none'],
    /--out: expected a new or empty directory, or the directory of suite ident at scale quick .*holds report\.html and no suite\.json/,
  );
  assert.deepEqual(readdirSync(user), ['report.html']);
  assert.equal(readFileSync(join(user, 'report.html'), 'utf8'), '<p>my own report</p>');
  // Another suite's directory, the same suite at another scale, a file.
  const other = writeSuite('other', { ...suite(), name: 'other-suite' });
  await refused(['suite', 'run', other, '--out', A, '--progress', 'none'], /--out: .*got the directory of suite ident .*use another --out/);
  const scaled = writeSuite('scaled', { ...suite(), scales: { quick: {}, machine: { epochs: 2 } } });
  await refused(['suite', 'run', scaled, '--out', A, '--scale', 'machine', '--progress', 'none'], /--out: .*got the directory of suite ident at scale "quick" .*--scale quick/);
  writeFileSync(p('a-file'), 'x');
  await refused(['suite', 'run', fileA, '--out', p('a-file'), '--progress', 'none'], /--out: .*a-file" \(a file\)/);
  // An empty directory is fine (refused later here only because of an unreachable bin count, so nothing trains).
  mkdirSync(p('empty'));
  await refused(['suite', 'run', writeSuite('bins', suite({ bins: 1e9 })), '--out', p('empty'), '--progress', 'none'], /bins: expected an integer ≤ 1000/);
});

test(
  'issue 28: broken runs (NaN logits, deleted logits, a corrupt posthoc.json) are shown by status naming run and file, refused by the report, repaired by suite run',
  { timeout: 300_000 },
  async () => {
    const b = copy(A, p('broken'));
    const { writeNpy, readNpy } = await import('../../src/io/npy.js');
    const logits = join(b, 'runs', 'ce-seed0', 'test-logits.npy');
    const z = await readNpy(logits);
    const data = Float32Array.from(z.data as Float32Array);
    data[7] = Number.NaN;
    await writeNpy(logits, data, [...z.shape]);
    const valLogits = join(b, 'runs', 'ls-seed0', 'val-logits.npy');
    const saved = readFileSync(valLogits);
    rmSync(valLogits);
    const s = await run(['suite', 'status', b]);
    assert.equal(s.code, 1);
    assert.match(s.stdout, /^ {2}broken {3}ce-seed0 .*broken\/runs\/ce-seed0\/test-logits\.npy: 1 non-finite value \(NaN or ±∞\) of 2000 — calib suite run retrains it$/m);
    // A missing output beside the final checkpoint: resumed (the final evaluation redone), not retrained.
    assert.match(s.stdout, /^ {2}broken {3}ls-seed0 .*broken\/runs\/ls-seed0\/val-logits\.npy: missing — calib suite run resumes it from its final checkpoint/m);
    await refused(['report', b], /^calib: error: run ce-seed0: .*broken\/runs\/ce-seed0\/test-logits\.npy: 1 non-finite value/);

    writeFileSync(valLogits, saved);
    writeFileSync(join(b, 'runs', 'ls-seed0', 'posthoc.json'), '{"bins": 15, "test": {');
    const s2 = await run(['suite', 'status', b]);
    assert.match(s2.stdout, /^ {2}broken {3}ls-seed0 .*broken\/runs\/ls-seed0\/posthoc\.json: not valid JSON .* — calib suite run refits it$/m);
    await refused(['report', b], /run ce-seed0: /);

    const r = await suiteRun(fileA, b);
    assert.match(r.stdout, /^retrain ce-seed0: broken files: .*test-logits\.npy: 1 non-finite value/m);
    assert.match(r.stdout, /^refit {3}ls-seed0: .*posthoc\.json: not valid JSON/m);
    assert.match(r.stdout, /2\/2 runs done \(1 trained now, 1 post-hoc refitted/);
    const done = await run(['suite', 'status', b]);
    assert.equal(done.code, 0, done.stdout);
    assert.deepEqual(reportOf(b), reportOf(A), 'the repaired directory reports what the intact one does');
  },
);

test('issue 28: suite settings are checked before the first run — bins 1e9, a subset larger than the dataset, a sweep past the run limit, a 50 MB suite file; nothing is written', async () => {
  const out = p('never-written');
  const argv = (file: string): string[] => ['suite', 'run', file, '--out', out, '--progress', 'none'];
  await refused(argv(writeSuite('huge-bins', suite({ bins: 1e9 }))), /^calib: error: .*huge-bins\.json\.bins: expected an integer ≤ 1000, got 1000000000$/m);
  await refused(
    argv(
      writeSuite(
        'huge-subset',
        suite({}, [
          { name: 'ce', subset: 100000 },
          { name: 'ls', loss: 'ls' },
        ]),
      ),
    ),
    /run ce-seed0: config\.subset: expected at most the 8000 training samples of mnist, got 100000/,
  );
  await refused(
    argv(
      writeSuite(
        'huge-test',
        suite({}, [
          { name: 'ce', testSubset: 5000 },
          { name: 'ls', loss: 'ls' },
        ]),
      ),
    ),
    /run ce-seed0: config\.testSubset: expected at most the 2000 test samples of mnist, got 5000/,
  );
  const t0 = performance.now();
  const values = Array.from({ length: 20_000 }, (_, i) => i);
  await refused(
    argv(writeSuite('huge-sweep', suite({ sweeps: [{ key: 'lr', values }] }))),
    /expected a suite of at most 10000 runs \(methods × sweep values × seeds\), got 40000 runs .*sweeps\[0\] has 20000 values/,
  );
  assert.ok(performance.now() - t0 < 10_000, 'refused at once');
  const big = p('huge-file.json');
  writeFileSync(big, JSON.stringify({ ...suite(), description: 'x'.repeat(50 * 1024 * 1024) }));
  await refused(argv(big), /suite run: expected a suite file of at most 1048576 bytes \(1 MiB\), got ".*huge-file\.json" of 5242\d{4} bytes/);
  assert.ok(!existsSync(out), 'nothing was written');
  // calib train refuses the subset too (it used to train on the whole set and record the subset as given).
  await refused(['train', '--dataset', 'mnist', '--subset', '100000', '--epochs', '1', '--out', p('train-out')], /config\.subset: expected at most the 8000 training samples of mnist, got 100000/);
});

test(
  'issue 28: a suite directory written before run identities were recorded (main at 9dca112) is adopted, not retrained; its report is unchanged; a bins change only refits it',
  { timeout: 300_000 },
  async () => {
    const fixture = join(process.cwd(), 'test', 'fixtures', 'legacy-suite');
    const d = copy(join(fixture, 'dir'), p('legacy'));
    const file = join(fixture, 'suite-file.json');
    const status = await run(['suite', 'status', d]);
    assert.equal(status.code, 0, status.stdout);
    assert.match(status.stdout, /^ {2}done {5}ce-seed0 .*trained before run identities were recorded/m);
    const r = await suiteRun(file, d, ['--threads', '1']);
    assert.match(
      r.stdout,
      /^adopt {3}ce-seed0: trained before run identities were recorded; its config\.json has the suite's training settings \(kept, identity\.json written\); its posthoc\.json has the suite's bins and calibrators \(kept\)$/m,
    );
    assert.match(r.stdout, /2\/2 runs done \(0 trained now, 2 adopted/);
    const identity = JSON.parse(readFileSync(join(d, 'runs', 'ce-seed0', 'identity.json'), 'utf8')) as { adopted?: boolean; method: string };
    assert.equal(identity.adopted, true);
    const mine = reportOf(d) as { notes?: unknown; calibkit?: unknown; runs: { identity?: { posthoc: unknown } }[] };
    assert.deepEqual(mine.notes, []);
    assert.ok(
      mine.runs.every((x) => x.identity?.posthoc !== null),
      'the adopted posthoc.json records its identity',
    );
    // What main's report.json did not have yet: the notes, the calibkit version and the runs' identities. The claims
    // framework merged since changed how verdicts and findings are written, so the numbers are compared: the runs, the
    // methods and every table.
    delete mine.notes;
    delete mine.calibkit;
    for (const x of mine.runs) delete x.identity;
    const main = reportOf(join(fixture, 'main-report.json')) as Record<string, unknown>;
    const numbers = mine as unknown as Record<string, unknown>;
    for (const key of ['suite', 'scale', 'bins', 'convention', 'select', 'missing', 'runs', 'methods', 'tables', 'ood_tables', 'shift_severity_tables', 'ensembles']) {
      assert.deepEqual(numbers[key], main[key], `report.json ${key}: the report main wrote for this directory`);
    }
    const again = await suiteRun(file, d, ['--threads', '1']);
    assert.match(again.stdout, /2\/2 runs done \(0 trained now, [\d.]+ s\)/, 'adopted once; up to date afterwards');
    const rebinned = writeSuite('legacy-bins', { ...(JSON.parse(readFileSync(file, 'utf8')) as object), bins: 10 });
    const refit = await suiteRun(rebinned, d, ['--threads', '1']);
    assert.match(refit.stdout, /2\/2 runs done \(0 trained now, 2 post-hoc refitted/);
    assert.equal((JSON.parse(readFileSync(join(d, 'runs', 'ls-seed0', 'posthoc.json'), 'utf8')) as { bins: number }).bins, 10);
  },
);
