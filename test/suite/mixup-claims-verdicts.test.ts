/**
 * The mixup papers' claims registries decided on synthetic suite directories whose answer is known by construction:
 * every run of the built-in `maronas` / `thulasidasan` machine-scale suite gets a summary.json and posthoc.json (and
 * ood.json where the run evaluates OOD) with metrics chosen per method, swept value and seed; the report's own reader
 * (readSuiteResults: swept values chosen by the suite's rule on validation) and verdict engine decide each registry
 * claim, and the test checks the outcomes the numbers imply — so a registry entry whose sides, direction, metric or
 * margin is wrong, or a β / α chosen by the wrong rule, changes an outcome here. Also: a suite with unfinished runs
 * leaves exactly the claims that need them "not evaluated".
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { BUILTIN_SUITES } from '../../src/suite/builtin-suites.js';
import { expandSuite, type SuiteRun } from '../../src/suite/expand-suite.js';
import { readSuiteResults } from '../../src/suite/report/suite-results.js';
import { readSyntheticRun } from './synthetic-run-reader.js';
import { suiteVerdicts, type Verdict } from '../../src/suite/report/verdicts.js';
import { parseSuite } from '../../src/suite/suite-schema.js';

const root = mkdtempSync(join(tmpdir(), 'mixup-claims-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Seed-to-seed jitter: a different permutation per method so that paired differences have a spread. */
const JITTER = [0.0006, -0.0004, 0.0002, -0.0008, 0.0004];
const jitter = (seed: number, shift: number, scale = 1): number => scale * JITTER[Math.round(seed + shift) % JITTER.length]!;

/** What a synthetic run reports. */
interface Synthetic {
  readonly validation: Record<string, number>;
  readonly test: Record<string, number>;
  readonly ts?: Record<string, number>;
  readonly ood?: { readonly noise: { auroc: number; mean_confidence: number }; readonly ood_dataset: { auroc: number; mean_confidence: number } };
  readonly tsOod?: { readonly noise: { auroc: number; mean_confidence: number }; readonly ood_dataset: { auroc: number; mean_confidence: number } };
}

/** Write suite `name` at machine scale into a fresh directory, each run finished with `metrics(run)` unless `skip(run)`. */
function writeSuiteDir(name: string, metrics: (run: SuiteRun) => Synthetic, skip: (run: SuiteRun) => boolean = () => false): string {
  const suite = parseSuite(structuredClone(BUILTIN_SUITES[name]!.suite), name);
  const runs = expandSuite(suite, 'machine', name);
  const dir = mkdtempSync(join(root, `${name}-`));
  writeFileSync(join(dir, 'suite.json'), JSON.stringify({ format: 1, scale: 'machine', suite, runs }));
  for (const run of runs) {
    if (skip(run)) continue;
    const rd = join(dir, 'runs', run.id);
    mkdirSync(rd, { recursive: true });
    const m = metrics(run);
    const shift = (o: NonNullable<Synthetic['ood']>) => ({ in_distribution: { accuracy: m.test['accuracy'] }, ...o, corruptions: [] });
    writeFileSync(join(rd, 'summary.json'), JSON.stringify({}));
    writeFileSync(
      join(rd, 'posthoc.json'),
      JSON.stringify({
        bins: 15,
        convention: '(l,u]',
        validation: m.validation,
        test: m.test,
        calibrators: { temperature: { calibrator: { kind: 'temperature', temperature: 1.3 }, test: m.ts ?? m.test, ...(m.tsOod ? { shift: shift(m.tsOod) } : {}) } },
      }),
    );
    if (m.ood) writeFileSync(join(rd, 'ood.json'), JSON.stringify(shift(m.ood)));
  }
  return dir;
}

async function verdictsOf(dir: string): Promise<{ byId: Map<string, Verdict>; chosen: Map<string, unknown> }> {
  const results = await readSuiteResults(dir, readSyntheticRun);
  const verdicts = await suiteVerdicts(results);
  return { byId: new Map(verdicts.map((v) => [v.claim.id!, v])), chosen: new Map(results.methods.filter((m) => m.sweep).map((m) => [m.name, m.sweep!.chosen])) };
}

const outcome = (byId: Map<string, Verdict>, id: string): string => {
  const v = byId.get(id);
  assert.ok(v, `claim ${id} is in the registry`);
  return v.outcome;
};

// ---- Maroñas et al. 2021 ----

/**
 * Test ECE (fractions) per Maroñas method at the β the rule must choose (16); the other β values have a much worse
 * test ECE, so a wrong choice flips arc-m-beats-bm and arc-alone-no-significant-gain.
 */
const MARONAS_ECE: Record<string, number> = { b: 0.04, bm: 0.05, mmce: 0.045, 'mmce-m': 0.055, arc: 0.0403, 'arc-m': 0.02, 'arc-m-mixed': 0.03, 'arc-m-v2': 0.02 };
const MARONAS_ACCURACY: Record<string, number> = { b: 0.85, bm: 0.86, mmce: 0.85, 'mmce-m': 0.83, arc: 0.85, 'arc-m': 0.8602, 'arc-m-mixed': 0.86, 'arc-m-v2': 0.86 };
/** Validation (accuracy, ECE) per β: 42 has the lowest ECE but loses more than 1 % of accuracy; of the rest 16 is lowest. */
const BETA_VALIDATION: Record<number, [number, number]> = { 1: [0.86, 0.04], 4: [0.859, 0.03], 16: [0.856, 0.02], 42: [0.8, 0.005] };

function maronasRun(arcAlone: number) {
  return (run: SuiteRun): Synthetic => {
    const k = Object.keys(MARONAS_ECE).indexOf(run.method);
    const beta = run.sweep?.value as number | undefined;
    const chosen = beta === undefined || beta === 16;
    const base = run.method === 'arc' ? arcAlone : MARONAS_ECE[run.method]!;
    const ece = (chosen ? base : 0.09) + jitter(run.seed, k);
    const accuracy = MARONAS_ACCURACY[run.method]! + jitter(run.seed, k + 2);
    const lower = run.method === 'arc-m' ? -1 : 0; // A+M below B+M on MCE, Brier and NLL; the others as B+M
    const [vAcc, vEce] = beta === undefined ? [accuracy, ece] : BETA_VALIDATION[beta]!;
    return {
      validation: { accuracy: vAcc + jitter(run.seed, k + 1, 0.1), ece: vEce + jitter(run.seed, k + 3, 0.1), nll: 0.4 },
      test: { ece, accuracy, mce: 0.1 + lower * 0.03 + jitter(run.seed, k + 4), brier: 0.2 + lower * 0.02 + jitter(run.seed, k + 1), nll: 0.4 + lower * 0.05 + jitter(run.seed, k + 3) },
      ts: { ece: (run.method === 'b' ? 0.015 : 0.01) + jitter(run.seed, k + 2, 0.5), accuracy },
    };
  };
}

test('maronas registry on synthetic runs: β chosen by lowest validation ECE within 1 % of the best accuracy, every claim decided as the numbers say', async () => {
  const { byId, chosen } = await verdictsOf(writeSuiteDir('maronas', maronasRun(0.0403)));
  for (const m of ['arc', 'arc-m', 'arc-m-mixed', 'arc-m-v2']) assert.equal(chosen.get(m), 16, `${m}: β = 42 has the lowest validation ECE but loses > 1 % accuracy; 16 is next`);
  const expected: Record<string, string> = {
    'mixup-degrades-calibration': 'holds', // 5.0 > 4.0 %
    'mixup-improves-accuracy': 'holds', // 86 > 85 %
    'arc-m-beats-bm': 'holds',
    'arc-m-beats-b': 'holds',
    'arc-m-beats-arc': 'holds',
    'arc-m-beats-mmce': 'holds',
    'arc-m-beats-mmce-m': 'holds',
    'mmce-m-degrades-accuracy': 'holds', // 83 < 86 %
    'arc-m-keeps-accuracy': 'equivalent', // +0.02 pt, inside ±0.5 pt
    'arc-alone-no-significant-gain': 'equivalent', // +0.03 pt of ECE, inside ±0.5 pt
    'arc-sources-beat-mixed': 'holds', // 2 < 3 %
    'arc-v1-beats-v2': 'inconclusive', // equal means: only the jitter differs
    'arc-m-lower-mce': 'holds',
    'arc-m-lower-brier': 'holds',
    'arc-m-lower-nll': 'holds',
    'suite-arc-m-beats-b-after-ts': 'holds', // 1.0 < 1.5 % after TS
  };
  for (const [id, want] of Object.entries(expected)) assert.equal(outcome(byId, id), want, id);
  for (const id of ['v1-m1-reliable', 'arc-on-validation-split', 'mixup-calibrates-cifar100', 'pretrained-birds-cars', 'svhn-arc-corrects-mixup', 'cifar10-state-of-the-art'])
    assert.equal(outcome(byId, id), 'not tested', id);
  // The numbers behind two of them, by hand: B+M − B = +1 pt of ECE (jitter cancels in the mean only up to its own mean).
  const degrade = byId.get('mixup-degrades-calibration')!;
  assert.equal(degrade.n, 5);
  assert.ok(Math.abs(degrade.difference - 0.01) < 0.001, `${degrade.difference}`);
  assert.equal(byId.get('arc-alone-no-significant-gain')!.level, 0.9, 'TOST: the 90 % interval');
  // The suite's own check is Holm-adjusted apart from the paper's family.
  assert.equal(byId.get('suite-arc-m-beats-b-after-ts')!.claim.origin, 'suite');
});

test('maronas registry: ARC alone 2 points below B contradicts "ARC alone gives no significant gain" (the equivalence fails wholly outside ±0.5 pt)', async () => {
  const { byId } = await verdictsOf(writeSuiteDir('maronas', maronasRun(0.02)));
  const v = byId.get('arc-alone-no-significant-gain')!;
  assert.equal(v.outcome, 'contradicted');
  assert.ok(v.upper < -0.005, `90 % interval [${v.lower}, ${v.upper}] below −0.5 pt`);
});

test('maronas registry on an unfinished suite: the claims whose runs are missing are not evaluated, the others decided', async () => {
  // Only seeds 0–2 of B+M have finished (a suite still running): every claim on bm waits; B against ARC does not.
  const dir = writeSuiteDir('maronas', maronasRun(0.0403), (run) => run.method === 'bm' && run.seed >= 3);
  const { byId } = await verdictsOf(dir);
  for (const id of ['mixup-degrades-calibration', 'mixup-improves-accuracy', 'arc-m-beats-bm', 'mmce-m-degrades-accuracy', 'arc-m-keeps-accuracy', 'arc-m-lower-mce']) {
    const v = byId.get(id)!;
    assert.equal(v.outcome, 'not evaluated', id);
    assert.equal(v.note, 'runs missing: 2 of the 5 runs of bm not finished', id);
    assert.equal(v.outcomeHolm, null, `${id}: outside the Holm family`);
  }
  assert.equal(outcome(byId, 'arc-m-beats-b'), 'holds');
  assert.equal(outcome(byId, 'arc-alone-no-significant-gain'), 'equivalent');
  // A swept method's every value counts: one β run missing leaves its claims waiting too.
  const swept = writeSuiteDir('maronas', maronasRun(0.0403), (run) => run.id === 'arc-weight=42-seed4');
  const w = (await verdictsOf(swept)).byId;
  assert.equal(outcome(w, 'arc-alone-no-significant-gain'), 'not evaluated');
  assert.equal(w.get('arc-alone-no-significant-gain')!.note, 'runs missing: 1 of the 20 runs of arc not finished', '4 β × 5 seeds');
  assert.equal(outcome(w, 'arc-m-beats-bm'), 'holds');
});

// ---- Thulasidasan et al. 2019 ----

/** Test ECE, OE, accuracy per α of the mixup sweep: ECE lowest at 0.4 and higher at both ends, OE falling, accuracy best at 0.2. */
const ALPHA: Record<number, { ece: number; oe: number; accuracy: number; validationAccuracy: number }> = {
  0.1: { ece: 0.03, oe: 0.02, accuracy: 0.868, validationAccuracy: 0.868 },
  0.2: { ece: 0.015, oe: 0.01, accuracy: 0.87, validationAccuracy: 0.87 },
  0.4: { ece: 0.01, oe: 0.005, accuracy: 0.869, validationAccuracy: 0.869 },
  1: { ece: 0.04, oe: 0.001, accuracy: 0.86, validationAccuracy: 0.86 },
};

function thulasidasanRun(run: SuiteRun): Synthetic {
  const k = run.method.length + (run.sweep ? Number(run.sweep.value) * 10 : 0);
  const j = (shift: number, scale = 1) => jitter(run.seed, k + shift, scale);
  const detector = (auroc: number, confidence: number) => ({
    noise: { auroc: auroc + j(1), mean_confidence: confidence + j(2) },
    ood_dataset: { auroc: auroc - 0.05 + j(3), mean_confidence: confidence + 0.05 + j(4) },
  });
  let test = { ece: 0.06, oe: 0.05, accuracy: 0.87, mean_confidence: 0.93 };
  let validationAccuracy = 0.87;
  if (run.method === 'mixup') {
    const at = ALPHA[run.sweep!.value as number]!;
    test = { ece: at.ece, oe: at.oe, accuracy: at.accuracy, mean_confidence: 0.87 };
    validationAccuracy = at.validationAccuracy;
  }
  if (run.method === 'mixup-04') test = { ece: 0.01, oe: 0.005, accuracy: 0.869, mean_confidence: 0.87 };
  if (run.method === 'ls') test = { ece: run.sweep!.value === 0.1 ? 0.09 : 0.07, oe: 0.0, accuracy: 0.87, mean_confidence: 0.79 }; // LS worse than CE (underconfident)
  if (run.method === 'erl') test = { ece: 0.04, oe: 0.03, accuracy: 0.87, mean_confidence: 0.9 };
  if (run.method === 'mixup-feature') test = { ece: 0.05, oe: 0.04, accuracy: 0.87, mean_confidence: 0.92 };
  if (run.method === 'mixup-manifold') test = { ece: 0.02, oe: 0.01, accuracy: 0.86, mean_confidence: 0.86 };
  if (run.method === 'mc-dropout') test = { ece: 0.03, oe: 0.02, accuracy: 0.87, mean_confidence: 0.9 };
  if (run.method === 'ls') validationAccuracy = run.sweep!.value === 0.1 ? 0.871 : 0.87; // ε = 0.1 chosen
  const jittered = Object.fromEntries(Object.entries(test).map(([key, v], i) => [key, v + j(i)]));
  return {
    validation: { accuracy: validationAccuracy + j(0, 0.1), ece: test.ece, nll: 0.4 },
    test: jittered,
    ts: { ...jittered, ece: 0.012 + j(2) },
    // CE: AUROC 0.90 on noise; mixup better (0.95); TS *raises* CE's AUROC (0.93), contrary to Table 1; MC dropout 0.90.
    ...(run.config.ood ? { ood: run.method === 'ce' ? detector(0.9, 0.8) : run.method === 'mixup-04' ? detector(0.95, 0.6) : detector(0.9, 0.75) } : {}),
    ...(run.config.ood && run.method === 'ce' ? { tsOod: detector(0.93, 0.7) } : {}),
  };
}

test('thulasidasan registry on synthetic runs: α by validation accuracy, the α-sweep shapes of Fig. 2h–j, LS < CE and Table 1\'s "TS is a poor OOD detector" come out contradicted when the runs say so', async () => {
  const { byId, chosen } = await verdictsOf(writeSuiteDir('thulasidasan', thulasidasanRun));
  assert.equal(chosen.get('mixup'), 0.2, 'highest mean validation accuracy (§3.4)');
  assert.equal(chosen.get('ls'), 0.1);
  const expected: Record<string, string> = {
    'mixup-beats-ce-ece': 'holds', // α = 0.2: 1.5 < 6 %
    'mixup-less-overconfident': 'holds',
    'mixup-beats-ls-ece': 'holds',
    'mixup-beats-erl-ece': 'holds',
    'ls-beats-ce-ece': 'contradicted', // 9 > 6 %
    'erl-beats-ce-ece': 'holds',
    'ls-less-overconfident': 'holds',
    'alpha-best-ece-02-04': 'criterion met', // argmin at 0.4
    'alpha-ece-worsens-at-large-alpha': 'criterion met', // 3, 1.5, 1, 4 %: interior minimum, both ends above
    'alpha-oe-decreases': 'criterion met',
    'lower-alpha-better-accuracy': 'criterion met', // argmax at 0.2
    'tuned-alpha-little-accuracy-loss': 'equivalent', // 87.0 vs 87.0 %
    'feature-only-mixup-no-benefit': 'holds',
    'mixup-less-peaked': 'holds',
    'manifold-mixup-worse-ece': 'holds', // 2 > 1 %
    'manifold-mixup-lower-accuracy': 'holds', // 86 < 86.9 %
    'mixup-less-confident-ood': 'holds',
    'mixup-less-confident-noise': 'holds',
    'mixup-best-noise-detector-vs-ce': 'holds', // 0.95 > 0.90
    'mixup-best-ood-detector-vs-ce': 'holds',
    'ts-poor-noise-detector': 'contradicted', // TS raises AUROC 0.90 → 0.93
    'ts-poor-ood-detector': 'contradicted',
    'mixup-beats-ts-noise-detection': 'holds', // 0.95 > 0.93
    'mixup-beats-dropout-noise-detection': 'holds',
  };
  for (const [id, want] of Object.entries(expected)) assert.equal(outcome(byId, id), want, id);
  const ts = byId.get('ts-poor-noise-detector')!;
  assert.ok(Math.abs(ts.difference - 0.03) < 0.002, `TS − CE noise AUROC = +3 pt (${ts.difference})`);
  for (const id of ['manifold-mixup-long-training', 'training-drifts-overconfident', 'imagenet-calibration', 'extended-training-stays-calibrated', 'leaving-the-convex-hull'])
    assert.equal(outcome(byId, id), 'not tested', id);
  // The corruption checks are the suite's own (the paper has no corruption experiment; its Fig. 5 is the label-entropy histogram).
  assert.equal(byId.get('suite-mixup-beats-ce-under-corruption')!.claim.origin, 'suite');
});
