/**
 * The claims registries of the MbLS (Liu et al. 2022) and ACLS (Park et al. 2023) suites (mbls-claims.ts,
 * acls-claims.ts) and the hyperparameter rules of their suites (margin-scales.ts): each registry parses inside its
 * suite, ids are unique, every claim of the paper names where the paper makes it, the paper's comparisons with TS
 * use the official code's fit, and the machine scale follows the papers' rules (m = 6 on 10 classes, λ as the
 * papers set them, ≥ 5 seeds, a 5,000-sample validation split, the checkpoint of best validation accuracy).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILTIN_SUITES } from '../../src/suite/builtin-suites.js';
import { expandSuite, type SuiteRun } from '../../src/suite/expand-suite.js';
import { parseSuite, type Suite, type SuiteClaimInput } from '../../src/suite/suite-schema.js';
import { ACLS_CLAIMS } from '../../src/suite/papers/acls-claims.js';
import { MBLS_CLAIMS, MBLS_SEGMENTATION_CLAIMS, MBLS_TEXT_CLAIMS } from '../../src/suite/papers/mbls-claims.js';
import { lossDefinition } from '../../src/losses/registry.js';

const REGISTRIES: Record<string, readonly SuiteClaimInput[]> = {
  mbls: MBLS_CLAIMS,
  acls: ACLS_CLAIMS,
  'mbls-text': MBLS_TEXT_CLAIMS,
  'mbls-segmentation': MBLS_SEGMENTATION_CLAIMS,
};

const suiteOf = (name: string): Suite => parseSuite(structuredClone(BUILTIN_SUITES[name]!.suite), name);
const machineRun = (name: string, id: string): SuiteRun => {
  const run = expandSuite(suiteOf(name), 'machine', name).find((r) => r.id === id);
  assert.ok(run, `${name}: run ${id}`);
  return run;
};

for (const [name, registry] of Object.entries(REGISTRIES)) {
  test(`${name}: its registry parses as the suite's claims, ids unique, every claim of the paper sourced, one test key each`, () => {
    const suite = suiteOf(name);
    assert.equal(suite.claims.length, registry.length);
    assert.deepEqual(
      suite.claims.map((c) => c.id),
      registry.map((c) => c.id),
    );
    assert.equal(new Set(registry.map((c) => c.id)).size, registry.length, 'unique ids');
    assert.deepEqual(suite.compare, [], "every comparison is a claim (the paper's or the suite's own)");
    for (const c of suite.claims) {
      assert.ok(c.statement.length > 20, `${c.id}: a statement`);
      if (c.origin === 'paper') assert.ok(c.source && /Table|Fig\.|§|App\.|Supplement/.test(c.source), `${c.id}: a table, figure, section or appendix (${c.source})`);
      if (c.notTested !== undefined) assert.ok(c.notTested.length > 20 && c.headline === false, `${c.id}: a reason, and no untested headline`);
      // the paper's number, when given, is in percentage points: a difference of a few points, not a fraction
      if (c.paper?.difference !== undefined) assert.ok(Math.abs(c.paper.difference) < 30 && (c.paper.difference === 0 || Math.abs(c.paper.difference) >= 0.01), `${c.id}: points`);
      if (c.margin !== undefined) assert.ok(c.margin > 0 && c.margin <= 0.02, `${c.id}: a margin in the metric's units (fractions)`);
    }
    const headlines = suite.claims.filter((c) => c.headline);
    assert.ok(headlines.length >= 4, 'headline claims');
    assert.ok(
      headlines.every((c) => c.origin === 'paper' && (c.compare ?? c.equivalent ?? c.qualitative) !== undefined),
      'headlines are tested claims of the paper',
    );
    assert.ok(
      suite.claims.some((c) => c.notTested !== undefined),
      'what cannot be tested is listed',
    );
  });

  test(`${name}: at least 5 seeds, and the paper's TS comparisons use the official code's fit (grid ECE)`, () => {
    const suite = suiteOf(name);
    assert.ok(suite.seeds.length >= 5, `${suite.seeds.length} seeds`);
    for (const c of suite.claims.filter((x) => x.origin === 'paper')) {
      const text = c.compare ?? c.equivalent ?? '';
      if (/\+|after/.test(text)) assert.match(text, /(\+| after )ts-grid-ece\b/, `${c.id}: ${text}`);
    }
  });
}

test("mbls: m = 6 with λ = 0.1 on the 10-class machine scale, m = 0 at λ = ε, baselines at the paper's values, TS and checkpoint as the code", () => {
  const suite = suiteOf('mbls');
  assert.deepEqual(machineRun('mbls', 'mbls-seed0').config.lossOptions, { margin: 6, alpha: 0.1 });
  const m0 = machineRun('mbls', 'mbls-m0-seed0').config.lossOptions;
  const ls = machineRun('mbls', 'ls-seed0').config.lossOptions;
  assert.deepEqual([m0['margin'], m0['alpha']], [0, ls['epsilon']], 'Ours (m = 0) at λ = ε');
  assert.equal(ls['epsilon'], 0.05);
  assert.equal(machineRun('mbls', 'ecp-seed0').config.lossOptions['alpha'], 0.1);
  assert.equal(machineRun('mbls', 'focal-seed0').config.lossOptions['gamma'], 3);
  assert.equal(machineRun('mbls', 'flsd-seed0').config.loss, 'flsd53');
  const sweep = expandSuite(suite, 'machine', 'mbls').filter((r) => r.method === 'mbls-margin');
  assert.deepEqual([...new Set(sweep.map((r) => r.config.lossOptions['margin']))], [2, 4, 6, 8, 10, 15]);
  assert.ok(sweep.every((r) => r.config.lossOptions['alpha'] === 0.1));
  assert.deepEqual(suite.posthoc, ['ts-grid-ece', 'temperature']);
  for (const r of expandSuite(suite, 'machine', 'mbls')) {
    assert.deepEqual([r.config.validation, r.config.select, r.config.dataset], [5000, 'accuracy', 'fashion-mnist'], r.id);
    assert.equal(r.config.schedule, 'multistep:0.428571,0.714286', 'η ÷ 10 at 150/350 and 250/350 of the epochs');
  }
  const paper = expandSuite(suite, 'paper', 'mbls').find((r) => r.id === 'mbls-seed0')!.config;
  assert.deepEqual([paper.dataset, paper.model, paper.epochs, paper.lossOptions['margin']], ['cifar10', 'resnet50', 350, 6]);
});

test("acls: M = 6, the paper's λ1 = 0.1 and λ2 = 0.01 (α·λ of the code), its λ grid, MbLS at m = 6, Fig. 3 at the method's options", () => {
  const suite = suiteOf('acls');
  const defaults = Object.fromEntries(Object.entries(lossDefinition('acls').options).map(([k, o]) => [k, o.fallback]));
  const effective = (run: SuiteRun): Record<string, unknown> => ({ ...defaults, ...run.config.lossOptions });
  for (const id of ['acls-seed0', 'acls-ar-seed0', 'acls-cr-seed0']) {
    const o = effective(machineRun('acls', id));
    assert.equal(o['margin'], 6, id);
    assert.ok(Math.abs((o['alpha'] as number) * (o['lambda1'] as number) - 0.1) < 1e-12, `${id}: the paper's λ1 = 0.1`);
    assert.ok(Math.abs((o['alpha'] as number) * (o['lambda2'] as number) - 0.01) < 1e-12, `${id}: the paper's λ2 = 0.01`);
  }
  assert.deepEqual([effective(machineRun('acls', 'acls-ar-seed0'))['variant'], effective(machineRun('acls', 'acls-cr-seed0'))['variant']], ['ar-only', 'cr-only']);
  assert.deepEqual(machineRun('acls', 'mbls-seed0').config.lossOptions, { margin: 6, alpha: 0.1 });
  const runs = expandSuite(suite, 'machine', 'acls');
  const grid = (method: string, key: string): number[] =>
    [...new Set(runs.filter((r) => r.method === method).map((r) => (effective(r)[key] as number) * (effective(r)['alpha'] as number)))].map((x) => Math.round(x * 1e6) / 1e6);
  assert.deepEqual(grid('acls-lambda1', 'lambda1'), [0, 0.05, 0.1, 0.15], 'supplement S2.2 λ1 grid');
  assert.deepEqual(grid('acls-lambda2', 'lambda2'), [0, 0.005, 0.01, 0.015], 'supplement S2.2 λ2 grid');
  assert.ok(runs.filter((r) => r.method === 'acls-lambda1').every((r) => effective(r)['lambda2'] === 0.1 && effective(r)['margin'] === 6));
  assert.ok(runs.filter((r) => r.method === 'acls-lambda2').every((r) => effective(r)['lambda1'] === 1 && effective(r)['margin'] === 6));
  assert.deepEqual(suite.regulariserHistogram?.options, { margin: 6 });
  for (const r of runs) assert.deepEqual([r.config.validation, r.config.select], [5000, 'accuracy'], r.id);
  const paper = expandSuite(suite, 'paper', 'acls').find((r) => r.id === 'acls-seed0')!.config;
  assert.deepEqual([paper.epochs, paper.schedule], [350, 'multistep:0.428571,0.714286'], 'ACLS §4.1: 350 epochs, ÷10 at 150 and 250');
});

test("mbls-text: m = 6 (the paper's 20 Newsgroups margin), FLSD in, best validation accuracy, η ÷ 10 after half the epochs", () => {
  assert.deepEqual(machineRun('mbls-text', 'mbls-seed0').config.lossOptions, { margin: 6, alpha: 0.1 });
  const ce = machineRun('mbls-text', 'ce-seed0').config;
  assert.deepEqual([ce.validation, ce.select, ce.schedule, ce.dataset], [5000, 'accuracy', 'multistep:0.5', 'debian-packages']);
  assert.equal(machineRun('mbls-text', 'flsd-seed0').config.loss, 'flsd53');
});

test("mbls-segmentation: m = 10 (VOC takes Tiny-ImageNet's hyperparameters, App. B), the best validation epoch", () => {
  const mbls = machineRun('mbls-segmentation', 'mbls-seed0').config;
  assert.deepEqual(mbls.lossOptions, { margin: 10, alpha: 0.1 });
  assert.equal(mbls.select, 'accuracy');
});
