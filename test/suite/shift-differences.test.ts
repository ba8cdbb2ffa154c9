import { test } from 'node:test';
import assert from 'node:assert/strict';
import { differenceBlocks, differenceFinding, shiftDifferences } from '../../src/suite/report/shift-differences.js';
import { renderMarkdownBlocks } from '../../src/report/document/render-markdown.js';
import { renderHtmlBlocks } from '../../src/report/document/render-html.js';
import { severityTables } from '../../src/suite/report/shift-tables.js';
import type { RunResult, SuiteResults } from '../../src/suite/report/suite-results.js';
import { parseSuite } from '../../src/suite/suite-schema.js';
import { tinySuite } from './tiny-suite.js';

/**
 * A synthetic suite result: method CE, seeds 0–2, two corruption kinds per severity. After TS, seed i, severity s,
 * kind j: v = 0.05 + 0.01 s + 0.001 j + 0.002 i (s = 0: the clean test subset, j = 0). After TS-SB-ECE: v + Δ[s][i]
 * ± 0.003 at s ≥ 1 (+ on kind 0, − on kind 1: cancels in the mean over the kinds), so the per-seed differences are
 * exactly Δ[s].
 */
const DELTA: readonly (readonly number[])[] = [
  [0.01, 0.012, 0.014], // higher
  [-0.02, -0.03, -0.025], // lower
  [-0.01, -0.02, -0.03], // inconclusive
  [0, 0.001, -0.001],
  [0, 0.001, -0.001],
  [0, 0.001, -0.001],
];
const KINDS = ['contrast', 'fog'] as const;

function report(value: (s: number, j: number) => number, key: string): Record<string, unknown> {
  const set = (v: number) => ({ n: 10, accuracy: 0.9, nll: 0.3, ece: 0.5, adaece: 0.5, [key]: v, mean_confidence: 0.9 });
  return {
    in_distribution: { dataset: 'mnist', ...set(value(0, 0)) },
    noise: null,
    ood_dataset: null,
    corruptions: [1, 2, 3, 4, 5].flatMap((s) => KINDS.map((corruption, j) => ({ corruption, severity: s, ...set(value(s, j)) }))),
    confidence_histogram: { bins: 20, in_distribution: [], noise: null, ood_dataset: null },
    settings: { bins: 15, convention: '(l,u]', seed: 0, confidence: 'max softmax' },
  };
}

function results(shiftMetric?: string): SuiteResults {
  const suite = parseSuite({ ...tinySuite(), posthoc: ['temperature', 'ts-sb-ece', 'ts-hb-ece'], seeds: [0, 1, 2], spread: 'sem', ...(shiftMetric ? { shiftMetric } : {}) });
  const runs = [0, 1, 2].map((i) => {
    const ts = (s: number, j: number) => 0.05 + 0.01 * s + 0.001 * j + 0.002 * i;
    const calibrators: Record<string, { shift: Record<string, unknown> }> = {
      temperature: { shift: report(ts, 'adaece_l2') },
      'ts-sb-ece': { shift: report((s, j) => ts(s, j) + DELTA[s]![i]! + (s === 0 ? 0 : j === 0 ? 0.003 : -0.003), 'adaece_l2') },
    };
    // TS-HB-ECE fitted on seed 0 only: a single pair, not evaluated.
    if (i === 0) calibrators['ts-hb-ece'] = { shift: report(ts, 'adaece_l2') };
    // The raw ood.json was written before adaece_l2 existed: its key is missing.
    return { run: { id: `ce-seed${i}`, method: 'ce', seed: i }, posthoc: { calibrators }, ood: report(() => 0.1, 'unrelated') } as unknown as RunResult;
  });
  return { dir: '', record: { format: 1, scale: 'quick', suite, runs: [] }, runs, missing: [], methods: [{ name: 'ce', label: 'CE', group: 'mnist · mlp', runs }] } as unknown as SuiteResults;
}

test('TS-SB-ECE − TS per severity: the paired difference over seeds of the mean over corruption kinds, with its 95 % t-interval', () => {
  const rows = shiftDifferences(results('adaece_l2'));
  assert.deepEqual(
    rows.map((r) => r.calibrator),
    ['ts-sb-ece', 'ts-hb-ece'],
  );
  const sb = rows[0]!;
  assert.equal(sb.metric, 'adaece_l2');
  assert.equal(sb.reference, 'temperature');
  // By hand: mean ± t_{0.975, 2} · sd / √3 with t = 4.302652729749464 (scipy.stats.t.ppf(0.975, 2)).
  //   s0: d = 0.010, 0.012, 0.014: mean 0.012,  sd 0.002 → half 0.0049683 → [0.0070317, 0.0169683]
  //   s1: d = −0.020, −0.030, −0.025: mean −0.025, sd 0.005 → half 0.0124207 → [−0.0374207, −0.0125793]
  //   s2: d = −0.01, −0.02, −0.03: mean −0.02, sd 0.01 → half 0.0248414 → [−0.0448414, 0.0048414]
  //   s3–5: d = 0, 0.001, −0.001: mean 0, sd 0.001 → half 0.0024841 → [−0.0024841, 0.0024841]
  const half = (sd: number): number => (4.302652729749464 * sd) / Math.sqrt(3);
  const expected = [
    [0.012, 0.012 - half(0.002), 0.012 + half(0.002), 'higher'],
    [-0.025, -0.025 - half(0.005), -0.025 + half(0.005), 'lower'],
    [-0.02, -0.02 - half(0.01), -0.02 + half(0.01), 'inconclusive'],
    [0, -half(0.001), half(0.001), 'inconclusive'],
    [0, -half(0.001), half(0.001), 'inconclusive'],
    [0, -half(0.001), half(0.001), 'inconclusive'],
  ] as const;
  sb.severities.forEach((d, s) => {
    const [mean, lower, upper, outcome] = expected[s]!;
    assert.equal(d.severity, s);
    assert.equal(d.n, 3);
    assert.ok(Math.abs(d.difference - mean) < 1e-12, `severity ${s} difference ${d.difference}`);
    assert.ok(Math.abs(d.lower - lower) < 1e-12, `severity ${s} lower ${d.lower}`);
    assert.ok(Math.abs(d.upper - upper) < 1e-12, `severity ${s} upper ${d.upper}`);
    assert.equal(d.outcome, outcome, `severity ${s}`);
  });
  // TS-HB-ECE: one seed has it, so no interval.
  assert.ok(rows[1]!.severities.every((d) => d.n === 1 && d.outcome === 'not evaluated' && Number.isNaN(d.lower)));

  assert.equal(
    differenceFinding(sb),
    'CE: TS-SB-ECE vs TS under shift (ECE ℓ2 equal-mass, severity 0 = clean; paired over 3 seeds, 95% t-intervals): lower at severity 1, higher at severity 0, inconclusive at severities 2, 3, 4, 5.',
  );
  assert.match(differenceFinding(rows[1]!), /TS-HB-ECE vs TS under shift .*: not evaluated \(fewer than two seeds/);

  const md = renderMarkdownBlocks(differenceBlocks(rows)).split('\n');
  assert.equal(md[0], '| Difference | Clean | Severity 1 | Severity 2 | Severity 3 | Severity 4 | Severity 5 |');
  // Percentage points, bold where the interval excludes 0.
  assert.equal(
    md[2],
    '| CE: TS-SB-ECE − TS | **1.20 \\[0.70, 1.70\\]** | **-2.50 \\[-3.74, -1.26\\]** | -2.00 \\[-4.48, 0.48\\] | 0.00 \\[-0.25, 0.25\\] | 0.00 \\[-0.25, 0.25\\] | 0.00 \\[-0.25, 0.25\\] |',
  );
  assert.equal(md[3], '| CE: TS-HB-ECE − TS | n/a | n/a | n/a | n/a | n/a | n/a |');
  assert.match(md[5]!, /per-seed ECE ℓ2 equal-mass .* mean over n = 3\/1 seed\(s\) .*95% paired-t interval.*, in percentage points/);
  const html = renderHtmlBlocks(differenceBlocks(rows)).join('\n');
  assert.match(html, /<table class="shift-differences">/);
  assert.match(html, /<tr data-method="ce" data-calibrator="ts-sb-ece"><th scope="row">CE: TS-SB-ECE − TS<\/th><td data-outcome="higher"><b>1\.20 \[0\.70, 1\.70\]<\/b><\/td>/);
});

test("the severity table plots the suite's shiftMetric; a key missing from an old file shows n/a", () => {
  const [table] = severityTables(results('adaece_l2'));
  assert.deepEqual(
    table!.columns.map((c) => c.label),
    ['Clean ECE ℓ2 equal-mass (%)', ...[1, 2, 3, 4, 5].map((s) => `ECE ℓ2 equal-mass severity ${s} (%)`)],
  );
  assert.deepEqual(
    table!.columns.map((c) => c.key),
    [0, 1, 2, 3, 4, 5].map((s) => `adaece_l2@severity${s}`),
  );
  assert.deepEqual(
    table!.rows.map((r) => r.method),
    ['ce', 'ce+temperature', 'ce+ts-sb-ece', 'ce+ts-hb-ece'],
  );
  assert.ok(
    table!.rows[0]!.cells.every((c) => c.text === 'n/a'),
    'the raw ood.json has no adaece_l2',
  );
  // After TS at severity 2: mean over seeds of 0.05 + 0.02 + 0.0005 + 0.002 i = 0.0725.
  assert.ok(Math.abs(table!.rows[1]!.cells[2]!.mean - 0.0725) < 1e-12);
  // Default 'ece': the old labels; the synthetic files hold ece = 0.5 everywhere, so every difference is 0.
  const [old] = severityTables(results());
  assert.equal(old!.columns[0]!.label, 'Clean ECE (%)');
  assert.equal(old!.columns[1]!.label, 'ECE severity 1 (%)');
  assert.ok(shiftDifferences(results()).every((r) => r.metric === 'ece'));
  const nll = severityTables(results('nll'))[0]!;
  assert.equal(nll.columns[3]!.label, 'NLL severity 3');
  assert.equal(nll.columns[3]!.percent, false);
});

test('shiftMetric is validated by the suite schema', () => {
  assert.equal(parseSuite(tinySuite()).shiftMetric, 'ece');
  assert.equal(parseSuite({ ...tinySuite(), shiftMetric: 'adaece_l2' }).shiftMetric, 'adaece_l2');
  assert.throws(() => parseSuite({ ...tinySuite(), shiftMetric: 'brier' }), /suite\.shiftMetric: expected one of 'ece', 'adaece', 'adaece_l2', 'nll', 'accuracy'/);
});
