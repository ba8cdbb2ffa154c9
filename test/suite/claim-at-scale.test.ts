/**
 * A claim's test at one scale (claim-schema.ts `atScale`, claim-at-scale.ts): a claim that rests on memorisation is
 * not tested at a scale where cross-entropy does not memorise and compared where it does. The suite run at a scale
 * (scaledSuite, which suite.json records and the report decides) carries each claim's test for that scale and no
 * `atScale`; the overrides are checked against the suite's methods when the suite is read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { claimAtScale } from '../../src/suite/claims/claim-at-scale.js';
import { scaledSuite } from '../../src/suite/scale-grid.js';
import { parseSuite, type Suite } from '../../src/suite/suite-schema.js';

function suiteWith(claim: Record<string, unknown>, grids: Record<string, unknown> = {}): Suite {
  return parseSuite({
    name: 'a',
    base: { dataset: 'mnist', subset: 300, validation: 100, modelOptions: { hidden: [8] }, epochs: 1 },
    methods: [{ name: 'ce' }, { name: 'ls', loss: 'ls' }, { name: 'focal', loss: 'focal' }],
    claims: [{ id: 'c', statement: 's', source: 'App. B', ...claim }],
    grids,
  });
}

const MEMORISES = {
  compare: 'ls < ce on ece',
  note: 'paper regime',
  atScale: { machine: { notTested: 'CE does not memorise at machine scale' }, deep: { equivalent: 'ls ~ ce on train_ece', margin: 0.0025, note: 'deep: CE memorises' } },
};

test('each scale gets the test its atScale gives (the note replaced when it gives one), the others the claim’s own; none keeps atScale', () => {
  const suite = suiteWith(MEMORISES);
  const at = (scale: 'quick' | 'machine' | 'deep' | 'paper') => scaledSuite(suite, scale).claims[0]!;
  assert.equal(at('machine').notTested, 'CE does not memorise at machine scale');
  assert.deepEqual([at('machine').compare, at('machine').note], [undefined, 'paper regime']);
  assert.deepEqual([at('deep').equivalent, at('deep').margin, at('deep').compare, at('deep').note], ['ls ~ ce on train_ece', 0.0025, undefined, 'deep: CE memorises']);
  for (const scale of ['quick', 'paper'] as const) assert.deepEqual([at(scale).compare, at(scale).notTested, at(scale).note], ['ls < ce on ece', undefined, 'paper regime'], scale);
  for (const scale of ['quick', 'machine', 'deep', 'paper'] as const) assert.equal(at(scale).atScale, undefined, scale);
  // The resolved suite reads back (suite.json) with the same claims.
  const deep = scaledSuite(suite, 'deep');
  assert.deepEqual(parseSuite(JSON.parse(JSON.stringify(deep))).claims, deep.claims);
  // A claim without atScale is itself at every scale.
  const plain = suiteWith({ compare: 'ls < ce on ece' }).claims[0]!;
  assert.deepEqual(claimAtScale(plain, 'deep'), plain);
});

test("a scale's grid trims the claim's test at that scale: a test there reading a dropped method is not tested, with the grid's reason", () => {
  const suite = suiteWith(MEMORISES, { deep: { reason: 'budget', drop: ['ls'] }, machine: { reason: 'machine budget', drop: ['focal'] } });
  assert.equal(scaledSuite(suite, 'deep').claims[0]!.notTested, 'not tested at deep scale: method ls is not in its grid (budget)');
  // At machine the claim's own test is notTested already: the grid does not rewrite its reason.
  assert.equal(scaledSuite(suite, 'machine').claims[0]!.notTested, 'CE does not memorise at machine scale');
});

test('a test at a scale is checked as a claim’s own: one test key, a margin with equivalent only, the methods and metrics of the suite', () => {
  const bad = (deep: Record<string, unknown>) => () => suiteWith({ compare: 'ls < ce on ece', atScale: { deep } });
  assert.throws(bad({ compare: 'ls < nll on ece' }), /suite\.claims\[0\]\.atScale\.deep\.compare: expected a method of the suite \(ce, ls, focal\) on the right, got "nll"/);
  assert.throws(
    bad({ compare: 'ls < ce on ece', notTested: 'x' }),
    /suite\.claims\[0\]\.atScale\.deep: expected exactly one of compare, equivalent, qualitative, notTested, got compare and notTested/,
  );
  assert.throws(bad({ note: 'only a note' }), /suite\.claims\[0\]\.atScale\.deep: expected exactly one of compare, equivalent, qualitative, notTested, got none/);
  assert.throws(bad({ equivalent: 'ls ~ ce on ece' }), /suite\.claims\[0\]\.atScale\.deep\.margin: expected the equivalence margin/);
  assert.throws(bad({ compare: 'ls < ce on ece', margin: 0.01 }), /suite\.claims\[0\]\.atScale\.deep\.margin: expected no margin/);
  assert.throws(() => suiteWith({ compare: 'ls < ce on ece', atScale: { huge: { notTested: 'x' } } }), /atScale/);
});
