/**
 * The MbLS and ACLS claims registries (mbls-claims.ts, acls-claims.ts) decided on synthetic suite directories whose
 * answers are known: every planned run of the built-in suite (machine scale) is written as a finished run whose
 * posthoc.json / summary.json hold numbers of a designed "world", and the verdicts are read back through the same
 * path as `calib report` (readSuiteResults → suiteVerdicts).
 *
 * - The paper's world (values chosen so that every tested claim of the paper is true, the numbers in each registry's
 *   table below): every directional claim holds, every equivalence claim is equivalent, every shape criterion is met,
 *   and each verdict's difference is the designed one.
 * - The mirrored world (every number v replaced by 1 − v): every directional claim between unswept methods is
 *   contradicted, equivalences stay equivalent (|difference| unchanged), and the shape criteria are not met.
 * - An unfinished suite: with one run of a method missing, exactly the claims that read that method are "not
 *   evaluated" (runs missing: 1 of the 5 …), the others keep their verdicts; the reproductions README gives such a
 *   report's runs as "n of N".
 *
 * Seed noise: run (method k, seed s) adds 1e-5·(k + 1)·((3s + k) mod 5 − 2) to each number; over the 5 seeds it
 * averages to exactly 0, so seed means are the designed values, and paired differences have a non-zero spread.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BUILTIN_SUITES } from '../../src/suite/builtin-suites.js';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { parseSuite, type Suite } from '../../src/suite/suite-schema.js';
import { prepareSuiteDirectory, runDirectory } from '../../src/suite/suite-directory.js';
import { reproductionsReadme } from '../../src/suite/report/reproductions-readme.js';
import { readSuiteResults } from '../../src/suite/report/suite-results.js';
import { readSyntheticRun } from './synthetic-run-reader.js';
import { suiteVerdicts, type Verdict } from '../../src/suite/report/verdicts.js';
import { tempDir } from '../io/temp-dir.js';

/** The designed numbers of one method: raw test metrics, and per calibrator the calibrated ones. */
interface MethodWorld {
  readonly ece: number;
  readonly accuracy: number;
  readonly conf: number;
  readonly miou?: number;
  readonly fgEce?: number;
  /** Calibrated numbers per calibrator kind (ECE, mean confidence, foreground ECE). */
  readonly after: Record<string, { readonly ece: number; readonly conf: number; readonly fgEce?: number }>;
}

/** A world: each method's numbers, and for a swept method its ECE per swept value (test and validation alike). */
interface World {
  readonly methods: Record<string, MethodWorld>;
  readonly sweeps: Record<string, Record<string, number>>;
}

/** adaECE is designed as ECE + 0.2 pt, so its claims read the same order as ECE's. */
const ADA = 0.002;

const m = (ece: number, accuracy: number, conf: number, after: MethodWorld['after'], extra: Partial<MethodWorld> = {}): MethodWorld => ({ ece, accuracy, conf, after, ...extra });
const ts = (ece: number, conf: number, nllTs = ece + 0.002): MethodWorld['after'] => ({ 'ts-grid-ece': { ece, conf }, temperature: { ece: nllTs, conf } });
const U_SHAPE = { 2: 0.05, 4: 0.03, 6: 0.01, 8: 0.02, 10: 0.03, 15: 0.04 };

/**
 * MbLS Table 1/2/7 and Fig. 2 made true: MbLS (1.0 %) below LS 2.8, m = 0 2.9 (within 1 pt of LS), ECP 3.0, FLSD 3.8,
 * FL 3.9, CE 5.8; after TS MbLS 0.8 below FL/FLSD 1.3, LS 1.7, CE 2.3; MbLS's accuracy within 1 pt of LS and CE, above
 * FL/FLSD; TS lowers CE's confidence, raises LS/FL/FLSD's, leaves MbLS's within 0.1 pt; ECE U-shaped in m, lowest at 6.
 */
const MBLS_WORLD: World = {
  methods: {
    ce: m(0.058, 0.945, 0.99, ts(0.023, 0.95)),
    ecp: m(0.03, 0.945, 0.97, ts(0.02, 0.95)),
    ls: m(0.028, 0.949, 0.9, ts(0.017, 0.94)),
    focal: m(0.039, 0.93, 0.88, ts(0.013, 0.93)),
    flsd: m(0.038, 0.93, 0.88, ts(0.013, 0.93)),
    'mbls-m0': m(0.029, 0.948, 0.92, ts(0.02, 0.94)),
    mbls: m(0.01, 0.95, 0.95, ts(0.008, 0.951)),
    'mbls-margin': m(Number.NaN, 0.95, 0.95, ts(0.008, 0.951)),
  },
  sweeps: { 'mbls-margin': U_SHAPE },
};

/** ACLS Tables 1, 3, 5 and supplement Table A / Fig. A made true (ACLS lowest; the ablations between it and LS). */
const ACLS_WORLD: World = {
  methods: {
    ce: m(0.058, 0.945, 0.99, ts(0.023, 0.95)),
    mmce: m(0.045, 0.945, 0.98, ts(0.02, 0.95)),
    ecp: m(0.03, 0.945, 0.97, ts(0.02, 0.95)),
    ls: m(0.028, 0.949, 0.9, ts(0.017, 0.94)),
    focal: m(0.039, 0.93, 0.88, ts(0.013, 0.93)),
    flsd: m(0.038, 0.93, 0.88, ts(0.013, 0.93)),
    mdca: m(0.02, 0.945, 0.96, ts(0.015, 0.95)),
    cpc: m(0.025, 0.945, 0.96, ts(0.015, 0.95)),
    crl: m(0.03, 0.945, 0.96, ts(0.015, 0.95)),
    mbls: m(0.016, 0.95, 0.96, ts(0.01, 0.95)),
    acls: m(0.01, 0.95, 0.95, ts(0.009, 0.95)),
    'acls-ar': m(0.015, 0.95, 0.95, ts(0.01, 0.95)),
    'acls-cr': m(0.014, 0.95, 0.95, ts(0.01, 0.95)),
    'mc-dropout': m(0.035, 0.945, 0.96, ts(0.015, 0.95)),
    cutmix: m(0.05, 0.945, 0.9, ts(0.015, 0.95)),
    'acls-margin': m(Number.NaN, 0.95, 0.95, ts(0.01, 0.95)),
    'acls-lambda1': m(Number.NaN, 0.95, 0.95, ts(0.01, 0.95)),
    'acls-lambda2': m(Number.NaN, 0.95, 0.95, ts(0.01, 0.95)),
  },
  sweeps: { 'acls-margin': U_SHAPE, 'acls-lambda1': { 0: 0.03, 0.5: 0.02, 1: 0.01, 1.5: 0.02 }, 'acls-lambda2': { 0: 0.03, 0.05: 0.02, 0.1: 0.01, 0.15: 0.02 } },
};

/** MbLS Table 6 made true: MbLS best calibrated and most accurate, every baseline overconfident (TS lowers it). */
const TEXT_WORLD: World = {
  methods: {
    ce: m(0.05, 0.93, 0.99, ts(0.02, 0.95)),
    ls: m(0.03, 0.93, 0.97, ts(0.015, 0.95)),
    focal: m(0.03, 0.93, 0.97, ts(0.015, 0.95)),
    flsd: m(0.03, 0.93, 0.97, ts(0.015, 0.95)),
    mbls: m(0.01, 0.95, 0.95, ts(0.008, 0.951)),
  },
  sweeps: {},
};

/** MbLS Table 5 made true: MbLS lowest pixel ECE (with and without background, raw and after TS) and highest mIoU. */
const seg = (ece: number, miou: number, fgEce: number, tsEce: number, tsFg: number): MethodWorld => m(ece, 0.98, 0.98, { temperature: { ece: tsEce, conf: 0.98, fgEce: tsFg } }, { miou, fgEce });
const SEGMENTATION_WORLD: World = {
  methods: {
    ce: seg(0.03, 0.75, 0.05, 0.02, 0.03),
    ecp: seg(0.03, 0.75, 0.05, 0.02, 0.03),
    ls: seg(0.04, 0.75, 0.06, 0.02, 0.03),
    focal: seg(0.05, 0.75, 0.07, 0.02, 0.03),
    mbls: seg(0.01, 0.8, 0.02, 0.008, 0.015),
  },
  sweeps: {},
};

const WORLDS: Record<string, World> = { mbls: MBLS_WORLD, acls: ACLS_WORLD, 'mbls-text': TEXT_WORLD, 'mbls-segmentation': SEGMENTATION_WORLD };

const suiteOf = (name: string): Suite => parseSuite(structuredClone(BUILTIN_SUITES[name]!.suite), name);

/**
 * Write the suite `name` at machine scale into a fresh directory: every planned run finished with the world's numbers
 * (each mapped by `f`: identity, or 1 − v for the mirrored world), except the runs in `skip`.
 */
async function writeWorld(name: string, world: World, f: (v: number) => number, skip: readonly string[] = []): Promise<string> {
  const dir = join(tempDir(`margin-claims-${name}`), 'suite');
  const suite = suiteOf(name);
  const runs = expandSuite(suite, 'machine', name);
  await prepareSuiteDirectory(dir, { format: 1, scale: 'machine', suite, runs });
  const methodIndex = new Map(suite.methods.map((x, i) => [x.name, i]));
  for (const run of runs) {
    if (skip.includes(run.id)) continue;
    const w = world.methods[run.method];
    assert.ok(w, `${name}: the world designs ${run.method}`);
    const k = methodIndex.get(run.method)!;
    const noise = 1e-5 * (k + 1) * (((3 * run.seed + k) % 5) - 2);
    const v = (x: number): number => f(x + noise);
    const ece = run.sweep ? world.sweeps[run.method]![String(run.sweep.value)]! : w.ece;
    assert.ok(Number.isFinite(ece), `${run.id}: a designed ECE`);
    const metrics = (e: number, conf: number) => ({ ece: v(e), adaece: v(e + ADA), accuracy: v(w.accuracy), mean_confidence: v(conf), nll: v(0.3) });
    const calibrators = Object.fromEntries(Object.entries(w.after).map(([kind, a]) => [kind, { calibrator: { kind: 'temperature', temperature: 1 }, test: metrics(a.ece, a.conf) }]));
    const posthoc = {
      bins: 15,
      convention: '(l,u]',
      validation: metrics(ece, w.conf),
      test: metrics(ece, w.conf),
      calibrators,
      ...(w.fgEce !== undefined ? { foreground: { test: { ece: v(w.fgEce) }, calibrators: Object.fromEntries(Object.entries(w.after).map(([kind, a]) => [kind, { ece: v(a.fgEce!) }])) } } : {}),
    };
    const rd = runDirectory(dir, run.id);
    mkdirSync(rd, { recursive: true });
    writeFileSync(join(rd, 'summary.json'), JSON.stringify({ test: w.miou !== undefined ? { miou: v(w.miou) } : {} }));
    writeFileSync(join(rd, 'posthoc.json'), JSON.stringify(posthoc));
  }
  return dir;
}

async function verdictsOf(dir: string): Promise<Verdict[]> {
  return suiteVerdicts(await readSuiteResults(dir, readSyntheticRun));
}

/** The outcome a tested claim has where the paper is right. */
function paperOutcome(v: Verdict): string {
  if (v.claim.test.kind === 'equivalent') return 'equivalent';
  if (v.claim.test.kind === 'qualitative') return 'criterion met';
  return 'holds';
}

const ids = (verdicts: readonly Verdict[], outcome: string): string[] => verdicts.filter((v) => v.outcome === outcome).map((v) => v.claim.id ?? v.claim.statement);

for (const [name, world] of Object.entries(WORLDS)) {
  test(`${name}: where the paper is right, every tested claim holds / is equivalent / meets its criterion, with the designed differences`, async () => {
    const verdicts = await verdictsOf(await writeWorld(name, world, (x) => x));
    const tested = verdicts.filter((v) => v.claim.test.kind !== 'not tested');
    assert.ok(tested.length >= 10, `${name}: ${tested.length} tested claims`);
    for (const v of tested) assert.equal(v.outcome, paperOutcome(v), `${v.claim.id}: ${v.outcome} (${v.note ?? ''}${v.criterion?.result ?? ''})`);
    for (const v of verdicts.filter((x) => x.claim.test.kind === 'not tested')) assert.equal(v.outcome, 'not tested');
    // The difference of each directional / equivalence claim is the designed one (the seed noise averages to 0).
    for (const v of tested) {
      const c = v.comparison;
      if (!c) continue;
      assert.equal(v.method, 'paired t over seeds');
      assert.equal(v.n, 5, `${v.claim.id}: five seeds`);
      const designed = (method: string, after: string | undefined): number => {
        const w = world.methods[method]!;
        const metric = c.metric;
        if (metric === 'miou') return w.miou!;
        if (metric === 'fg_ece') return after === undefined ? w.fgEce! : w.after[after]!.fgEce!;
        const raw = { ece: w.ece, adaece: w.ece + ADA, accuracy: w.accuracy, mean_confidence: w.conf }[metric as 'ece']!;
        if (after === undefined) return Number.isNaN(raw) ? world.sweeps[method]!['6']! + (metric === 'adaece' ? ADA : 0) : raw;
        const a = w.after[after]!;
        return { ece: a.ece, adaece: a.ece + ADA, accuracy: w.accuracy, mean_confidence: a.conf }[metric as 'ece']!;
      };
      const expected = designed(c.left, c.leftAfter) - designed(c.right, c.rightAfter);
      assert.ok(Math.abs(v.difference - expected) < 1e-9, `${v.claim.id}: difference ${v.difference} vs designed ${expected}`);
    }
  });

  test(`${name}: in the mirrored world (v → 1 − v) the directional claims are contradicted, equivalences kept, shape criteria not met`, async () => {
    const verdicts = await verdictsOf(await writeWorld(name, world, (x) => 1 - x));
    const swept = new Set(Object.keys(world.sweeps));
    for (const v of verdicts) {
      const t = v.claim.test;
      if (t.kind === 'not tested') continue;
      if (t.kind === 'equivalent') assert.equal(v.outcome, 'equivalent', v.claim.id!);
      else if (t.kind === 'qualitative') assert.equal(v.outcome, 'criterion not met', v.claim.id!);
      else if (!swept.has(t.comparison.left) && !swept.has(t.comparison.right)) assert.equal(v.outcome, 'contradicted', v.claim.id ?? t.comparison.text);
    }
  });
}

test('mbls: the swept margin row of a claim is the value of lowest validation ECE (mirrored world: m = 2, so its check holds there)', async () => {
  const verdicts = await verdictsOf(await writeWorld('mbls', MBLS_WORLD, (x) => 1 - x));
  const v = verdicts.find((x) => x.claim.id === 'mbls-validation-margin-beats-ce-ts')!;
  // m = 2 has the highest designed ECE (5 %), so the lowest mirrored one (95 %), against CE + TS at 1 − 2.3 %.
  assert.equal(v.outcome, 'holds');
  assert.ok(Math.abs(v.difference - (1 - 0.05 - (1 - 0.023))) < 1e-9, String(v.difference));
});

test('an unfinished suite: exactly the claims that read a method with a missing run are not evaluated, the others keep their verdicts', async () => {
  const full = await verdictsOf(await writeWorld('mbls', MBLS_WORLD, (x) => x));
  const partial = await verdictsOf(await writeWorld('mbls', MBLS_WORLD, (x) => x, ['mbls-seed4', 'mbls-margin-margin=10-seed2']));
  const reads = (v: Verdict, method: string): boolean => {
    const t = v.claim.test;
    if (t.kind === 'compare' || t.kind === 'equivalent') return t.comparison.left === method || t.comparison.right === method;
    if (t.kind === 'qualitative') return t.qualitative.kind === 'order' ? t.qualitative.methods.includes(method) : t.qualitative.method === method;
    return false;
  };
  let missing = 0;
  for (const [i, v] of partial.entries()) {
    const id = v.claim.id!;
    if (reads(v, 'mbls')) {
      assert.equal(v.outcome, 'not evaluated', id);
      assert.equal(v.note, 'runs missing: 1 of the 5 runs of mbls not finished', id);
      missing++;
    } else if (reads(v, 'mbls-margin')) {
      assert.equal(v.outcome, 'not evaluated', id);
      assert.equal(v.note, 'runs missing: 1 of the 30 runs of mbls-margin not finished', id);
      // A shape claim keeps its criterion as a sentence, without numbers from the unfinished sweep.
      if (v.claim.test.kind === 'qualitative')
        assert.ok(v.criterion && /of mbls-margin over lossOptions\.margin/.test(v.criterion.text) && v.criterion.result === 'n/a' && v.criterion.points.length === 0, id);
      missing++;
    } else {
      assert.equal(v.outcome, full[i]!.outcome, id);
      assert.equal(v.difference, full[i]!.difference, id);
    }
    // A claim not evaluated has no interval and is outside the Holm family.
    if (v.outcome === 'not evaluated') assert.ok(Number.isNaN(v.lower) && Number.isNaN(v.pHolm) && v.holmNote === 'no test', id);
  }
  assert.ok(missing >= 20, `${missing} claims read mbls or its margin sweep`);
  assert.ok(ids(partial, 'holds').includes('ecp-beats-ce') && ids(partial, 'equivalent').includes('ls-equals-mbls-m0'), 'claims without mbls are still decided');
});

test('an unfinished suite in the reproductions README: its runs read "n of N", its settings say how many are not finished', async () => {
  const dir = tempDir('readme-partial');
  mkdirSync(join(dir, 'toy'));
  const report = {
    suite: 'toy',
    scale: 'machine',
    description: null,
    settings: 'scale machine; 10 runs (6 finished); seeds 0, 1, 2, 3, 4',
    runs: [0, 1, 2, 3, 4, 0].map((seed) => ({ seed, config: {} })),
    missing: ['b-seed1', 'b-seed2', 'b-seed3', 'b-seed4'],
    verdicts: [
      {
        id: 'a-beats-b',
        statement: 'A beats B.',
        source: 'Table 1',
        origin: 'paper',
        headline: true,
        paper_text: null,
        paper_value: null,
        claim: 'a < b on ece',
        metric: 'ece',
        outcome: 'not evaluated',
        reason: null,
        difference: null,
        lower: null,
        upper: null,
        interval_level: null,
        test: 'none',
        n: 0,
        mde: null,
        p: null,
        p_holm: null,
        outcome_holm: null,
        holm_note: 'no test',
        criterion: null,
        note: 'runs missing: 4 of the 5 runs of b not finished',
      },
    ],
  };
  writeFileSync(join(dir, 'toy', 'report.json'), JSON.stringify(report));
  const text = await reproductionsReadme(dir);
  assert.match(text, /\| `toy` \| machine \| 6 of 10 \| 5 \| 0 \/ 1 \| 0 \|/);
  assert.match(text, /\*\*Settings:\*\* scale machine; 10 runs \(6 finished\); seeds 0, 1, 2, 3, 4\. \*\*Incomplete:\*\* 4 run\(s\) not finished\./);
  assert.match(text, /\| runs missing: 4 of the 5 runs of b not finished \| \*\*not evaluated\*\* \| no test \|/);
  // A shape claim not evaluated shows why, not its criterion's 'n/a'.
  const shape = {
    ...report.verdicts[0]!,
    id: 'u',
    claim: 'u-shape: the seed-mean test ece of b over m is lowest at an interior value',
    criterion: { text: 'the seed-mean test ece of b over m is lowest at an interior value', result: 'n/a', points: [], steps: [] },
  };
  writeFileSync(join(dir, 'toy', 'report.json'), JSON.stringify({ ...report, verdicts: [shape] }));
  assert.match(
    await reproductionsReadme(dir),
    /\| u \(headline\): u-shape: the seed-mean test ece of b over m is lowest at an interior value \| Table 1 \| A beats B\. \| — \| runs missing: 4 of the 5 runs of b not finished \| \*\*not evaluated\*\* \| no test \|/,
  );
});
