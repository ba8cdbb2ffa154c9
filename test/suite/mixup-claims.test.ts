/**
 * The claims registries and hyperparameter rules of the two mixup papers' suites (Thulasidasan et al. 2019:
 * `thulasidasan`, `thulasidasan-text`; Maroñas et al. 2021: `maronas`): the registries parse with the suites, ids are
 * unique, the paper's claims carry their location, the misreadings of issue #22 stay fixed, every claim names the
 * methods the paper's rule calls for, and the machine scale runs the hyperparameters and seeds the papers prescribe.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILTIN_SUITES } from '../../src/suite/builtin-suites.js';
import { expandSuite, type SuiteRun } from '../../src/suite/expand-suite.js';
import { MARONAS_CLAIMS } from '../../src/suite/papers/maronas-claims.js';
import { MARONAS_ARC_BETAS } from '../../src/suite/papers/maronas.js';
import { THULASIDASAN_CLAIMS, THULASIDASAN_TEXT_CLAIMS } from '../../src/suite/papers/thulasidasan-claims.js';
import { THULASIDASAN_OOD_ALPHA } from '../../src/suite/papers/thulasidasan.js';
import { parseSuite, type Suite, type SuiteClaim } from '../../src/suite/suite-schema.js';

const REGISTRIES = { thulasidasan: THULASIDASAN_CLAIMS, maronas: MARONAS_CLAIMS, 'thulasidasan-text': THULASIDASAN_TEXT_CLAIMS } as const;

function suiteOf(name: keyof typeof REGISTRIES): Suite {
  return parseSuite(structuredClone(BUILTIN_SUITES[name]!.suite), name);
}

const paperClaims = (s: Suite): SuiteClaim[] => s.claims.filter((c) => c.origin === 'paper');
const tested = (c: SuiteClaim): string | undefined => c.compare ?? c.equivalent;

/** Runs per method at a scale: { method: runs }. */
function byMethod(runs: readonly SuiteRun[]): Map<string, SuiteRun[]> {
  const out = new Map<string, SuiteRun[]>();
  for (const r of runs) out.set(r.method, [...(out.get(r.method) ?? []), r]);
  return out;
}

test("each registry parses as its suite's claims: unique ids, a source and a statement for every paper claim, a reason for every untested one, headline claims first-class", () => {
  for (const [name, registry] of Object.entries(REGISTRIES) as [keyof typeof REGISTRIES, (typeof REGISTRIES)[keyof typeof REGISTRIES]][]) {
    const suite = suiteOf(name);
    assert.equal(suite.claims.length, registry.length, `${name}: every registry entry is a claim of the suite`);
    assert.deepEqual(suite.compare, [], `${name}: every comparison moved into claims`);
    const ids = suite.claims.map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length, `${name}: unique ids`);
    for (const c of paperClaims(suite)) {
      assert.ok(c.source && /(Table|Fig\.|§|App\.|Abstract)/.test(c.source), `${name}/${c.id}: a paper location (${c.source})`);
      assert.ok(c.statement.length > 20, `${name}/${c.id}: a statement`);
      if (c.notTested !== undefined) assert.ok(c.notTested.length > 20, `${name}/${c.id}: the reason it is not tested`);
      if (c.paper?.difference !== undefined) assert.ok(Number.isFinite(c.paper.difference) && c.paper.text.length > 0, `${name}/${c.id}: paper number with its text`);
    }
    for (const c of suite.claims.filter((x) => x.origin === 'suite')) assert.ok(c.id.startsWith('suite-'), `${name}/${c.id}: the suite's own checks are named as such`);
    assert.ok(paperClaims(suite).filter((c) => c.headline && c.notTested === undefined).length >= 2, `${name}: tested headline claims`);
  }
  // A registry entry with a duplicated id, or a paper claim without a source, is refused when the suite is read.
  const broken = structuredClone(BUILTIN_SUITES['maronas']!.suite) as unknown as { claims: { id: string; source?: string }[] };
  broken.claims[1]!.id = broken.claims[0]!.id;
  assert.throws(() => parseSuite(broken, 'maronas'), /maronas\.claims\[1\]\.id: expected an id not used by another claim/);
  const unsourced = structuredClone(BUILTIN_SUITES['maronas']!.suite) as unknown as { claims: { source?: string }[] };
  delete unsourced.claims[0]!.source;
  assert.throws(() => parseSuite(unsourced, 'maronas'), /maronas\.claims\[0\]\.source/);
});

test("Thulasidasan: the claims are the paper's, at the paper's locations (issue #22's misreadings stay fixed)", () => {
  const suite = suiteOf('thulasidasan');
  const paper = paperClaims(suite);
  const byId = new Map(suite.claims.map((c) => [c.id, c]));
  // No paper claim about corruptions (the paper has none; its Fig. 5 is the training-label entropy histogram).
  assert.ok(
    paper.every((c) => !/Fig\. 5/.test(c.source ?? '') && !/shift_/.test(tested(c) ?? '')),
    'no paper claim on corruption or from Fig. 5',
  );
  assert.ok(suite.claims.filter((c) => /shift_/.test(tested(c) ?? '')).every((c) => c.origin === 'suite'));
  // Manifold mixup is worse than mixup at equal epochs (App. C), not "calibrates too".
  assert.equal(byId.get('manifold-mixup-worse-ece')!.compare, 'mixup-manifold > mixup-04 on ece');
  assert.match(byId.get('manifold-mixup-worse-ece')!.source!, /App\. C/);
  // The OOD table is Table 1; the α sweep Fig. 2h–j.
  const auroc = paper.filter((c) => /_auroc/.test(tested(c) ?? ''));
  assert.ok(auroc.length >= 8 && auroc.every((c) => /Table 1/.test(c.source!)), 'every AUROC claim cites Table 1');
  const alpha = paper.filter((c) => (c.qualitative as { sweep?: string } | undefined)?.sweep === 'mixup');
  assert.ok(alpha.length >= 3 && alpha.every((c) => /Fig\. 2[hij]|App\. A/.test(c.source!)));
  // Claims the runs contradicted appear as the paper makes them: LS < CE (§3.4), TS a poor detector (Table 1).
  assert.equal(byId.get('ls-beats-ce-ece')!.compare, 'ls < ce on ece');
  assert.equal(byId.get('ts-poor-ood-detector')!.compare, 'ce+temperature < ce on ood_auroc');
  assert.equal(byId.get('ts-poor-noise-detector')!.compare, 'ce+temperature < ce on noise_auroc');
  assert.equal(byId.get('ts-poor-ood-detector')!.paper?.difference, -24.37, 'Table 1: 56.2 − 80.57');
  assert.equal(byId.get('mixup-best-noise-detector-vs-ce')!.paper?.difference, 22.65, 'Table 1: 95.93 − 73.28');
  // The paper makes no in-distribution claim after TS and none against MC dropout in distribution.
  for (const c of paper) assert.ok(!/ after temperature/.test(tested(c) ?? '') && !/< mc-dropout on ece/.test(tested(c) ?? ''), c.id);
});

test('Thulasidasan: α by validation accuracy in distribution, α = 0.4 for Table 1 (and against feature-only and manifold mixup), best validation-accuracy epoch, ≥ 5 seeds', () => {
  const suite = suiteOf('thulasidasan');
  assert.equal(suite.select, 'accuracy', 'swept α and ε chosen by validation accuracy (§3.4)');
  assert.deepEqual(
    suite.sweeps.map((s) => [s.key, s.values, s.methods]),
    [
      ['mixup', [0.1, 0.2, 0.4, 1], ['mixup']],
      ['lossOptions.epsilon', [0.05, 0.1], ['ls']],
    ],
  );
  assert.equal(THULASIDASAN_OOD_ALPHA, 0.4);
  // Every claim on an OOD metric, and every comparison of mixup variants, names the α = 0.4 model.
  for (const c of suite.claims) {
    const text = tested(c) ?? '';
    if (/(ood|noise)_|shift_/.test(text) && /mixup/.test(text)) assert.match(text, /mixup-04/, c.id);
    if (/mixup-(feature|manifold)/.test(text)) assert.match(text, /mixup-04/, c.id);
  }
  const machine = expandSuite(suite, 'machine', 'thulasidasan');
  const methods = byMethod(machine);
  for (const r of machine) {
    assert.equal(r.config.select, 'accuracy', `${r.id}: best validation-accuracy epoch (§3.1)`);
    assert.deepEqual([r.config.subset, r.config.validation], [15000, 5000], `${r.id}: 10,000 train, 5,000 validate`);
    assert.deepEqual([r.config.schedule, r.config.nesterov], ['multistep:0.3,0.6,0.8:0.5', true], `${r.id}: §3.1's schedule (halved at 60/120/160 of 200)`);
  }
  for (const r of methods.get('mixup-04')!) assert.deepEqual([r.config.mixup, r.config.mixupKind, r.config.ood], [0.4, 'input', true]);
  for (const m of ['mixup-feature', 'mixup-manifold']) for (const r of methods.get(m)!) assert.equal(r.config.mixup, 0.4, r.id);
  // OOD on Table 1's rows (CE, mixup α = 0.4, MC dropout) and feature-only mixup only.
  assert.deepEqual([...new Set(machine.filter((r) => r.config.ood).map((r) => r.method))], ['ce', 'mixup-04', 'mixup-feature', 'mc-dropout']);
  for (const r of methods.get('mc-dropout')!) assert.deepEqual([r.config.mcDropout, r.config.modelOptions['dropout']], [{ passes: 10 }, 0.3]);
  for (const r of methods.get('erl')!) assert.equal(r.config.lossOptions['kappa'], 0.1);
  for (const [method, runs] of methods) {
    const values = new Set(runs.map((r) => JSON.stringify(r.sweep?.value ?? null)));
    for (const v of values) assert.ok(runs.filter((r) => JSON.stringify(r.sweep?.value ?? null) === v).length >= 5, `${method}: ≥ 5 seeds at machine scale`);
  }
  assert.equal(machine.length, (1 + 4 + 1 + 2 + 1 + 1 + 1 + 1) * 5, 'run count stated in the description (60)');
});

test("Maroñas: mixup degrades calibration and A+M corrects it as directional claims, ARC alone as an equivalence with its margin, no TS claim of the paper's", () => {
  const suite = suiteOf('maronas');
  const byId = new Map(suite.claims.map((c) => [c.id, c]));
  assert.equal(byId.get('mixup-degrades-calibration')!.compare, 'bm > b on ece');
  assert.equal(byId.get('arc-m-beats-bm')!.compare, 'arc-m < bm on ece');
  const alone = byId.get('arc-alone-no-significant-gain')!;
  assert.equal(alone.equivalent, 'arc ~ b on ece');
  assert.equal(alone.margin, 0.005);
  assert.equal(alone.paper?.difference, -0.04, 'Table 1 CIFAR-10: 3.37 − 3.41');
  for (const c of paperClaims(suite)) assert.ok(!/temperature/.test(tested(c) ?? ''), `${c.id}: the paper has no temperature scaling`);
  assert.ok(suite.claims.some((c) => c.origin === 'suite' && /after temperature/.test(c.compare ?? '')));
});

test('Maroñas: every ARC method\'s β searched over the paper\'s range by "good accuracy with low calibration error", V1 M = 1 on the sources, α = 1, last epoch, ≥ 5 seeds', () => {
  const suite = suiteOf('maronas');
  assert.equal(suite.select, 'ece-near-best-accuracy');
  assert.deepEqual(MARONAS_ARC_BETAS, [1, 4, 16, 42]);
  assert.ok(Math.max(...MARONAS_ARC_BETAS) >= 40, "the grid reaches the paper's ≈ 40");
  const machine = expandSuite(suite, 'machine', 'maronas');
  const methods = byMethod(machine);
  const arcMethods = [...methods.keys()].filter((m) => m.startsWith('arc'));
  assert.deepEqual(arcMethods, ['arc', 'arc-m', 'arc-m-mixed', 'arc-m-v2']);
  for (const m of arcMethods) {
    const runs = methods.get(m)!;
    assert.deepEqual([...new Set(runs.map((r) => r.config.weight))], MARONAS_ARC_BETAS, `${m}: β swept`);
    for (const beta of MARONAS_ARC_BETAS) assert.ok(runs.filter((r) => r.config.weight === beta).length >= 5, `${m} β = ${beta}: ≥ 5 seeds`);
    for (const r of runs) {
      assert.equal(r.config.secondary, 'arc');
      assert.deepEqual(r.config.secondaryOptions, { version: m === 'arc-m-v2' ? 'v2' : 'v1', bins: [1] }, r.id);
      assert.equal(r.config.mixup, m === 'arc' ? 0 : 1, r.id);
      assert.equal(r.config.arcPlacement, m === 'arc-m' || m === 'arc-m-v2' ? 'sources' : 'mixed', r.id);
    }
  }
  for (const r of machine) {
    assert.equal(r.config.select, 'last', `${r.id}: the code's final weights`);
    assert.deepEqual([r.config.subset, r.config.validation, r.config.schedule], [15000, 5000, 'multistep:0.3,0.6,0.8:0.2'], `${r.id}: 5,000 validate; the code's WRN schedule`);
  }
  for (const r of methods.get('bm')!) assert.equal(r.config.mixup, 1);
  for (const r of methods.get('mmce')!) assert.deepEqual([r.config.secondary, r.config.secondaryOptions, r.config.weight], ['mmce-weighted', { normalisation: 'kumar' }, 0.5]);
  for (const r of methods.get('mmce-m')!)
    assert.deepEqual([r.config.secondary, r.config.secondaryOptions, r.config.weight, r.config.arcPlacement, r.config.mixup], ['mmce-weighted', { normalisation: 'kumar' }, 0.4, 'sources', 1]);
  for (const m of ['b', 'bm', 'mmce', 'mmce-m']) assert.equal(methods.get(m)!.length, 5, `${m}: 5 seeds`);
  assert.equal(machine.length, 4 * 5 + 4 * MARONAS_ARC_BETAS.length * 5, 'run count stated in the description (100)');
  // The paper scale keeps the code's final weights too (CIFAR_RECIPE would select the best validation accuracy).
  assert.ok(expandSuite(suite, 'paper', 'maronas').every((r) => r.config.select === 'last'));
});

test("thulasidasan-text: §4's claims (mixup < CE on ECE and OE), embedding mixup α = 0.4, best validation-accuracy epoch, 5 seeds", () => {
  const suite = suiteOf('thulasidasan-text');
  assert.deepEqual(
    paperClaims(suite).map((c) => c.compare),
    ['mixup < ce on ece', 'mixup < ce on oe'],
  );
  assert.ok(paperClaims(suite).every((c) => /§4, Fig\. 4/.test(c.source!)));
  const machine = expandSuite(suite, 'machine', 'thulasidasan-text');
  assert.equal(machine.length, 4 * 5);
  for (const r of machine) assert.deepEqual([r.config.select, r.config.validation], ['accuracy', 5000], r.id);
  for (const r of machine.filter((x) => x.method === 'mixup')) assert.deepEqual([r.config.mixup, r.config.mixupKind], [0.4, 'embedding']);
});
