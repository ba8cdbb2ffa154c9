import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BUILTIN_SUITES } from '../../src/suite/builtin-suites.js';
import { parseComparison, parseEquivalence } from '../../src/suite/claims/comparison.js';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { KARANDIKAR_CLAIMS } from '../../src/suite/papers/karandikar-claims.js';
import { KARANDIKAR_SHIFT_METHODS } from '../../src/suite/papers/karandikar.js';
import { scaledSuite } from '../../src/suite/scale-grid.js';
import { parseSuite, SUITE_SCALES, type Suite } from '../../src/suite/suite-schema.js';

/** dist/test/suite → repository root → ../shared/papers: the paper's text (never copied into the repository). */
const PAPER = fileURLToPath(new URL('../../../../shared/papers/004_9ecc4742ac49a960.txt', import.meta.url));

const suite = (): Suite => parseSuite(structuredClone(BUILTIN_SUITES['karandikar']!.suite), 'karandikar');

/** The comparison (directional or equivalence) a claim makes, parsed against the suite. */
function sidesOf(s: Suite, claim: (typeof KARANDIKAR_CLAIMS)[number]) {
  const methods = s.methods.map((m) => m.name);
  if (claim.compare !== undefined) return parseComparison(claim.compare, methods, s.posthoc, claim.id);
  if (claim.equivalent !== undefined) return parseEquivalence(claim.equivalent, methods, s.posthoc, claim.id);
  return undefined;
}

/** Claims whose metric is not the paper's table ECE on purpose (the claim is about another measure). */
const OTHER_MEASURES: Record<string, string> = {
  'ts-sbece-beats-ts-other-measures': 'ece', // §1: "across … calibration error measures"
  'focal-sbece-beats-nll-mmce-ks': 'ks', // Table 4: KS-error
  'focal-sbece-beats-nll-mmce-sweep': 'sweep_ece', // Table 4: mean-sweep CE
  'focal-savuc-best-marginal-ece': 'marginal_ece', // Table 6: marginal ECE
  'mmce-reduces-nll-overconfidence': 'oe', // App. D: overconfidence
  'nll-overfits-train-ece': 'train_ece', // Table 3: ℓ1 equal-width ECE of the training split
  'nll-train-ece-below-mse': 'train_ece',
  'sbece-no-train-ece-gain-when-nll-memorises': 'train_ece', // App. B: the train ECE of a memorising NLL
};

test('the karandikar registry parses into the suite, with unique ids, a source for every paper claim and one test key each', () => {
  const s = suite();
  assert.equal(s.claims.length, KARANDIKAR_CLAIMS.length);
  assert.equal(s.compare.length, 0, 'every comparison of the suite is a claim');
  const ids = KARANDIKAR_CLAIMS.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length, 'unique ids');
  for (const c of s.claims) {
    if (c.origin === 'paper') assert.ok(c.source && c.source.trim() !== '', `${c.id}: source`);
    else assert.ok(c.id.startsWith('suite-'), `${c.id}: the suite's own checks are named suite-…`);
    assert.equal(['compare', 'equivalent', 'qualitative', 'notTested'].filter((k) => c[k as keyof typeof c] !== undefined).length, 1, c.id);
    if (c.equivalent !== undefined) assert.ok(c.margin! > 0 && c.margin! <= 0.01, `${c.id}: a margin in the metric's units (fractions)`);
  }
  // The headline claims are tested, not listed as untestable.
  const headline = s.claims.filter((c) => c.headline);
  assert.ok(headline.length >= 5);
  assert.ok(headline.every((c) => c.notTested === undefined));
});

test("the clean-data and shift claims use the paper's ECE: ℓ2 over 15 equal-mass bins", () => {
  const s = suite();
  assert.equal(s.bins, 15);
  for (const scale of SUITE_SCALES)
    assert.ok(
      expandSuite(s, scale, 'karandikar').every((r) => r.config.bins === 15),
      `${scale}: runs evaluate with 15 bins`,
    );
  let eceClaims = 0;
  for (const c of s.claims) {
    const sides = sidesOf(s, c);
    const metric = sides?.metric ?? (c.qualitative?.['metric'] as string | undefined);
    if (metric === undefined) continue;
    if (c.origin === 'suite' || OTHER_MEASURES[c.id] !== undefined) {
      if (c.origin === 'paper') assert.equal(metric, OTHER_MEASURES[c.id], c.id);
      continue;
    }
    if (/ece/.test(metric)) {
      assert.match(metric, /^(shift_)?adaece_l2(_s[1-5])?$/, `${c.id}: ${metric}`);
      eceClaims++;
    }
  }
  assert.ok(eceClaims >= 25, `${eceClaims} claims on the paper's ECE`);
  // β by the paper's rule with the paper's ECE, the report's ± the paper's SEM, the shift figures in the same ECE.
  assert.equal(s.select, 'adaece-l2-near-best-accuracy');
  assert.equal(s.spread, 'sem');
  assert.equal(s.shiftMetric, 'adaece_l2');
});

test('the comparisons are made as the paper makes them (which side is calibrated)', () => {
  const s = suite();
  const byId = new Map(s.claims.map((c) => [c.id, c]));
  // §5.1: the soft objective without TS against NLL with TS.
  for (const id of ['focal-sbece-beats-nll-ts', 'focal-savuc-beats-nll-ts']) {
    const c = sidesOf(s, byId.get(id)!)!;
    assert.equal(c.leftAfter, undefined, id);
    assert.equal(c.rightAfter, 'temperature', id);
    assert.equal(c.right, 'nll', id);
  }
  // §5.2: two calibrators on one model.
  const ts = sidesOf(s, byId.get('ts-sbece-beats-ts')!)!;
  assert.deepEqual([ts.left, ts.leftAfter, ts.right, ts.rightAfter], ['nll', 'ts-sb-ece', 'nll', 'temperature']);
  // Issue #22's misreadings: NLL + SB-ECE < NLL + MMCE is not the paper's (its Table 2 has MMCE lower with NLL);
  // SB-ECE is compared with MMCE between their best configurations (Table 1b).
  for (const c of s.claims) {
    const sides = sidesOf(s, c);
    assert.ok(!(sides?.left === 'nll-sbece' && sides.right === 'nll-mmce'), c.id);
  }
  assert.equal(sidesOf(s, byId.get('focal-sbece-beats-nll-mmce')!)!.left, 'focal-sbece');
  // Table 2 shows no NLL gain on CIFAR-10: the paper's own difference says so.
  assert.ok(byId.get('nll-sbece-beats-nll')!.paper!.difference! > 0);
});

test('every claim under shift names methods evaluated under corruption', () => {
  const s = suite();
  for (const scale of SUITE_SCALES) {
    const runs = expandSuite(s, scale, 'karandikar');
    const shifted = new Set(runs.filter((r) => r.config.ood).map((r) => r.method));
    // The shift methods the scale runs (the deep grid drops MSE: scale-grid.ts).
    const run = new Set(runs.map((r) => r.method));
    assert.deepEqual([...shifted].sort(), KARANDIKAR_SHIFT_METHODS.filter((m) => run.has(m)).sort(), scale);
    // Every β value and seed of a shift method is evaluated (the β is chosen after the runs).
    for (const m of KARANDIKAR_SHIFT_METHODS)
      assert.ok(
        runs.filter((r) => r.method === m).every((r) => r.config.ood),
        `${scale}: ${m}`,
      );
  }
  for (const c of s.claims) {
    const sides = sidesOf(s, c);
    if (sides === undefined || !sides.metric.startsWith('shift_')) continue;
    for (const m of [sides.left, sides.right]) assert.ok(KARANDIKAR_SHIFT_METHODS.includes(m), `${c.id}: ${m} is evaluated under shift`);
  }
});

test('five seeds at machine scale (≥ 5 for the headline claims), every method at every seed', () => {
  const s = suite();
  assert.ok(s.seeds.length >= 5);
  const runs = expandSuite(s, 'machine', 'karandikar');
  // 3 primaries + 13 secondary-loss methods × 3 values of β, each at 5 seeds (interleaved NLL + SB-ECE is not run at
  // machine scale, where NLL does not memorise: the machine grid).
  assert.equal(runs.length, (3 + 13 * 3) * 5);
  assert.ok(!runs.some((r) => r.method === 'nll-sbece-interleaved'));
  // Every method a claim tested at machine scale names is run.
  const machine = scaledSuite(s, 'machine');
  assert.match(
    machine.claims.find((c) => c.id === 'interleaved-training-helps-nll')!.notTested!,
    /^not tested at machine scale: method nll-sbece-interleaved is not in its grid \(App\. B's interleaved training is for a primary loss that memorises/,
  );
  const named = new Set(
    machine.claims.flatMap((c) => {
      const x = sidesOf(s, c);
      return x ? [x.left, x.right] : c.qualitative?.kind === 'order' ? [...c.qualitative.methods] : [];
    }),
  );
  for (const m of named)
    assert.ok(
      runs.some((r) => r.method === m),
      `${m} is run`,
    );
  const headlineMethods = new Set(
    s.claims
      .filter((c) => c.headline)
      .flatMap((c) => {
        const x = sidesOf(s, c);
        return x ? [x.left, x.right] : [];
      }),
  );
  for (const m of headlineMethods) {
    const seeds = new Set(runs.filter((r) => r.method === m).map((r) => r.config.seed));
    assert.ok(seeds.size >= 5, `${m}: ${seeds.size} seeds`);
  }
});

test("the paper's numbers: each difference is the quoted CIFAR-10 pair, and every quoted number is in the paper's text", (t) => {
  if (!existsSync(PAPER)) {
    t.skip(`${PAPER} is absent (the paper texts live beside the repository in ../shared)`);
    return;
  }
  const paper = readFileSync(PAPER, 'utf8');
  for (const c of KARANDIKAR_CLAIMS) {
    if (c.paper === undefined) continue;
    for (const n of c.paper.text.match(/\d+\.\d+/g) ?? []) {
      assert.ok(new RegExp(`(?<![\\d.])${n.replace('.', '\\.')}(?!\\d)`).test(paper), `${c.id}: ${n} appears in the paper`);
    }
    if (c.paper.difference === undefined) continue;
    // The CIFAR-10 segment (not CIFAR-100) of the text, else its only dataset's: the first two numbers (± terms
    // dropped), left then right.
    const segments = c.paper.text.split(';');
    const segment = segments.find((p) => /CIFAR-10(?!\d)/.test(p)) ?? segments[0]!;
    const [a, b] = (
      segment
        .slice(segment.indexOf(':') + 1)
        .replace(/±\s*\d+\.\d+/g, '')
        .match(/\d+\.\d+/g) ?? []
    ).map(Number);
    assert.ok(Math.abs(a! - b! - c.paper.difference) < 1e-9, `${c.id}: ${a} − ${b} = ${c.paper.difference}`);
  }
});
