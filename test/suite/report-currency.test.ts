import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { parseSuite, type Suite } from '../../src/suite/suite-schema.js';
import { compareReport, currencyText, reportCurrency, type ReportForCurrency } from '../../src/suite/report/report-currency.js';
import { reproductionsReadme } from '../../src/suite/report/reproductions-readme.js';
import { BUILTIN_SUITES } from '../../src/suite/builtin-suites.js';
import { tempDir } from '../io/temp-dir.js';

const claims = [
  { id: 'ls-beats-ce', statement: 'LS is better calibrated than CE.', source: 'Table 1', compare: 'ls < ce on ece' },
  { id: 'on-par', statement: 'LS and CE are equally accurate.', source: 'Table 1', equivalent: 'ls ~ ce on accuracy', margin: 0.01 },
];
const definition = (extra: Record<string, unknown> = {}): Suite =>
  parseSuite({
    name: 'toy',
    base: { dataset: 'mnist', subset: 300, epochs: 2 },
    scales: { machine: { epochs: 4 } },
    methods: [{ name: 'ce' }, { name: 'ls', loss: 'ls' }],
    seeds: [0, 1],
    posthoc: ['temperature'],
    claims,
    ...extra,
  });

/** The report.json a run of `suite` at machine scale writes (the fields the comparison reads), as of now. */
function reportOf(suite: Suite): ReportForCurrency & { runs: { id: string; config: Record<string, unknown>; posthoc: Record<string, unknown> }[]; verdicts: readonly Record<string, unknown>[] } {
  return {
    suite: suite.name,
    scale: 'machine',
    bins: suite.bins,
    runs: expandSuite(suite, 'machine').map((r) => ({
      id: r.id,
      config: { ...(r.config as unknown as Record<string, unknown>), threads: 2, out: '<suite-dir>/runs/<id>' },
      posthoc: Object.fromEntries(suite.posthoc.map((c) => [c, {}])),
    })),
    missing: [],
    verdicts: claims.map((c) => ({
      id: c.id,
      statement: c.statement,
      source: c.source,
      origin: 'paper',
      claim: c.compare ?? c.equivalent ?? null,
      margin: c.margin ?? null,
      outcome: 'inconclusive',
      difference: null,
      lower: null,
      upper: null,
      test: 'none',
      n: 0,
      note: null,
    })),
  };
}

test('a report of the suite as it is now is current; threads and out do not count', () => {
  const c = compareReport(reportOf(definition()), definition());
  assert.deepEqual(c, { state: 'current', differences: [], rerun: false });
  assert.match(currencyText(c, 'toy', 'machine'), /^produced with the suite's current settings/);
});

test('seeds added, settings changed, calibrators and bins changed: produced with earlier settings, rerun pending', () => {
  const report = reportOf(definition());
  // Two seeds more; every run trains 6 epochs now; ls's ε changed (one method's runs only).
  const later = definition({ seeds: [0, 1, 2, 3], scales: { machine: { epochs: 6 } }, methods: [{ name: 'ce' }, { name: 'ls', loss: 'ls', lossOptions: { epsilon: 0.2 } }] });
  const c = compareReport(report, later);
  assert.equal(c.state, 'earlier');
  assert.equal(c.rerun, true);
  assert.deepEqual(c.differences, ['4 runs of the suite not in the report (ce-seed2, ce-seed3, ls-seed2, ls-seed3)', 'epochs 4 → 6', 'lossOptions.epsilon 0.05 → 0.2 (2 runs)']);
  assert.match(currencyText(c, 'toy', 'machine'), /^produced with earlier settings; rerun pending — 4 runs of the suite not in the report/);
  // A method that now states its loss's default explicitly is unchanged.
  assert.equal(compareReport(report, definition({ methods: [{ name: 'ce' }, { name: 'ls', loss: 'ls', lossOptions: { epsilon: 0.05 } }] })).state, 'current');
  // Runs dropped, a calibrator added, the bins changed.
  const fewer = compareReport(report, definition({ seeds: [0], posthoc: ['temperature', 'histogram'], bins: 20 }));
  assert.deepEqual(fewer.differences, ['2 runs no longer in the suite (ce-seed1, ls-seed1)', 'post-hoc calibrators temperature → histogram, temperature', 'bins 15 → 20']);
  // A scale the suite no longer declares.
  assert.deepEqual(compareReport({ ...report, scale: 'paper' }, definition({ scales: { machine: { epochs: 4 } } })).differences, ['the suite no longer declares the scale paper']);
});

test('claims added, removed or with a changed test: the report is stale, but only `calib report` is pending', () => {
  const report = reportOf(definition());
  const edited = definition({
    claims: [
      { ...claims[0]!, compare: 'ls < ce on ece after temperature' },
      { ...claims[1]!, margin: 0.02 },
      { id: 'new', statement: 'New claim.', source: 'Table 2', notTested: 'no data' },
    ],
  });
  const c = compareReport(report, edited);
  assert.equal(c.state, 'earlier');
  assert.equal(c.rerun, false);
  assert.deepEqual(c.differences, ['claims added: new', 'claims whose test changed: ls-beats-ce, on-par']);
  assert.match(currencyText(c, 'toy', 'machine'), /^produced before the current claims registry; calib report pending — /);
  const removed = compareReport(report, definition({ claims: [claims[0]] }));
  assert.deepEqual(removed.differences, ['claims removed: on-par']);
  // A report written before the registry (verdicts without origin), of a suite that has one now.
  const older = compareReport({ ...report, verdicts: [{ claim: 'ls < ce on ece', id: null }] }, definition());
  assert.deepEqual(older.differences, ['written before the claims registry (2 claims of the paper registered now)']);
});

test('a report of a suite that is not built in is not compared; a built-in one is compared with its definition now', () => {
  const c = reportCurrency({ ...reportOf(definition()), suite: 'no-such-suite' });
  assert.equal(c.state, 'unknown');
  assert.match(currencyText(c, 'no-such-suite', 'machine'), /^not compared: no built-in suite named no-such-suite/);
  const demo = parseSuite(structuredClone(BUILTIN_SUITES['demo']!.suite));
  const r = { ...reportOf(demo), verdicts: demo.compare.map((text) => ({ id: null, origin: 'suite', claim: text })) };
  assert.equal(reportCurrency(r).state, 'current');
  assert.equal(reportCurrency({ ...r, runs: r.runs.map((x) => ({ ...x, config: { ...x.config, validation: 500 } })) }).state, 'earlier');
});

test('the reproductions README says per suite whether its report is current, in the overview and the section', async () => {
  const dir = tempDir('currency');
  const current = reportOf(definition());
  const stale = { ...reportOf(definition()), suite: 'stale' };
  for (const [name, r] of [
    ['toy', current],
    ['stale', stale],
  ] as const) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'report.json'), JSON.stringify({ ...r, description: null, runs: r.runs.map((x, i) => ({ ...x, seed: i % 2 })) }));
  }
  const later = definition({ seeds: [0, 1, 2] });
  const text = await reproductionsReadme(dir, '', (r) => compareReport(r, r.suite === 'stale' ? later : definition()));
  assert.match(text, /\| `stale` \| machine \| 4 \| 2 \| 2 \/ 2 \| 0 \| no: rerun pending \|/);
  assert.match(text, /\| `toy` \| machine \| 4 \| 2 \| 2 \/ 2 \| 0 \| yes \|/);
  assert.match(text, /## `stale`[^]*\*\*Not current:\*\* produced with earlier settings; rerun pending — 2 runs of the suite not in the report \(ce-seed2, ls-seed2\)\./);
  assert.match(text, /## `toy`[^]*\*\*Current:\*\* produced with the suite's current settings/);
});

test('the committed reproductions README states each report’s currency as the suites are defined now', () => {
  const committed = readFileSync(new URL('../../../docs/reproductions/README.md', import.meta.url), 'utf8');
  const sections = committed.split(/\n## `/).slice(1);
  assert.ok(sections.length >= 8);
  for (const s of sections) assert.match(s, /\n\*\*(Current|Not current):\*\* /, s.slice(0, 40));
});
