import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run as cli } from '../cli/capture.js';
import { tempDir } from '../io/temp-dir.js';
import { tinySuite } from './tiny-suite.js';
import { parseSuite } from '../../src/suite/suite-schema.js';
import { parseComparison } from '../../src/suite/claims/comparison.js';
import { claimMetricDescription, claimMetricPercent, parseClaimMetric } from '../../src/suite/claims/claim-metric.js';
import type { SuiteRun } from '../../src/suite/expand-suite.js';
import type { TrainConfig } from '../../src/train/train-config.js';
import { suiteVerdicts, type Verdict } from '../../src/suite/report/verdicts.js';
import { findings } from '../../src/suite/report/write-suite-report.js';
import type { MethodResults, RunResult, SuiteResults } from '../../src/suite/report/suite-results.js';

/** Synthetic numbers of one run: OOD AUROC / confidence, corruption ECEs (severity 1 and 5), foreground ECE, mIoU. */
interface Numbers {
  readonly noise: number;
  readonly conf: number;
  readonly ece1: number;
  readonly ece5: number;
  readonly fg: number;
  readonly miou: number;
  /** The same OOD AUROC and corruption ECEs after temperature scaling. */
  readonly tsNoise: number;
  readonly tsEce: number;
}

const shift = (noise: number, conf: number, ece1: number, ece5: number) => ({
  in_distribution: { dataset: 'mnist', n: 10, accuracy: 0.9, nll: 0.3, ece: 0.02, adaece: 0.02, mean_confidence: 0.9 },
  noise: { n: 10, auroc: noise, mean_confidence: conf },
  ood_dataset: { dataset: 'fashion-mnist', n: 10, auroc: noise - 0.05, mean_confidence: conf + 0.1 },
  corruptions: [
    { corruption: 'gaussian-noise', severity: 1, n: 10, accuracy: 0.8, nll: 0.5, ece: ece1, adaece: ece1, mean_confidence: 0.85 },
    { corruption: 'gaussian-noise', severity: 5, n: 10, accuracy: 0.5, nll: 1.5, ece: ece5, adaece: ece5, mean_confidence: 0.8 },
  ],
  confidence_histogram: { bins: 20, in_distribution: [], noise: null, ood_dataset: null },
  settings: { bins: 15, convention: '(l,u]', seed: 0, confidence: 'max softmax' },
});

function run(method: string, seed: number, n: Numbers, ood = true): RunResult {
  const r: SuiteRun = { id: `${method}-seed${seed}`, method, seed, config: { dataset: 'mnist', model: 'mlp' } as unknown as TrainConfig };
  return {
    run: r,
    dir: '/nonexistent',
    summary: { test: { miou: n.miou } },
    posthoc: {
      bins: 15,
      convention: '(l,u]',
      validation: {},
      test: { ece: 0.05, accuracy: 0.9, mean_confidence: 0.95, nll: 0.3 },
      calibrators: {
        temperature: {
          calibrator: { kind: 'temperature', temperature: 1.5 },
          test: { ece: 0.02, accuracy: 0.9, mean_confidence: 0.9, nll: 0.28 },
          ...(ood ? { shift: shift(n.tsNoise, n.conf - 0.1, n.tsEce, n.tsEce) as never } : {}),
        },
      },
      foreground: { test: { ece: n.fg }, calibrators: { temperature: { ece: n.fg / 2 } } },
    },
    log: [],
    ...(ood ? { ood: shift(n.noise, n.conf, n.ece1, n.ece5) } : {}),
  };
}

const SUITE = parseSuite({ name: 'claims', base: { dataset: 'mnist', subset: 300, epochs: 1 }, methods: [{ name: 'ce' }, { name: 'mixup', mixup: 0.2 }], posthoc: ['temperature'], seeds: [0, 1, 2] });

function results(compare: string[], ce: Numbers[], mixup: Numbers[], options: { oodFor?: (method: string, seed: number) => boolean } = {}): SuiteResults {
  const oodFor = options.oodFor ?? (() => true);
  const methods: MethodResults[] = [
    { name: 'ce', label: 'CE', group: 'mnist · mlp', runs: ce.map((n, s) => run('ce', s, n, oodFor('ce', s))) },
    { name: 'mixup', label: 'Mixup', group: 'mnist · mlp', runs: mixup.map((n, s) => run('mixup', s, n, oodFor('mixup', s))) },
  ];
  return { dir: '/nonexistent', record: { format: 1, scale: 'quick', suite: { ...SUITE, compare }, runs: [] }, runs: methods.flatMap((m) => m.runs), missing: [], diverged: [], methods };
}

const num = (noise: number, ece1: number, ece5: number, extra: Partial<Numbers> = {}): Numbers => ({ noise, conf: 0.5, ece1, ece5, fg: 0.1, miou: 0.7, tsNoise: noise, tsEce: ece5, ...extra });
// Per seed: mixup noise AUROC 0.90, 0.88, 0.92 against CE's 0.80 → d = [0.10, 0.08, 0.12].
const CE = [
  num(0.8, 0.1, 0.3, { fg: 0.08, miou: 0.7, tsNoise: 0.81, tsEce: 0.2 }),
  num(0.8, 0.1, 0.3, { fg: 0.09, miou: 0.72, tsNoise: 0.81, tsEce: 0.2 }),
  num(0.8, 0.1, 0.3, { fg: 0.1, miou: 0.71, tsNoise: 0.81, tsEce: 0.2 }),
];
const MIXUP = [num(0.9, 0.05, 0.2, { fg: 0.05, miou: 0.74 }), num(0.88, 0.05, 0.16, { fg: 0.06, miou: 0.73 }), num(0.92, 0.05, 0.24, { fg: 0.04, miou: 0.76 })];

/** 95 % paired t-interval by hand: mean ± t(0.975, n − 1) · s / √n with t(0.975, 2) = 4.302652729749464 (scipy.stats.t.ppf). */
function byHand(d: number[]): { mean: number; lower: number; upper: number } {
  const m = d.reduce((a, b) => a + b, 0) / d.length;
  const s = Math.sqrt(d.reduce((a, x) => a + (x - m) ** 2, 0) / (d.length - 1));
  const half = (4.302652729749464 * s) / Math.sqrt(d.length);
  return { mean: m, lower: m - half, upper: m + half };
}

function near(v: Verdict, d: number[]): void {
  const h = byHand(d);
  assert.equal(v.method, 'paired t over seeds');
  assert.equal(v.n, d.length);
  for (const [got, want] of [
    [v.difference, h.mean],
    [v.lower, h.lower],
    [v.upper, h.upper],
  ] as const)
    assert.ok(Math.abs(got - want) < 1e-12, `${v.comparison!.text}: ${got} vs ${want}`);
}

test('OOD, corruption, foreground and mIoU claims are decided by the paired t-interval over seeds (checked by hand)', async () => {
  const claims = [
    'mixup > ce on noise_auroc', // d = [0.10, 0.08, 0.12]: mean 0.10, s = 0.02, half 4.3027 · 0.02 / √3 = 0.0497 → holds (p = 0.0131; Holm over these 10 checks: inconclusive)
    'mixup < ce on shift_ece', // mean of severities 1 and 5: mixup [0.125, 0.105, 0.145] − CE 0.2 → d = [−0.075, −0.095, −0.055]
    'mixup < ce on shift_ece_s5', // d = [−0.10, −0.14, −0.06]
    'mixup < ce on noise_confidence', // equal confidences: d = [0, 0, 0] → interval [0, 0], inconclusive
    'mixup > ce on noise_auroc after temperature', // both after TS: mixup tsNoise = noise, CE 0.81 → d = [0.09, 0.07, 0.11]
    'mixup > ce+temperature on noise_auroc', // mixup raw against CE after TS: the same d as above
    'mixup < ce+temperature on shift_ece', // mixup raw [0.125, 0.105, 0.145] − CE after TS 0.2 (tsEce at both severities)
    'mixup < ce on fg_ece', // d = [−0.03, −0.03, −0.06]
    'mixup < ce on fg_ece after temperature', // halves: d = [−0.015, −0.015, −0.03]
    'mixup > ce on miou', // d = [0.04, 0.01, 0.05]
  ];
  const v = await suiteVerdicts(results(claims, CE, MIXUP));
  near(v[0]!, [0.9 - 0.8, 0.88 - 0.8, 0.92 - 0.8]);
  assert.equal(v[0]!.outcome, 'holds');
  near(v[1]!, [(0.05 + 0.2) / 2 - 0.2, (0.05 + 0.16) / 2 - 0.2, (0.05 + 0.24) / 2 - 0.2]);
  assert.equal(v[1]!.outcome, 'holds');
  near(v[2]!, [0.2 - 0.3, 0.16 - 0.3, 0.24 - 0.3]);
  assert.equal(v[2]!.outcome, 'holds');
  assert.equal(v[3]!.outcome, 'inconclusive');
  near(v[4]!, [0.9 - 0.81, 0.88 - 0.81, 0.92 - 0.81]);
  near(v[5]!, [0.9 - 0.81, 0.88 - 0.81, 0.92 - 0.81]);
  assert.deepEqual([v[5]!.comparison!.leftAfter, v[5]!.comparison!.rightAfter], [undefined, 'temperature']);
  near(v[6]!, [(0.05 + 0.2) / 2 - 0.2, (0.05 + 0.16) / 2 - 0.2, (0.05 + 0.24) / 2 - 0.2]);
  near(v[7]!, [0.05 - 0.08, 0.06 - 0.09, 0.04 - 0.1]);
  near(v[8]!, [0.025 - 0.04, 0.03 - 0.045, 0.02 - 0.05]);
  near(v[9]!, [0.74 - 0.7, 0.73 - 0.72, 0.76 - 0.71]);
  // The report states AUROC differences in points of % like ECE, NLL-type ones as plain numbers.
  const text = findings(results(claims, CE, MIXUP), v).find((s) => s.startsWith('"mixup > ce on noise_auroc"'))!;
  assert.match(text, /^"mixup > ce on noise_auroc": holds \(difference 10\.00 pt, 95% interval \[5\.03 pt, 14\.97 pt\], paired t over seeds; Holm inconclusive\)\.$/);
  // An inconclusive finding states the design's minimum detectable effect: mIoU d = [0.04, 0.01, 0.05], s = 0.020817,
  // MDE = (t₀.₉₇₅,₂ + t₀.₈₀,₂) · s / √3 = (4.30265 + 1.06066) · 0.020817 / √3 = 6.45 pt.
  const miou = findings(results(claims, CE, MIXUP), v).find((s) => s.startsWith('"mixup > ce on miou"'))!;
  const sd = Math.sqrt(((0.04 - 0.1 / 3) ** 2 + (0.01 - 0.1 / 3) ** 2 + (0.05 - 0.1 / 3) ** 2) / 2);
  const mde = (((4.302652729749464 + 1.0606601717798212) * sd) / Math.sqrt(3)) * 100;
  assert.match(miou, /^"mixup > ce on miou": inconclusive \(difference 3\.33 pt, 95% interval \[-1\.84 pt, 8\.50 pt\], paired t over seeds, MDE (\d+\.\d\d) pt; Holm inconclusive\)\.$/);
  assert.equal(/MDE (\d+\.\d\d) pt/.exec(miou)![1], mde.toFixed(2));
  assert.doesNotMatch(text, /MDE/, 'a decided finding states no MDE');
});

test('an OOD claim is not evaluated where a run has no OOD evaluation, nor with a single shared seed', async () => {
  const [missing] = await suiteVerdicts(results(['mixup > ce on ood_auroc'], CE, MIXUP, { oodFor: (m, s) => !(m === 'ce' && s === 1) }));
  assert.equal(missing!.outcome, 'not evaluated');
  assert.match(missing!.note!, /some runs have no ood_auroc \(the suite needs `ood: true`\)/);
  const [single] = await suiteVerdicts(results(['mixup > ce on noise_auroc'], CE.slice(0, 1), MIXUP.slice(0, 1)));
  assert.equal(single!.outcome, 'not evaluated');
  assert.match(single!.note!, /decided over paired seeds only/);
});

test('claim metric names: families, severities, units', () => {
  assert.deepEqual(parseClaimMetric('noise_auroc'), { family: 'ood', set: 'noise', field: 'auroc' });
  assert.deepEqual(parseClaimMetric('ood_confidence'), { family: 'ood', set: 'ood_dataset', field: 'mean_confidence' });
  assert.deepEqual(parseClaimMetric('shift_ece'), { family: 'shift', field: 'ece' });
  assert.deepEqual(parseClaimMetric('shift_confidence_s3'), { family: 'shift', field: 'mean_confidence', severity: 3 });
  assert.deepEqual(parseClaimMetric('shift_adaece_l2'), { family: 'shift', field: 'adaece_l2' });
  assert.deepEqual(parseClaimMetric('shift_adaece_l2_s5'), { family: 'shift', field: 'adaece_l2', severity: 5 });
  assert.deepEqual(parseClaimMetric('fg_adaece'), { family: 'foreground', metric: 'adaece' });
  assert.deepEqual(parseClaimMetric('miou'), { family: 'miou' });
  assert.deepEqual(parseClaimMetric('train_ece'), { family: 'train', metric: 'ece' });
  for (const bad of ['shift_ece_s6', 'shift_ece_s0', 'shift_brier', 'shift_adaece_l3', 'shift__s1', 'fg_miou', 'fg_', 'noise_ece', 'ood', 'train_', 'train_miou', 'train_shift_ece'])
    assert.equal(parseClaimMetric(bad), undefined, bad);
  assert.deepEqual(['noise_auroc', 'ood_confidence', 'shift_ece_s5', 'shift_nll', 'fg_ece', 'fg_nll', 'miou', 'ece', 'nll', 'train_ece', 'train_nll'].map(claimMetricPercent), [
    true,
    true,
    true,
    false,
    true,
    false,
    true,
    true,
    false,
    true,
    false,
  ]);
  assert.equal(claimMetricDescription('train_ece', 15), "top-label ECE, ℓ1 norm, 15 equal-width bins (l,u], over the training split (the trained model's own predictions)");
});

test('comparisons: per-method calibrators, and unknown metrics refused when the suite is parsed', () => {
  const methods = ['ce', 'mixup'];
  assert.deepEqual(parseComparison('mixup > ce+temperature on noise_auroc', methods, ['temperature'], 'c'), {
    text: 'mixup > ce+temperature on noise_auroc',
    left: 'mixup',
    right: 'ce',
    direction: '>',
    metric: 'noise_auroc',
    rightAfter: 'temperature',
  });
  assert.equal(parseComparison('ce < ce+temperature on ece', methods, ['temperature'], 'c').leftAfter, undefined);
  assert.throws(
    () => parseComparison('mixup < ce+temperature on ece after temperature', methods, ['temperature'], 'c'),
    /c: expected either "after CALIBRATOR" or per-method "\+CALIBRATOR", not both/,
  );
  assert.throws(() => parseComparison('mixup < ce+isotonic on ece', methods, ['temperature'], 'c'), /expected a post-hoc calibrator of the suite \(temperature\), got "isotonic"/);
  assert.throws(() => parseComparison('mixup > ce on miou after temperature', methods, ['temperature'], 'c'), /expected miou without a calibrator/);
  assert.throws(() => parseComparison('mixup < ce+temperature on train_ece', methods, ['temperature'], 'c'), /c: expected train_ece without a calibrator/);
  const raw = { name: 's', base: { dataset: 'mnist' }, methods: [{ name: 'ce' }, { name: 'mixup', mixup: 0.2 }] };
  assert.throws(
    () => parseSuite({ ...raw, compare: ['mixup < ce on ece', 'mixup > ce on noise_aurc'] }),
    /^InvalidArgumentError: suite\.compare\[1\]: expected a metric: a test metric \(calib eval --json key: ece, nll, accuracy, …\), noise_auroc, noise_confidence, ood_auroc, ood_confidence, shift_accuracy\|nll\|ece\|adaece\|adaece_l2\|confidence .*fg_<test metric>.*miou, train_<test metric> .*, got "noise_aurc" in "mixup > ce on noise_aurc"$/,
  );
  assert.throws(() => parseSuite({ ...raw, compare: ['mixup < ce on shift_ece_s9'] }), /suite\.compare\[0\]: expected a metric: .* got "shift_ece_s9"/);
});

test('a run suite decides OOD claims from ood.json and the calibrated shift sections (CE raw vs CE + TS, two seeds)', { timeout: 600_000 }, async () => {
  const dir = tempDir('claim-verdicts');
  const base = tinySuite()['base'] as Record<string, unknown>;
  const claims = ['ce > ce+temperature on noise_confidence', 'ce < ce+temperature on shift_ece_s5', 'mbls < ce on noise_auroc'];
  const file = join(dir, 'ood.json');
  writeFileSync(
    file,
    JSON.stringify(
      tinySuite({
        name: 'ood-claims',
        base: { ...base, oodSubset: 40 },
        methods: [
          { name: 'ce', label: 'CE', ood: true },
          { name: 'mbls', label: 'MbLS', loss: 'mbls', lossOptions: { margin: 6 } },
        ],
        seeds: [0, 1],
        posthoc: ['temperature'],
        compare: claims,
      }),
    ),
  );
  const out = join(dir, 'out');
  const r = await cli(['suite', 'run', file, '--out', out, '--jobs', '2', '--threads', '1', '--progress', 'none']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const read = (seed: number, name: string): any => JSON.parse(readFileSync(join(out, 'runs', `ce-seed${seed}`, name), 'utf8'));
  const verdicts = (
    JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      verdicts: { claim: string; outcome: string; difference: number | null; lower: number | null; upper: number | null; test: string; n: number; note: string | null }[];
    }
  ).verdicts;
  const check = (claim: string, d: number[]): void => {
    const v = verdicts.find((x) => x.claim === claim)!;
    const h = byHand(d);
    assert.equal(v.test, 'paired t over seeds');
    assert.equal(v.n, 2);
    for (const [got, want] of [
      [v.difference, h.mean],
      [v.lower, h.lower],
      [v.upper, h.upper],
    ] as const)
      assert.ok(Math.abs(got! - want) < 1e-12, `${claim}: ${got} vs ${want}`);
  };
  // t(0.975, 1) = 12.706204736174694 for two seeds (scipy.stats.t.ppf).
  const byHand = (d: number[]) => {
    const m = (d[0]! + d[1]!) / 2;
    const half = (12.706204736174694 * Math.abs(d[0]! - d[1]!)) / Math.SQRT2 / Math.SQRT2;
    return { mean: m, lower: m - half, upper: m + half };
  };
  check(
    claims[0]!,
    [0, 1].map((s) => read(s, 'ood.json').noise.mean_confidence - read(s, 'posthoc.json').calibrators.temperature.shift.noise.mean_confidence),
  );
  const s5 = (report: { corruptions: { severity: number; ece: number }[] }): number => {
    const at = report.corruptions.filter((c) => c.severity === 5);
    return at.reduce((a, c) => a + c.ece, 0) / at.length;
  };
  check(
    claims[1]!,
    [0, 1].map((s) => s5(read(s, 'ood.json')) - s5(read(s, 'posthoc.json').calibrators.temperature.shift)),
  );
  // MbLS has no OOD evaluation in this suite.
  const mbls = verdicts.find((v) => v.claim === claims[2])!;
  assert.equal(mbls.outcome, 'not evaluated');
  assert.match(mbls.note!, /some runs have no noise_auroc/);
});
