import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseSweepValue as choose, selectionMetric, selectionRuleText } from '../../src/suite/report/sweep-selection.js';
import { sampleStd, spreadOf, standardError } from '../../src/suite/report/statistics.js';
import { parseSuite, type SelectionRule } from '../../src/suite/suite-schema.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { readSuiteResults, sweepsAwaitingRuns } from '../../src/suite/report/suite-results.js';
import { readSyntheticRun } from './synthetic-run-reader.js';
import { tempDir } from '../io/temp-dir.js';

/** A candidate whose score is the metric `rule` minimises (selectionMetric), from its accuracy, ECE, ECE ℓ2 equal-mass and NLL. */
const c =
  (accuracy: number, ece: number, nll: number, adaeceL2 = ece, refinementNll = nll) =>
  (rule: SelectionRule) => ({
    accuracy,
    score: ({ nll, ece, adaece_l2: adaeceL2, accuracy, refinement_nll: refinementNll } as Record<string, number>)[selectionMetric(rule)]!,
  });
const chooseSweepValue = (values: readonly ((rule: SelectionRule) => { accuracy: number; score: number })[], rule: SelectionRule): number =>
  choose(
    values.map((v) => v(rule)),
    rule,
  );

test('sweep values are chosen by lowest validation NLL, lowest ECE, highest accuracy, or lowest ECE within 1 % of the best accuracy', () => {
  const values = [c(0.9, 0.05, 0.4), c(0.895, 0.02, 0.45), c(0.85, 0.005, 0.3), c(0.8, 0.001, 0.6)];
  assert.equal(chooseSweepValue(values, 'nll'), 2);
  assert.equal(chooseSweepValue(values, 'ece'), 3);
  assert.equal(chooseSweepValue(values, 'accuracy'), 0);
  assert.equal(chooseSweepValue([c(0.8, 0, 0), c(0.9, 1, 1), c(Number.NaN, 0, 0), c(0.9, 0, 0)], 'accuracy'), 1, 'highest accuracy; ties keep the first; NaN never wins');
  // Best accuracy 0.90: 0.99 × 0.90 = 0.891, so values 0 and 1 are eligible; value 1 has the lower ECE.
  assert.equal(chooseSweepValue(values, 'ece-near-best-accuracy'), 1);
  // The ℓ2 equal-mass rules minimise adaece_l2 instead of the equal-width ECE: here they disagree.
  const l2 = [c(0.9, 0.05, 0.4, 0.01), c(0.895, 0.02, 0.45, 0.03), c(0.85, 0.005, 0.3, 0.04), c(0.8, 0.001, 0.6, 0.002)];
  assert.equal(chooseSweepValue(l2, 'ece-near-best-accuracy'), 1);
  assert.equal(chooseSweepValue(l2, 'adaece-l2-near-best-accuracy'), 0);
  assert.equal(chooseSweepValue(l2, 'adaece-l2'), 3);
  assert.equal(selectionMetric('adaece-l2-near-best-accuracy'), 'adaece_l2');
  assert.equal(selectionMetric('ece-near-best-accuracy'), 'ece');
  assert.equal(selectionMetric('nll'), 'nll');
  assert.equal(selectionRuleText('adaece-l2-near-best-accuracy'), 'lowest mean validation ECE (ℓ2, equal-mass bins) among values within 1 % (relative) of the best mean validation accuracy');
  // Exactly at the boundary is eligible; just below is not.
  assert.equal(chooseSweepValue([c(1, 0.5, 1), c(0.99, 0.1, 1)], 'ece-near-best-accuracy'), 1);
  assert.equal(chooseSweepValue([c(1, 0.5, 1), c(0.9899, 0.1, 1)], 'ece-near-best-accuracy'), 0);
  // Ties keep the first value; NaN never wins over a number.
  assert.equal(chooseSweepValue([c(0.9, 0.1, 1), c(0.9, 0.1, 1)], 'ece'), 0);
  assert.equal(chooseSweepValue([c(0.9, Number.NaN, 1), c(0.9, 0.3, 1)], 'ece'), 1);
  assert.equal(choose([], 'nll'), -1);
  // 'refinement' minimises the validation refinement NLL (refinement_nll), which can disagree with the NLL.
  const refine = [c(0.9, 0.05, 0.4, 0.05, 0.35), c(0.9, 0.05, 0.5, 0.05, 0.3), c(0.9, 0.05, 0.45, 0.05, 0.33)];
  assert.equal(chooseSweepValue(refine, 'nll'), 0);
  assert.equal(chooseSweepValue(refine, 'refinement'), 1);
  assert.equal(selectionMetric('refinement'), 'refinement_nll');
  assert.equal(selectionRuleText('refinement'), 'lowest mean validation refinement NLL (NLL after temperature scaling)');
  assert.match(selectionRuleText('ece-near-best-accuracy'), /within 1 % \(relative\) of the best mean validation accuracy/);
  assert.equal(selectionRuleText('nll'), 'lowest mean validation NLL');
  assert.equal(selectionRuleText('accuracy'), 'highest mean validation accuracy');
});

test('Karandikar App. G on a β sweep, by hand from per-seed validation numbers (ECE ℓ2 equal-mass)', () => {
  // β ∈ {0.3, 1, 3}, three seeds each: validation accuracy and adaece_l2 per seed.
  const seeds = [
    { beta: 0.3, accuracy: [0.866, 0.862, 0.858], adaece: [0.034, 0.03, 0.029] },
    { beta: 1, accuracy: [0.857, 0.855, 0.856], adaece: [0.013, 0.012, 0.011] },
    { beta: 3, accuracy: [0.852, 0.851, 0.85], adaece: [0.004, 0.005, 0.003] },
  ];
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const candidates = seeds.map((v) => ({ accuracy: mean(v.accuracy), score: mean(v.adaece) }));
  // Means: accuracy 0.862, 0.856, 0.851; ECE 0.031, 0.012, 0.004. Eligible: accuracy ≥ 0.99 × 0.862 = 0.85338, so
  // β = 0.3 and β = 1 (β = 3 gives up 1.28 % relative); of those β = 1 has the lower ECE.
  assert.equal(choose(candidates, 'adaece-l2-near-best-accuracy'), 1);
  // Without the accuracy condition the lowest ECE wins: β = 3.
  assert.equal(choose(candidates, 'adaece-l2'), 2);
  // β = 3 one seed better (mean 0.8537 ≥ 0.85338): now eligible, and it wins on ECE.
  const closer = [...candidates.slice(0, 2), { accuracy: mean([0.852, 0.851, 0.8581]), score: 0.004 }];
  assert.equal(choose(closer, 'adaece-l2-near-best-accuracy'), 2);
});

test('a partial suite: a swept method with an unfinished run has no chosen value and is left out of the methods', async () => {
  const dir = tempDir('sweep-partial');
  const suite = parseSuite(
    {
      name: 'p',
      base: { dataset: 'mnist' },
      methods: [{ name: 'ce' }, { name: 'ls', loss: 'ls' }, { name: 'focal', loss: 'focal' }],
      sweeps: [
        { key: 'lossOptions.epsilon', values: [0.05, 0.1], methods: ['ls'] },
        { key: 'lossOptions.gamma', values: [1, 3], methods: ['focal'] },
      ],
      seeds: [0, 1],
      select: 'adaece-l2-near-best-accuracy',
    },
    's',
  );
  const runs = expandSuite(suite, 'quick', 's');
  writeFileSync(join(dir, 'suite.json'), JSON.stringify({ format: 1, scale: 'quick', suite, runs }));
  // Every run finished but one of focal's (γ = 3, seed 1): its γ cannot be chosen yet.
  const unfinished = runs.find((r) => r.method === 'focal' && r.sweep?.value === 3 && r.config.seed === 1)!.id;
  for (const r of runs.filter((x) => x.id !== unfinished)) {
    const rd = join(dir, 'runs', r.id);
    mkdirSync(rd, { recursive: true });
    const m = { accuracy: 0.9, adaece_l2: r.sweep?.value === 0.1 ? 0.01 : 0.02, ece: 0.02, nll: 0.3 };
    writeFileSync(join(rd, 'summary.json'), '{}');
    writeFileSync(join(rd, 'posthoc.json'), JSON.stringify({ bins: 15, convention: '(l,u]', validation: m, test: m, calibrators: {} }));
  }
  const results = await readSuiteResults(dir, readSyntheticRun);
  assert.deepEqual(results.missing, [unfinished]);
  assert.deepEqual(
    results.methods.map((m) => m.name),
    ['ce', 'ls'],
  );
  assert.equal(results.methods[1]!.sweep!.chosen, 0.1, 'ls: lowest validation ECE ℓ2 among the (equally accurate) values');
  assert.deepEqual(sweepsAwaitingRuns(results), ['focal']);
});

test('spread over seeds: std (n − 1) or its standard error std/√n', () => {
  const v = [1, 2, 4];
  // mean 7/3; squared deviations 16/9 + 1/9 + 25/9 = 42/9; / (n − 1) = 7/3.
  assert.ok(Math.abs(sampleStd(v) - Math.sqrt(7 / 3)) < 1e-15);
  assert.ok(Math.abs(standardError(v) - Math.sqrt(7 / 3) / Math.sqrt(3)) < 1e-15);
  assert.equal(spreadOf(v, 'sem'), standardError(v));
  assert.equal(spreadOf(v, 'std'), sampleStd(v));
  assert.ok(Number.isNaN(spreadOf([1], 'sem')));
  const suite = { name: 's', base: { dataset: 'mnist' }, methods: [{ name: 'ce' }] };
  assert.equal(parseSuite(structuredClone(suite), 's').spread, 'std');
  assert.equal(parseSuite({ ...structuredClone(suite), spread: 'sem', select: 'ece-near-best-accuracy' }, 's').spread, 'sem');
  assert.throws(() => parseSuite({ ...structuredClone(suite), spread: 'var' }, 's'), /s\.spread: expected one of 'std', 'sem', got "var"/);
});

test("failed.json's kind decides divergence; the message is read only when a record has no kind (runs failed before kinds were recorded)", async () => {
  const dir = tempDir('failure-kinds');
  const suite = parseSuite({ name: 'k', base: { dataset: 'mnist' }, methods: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }], seeds: [0] }, 's');
  const runs = expandSuite(suite, 'quick', 's');
  writeFileSync(join(dir, 'suite.json'), JSON.stringify({ format: 1, scale: 'quick', suite, runs }));
  mkdirSync(join(dir, 'logs'));
  const nan = 'calib: error: training failed: the training loss became NaN at epoch 1, step 3 of 6';
  const records: Record<string, unknown> = {
    a: { error: 'worker lost the run', kind: 'diverged', exit_code: 1 }, // the kind says so; the message does not
    b: { error: nan, kind: 'error', exit_code: 1 }, // the kind wins over a message that looks like a divergence
    c: { error: nan, exit_code: 1 }, // an old record: the message decides (fallback)
    d: { error: 'calib: error: out of memory', exit_code: 1 },
  };
  for (const r of runs) writeFileSync(join(dir, 'logs', `${r.id}.failed.json`), JSON.stringify(records[r.method]));
  const results = await readSuiteResults(dir, readSyntheticRun);
  assert.deepEqual(results.diverged.map((d) => d.run.method).sort(), ['a', 'c']);
  assert.deepEqual(results.missing.map((id) => runs.find((r) => r.id === id)!.method).sort(), ['b', 'd']);
});

test('a run whose training loss became NaN has diverged: a result, not a missing run — its swept value is no candidate, its unswept method is left out, and the claims say so', async () => {
  const { qualitativeVerdict } = await import('../../src/suite/report/qualitative-verdict.js');
  const { missingRunsNote } = await import('../../src/suite/report/verdicts.js');
  const dir = tempDir('sweep-diverged');
  const suite = parseSuite(
    {
      name: 'd',
      base: { dataset: 'mnist' },
      methods: [{ name: 'ce' }, { name: 'acls', loss: 'acls' }, { name: 'ls', loss: 'ls' }],
      sweeps: [{ key: 'lossOptions.lambda1', values: [0, 0.5, 1], methods: ['acls'] }],
      seeds: [0, 1],
      select: 'ece',
    },
    's',
  );
  const runs = expandSuite(suite, 'quick', 's');
  writeFileSync(join(dir, 'suite.json'), JSON.stringify({ format: 1, scale: 'quick', suite, runs }));
  mkdirSync(join(dir, 'logs'));
  const nan = 'calib: error: training failed: the training loss became NaN at epoch 1, step 70 of 157 (update 70 of the run); the run stopped there (lower --lr, or check the loss options)';
  // ACLS at λ1 = 0 diverges in both seeds; LS diverges in seed 1; one CE run failed for another reason (not finished).
  const diverges = (r: (typeof runs)[number]) => (r.method === 'acls' && r.sweep?.value === 0) || (r.method === 'ls' && r.config.seed === 1);
  const otherFailure = runs.find((r) => r.method === 'ce' && r.config.seed === 1)!;
  for (const r of runs) {
    if (diverges(r)) {
      writeFileSync(join(dir, 'logs', `${r.id}.failed.json`), JSON.stringify({ error: nan, exit_code: 1 }));
      continue;
    }
    if (r.id === otherFailure.id) {
      writeFileSync(join(dir, 'logs', `${r.id}.failed.json`), JSON.stringify({ error: 'calib: error: out of memory', exit_code: 1 }));
      continue;
    }
    const rd = join(dir, 'runs', r.id);
    mkdirSync(rd, { recursive: true });
    const ece = r.sweep?.value === 1 ? 0.01 : 0.03;
    const m = { accuracy: 0.9, adaece_l2: ece, ece, nll: 0.3 };
    writeFileSync(join(rd, 'summary.json'), '{}');
    writeFileSync(join(rd, 'posthoc.json'), JSON.stringify({ bins: 15, convention: '(l,u]', validation: m, test: m, calibrators: {} }));
  }
  const results = await readSuiteResults(dir, readSyntheticRun);
  assert.deepEqual(results.missing, [otherFailure.id], 'only the run that failed for another reason is missing');
  assert.deepEqual(
    results.diverged.map((d) => d.run.id).sort(),
    runs
      .filter(diverges)
      .map((r) => r.id)
      .sort(),
  );
  assert.deepEqual(
    results.methods.map((m) => m.name),
    ['ce', 'acls'],
    'LS (a diverged seed, unswept) is left out',
  );
  const acls = results.methods[1]!.sweep!;
  assert.deepEqual(
    acls.values.map((v) => v.value),
    [0.5, 1],
  );
  assert.deepEqual(acls.diverged, [{ value: 0, diverged: 2, planned: 2 }]);
  assert.equal(acls.chosen, 1);
  // An argmin over the sweep is decided on the values left, and names the value left out.
  const argmin = qualitativeVerdict(results, { kind: 'argmin', method: 'acls', sweep: 'lossOptions.lambda1', metric: 'ece', split: 'validation', expect: [1] } as never);
  assert.equal(argmin.outcome, 'criterion met');
  assert.equal(argmin.note, 'lossOptions.lambda1 = 0 diverged (training loss NaN or infinite) in 2 of 2 seeds: not a candidate');
  const monotone = qualitativeVerdict(results, { kind: 'monotone', method: 'acls', sweep: 'lossOptions.lambda1', metric: 'ece', split: 'validation', trend: 'decreasing' } as never);
  assert.equal(monotone.outcome, 'not evaluated');
  assert.match(monotone.note!, /the shape needs every value$/);
  // A comparison reading LS is not evaluated, and says why; one reading CE waits for its unfinished run.
  const vsLs = { kind: 'compare', comparison: { left: 'ls', right: 'acls' } } as never;
  assert.equal(missingRunsNote(results, vsLs), 'ls diverged (training loss NaN or infinite) in 1 of its 2 runs');
  assert.equal(missingRunsNote(results, { kind: 'compare', comparison: { left: 'ce', right: 'acls' } } as never), 'runs missing: 1 of the 2 runs of ce not finished');
  assert.equal(missingRunsNote(results, { kind: 'compare', comparison: { left: 'acls', right: 'acls' } } as never), null);
});
