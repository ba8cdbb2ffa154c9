import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILTER_CORRUPTIONS } from '../../src/data/corruptions/corruptions.js';
import { readLabelsFile, readMatrixFile } from '../../src/io/read-predictions.js';
import { auroc } from '../../src/metrics/selective/auroc.js';
import { evaluate } from '../../src/metrics/accumulators/evaluate.js';
import { fitCalibrator } from '../../src/posthoc/registry.js';
import { runPosthoc } from '../../src/suite/posthoc-step.js';
import { writeSuiteReport } from '../../src/suite/report/write-suite-report.js';
import type { ShiftReport } from '../../src/train/evaluation/shift-metrics.js';
import type { Matrix } from '../../src/util/matrix.js';
import { run } from '../cli/capture.js';
import { tempDir } from '../io/temp-dir.js';
import { tinySuite } from './tiny-suite.js';

const dir = tempDir('shift-posthoc');
const json = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

/** max_k p_ik of probabilities, by hand. */
function maxProb(m: Matrix): Float64Array {
  const out = new Float64Array(m.rows);
  for (let i = 0; i < m.rows; i++) out[i] = Math.max(...Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
  return out;
}
const meanOf = (a: ArrayLike<number>): number => Array.from(a).reduce((s, v) => s + v, 0) / a.length;

const base = tinySuite()['base'] as Record<string, unknown>;
const suite = tinySuite({
  name: 'shift',
  base: { ...base, oodSubset: 40 },
  // Only CE takes the OOD / corruption passes (as the Karandikar suite sets `ood` on its NLL method).
  methods: [
    { name: 'ce', label: 'CE', ood: true },
    { name: 'mbls', label: 'MbLS', loss: 'mbls', lossOptions: { margin: 6 } },
  ],
  seeds: [0, 1],
  posthoc: ['temperature', 'ts-sb-ece'],
  compare: ['mbls < ce on ece'],
});

test('with ood, runs keep their shift logits, the post-hoc step applies each calibrator to them, the report draws ECE vs severity', { timeout: 600_000 }, async () => {
  const file = join(dir, 'shift.json');
  writeFileSync(file, JSON.stringify(suite));
  const out = join(dir, 'a');
  const r = await run(['suite', 'run', file, '--out', out, '--jobs', '2', '--threads', '1', '--progress', 'none']);
  assert.equal(r.code, 0, r.stderr + r.stdout);

  for (const seed of [0, 1]) {
    const rd = join(out, 'runs', `ce-seed${seed}`);
    const ood = json(join(rd, 'ood.json')) as unknown as ShiftReport;
    const files = readdirSync(join(rd, 'shift')).sort();
    const expected = [
      'in-labels.npy',
      'in-logits.npy',
      'noise-logits.npy',
      ...(ood.ood_dataset ? ['ood-logits.npy'] : []),
      ...FILTER_CORRUPTIONS.flatMap((c) => [1, 2, 3, 4, 5].map((s) => `${c}-s${s}-logits.npy`)),
    ].sort();
    assert.deepEqual(files, expected);
    // float32 [40, 10] + the 128-byte .npy header.
    assert.equal(statSync(join(rd, 'shift', 'contrast-s3-logits.npy')).size, 128 + 40 * 10 * 4);

    const read = (name: string) => readMatrixFile(join(rd, 'shift', name), name);
    const labels = await readLabelsFile(join(rd, 'shift', 'in-labels.npy'), 'in-labels');
    assert.equal(labels.length, 40);
    // The saved logits give ood.json's raw numbers back.
    const rawIn = evaluate(await read('in-logits.npy'), labels, { input: 'logits', bins: 15 });
    assert.equal(ood.in_distribution.ece, rawIn.ece);

    const posthoc = json(join(rd, 'posthoc.json')) as { calibrators: Record<string, { shift?: ShiftReport }>; failures?: Record<string, string> };
    const val = await readMatrixFile(join(rd, 'val-logits.npy'), 'val');
    const valLabels = await readLabelsFile(join(rd, 'val-labels.npy'), 'val-labels');
    const fitted = Object.keys(posthoc.calibrators);
    assert.ok(fitted.includes('temperature'));
    for (const kind of fitted) {
      const shift = posthoc.calibrators[kind]!.shift!;
      assert.ok(shift, `${kind} has a shift section`);
      assert.deepEqual(Object.keys(shift).sort(), Object.keys(ood).sort(), 'the same shape as ood.json');
      const c = fitCalibrator(kind as 'temperature', { logits: val }, valLabels);
      const calibrated = async (name: string) => c.apply({ logits: await read(name) });
      const inP = await calibrated('in-logits.npy');
      const inM = evaluate(inP, labels, { input: 'probabilities', bins: 15 });
      for (const k of ['accuracy', 'nll', 'ece', 'adaece', 'adaece_l2'] as const) assert.equal(shift.in_distribution[k], inM[k], `${kind} in-distribution ${k}`);
      assert.ok(Math.abs(shift.in_distribution.mean_confidence - meanOf(maxProb(inP))) < 1e-12);
      const noiseP = await calibrated('noise-logits.npy');
      assert.equal(shift.noise!.auroc, auroc(maxProb(inP), maxProb(noiseP)));
      assert.ok(Math.abs(shift.noise!.mean_confidence - meanOf(maxProb(noiseP))) < 1e-12);
      if (ood.ood_dataset) assert.equal(shift.ood_dataset!.auroc, auroc(maxProb(inP), maxProb(await calibrated('ood-logits.npy'))));
      assert.equal(shift.corruptions.length, 45);
      for (const s of shift.corruptions.filter((_, i) => i % 7 === 0)) {
        const m = evaluate(await calibrated(`${s.corruption}-s${s.severity}-logits.npy`), labels, { input: 'probabilities', bins: 15 });
        for (const k of ['accuracy', 'nll', 'ece', 'adaece', 'adaece_l2'] as const) assert.equal(s[k], m[k], `${kind} ${s.corruption}-${s.severity} ${k}`);
      }
      assert.equal(
        shift.confidence_histogram.in_distribution.reduce((a, b) => a + b, 0),
        40,
      );
    }
  }
  // A run without ood: no shift/ folder, no shift sections.
  assert.ok(!existsSync(join(out, 'runs', 'mbls-seed0', 'shift')));
  const mbls = json(join(out, 'runs', 'mbls-seed0', 'posthoc.json')) as { calibrators: Record<string, Record<string, unknown>> };
  assert.ok(Object.values(mbls.calibrators).every((c) => !('shift' in c)));

  // The report: the OOD table (a row per calibrator), ECE vs severity table and figure, numbers in report.json.
  const report = json(join(out, 'report.json')) as {
    ood_tables: { rows: { method: string; label: string; cells: { mean: number | null }[] }[]; columns: { key: string }[] }[];
    shift_severity_tables: { rows: { method: string; cells: { mean: number | null }[] }[] }[];
  };
  const fittedEverywhere = ['temperature', 'ts-sb-ece'].filter((k) =>
    [0, 1].some((s) => (json(join(out, 'runs', `ce-seed${s}`, 'posthoc.json')) as { calibrators: Record<string, unknown> }).calibrators[k]),
  );
  assert.deepEqual(
    report.ood_tables[0]!.rows.map((x) => x.method),
    ['ce', ...fittedEverywhere.map((k) => `ce+${k}`)],
  );
  assert.equal(report.ood_tables[0]!.rows[1]!.label, 'CE + TS');
  assert.deepEqual(
    report.ood_tables[0]!.columns.map((c) => c.key).filter((k) => k.startsWith('noise') || k.startsWith('corruptions')),
    ['noise:auroc', 'noise:mean_confidence', 'corruptions:accuracy', 'corruptions:ece'],
  );
  const sev = report.shift_severity_tables[0]!;
  assert.deepEqual(
    sev.rows.map((x) => x.method),
    report.ood_tables[0]!.rows.map((x) => x.method),
  );
  // Severity 3 after TS: the mean over seeds of the mean over corruption kinds at severity 3.
  const perSeed = [0, 1].map((s) => {
    const shift = (json(join(out, 'runs', `ce-seed${s}`, 'posthoc.json')) as { calibrators: { temperature: { shift: ShiftReport } } }).calibrators.temperature.shift;
    return meanOf(shift.corruptions.filter((c) => c.severity === 3).map((c) => c.ece));
  });
  assert.ok(Math.abs(sev.rows[1]!.cells[3]!.mean! - meanOf(perSeed)) < 1e-12);
  const rawClean = meanOf([0, 1].map((s) => (json(join(out, 'runs', `ce-seed${s}`, 'ood.json')) as unknown as ShiftReport).in_distribution.ece));
  assert.ok(Math.abs(sev.rows[0]!.cells[0]!.mean! - rawClean) < 1e-12);
  const md = readFileSync(join(out, 'report.md'), 'utf8');
  assert.match(md, /### OOD and shift: mnist · mlp/);
  assert.match(md, /\| CE \+ TS \| /);
  assert.match(md, /### ECE vs corruption severity: mnist · mlp/);
  assert.match(md, /\| Method \| Clean ECE \(%\) \| ECE severity 1 \(%\) \|/);
  assert.match(md, /!\[CE: test ECE \(%\) against corruption severity[^\]]*\]\(report-figures\/shift-ece-ce\.svg\)/);
  const svg = readFileSync(join(out, 'report-figures', 'shift-ece-ce.svg'), 'utf8');
  for (const name of ['CE (raw)', 'CE + TS']) assert.ok(svg.includes(name), name);
  assert.ok(svg.includes('class="error-bar"'), 'error bars over the two seeds');
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.match(html, /<table class="ood-table">[\s\S]*?<th scope="row">CE \+ TS<\/th>/);
  assert.match(html, /<table class="shift-severity">/);
  assert.match(html, /<figure id="fig-shift-ece-ce"><svg /);
  assert.ok(!existsSync(join(out, 'report-figures', 'shift-ece-mbls.svg')), 'no figure for a method without OOD');

  // Each calibrator − TS per severity, paired over the two seeds: report.json, the table under the severity table,
  // a findings sentence. By hand at severity 3: d_s = mean ECE over the kinds after TS-SB-ECE − after TS, seed s;
  // interval mean ± t_{0.975, 1} · sd / √2 with sd = |d_0 − d_1| / √2, i.e. mean ± 12.7062 · |d_0 − d_1| / 2 (the exact quantile, src/suite/report/student-t.ts).
  type Differences = { calibrator: string; metric: string; severities: { severity: number; n: number; difference: number; lower: number; upper: number; outcome: string }[] }[];
  const diffs = (json(join(out, 'report.json')) as { shift_differences: Differences }).shift_differences;
  if (fittedEverywhere.includes('ts-sb-ece')) {
    assert.deepEqual(
      diffs.map((d) => [d.calibrator, d.metric]),
      [['ts-sb-ece', 'ece']],
    );
    const at3 = (k: string, s: number) =>
      meanOf(
        (json(join(out, 'runs', `ce-seed${s}`, 'posthoc.json')) as { calibrators: Record<string, { shift: ShiftReport }> }).calibrators[k]!.shift.corruptions.filter((c) => c.severity === 3).map(
          (c) => c.ece,
        ),
      );
    const d = [0, 1].map((s) => at3('ts-sb-ece', s) - at3('temperature', s));
    const half = (12.706204736174694 * Math.abs(d[0]! - d[1]!)) / 2; // t(0.975, 1), scipy.stats.t.ppf
    const got = diffs[0]!.severities[3]!;
    assert.equal(got.n, 2);
    assert.ok(Math.abs(got.difference - meanOf(d)) < 1e-12 && Math.abs(got.lower - (meanOf(d) - half)) < 1e-12 && Math.abs(got.upper - (meanOf(d) + half)) < 1e-12, JSON.stringify(got));
    assert.equal(got.outcome, got.upper < 0 ? 'lower' : got.lower > 0 ? 'higher' : 'inconclusive');
    assert.match(md, /\| Difference \| Clean \| Severity 1 \|[^\n]*\n[^\n]*\n\| CE: TS-SB-ECE − TS \| /);
    assert.match(html, /<table class="shift-differences">/);
    assert.ok((json(join(out, 'report.json')) as { findings: string[] }).findings.some((f) => f.startsWith('CE: TS-SB-ECE vs TS under shift (ECE, severity 0 = clean; paired over 2 seeds')));
  } else assert.deepEqual(diffs, []);

  // shiftMetric 'adaece_l2' (as the karandikar suite sets): the same table, figure and differences of equal-mass ℓ2 ECE.
  const record = json(join(out, 'suite.json')) as { suite: Record<string, unknown> };
  writeFileSync(join(out, 'suite.json'), JSON.stringify({ ...record, suite: { ...record.suite, shiftMetric: 'adaece_l2' } }));
  await writeSuiteReport(out);
  const l2 = json(join(out, 'report.json')) as typeof report & { shift_metric: string; shift_differences: Differences };
  assert.equal(l2.shift_metric, 'adaece_l2');
  const l2Clean = meanOf([0, 1].map((s) => (json(join(out, 'runs', `ce-seed${s}`, 'ood.json')) as unknown as ShiftReport).in_distribution.adaece_l2));
  assert.ok(Math.abs(l2.shift_severity_tables[0]!.rows[0]!.cells[0]!.mean! - l2Clean) < 1e-12);
  assert.ok(l2.shift_differences.every((d) => d.metric === 'adaece_l2'));
  const l2md = readFileSync(join(out, 'report.md'), 'utf8');
  assert.match(l2md, /### ECE ℓ2 equal-mass vs corruption severity: mnist · mlp/);
  assert.match(l2md, /\| Method \| Clean ECE ℓ2 equal-mass \(%\) \| ECE ℓ2 equal-mass severity 1 \(%\) \|/);
  assert.match(readFileSync(join(out, 'report-figures', 'shift-adaece-l2-ce.svg'), 'utf8'), /Test ECE ℓ2 equal-mass \(%\)/);
  writeFileSync(join(out, 'suite.json'), JSON.stringify(record));

  // Old run directories (ood.json, no shift/ logits) still post-process and report: raw rows only.
  for (const s of [0, 1]) {
    rmSync(join(out, 'runs', `ce-seed${s}`, 'shift'), { recursive: true });
    const result = await runPosthoc(join(out, 'runs', `ce-seed${s}`), ['temperature', 'ts-sb-ece'], 15);
    assert.ok(Object.values(result.calibrators).every((c) => c.shift === undefined));
  }
  await writeSuiteReport(out);
  const old = json(join(out, 'report.json')) as typeof report;
  assert.deepEqual(
    old.ood_tables[0]!.rows.map((x) => x.method),
    ['ce'],
  );
  assert.deepEqual(
    old.shift_severity_tables[0]!.rows.map((x) => x.method),
    ['ce'],
  );
  assert.deepEqual((old as unknown as { shift_differences: unknown[] }).shift_differences, [], 'no calibrator under shift, no differences');
  assert.match(readFileSync(join(out, 'report.md'), 'utf8'), /report-figures\/shift-ece-ce\.svg/, 'the raw line alone still draws');
});
