import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSuite } from '../../src/suite/suite-schema.js';
import type { SuiteRun } from '../../src/suite/expand-suite.js';
import type { TrainConfig } from '../../src/train/train-config.js';
import { suiteVerdicts, type Verdict } from '../../src/suite/report/verdicts.js';
import { holmAdjust } from '../../src/suite/report/holm.js';
import { claimCoverage, claimsBlocks, definitionsBlocks, verdictJson } from '../../src/suite/report/claims-section.js';
import { renderMarkdownBlocks } from '../../src/report/document/render-markdown.js';
import { OUTCOME_DEFINITIONS } from '../../src/suite/report/verdict-vocabulary.js';
import { readFileSync } from 'node:fs';
import { claimMetricDescription } from '../../src/suite/claims/claim-metric.js';
import type { MethodResults, RunResult, SuiteResults } from '../../src/suite/report/suite-results.js';

// t quantiles by SciPy (scipy.stats.t.ppf): df = 2 and df = 4.
const T975_2 = 4.302652729749464;
const T95_2 = 2.9199855803537242;
const T80_2 = 1.0606601717798212;
const T975_4 = 2.7764451051977934;

/** A finished run whose test ECE (raw, and after TS) and validation ECE are given. */
function run(method: string, seed: number, ece: number, extra: { ts?: number; val?: number; sweep?: number } = {}): RunResult {
  const r: SuiteRun = {
    id: `${method}${extra.sweep !== undefined ? `-m${extra.sweep}` : ''}-seed${seed}`,
    method,
    seed,
    ...(extra.sweep !== undefined ? { sweep: { key: 'lossOptions.margin', value: extra.sweep } } : {}),
    config: { dataset: 'mnist', model: 'mlp' } as unknown as TrainConfig,
  };
  return {
    run: r,
    dir: '/nonexistent',
    summary: {},
    posthoc: {
      bins: 15,
      convention: '(l,u]',
      validation: { ece: extra.val ?? ece },
      test: { ece, accuracy: 0.9 },
      calibrators: { temperature: { calibrator: { kind: 'temperature', temperature: 1.2 }, test: { ece: extra.ts ?? ece / 2, accuracy: 0.9 } } },
    },
    log: [],
  };
}

const BASE = { name: 'claims', base: { dataset: 'mnist', subset: 300, epochs: 1 }, posthoc: ['temperature'], seeds: [0, 1, 2] };
const METHODS = [{ name: 'ce' }, { name: 'ls', loss: 'ls' }, { name: 'mbls', loss: 'mbls' }, { name: 'focal', loss: 'focal' }];

/** Suite results with one method per entry of `ece` (seeds 0…n−1) and the margin sweep of mbls given by `sweep`. */
function results(claims: unknown[], ece: Record<string, number[]>, sweep?: Record<number, number[]>, compare: string[] = []): SuiteResults {
  const suite = parseSuite({ ...BASE, methods: METHODS, sweeps: [{ key: 'lossOptions.margin', values: [2, 4, 6, 10], methods: ['mbls'] }], claims, compare });
  const methods: MethodResults[] = Object.entries(ece).map(([name, values]) => ({ name, label: name, group: 'mnist · mlp', runs: values.map((v, s) => run(name, s, v)) }));
  if (sweep) {
    const values = Object.entries(sweep).map(([m, vs]) => ({ value: Number(m), runs: vs.map((v, s) => run('mbls', s, v, { sweep: Number(m) })), validation: 0 }));
    methods.push({ name: 'mbls', label: 'MbLS', group: 'mnist · mlp', runs: values[0]!.runs, sweep: { key: 'lossOptions.margin', label: 'margin', values, chosen: values[0]!.value, diverged: [] } });
  }
  return { dir: '/nonexistent', record: { format: 1, scale: 'quick', suite, runs: [] }, runs: methods.flatMap((m) => m.runs), missing: [], diverged: [], methods };
}

const claim = (id: string, test: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ id, statement: `claim ${id}`, source: 'Table 1', ...test, ...extra });
const close = (got: number, want: number, what: string, tol = 1e-12): void => assert.ok(Math.abs(got - want) <= tol, `${what}: ${got} vs ${want}`);

test('equivalence by TOST: the 90 % interval inside ±margin is equivalent, wholly outside is contradicted (by hand)', async () => {
  // d(ls − ce) = [0.001, −0.001, 0.003]: mean 0.001, s = 0.002, 90 % half-width t(0.95, 2)·0.002/√3 = 0.0033717.
  const ce = [0.05, 0.05, 0.05];
  const v = await suiteVerdicts(
    results(
      [
        claim('on-par', { equivalent: 'ls ~ ce on ece', margin: 0.005 }),
        claim('too-narrow', { equivalent: 'ls ~ ce on ece', margin: 0.003 }),
        claim('apart', { equivalent: 'focal ~ ce on ece', margin: 0.005 }),
      ],
      { ce, ls: [0.051, 0.049, 0.053], focal: [0.08, 0.081, 0.079] },
    ),
  );
  const half = (T95_2 * 0.002) / Math.sqrt(3);
  assert.equal(v[0]!.outcome, 'equivalent');
  assert.equal(v[0]!.level, 0.9);
  close(v[0]!.lower, 0.001 - half, 'lower');
  close(v[0]!.upper, 0.001 + half, 'upper');
  // TOST p = max of the one-sided p's; the upper one binds: P(T₂ ≤ (0.001 − 0.005)/(0.002/√3)) = P(T₂ ≤ −3.4641) = 0.037090 (scipy).
  close(v[0]!.p, 0.037089950113724277, 'TOST p', 1e-9);
  assert.equal(v[1]!.outcome, 'inconclusive', 'the interval reaches past a 0.3-pt margin');
  // d(focal − ce) = [0.03, 0.031, 0.029]: 90 % interval [0.02831, 0.03169] lies wholly beyond +0.005.
  assert.equal(v[2]!.outcome, 'contradicted');
  assert.ok(v[2]!.lower > 0.005);
});

test('directional claims: contradicted replaces "does not hold"; MDE = (t.975 + t.8)·s/√n; p two-sided (by hand)', async () => {
  // d(mbls − ce) = [0.01, 0.012, 0.014] against "mbls < ce": wholly above 0 → contradicted.
  const v = await suiteVerdicts(results([claim('mbls-beats-ce', { compare: 'ls < ce on ece' })], { ce: [0.04, 0.04, 0.04], ls: [0.05, 0.052, 0.054] }));
  assert.equal(v[0]!.outcome, 'contradicted');
  close(v[0]!.lower, 0.012 - (T975_2 * 0.002) / Math.sqrt(3), 'lower');
  close(v[0]!.mde, ((T975_2 + T80_2) * 0.002) / Math.sqrt(3), 'MDE');
  // t = 0.012/(0.002/√3) = 10.392; two-sided p with 2 df = 0.009133 (scipy.stats.ttest_1samp).
  close(v[0]!.p, 0.009132611386275458, 'p', 1e-9);
  // Alone in its family, Holm changes nothing.
  assert.equal(v[0]!.pHolm, v[0]!.p);
  assert.equal(v[0]!.outcomeHolm, 'contradicted');
});

test('Holm over the paper’s claims: step-down adjusted p, the outcome at the adjusted level; the suite’s checks are a family apart', async () => {
  assert.deepEqual(
    holmAdjust([0.01, 0.04, 0.03, Number.NaN]).map((x) => (Number.isNaN(x) ? x : Number(x.toFixed(12)))),
    [0.03, 0.06, 0.06, Number.NaN],
  );
  // 0.5 × 2 = 1 caps at 1, and the running maximum carries it to 0.9's rank.
  assert.deepEqual(holmAdjust([0.5, 0.9]), [1, 1]);
  assert.deepEqual(holmAdjust([0.2, 0.01]), [0.2, 0.02]);
  // Five seeds: three paper claims with raw p below 0.05 and a suite check.
  const ce = [0.05, 0.05, 0.05, 0.05, 0.05];
  const r = results(
    [
      claim('a', { compare: 'ls < ce on ece' }),
      claim('b', { compare: 'focal < ce on ece' }),
      claim('c', { compare: 'mbls < ce on ece' }),
      claim('untested', { notTested: 'needs CIFAR-10-C' }),
      claim('own', { compare: 'ls < focal on ece' }, { origin: 'suite', source: undefined }),
    ],
    { ce, ls: [0.04, 0.045, 0.041, 0.047, 0.043], focal: [0.049, 0.044, 0.048, 0.046, 0.048], mbls: [0.048, 0.051, 0.044, 0.049, 0.046] },
  );
  const v = await suiteVerdicts(r);
  const paper = v.filter((x) => x.claim.origin === 'paper' && Number.isFinite(x.p));
  assert.equal(paper.length, 3);
  const adjusted = holmAdjust(paper.map((x) => x.p));
  paper.forEach((x, i) => {
    close(x.pHolm, adjusted[i]!, `Holm p of ${x.claim.id}`);
    assert.equal(x.outcomeHolm, x.pHolm < 0.05 ? x.outcome : 'inconclusive');
  });
  // c: d = [−0.002, 0.001, −0.006, −0.001, −0.004], mean −0.0024 → raw interval contains 0: inconclusive both ways.
  assert.equal(v[2]!.outcome, 'inconclusive');
  // b holds raw, not after Holm: raw p 0.0285 (scipy) × 2 > 0.05; a (p 0.0060 × 3) holds after Holm too.
  close(v[1]!.p, 0.028460203254338342, 'p of b', 1e-9);
  assert.equal(v[0]!.outcomeHolm, 'holds');
  assert.equal(v[1]!.outcome, 'holds');
  assert.equal(v[1]!.outcomeHolm, 'inconclusive');
  assert.ok(v[1]!.p < 0.05 && v[1]!.pHolm >= 0.05);
  // The suite's own check is adjusted in its own family of one; the untested claim has no p.
  assert.equal(v[4]!.pHolm, v[4]!.p);
  assert.equal(v[3]!.outcome, 'not tested');
  assert.equal(v[3]!.reason, 'needs CIFAR-10-C');
  assert.equal(v[3]!.outcomeHolm, null);
  assert.deepEqual(claimCoverage(v), { listed: 4, tested: 3, notTested: 1, notEvaluated: 0, suiteChecks: 1 });
  // report.json carries the CLAIMS-SPEC fields.
  const j = verdictJson(r, v[1]!);
  for (const key of [
    'id',
    'statement',
    'source',
    'origin',
    'headline',
    'paper_value',
    'paper_text',
    'outcome',
    'reason',
    'mde',
    'p',
    'p_holm',
    'outcome_holm',
    'difference',
    'lower',
    'upper',
    'test',
    'n',
  ])
    assert.ok(key in j, key);
  assert.equal(j['metric_description'], 'top-label ECE, ℓ1 norm, 15 equal-width bins (l,u]');
  assert.equal(verdictJson(r, v[3]!)['reason'], 'needs CIFAR-10-C');
  // The Markdown: the paper's table with coverage, the suite's checks apart, the definitions.
  const md = renderMarkdownBlocks(claimsBlocks(r, v));
  assert.match(md, /## The paper's claims\n\nCoverage: 3 of the 4 claims listed are tested here \(1 not tested on this machine, 0 not evaluated/);
  assert.match(md, /## The suite's own checks/);
  assert.match(md, /- \*\*contradicted\*\*: the 95 % interval lies wholly on the other side of 0/);
  assert.match(
    md,
    /\| b: claim b \| Table 1 \| — \| focal &lt; ce on ece; ece = top-label ECE, ℓ1 norm, 15 equal-width bins \(l,u\\\] \| -0\.30 pt \\\[-0\.55 pt, -0\.05 pt\\\] \(95 %; paired t, n = 5; MDE 0\.33 pt; p = 0\.0285\) \| \*\*holds\*\* \| p = 0\.0569: inconclusive \|/,
  );
});

test('a method without runs leaves its claims not evaluated; headline claims are listed first', async () => {
  const r = results([claim('x', { compare: 'ls < ce on ece' }), claim('y', { compare: 'focal < ce on ece' }, { headline: true })], { ce: [0.05, 0.05, 0.05], ls: [0.04, 0.041, 0.042] });
  const v = await suiteVerdicts(r);
  assert.equal(v[1]!.outcome, 'not evaluated');
  assert.equal(v[1]!.note, 'a method has no finished run');
  const md = renderMarkdownBlocks(claimsBlocks(r, v));
  assert.ok(md.indexOf('y (headline): claim y') < md.indexOf('x: claim x'));
});

test('shape claims: argmin, argmax, u-shape, monotone and order computed from the seed means, with the numbers printed', async () => {
  // Margin sweep of mbls, 3 seeds: ECE 0.08 / 0.04 / 0.02 / 0.05 at m = 2 / 4 / 6 / 10 (± seed noise).
  const sweep = { 2: [0.08, 0.081, 0.079], 4: [0.04, 0.042, 0.038], 6: [0.02, 0.021, 0.019], 10: [0.05, 0.049, 0.051] };
  const q = (id: string, qualitative: Record<string, unknown>) => claim(id, { qualitative });
  const swept = { method: 'mbls', sweep: 'lossOptions.margin', metric: 'ece' };
  const v = await suiteVerdicts(
    results(
      [
        q('argmin-met', { kind: 'argmin', ...swept, expect: [6, 10] }),
        q('argmin-not', { kind: 'argmin', ...swept, expect: [2, 4] }),
        q('argmax', { kind: 'argmax', ...swept, expect: [2] }),
        q('u', { kind: 'u-shape', ...swept }),
        q('falls', { kind: 'monotone', ...swept, trend: 'decreasing' }),
        q('order', { kind: 'order', methods: ['ls', 'ce'], metric: 'ece', significant: true }),
        q('order-not', { kind: 'order', methods: ['ce', 'ls'], metric: 'ece' }),
        q('order-higher', { kind: 'order', methods: ['ce', 'ls'], metric: 'ece', better: 'higher' }),
      ],
      { ce: [0.05, 0.052, 0.054], ls: [0.03, 0.031, 0.029] },
      sweep,
    ),
  );
  const outcomes = v.map((x) => [x.claim.id, x.outcome]);
  assert.deepEqual(outcomes, [
    ['argmin-met', 'criterion met'],
    ['argmin-not', 'criterion not met'],
    ['argmax', 'criterion met'],
    ['u', 'criterion met'],
    ['falls', 'criterion not met'],
    ['order', 'criterion met'],
    ['order-not', 'criterion not met'],
    ['order-higher', 'criterion met'],
  ]);
  assert.equal(v[0]!.criterion!.result, "2: 8.00 %, 4: 4.00 %, 6: 2.00 %, 10: 5.00 %; minimum at 6 (the paper's value)");
  assert.equal(v[0]!.criterion!.steps[0]!.label, '4 − 6 (runner-up − minimum)');
  assert.equal(v[0]!.method, 'criterion over seed means');
  assert.equal(v[0]!.outcomeHolm, null);
  assert.equal(v[0]!.holmNote, "not adjusted (the observed minimum is at the paper's value: nothing to test)");
  assert.equal(v[3]!.holmNote, 'not adjusted (a shape criterion)');
  // u-shape: both ends above the minimum by paired intervals: 2 − 6 = [0.06, 0.06, 0.06] (s = 0), 10 − 6 = [0.03, 0.028, 0.032].
  const steps = v[3]!.criterion!.steps;
  close(steps[0]!.difference, 0.06, '2 − 6');
  close(steps[1]!.lower, 0.03 - (T975_2 * 0.002) / Math.sqrt(3), '10 − 6 lower');
  assert.match(v[4]!.criterion!.result, /not falling at every step/);
  assert.match(v[5]!.criterion!.text, /in the order ls, ce \(lowest first\), each adjacent pair separated/);
  // A u whose minimum sits at an end is not a u.
  const [end] = await suiteVerdicts(
    results([q('u', { kind: 'u-shape', ...swept })], { ce: [0.05, 0.05, 0.05] }, { 2: [0.01, 0.01, 0.01], 4: [0.02, 0.02, 0.02], 6: [0.03, 0.03, 0.03], 10: [0.04, 0.04, 0.04] }),
  );
  assert.equal(end!.outcome, 'criterion not met');
  assert.match(end!.criterion!.result, /minimum at the end value 2/);
  // Validation split: the validation numbers, not the test ones (here validation = test by construction, see run()).
  const [val] = await suiteVerdicts(results([q('v', { kind: 'argmin', ...swept, split: 'validation', expect: [6] })], { ce: [0.05, 0.05, 0.05] }, sweep));
  assert.equal(val!.outcome, 'criterion met');
  assert.match(val!.criterion!.text, /validation ece/);
  // Without the sweep's runs: not evaluated.
  const [none] = await suiteVerdicts(results([q('n', { kind: 'argmin', ...swept, expect: [6] })], { ce: [0.05, 0.05, 0.05] }));
  assert.equal(none!.outcome, 'not evaluated');
});

test("argmin / argmax against seed noise: a clear minimum elsewhere is not met, a tie within noise is inconclusive, the paper's value as minimum is met (by hand)", async () => {
  const q = (id: string, qualitative: Record<string, unknown>) => claim(id, { qualitative });
  const swept = { method: 'mbls', sweep: 'lossOptions.margin', metric: 'ece' };
  const ce = { ce: [0.05, 0.05, 0.05] };
  // Clear minimum elsewhere: paper's value 4, minimum at 6; d = ECE(4) − ECE(6) = [0.02, 0.021, 0.019], mean 0.02, s = 0.001.
  const clear = { 2: [0.08, 0.081, 0.079], 4: [0.04, 0.042, 0.038], 6: [0.02, 0.021, 0.019], 10: [0.05, 0.049, 0.051] };
  const [notMet] = await suiteVerdicts(results([q('clear', { kind: 'argmin', ...swept, expect: [4] })], ce, clear));
  assert.equal(notMet!.outcome, 'criterion not met');
  assert.equal(notMet!.method, 'paired t over seeds');
  close(notMet!.difference, 0.02, 'd');
  close(notMet!.lower, 0.02 - (T975_2 * 0.001) / Math.sqrt(3), 'lower', 1e-12);
  close(notMet!.mde, ((T975_2 + T80_2) * 0.001) / Math.sqrt(3), 'MDE', 1e-12);
  assert.match(notMet!.criterion!.result, /^2: 8\.00 %, 4: 4\.00 %, 6: 2\.00 %, 10: 5\.00 %; minimum at 6; the paper's value 4 is not the minimum \(paired t, n = 3; MDE 0\.31 pt; p = 0\.0008\)$/);
  assert.equal(notMet!.criterion!.steps[0]!.label, "4 − 6 (paper's value − observed minimum)");
  // Tie within noise: paper's value 6 (mean 3.0 %) vs the observed minimum at 4 (2.9 %); d = [−0.001, 0.007, −0.003],
  // mean 0.001, s = √(28e-6) = 0.0052915: 95 % interval [0.001 ∓ 4.3027·0.0052915/√3] = [−0.0121, 0.0141] contains 0.
  const tie = { 2: [0.08, 0.081, 0.079], 4: [0.031, 0.027, 0.029], 6: [0.03, 0.034, 0.026], 10: [0.05, 0.049, 0.051] };
  const s = Math.sqrt(28e-6);
  const v = await suiteVerdicts(
    results(
      [
        q('tie', { kind: 'argmin', ...swept, expect: [6] }),
        q('tie-margin', { kind: 'argmin', ...swept, expect: [6], margin: 0.02 }),
        q('tie-narrow-margin', { kind: 'argmin', ...swept, expect: [6], margin: 0.005 }),
        q('exact', { kind: 'argmin', ...swept, expect: [4, 6] }),
        q('argmax-not', { kind: 'argmax', ...swept, expect: [6] }),
        claim('directional', { compare: 'ls < ce on ece' }),
      ],
      { ...ce, ls: [0.04, 0.041, 0.042] },
      tie,
    ),
  );
  assert.deepEqual(
    v.map((x) => x.outcome),
    ['inconclusive', 'criterion met', 'inconclusive', 'criterion met', 'criterion not met', 'holds'],
  );
  close(v[0]!.difference, 0.001, 'tie d');
  close(v[0]!.lower, 0.001 - (T975_2 * s) / Math.sqrt(3), 'tie lower', 1e-12);
  close(v[0]!.upper, 0.001 + (T975_2 * s) / Math.sqrt(3), 'tie upper', 1e-12);
  close(v[0]!.mde, ((T975_2 + T80_2) * s) / Math.sqrt(3), 'tie MDE', 1e-12);
  assert.match(v[0]!.criterion!.result, /minimum at 4; the paper's value 6 is consistent with the minimum within seed noise \(paired t, n = 3; MDE 1\.64 pt; p = 0\.7745\)$/);
  // Within the margin of 2 pt: the whole interval (upper 1.41 pt) lies below it; p of H0 mean = 0.02.
  assert.match(v[1]!.criterion!.result, /the paper's value 6 is within the margin of the minimum \(margin 2\.00 pt\)/);
  assert.ok(v[1]!.p < 0.05);
  assert.match(v[2]!.criterion!.result, /consistent with the minimum within seed noise \(margin 0\.50 pt\)/);
  // Exact: the observed minimum (4) is one of the paper's values: met without a test, not in Holm's family.
  assert.equal(v[3]!.method, 'criterion over seed means');
  assert.ok(Number.isNaN(v[3]!.p));
  // argmax mirrored: the maximum is at 2 (8 %), the paper's 6 (3 %) is below it on every seed (s = 0.0043).
  assert.match(v[4]!.criterion!.result, /maximum at 2; the paper's value 6 is not the maximum/);
  assert.ok(v[4]!.upper < 0);
  // Holm: the tested argmin/argmax claims join the directional claim's family (4 paired-t p-values).
  const family = [0, 1, 2, 4, 5];
  const adjusted = holmAdjust(family.map((i) => v[i]!.p));
  family.forEach((i, k) => close(v[i]!.pHolm, adjusted[k]!, `Holm ${v[i]!.claim.id}`));
  assert.equal(v[0]!.outcomeHolm, 'inconclusive');
  assert.equal(v[3]!.outcomeHolm, null);
  // The report prints both the observed argmin and the test, and the definitions say how it is decided.
  const md = renderMarkdownBlocks(claimsBlocks(results([], ce), v));
  assert.match(md, /minimum at 4; the paper's value 6 is consistent with the minimum within seed noise/);
  assert.match(md, /\*\*inconclusive\*\*: .*paper's value − observed minimum\) contains 0/);
  // One seed: no interval, decided on the seed means (and said so).
  const one = { 2: [0.08], 4: [0.029], 6: [0.03], 10: [0.05] };
  const [single] = await suiteVerdicts(results([q('one', { kind: 'argmin', ...swept, expect: [6] })], { ce: [0.05] }, one));
  assert.equal(single!.outcome, 'criterion not met');
  assert.match(single!.note!, /1 seed\(s\) shared by 6 and 4: no interval over seeds, decided on the seed means alone/);
});

test('argmin margins are checked by the schema (a number ≥ 0)', () => {
  const q = (margin: unknown) => () => results([claim('m', { qualitative: { kind: 'argmin', method: 'mbls', sweep: 'lossOptions.margin', metric: 'ece', expect: [6], margin } })], {});
  assert.throws(q(-0.01), /claims\[0\]\.qualitative\.margin: expected a finite number ≥ 0, got -0\.01/);
  assert.doesNotThrow(q(0.01));
});

/** The rule every verdict obeys: holds only with the interval on the claimed side, equivalent only inside the margin. */
function assertConsistent(v: Verdict): void {
  if (v.outcome === 'holds') {
    const dir = v.comparison!.direction;
    assert.ok(dir === '<' ? v.upper < 0 : v.lower > 0, `${v.claim.id}: holds with [${v.lower}, ${v.upper}] for ${dir}`);
    assert.ok(v.p < 0.05, `${v.claim.id}: holds with p = ${v.p}`);
  }
  if (v.outcome === 'equivalent') {
    const t = v.claim.test;
    assert.ok(t.kind === 'equivalent' && v.lower > -t.margin && v.upper < t.margin);
  }
  if (v.outcomeHolm === 'holds') assert.equal(v.outcome, 'holds');
}

test('no verdict holds without an interval excluding 0 in the claim’s direction (400 random designs, 2–8 seeds)', async () => {
  let seed = 12345;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let holds = 0;
  for (let trial = 0; trial < 400; trial++) {
    const n = 2 + (trial % 7);
    const effect = (random() - 0.5) * 0.02;
    const noise = random() * 0.01;
    const ls = Array.from({ length: n }, () => 0.05 + effect + (random() - 0.5) * noise);
    const v = await suiteVerdicts(
      results([claim('lt', { compare: 'ls < ce on ece' }), claim('gt', { compare: 'ls > ce on ece' }), claim('eq', { equivalent: 'ls ~ ce on ece', margin: 0.004 })], {
        ce: Array.from({ length: n }, () => 0.05),
        ls,
      }),
    );
    v.forEach(assertConsistent);
    holds += v.filter((x) => x.outcome === 'holds').length;
  }
  assert.ok(holds > 50, `the random designs exercise the rule (${holds} holds)`);
});

test('the verdict follows the runs: the same claim holds on one set of runs and is contradicted on the swapped set', async () => {
  // "ls < ce on ece", five seeds. Runs where LS is 1 pt better on every seed (± 0.1 pt), then the two methods swapped.
  const better = [0.04, 0.041, 0.039, 0.04, 0.042];
  const worse = [0.05, 0.05, 0.05, 0.051, 0.05];
  const claims = [claim('ls-beats-ce', { compare: 'ls < ce on ece' }), claim('ce-beats-ls', { compare: 'ls > ce on ece' })];
  const a = await suiteVerdicts(results(claims, { ce: worse, ls: better }));
  const b = await suiteVerdicts(results(claims, { ce: better, ls: worse }));
  assert.deepEqual(
    a.map((v) => v.outcome),
    ['holds', 'contradicted'],
  );
  assert.deepEqual(
    b.map((v) => v.outcome),
    ['contradicted', 'holds'],
  );
  // d = ls − ce = [−0.010, −0.009, −0.011, −0.011, −0.008]: mean −0.0098, and the swapped runs mirror it.
  close(a[0]!.difference, -0.0098, 'difference', 1e-12);
  close(b[0]!.difference, 0.0098, 'swapped difference', 1e-12);
  assert.ok(a[0]!.upper < 0 && b[0]!.lower > 0);
  // Runs where the methods differ by less than their seed-to-seed spread: inconclusive, with the effect it could have detected.
  const [flat] = await suiteVerdicts(results([claims[0]], { ce: worse, ls: [0.049, 0.052, 0.048, 0.052, 0.05] }));
  assert.equal(flat!.outcome, 'inconclusive');
  assert.ok(flat!.lower < 0 && flat!.upper > 0 && flat!.mde > 0);
  [...a, ...b, flat!].forEach(assertConsistent);
});

test('an unfinished suite: a claim reading a method with a run not finished is not evaluated, the others are decided', async () => {
  const r = results([claim('ls-beats-ce', { compare: 'ls < ce on ece' }), claim('focal-beats-ce', { compare: 'focal < ce on ece' })], {
    ce: [0.05, 0.05, 0.05],
    ls: [0.04, 0.041, 0.039],
    focal: [0.03, 0.031, 0.029],
  });
  // The suite planned three seeds of each method; ls's seed 3 (a fourth) has not finished.
  const planned = r.methods.flatMap((m) => m.runs.map((x) => x.run));
  const unfinished = { ...planned.find((x) => x.method === 'ls')!, id: 'ls-seed3', seed: 3 };
  const v = await suiteVerdicts({ ...r, record: { ...r.record, runs: [...planned, unfinished] }, missing: ['ls-seed3'] });
  assert.equal(v[0]!.outcome, 'not evaluated');
  assert.equal(v[0]!.note, 'runs missing: 1 of the 4 runs of ls not finished');
  assert.equal(v[1]!.outcome, 'holds');
});

test('the README defines holds as the verdicts decide it, and the reproductions README prints the vocabulary’s definitions', () => {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  assert.match(readme, /\*holds\* \(interval wholly on the claimed side of 0\)/);
  assert.match(OUTCOME_DEFINITIONS.holds, /95 % interval of metric\(A\) − metric\(B\) lies wholly on the claimed side of 0/);
  const reproductions = readFileSync(new URL('../../../docs/reproductions/README.md', import.meta.url), 'utf8');
  for (const line of renderMarkdownBlocks(definitionsBlocks(2)).split('\n').slice(2)) assert.ok(reproductions.includes(line), line);
});

test('t quantiles of the five-seed design (df = 4) are exact', async () => {
  const v = await suiteVerdicts(results([claim('five', { compare: 'ls < ce on ece' })], { ce: [0.05, 0.05, 0.05, 0.05, 0.05], ls: [0.04, 0.041, 0.042, 0.043, 0.044] }));
  // d = [−0.01, −0.009, −0.008, −0.007, −0.006]: mean −0.008, s = 0.0015811.
  close(v[0]!.upper, -0.008 + (T975_4 * Math.sqrt(0.0000025)) / Math.sqrt(5), 'upper');
});

test('a claim metric’s name fixes its binning and norm, stated with the bins', () => {
  assert.equal(claimMetricDescription('ece', 15), 'top-label ECE, ℓ1 norm, 15 equal-width bins (l,u]');
  assert.equal(claimMetricDescription('adaece', 10), 'top-label ECE, ℓ1 norm, 10 equal-mass bins');
  assert.equal(claimMetricDescription('adaece_l2', 15), 'top-label ECE, ℓ2 norm, 15 equal-mass bins');
  assert.equal(claimMetricDescription('classwise_ece', 15), 'classwise ECE, ℓ1 norm, 15 equal-width bins per class, averaged over classes');
  assert.equal(claimMetricDescription('shift_adaece_l2_s5', 15), 'top-label ECE, ℓ2 norm, 15 equal-mass bins, mean over every corruption kind at severity 5');
  assert.equal(claimMetricDescription('fg_ece', 15), 'top-label ECE, ℓ1 norm, 15 equal-width bins (l,u], over the labelled test pixels without background');
  assert.equal(claimMetricDescription('noise_auroc', 15), 'AUROC of the max-softmax confidence, test set vs Gaussian-noise images');
  assert.equal(claimMetricDescription('accuracy', 15), 'fraction of samples whose argmax is the label');
});
