import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILTIN_SUITES } from '../../src/suite/builtin-suites.js';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { methodsOfClaim, scaledSuite } from '../../src/suite/scale-grid.js';
import { suiteBudget } from '../../src/suite/estimate/suite-budget.js';
import { KARANDIKAR_APP_B_METHODS } from '../../src/suite/papers/deep-grids.js';
import { parseSuite, type Suite } from '../../src/suite/suite-schema.js';
import { DEEP_BUDGET_HOURS, DEEP_BUDGET_ORDER } from '../../src/cli/commands/suite.js';

/** A suite with a sweep, a shape claim, pairwise claims and a quick-scale grid. */
function gridded(grid: Record<string, unknown>): Suite {
  return parseSuite({
    name: 'g',
    base: { dataset: 'mnist', subset: 300, validation: 100, modelOptions: { hidden: [8] }, epochs: 1 },
    methods: [{ name: 'ce' }, { name: 'ls', loss: 'ls' }, { name: 'm', loss: 'mbls' }],
    sweeps: [{ key: 'lossOptions.margin', values: [2, 4, 6, 8], methods: ['m'] }],
    seeds: [0, 1, 2, 3, 4],
    claims: [
      { id: 'ls-beats-ce', statement: 's', source: 'Table 1', headline: true, compare: 'ls < ce on ece' },
      { id: 'm-beats-ls', statement: 's', source: 'Table 1', compare: 'm < ls+temperature on ece' },
      { id: 'optimum', statement: 's', source: 'Fig. 2', qualitative: { kind: 'argmin', method: 'm', sweep: 'lossOptions.margin', metric: 'ece', expect: [4, 6] } },
      { id: 'u', statement: 's', source: 'Fig. 2', qualitative: { kind: 'u-shape', method: 'm', sweep: 'lossOptions.margin', metric: 'ece' } },
    ],
    grids: { quick: grid },
  });
}

test("a grid gives each method its seeds and sweep values; run names and settings are the full grid's", () => {
  const suite = gridded({ reason: 'budget', seeds: [0, 1, 2], methods: { ls: { seeds: [0, 1, 2, 3, 4] }, m: { values: [2, 6, 8] } } });
  const runs = expandSuite(suite, 'quick');
  const count = (m: string): number => runs.filter((r) => r.method === m).length;
  assert.deepEqual([count('ce'), count('ls'), count('m')], [3, 5, 9]);
  const full = expandSuite({ ...suite, grids: { quick: undefined, machine: undefined, deep: undefined, paper: undefined } }, 'quick');
  assert.equal(full.length, 5 + 5 + 20);
  const byId = new Map(full.map((r) => [r.id, r]));
  for (const r of runs) assert.deepEqual(r.config, byId.get(r.id)?.config, `${r.id} is the full grid's run`);
  const scaled = scaledSuite(suite, 'quick');
  assert.match(scaled.description!, /quick grid, trimmed from the full grid \(budget\): ce: 3 seeds \(of 5\); m: 3 seeds \(of 5\), margin ∈ \{2, 6, 8\} \(of \{2, 4, 6, 8\}\)/);
  // The argmin claim keeps the expected value still swept (6); the U keeps 3 values.
  assert.deepEqual(scaled.claims.find((c) => c.id === 'optimum')!.qualitative, { kind: 'argmin', method: 'm', sweep: 'lossOptions.margin', metric: 'ece', split: 'test', expect: [6] });
  assert.equal(scaled.claims.find((c) => c.id === 'u')!.notTested, undefined);
  assert.deepEqual(
    expandSuite(scaled, 'quick').map((r) => r.id),
    runs.map((r) => r.id),
    'applying the grid twice changes nothing',
  );
});

test('claims whose methods or sweep values a grid removes are not tested at that scale, with the reason', () => {
  const suite = scaledSuite(gridded({ reason: 'budget', drop: ['ls'], methods: { m: { values: [2, 8] } } }), 'quick');
  const reason = (id: string): string | undefined => suite.claims.find((c) => c.id === id)!.notTested;
  assert.equal(reason('ls-beats-ce'), 'not tested at quick scale: method ls is not in its grid (budget)');
  assert.equal(reason('m-beats-ls'), 'not tested at quick scale: method ls is not in its grid (budget)');
  assert.equal(reason('optimum'), 'not tested at quick scale: its grid sweeps m over {2, 8}, without the expected value(s) {4, 6} (budget)');
  assert.equal(reason('u'), 'not tested at quick scale: its grid sweeps m over 2 value(s), a U needs 3 (budget)');
  assert.deepEqual(
    suite.methods.map((m) => m.name),
    ['ce', 'm'],
  );
  assert.equal(suite.claims.find((c) => c.id === 'ls-beats-ce')!.compare, undefined);
  parseSuite(JSON.parse(JSON.stringify(suite)), 'scaled');
});

test('a grid naming an unknown method, a value outside the sweep or no method left is refused by name', () => {
  assert.throws(() => gridded({ reason: 'r', drop: ['nope'] }), /suite\.grids\.quick\.drop\[0\]: expected a method of the suite \(ce, ls, m\)/);
  assert.throws(() => gridded({ reason: 'r', methods: { m: { values: [5] } } }), /suite\.grids\.quick\.methods\.m\.values\[0\]: expected a value of the sweep lossOptions\.margin \(2, 4, 6, 8\)/);
  assert.throws(() => gridded({ reason: 'r', methods: { ce: { values: [2] } } }), /suite\.grids\.quick\.methods\.ce\.values: expected no values \(method ce has no sweep\)/);
  assert.throws(() => gridded({ reason: 'r', drop: ['ce', 'ls', 'm'] }), /suite\.grids\.quick\.drop: expected at least one method left to run/);
  assert.throws(() => gridded({ reason: 'r', seeds: [1, 1] }), /suite\.grids\.quick\.seeds: expected distinct seeds/);
});

test("the five papers' deep grids: every headline claim tested with ≥ 5 seeds per method, every method ≥ 3 seeds, runs of the full grid", () => {
  for (const paper of DEEP_BUDGET_ORDER) {
    const full = parseSuite(structuredClone(BUILTIN_SUITES[paper]!.suite), paper);
    const suite = scaledSuite(full, 'deep');
    const seeds = new Map(suite.methods.map((m) => [m.name, m.seeds!.length]));
    for (const [m, n] of seeds) assert.ok(n >= 3, `${paper}/${m}: ${n} seeds`);
    for (const c of full.claims.filter((x) => x.headline && x.origin === 'paper')) {
      const trimmed = suite.claims.find((x) => x.id === c.id)!;
      if (c.notTested !== undefined) continue;
      assert.equal(trimmed.notTested, undefined, `${paper}/${c.id} (headline) is tested at deep scale`);
      for (const m of methodsOfClaim(c, full)) assert.ok(seeds.get(m)! >= 5, `${paper}/${c.id}: ${m} has ${seeds.get(m)} seeds`);
    }
    const all = new Map(expandSuite({ ...full, grids: { ...full.grids, deep: undefined } }, 'deep').map((r) => [r.id, r.config]));
    for (const r of expandSuite(full, 'deep')) assert.deepEqual(r.config, all.get(r.id), `${paper}/${r.id}`);
  }
});

test("the five papers at deep scale, in reuse order with two runs side by side, fit the issue's 20 machine-hours", () => {
  const suites = DEEP_BUDGET_ORDER.map((name) => ({ name, suite: parseSuite(structuredClone(BUILTIN_SUITES[name]!.suite), name) }));
  const b = suiteBudget(suites, 'deep', 2, 1);
  // Karandikar's App. B runs (NLL + SB-ECE plain and interleaved, 3 seeds each: the memorisation claims) are in the
  // plan; it fits because runs of the same weights are re-evaluated instead of trained (MbLS's CE is Karandikar's NLL
  // without the OOD evaluation; Thulasidasan's two mixup α = 0.4 runs differ only in it).
  const karandikar = suites.find((s) => s.name === 'karandikar')!.suite;
  const appB = expandSuite(karandikar, 'deep').filter((r) => KARANDIKAR_APP_B_METHODS.includes(r.method)).length;
  assert.equal(appB, 6);
  assert.ok(b.machineSeconds / 3600 <= DEEP_BUDGET_HOURS, `${(b.machineSeconds / 3600).toFixed(2)} h`);
  const reevaluated = b.rows.reduce((a, r) => a + [...r.reuse.reused.values()].filter((x) => x.reevaluate).length, 0);
  assert.equal(reevaluated, 10);
  assert.equal([...b.rows.find((r) => r.name === 'karandikar')!.reuse.reused.values()].filter((x) => x.reevaluate && x.from === 'mbls').length, 5);
  assert.equal([...b.rows.find((r) => r.name === 'thulasidasan')!.reuse.reused.values()].filter((x) => x.reevaluate && x.source === 'twin').length, 5);
  assert.ok(
    b.rows.every((r) => r.unmeasured === 0),
    'every run priced by the measured reference',
  );
  const acls = b.rows.find((r) => r.name === 'acls')!;
  // acls's CE, ECP, LS, FL, FLSD and MbLS (5 seeds each) are mbls's runs.
  assert.equal([...acls.reuse.reused.values()].filter((x) => x.from === 'mbls').length, 30);
  // Each trained run costs (60 epochs + 1.24 of overhead) × 13.2 s ÷ 2 side by side; a re-evaluated one the overhead.
  const trained = b.rows.reduce((a, r) => a + r.trained, 0);
  assert.ok(Math.abs(b.machineSeconds - ((trained * 61.24 + reevaluated * 1.24) * 13.2) / 2) < 1e-6 * b.machineSeconds);
});

test('docs/reproductions/deep-budget.md is what calib suite budget --markdown gives', async () => {
  const { budgetMarkdown } = await import('../../src/suite/estimate/suite-budget.js');
  const { readFileSync } = await import('node:fs');
  const suites = DEEP_BUDGET_ORDER.map((name) => ({ name, suite: parseSuite(structuredClone(BUILTIN_SUITES[name]!.suite), name) }));
  const path = 'docs/reproductions/deep-budget.md';
  const expected = budgetMarkdown(suiteBudget(suites, 'deep', 2, 1), `calib suite budget --scale deep --jobs 2 --threads 2 --markdown ${path}`);
  assert.equal(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8'), expected, `regenerate with: calib suite budget --scale deep --jobs 2 --threads 1 --markdown ${path}`);
});

test('every built-in suite at every scale is a suite its own schema reads back (suite.json round trip)', async () => {
  const { loadSuite } = await import('../../src/suite/load-suite.js');
  const { SUITE_SCALES } = await import('../../src/suite/suite-scales.js');
  for (const name of Object.keys(BUILTIN_SUITES)) {
    const suite = await loadSuite(name);
    for (const scale of SUITE_SCALES) {
      const scaled = scaledSuite(suite, scale);
      assert.doesNotThrow(() => parseSuite(JSON.parse(JSON.stringify(scaled)) as Record<string, unknown>), `${name} at ${scale}`);
    }
  }
});
