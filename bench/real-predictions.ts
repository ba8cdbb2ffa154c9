/**
 * Benchmark on real published predictions (../shared/data/real-predictions, read in place): for every set, the
 * raw predictions and every applicable calibrator, fitted on the validation split where the set has one and
 * otherwise on the first half of the rows (evaluated on the second half); ImageNet top-label sets are sorted
 * by class, so there the even rows fit and the odd rows evaluate. Prints one JSON object; with --markdown, the
 * README tables instead.
 *
 * - Full-vector sets (DenseNet-40, SCTL CIFAR-10-LT, netcal records, Kumar's VGG-16, solar flares as 2-class):
 *   every calibrator of CALIBRATOR_KINDS that applies (platt / beta only for C = 2; matrix and dirichlet are
 *   skipped for C > 20, their C² parameters take minutes here; matrix only with --with-matrix). Metrics on the evaluation rows: accuracy, ECE
 *   (15 bins, (l,u]), NLL, Brier, classwise ECE; fit time in ms.
 * - Top-label sets (confidence, predicted class, label only): the 1-D binary maps (equal-mass histogram,
 *   isotonic, Platt, scaling-binning) fitted on (confidence, correct); top-label ECE before and after.
 *
 * Usage: npm run bench -- real-predictions [--markdown] [--only NAME-SUBSTRING] [--with-matrix] [--methods KIND,KIND,...]
 * (--methods: only these calibrators, e.g. to add a new one's row to the README table)
 * Progress: one JSON line per set on stderr.
 */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readNpy } from '../src/io/npy.js';
import { evaluate, expectedCalibrationError } from '../src/metrics/index.js';
import { CALIBRATOR_KINDS, fitCalibrator, type CalibratorKind, type Predictions } from '../src/posthoc/index.js';
import { applyScoreMap, fitScoreMap } from '../src/posthoc/nonparametric/score-map.js';
import { fitScalingBinningMap } from '../src/posthoc/nonparametric/scaling-binning.js';
import type { Matrix } from '../src/util/matrix.js';

const ROOT = fileURLToPath(new URL('../../../shared/data/real-predictions/', import.meta.url));
const markdown = process.argv.includes('--markdown');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? '') : '';
const withMatrix = process.argv.includes('--with-matrix');
const methodsAt = process.argv.indexOf('--methods');
const methods = methodsAt >= 0 ? (process.argv[methodsAt + 1] ?? '').split(',') : [...CALIBRATOR_KINDS];
const unknownMethod = methods.find((m) => !(CALIBRATOR_KINDS as readonly string[]).includes(m));
if (unknownMethod !== undefined) {
  process.stderr.write(`--methods: expected calibrator kinds (${CALIBRATOR_KINDS.join(', ')}), got ${JSON.stringify(unknownMethod)}\n`);
  process.exit(2);
}
const kinds = CALIBRATOR_KINDS.filter((k) => methods.includes(k));

if (!existsSync(ROOT)) {
  process.stderr.write(`real-predictions: ${ROOT} is absent (the data live beside the repository in ../shared)\n`);
  process.exit(2);
}

interface FullSet {
  name: string;
  kind: 'logits' | 'probabilities';
  split: string;
  fit: { x: Matrix; y: Int32Array };
  test: { x: Matrix; y: Int32Array };
}

async function matrixOf(path: string): Promise<Matrix> {
  const a = await readNpy(ROOT + path);
  return { rows: a.shape[0]!, cols: a.shape[1]!, data: a.data as Float32Array };
}
async function labelsOf(path: string): Promise<Int32Array> {
  return (await readNpy(ROOT + path)).data as Int32Array;
}
function rowsOf(m: Matrix, from: number, to: number): Matrix {
  return { rows: to - from, cols: m.cols, data: m.data.subarray(from * m.cols, to * m.cols) };
}

async function fullSets(): Promise<FullSet[]> {
  const sets: FullSet[] = [];
  const withVal = async (name: string, dir: string) =>
    sets.push({
      name,
      kind: 'logits',
      split: 'validation split → test split',
      fit: { x: await matrixOf(`${dir}/val-logits.npy`), y: await labelsOf(`${dir}/val-labels.npy`) },
      test: { x: await matrixOf(`${dir}/test-logits.npy`), y: await labelsOf(`${dir}/test-labels.npy`) },
    });
  const halves = (name: string, x: Matrix, y: Int32Array, what: string) => {
    const h = Math.floor(x.rows / 2);
    sets.push({
      name,
      kind: 'probabilities',
      split: `first half (${h} ${what}) → second half (${x.rows - h})`,
      fit: { x: rowsOf(x, 0, h), y: y.subarray(0, h) },
      test: { x: rowsOf(x, h, x.rows), y: y.subarray(h) },
    });
  };
  await withVal('densenet40-cifar10', 'densenet40-cifar10');
  for (const m of ['densenet40', 'resnet110', 'resnet110_SD', 'resnet_wide28']) await withVal(`sctl-lt/${m}`, `sctl-cifar10-lt/${m}`);
  for (const r of readdirSync(ROOT + 'netcal-records').sort()) {
    halves(`netcal/${r}`, await matrixOf(`netcal-records/${r}/probs.npy`), await labelsOf(`netcal-records/${r}/labels.npy`), 'test images');
  }
  halves('vgg16-cifar10-kumar', await matrixOf('vgg16-cifar10-kumar/probs.npy'), await labelsOf('vgg16-cifar10-kumar/labels.npy'), 'test images');
  const outcomes = await labelsOf('solar-flares/outcomes.npy');
  for (const f of ['CLIM120', 'DAFFS', 'GDAFFS', 'NICT', 'NOAA', 'SIDC']) {
    halves(`solar/${f}`, await matrixOf(`solar-flares/${f}-probs-2class.npy`), outcomes, 'days, 2016');
  }
  return sets.filter((s) => s.name.includes(only));
}

function applicable(kind: CalibratorKind, classes: number): string | null {
  if ((kind === 'platt' || kind === 'beta') && classes !== 2) return 'binary only';
  if ((kind === 'matrix' || kind === 'dirichlet') && classes > 20) return 'C² parameters: skipped for C > 20';
  if (kind === 'matrix' && !withMatrix) return 'skipped unless --with-matrix (minutes per set; unregularised, it stops at 1000 L-BFGS iterations on DenseNet-40)';
  return null;
}

function metricsOf(x: Matrix, y: Int32Array, input: 'logits' | 'probabilities') {
  const m = evaluate(x, y, { input });
  return { accuracy: m.accuracy, ece: m.ece, nll: m.nll, brier: m.brier, classwise_ece: m.classwise_ece };
}

const results: Record<string, unknown>[] = [];
for (const set of await fullSets()) {
  const row: Record<string, unknown> = { set: set.name, input: set.kind, classes: set.fit.x.cols, split: set.split, raw: metricsOf(set.test.x, set.test.y, set.kind) };
  const calibrators: Record<string, unknown> = {};
  for (const kind of kinds) {
    const skip = applicable(kind, set.fit.x.cols);
    if (skip) {
      calibrators[kind] = { skipped: skip };
      continue;
    }
    const fitInput = (set.kind === 'logits' ? { logits: set.fit.x } : { probabilities: set.fit.x }) as Predictions;
    const testInput = (set.kind === 'logits' ? { logits: set.test.x } : { probabilities: set.test.x }) as Predictions;
    try {
      const t0 = process.hrtime.bigint();
      const cal = fitCalibrator(kind, fitInput, set.fit.y);
      const fitMs = Number(process.hrtime.bigint() - t0) / 1e6;
      calibrators[kind] = { ...metricsOf(cal.apply(testInput), set.test.y, 'probabilities'), fit_ms: Math.round(fitMs) };
    } catch (e) {
      calibrators[kind] = { error: (e as Error).message.split('\n')[0] };
    }
  }
  row.calibrators = calibrators;
  results.push(row);
  if (!markdown) process.stderr.write(`${JSON.stringify(row)}\n`); // progress: one line per set
}

const topLabel: Record<string, unknown>[] = [];
for (const name of readdirSync(ROOT + 'top-label')
  .sort()
  .filter((n) => n.includes(only))) {
  const c = (await readNpy(`${ROOT}top-label/${name}/confidence.npy`)).data as Float32Array;
  const pred = await labelsOf(`top-label/${name}/predicted.npy`);
  const y = await labelsOf(`top-label/${name}/labels.npy`);
  const a = Float64Array.from(y, (v, i) => (v === pred[i] ? 1 : 0));
  const interleaved = name.startsWith('imagenet-');
  const fitIdx: number[] = [];
  const testIdx: number[] = [];
  for (let i = 0; i < c.length; i++) {
    const inFit = interleaved ? i % 2 === 0 : i < Math.floor(c.length / 2);
    (inFit ? fitIdx : testIdx).push(i);
  }
  const sFit = Float64Array.from(fitIdx, (i) => c[i]!);
  const aFit = Float64Array.from(fitIdx, (i) => a[i]!);
  const sTest = Float64Array.from(testIdx, (i) => c[i]!);
  const aTest = Uint8Array.from(testIdx, (i) => a[i]!);
  const row: Record<string, unknown> = {
    set: name,
    split: interleaved ? 'even rows → odd rows (the files are sorted by class)' : 'first half → second half',
    raw_ece_all_rows: expectedCalibrationError(c, Uint8Array.from(a), { bins: 15 }),
    raw_ece: expectedCalibrationError(sTest, aTest, { bins: 15 }),
  };
  const maps: [string, (s: number) => number][] = [
    [
      'histogram',
      (
        (m) => (s: number) =>
          applyScoreMap(m, s)
      )(fitScoreMap('histogram', sFit, aFit, 15)),
    ],
    [
      'isotonic',
      (
        (m) => (s: number) =>
          applyScoreMap(m, s)
      )(fitScoreMap('isotonic', sFit, aFit, 15)),
    ],
    [
      'platt',
      (
        (m) => (s: number) =>
          applyScoreMap(m, s)
      )(fitScoreMap('platt', sFit, aFit, 15)),
    ],
    [
      'scaling-binning',
      (
        (m) => (s: number) =>
          applyScoreMap(m.binned, applyScoreMap(m.platt, s))
      )(fitScalingBinningMap(sFit, aFit, 10)),
    ],
  ];
  for (const [kind, g] of maps) row[kind] = expectedCalibrationError(sTest.map(g), aTest, { bins: 15 });
  topLabel.push(row);
}

if (!markdown) {
  process.stdout.write(`${JSON.stringify({ bench: 'real-predictions', data: ROOT, sets: results, top_label: topLabel }, null, 1)}\n`);
} else {
  const pct = (v: unknown) => (typeof v === 'number' ? (100 * v).toFixed(2) : '–');
  const names = results.map((r) => String(r.set));
  const lines = [
    `Test ECE (%, 15 bins) after each calibrator (rows) on each set (columns); "–" = not applicable or failed (JSON says why).`,
    '',
    `| method | ${names.join(' | ')} |`,
    `| --- | ${names.map(() => '---').join(' | ')} |`,
    `| raw | ${results.map((r) => pct((r.raw as { ece: number }).ece)).join(' | ')} |`,
    ...kinds.map((k) => `| ${k} | ${results.map((r) => pct(((r.calibrators as Record<string, Record<string, unknown>>)[k] ?? {}).ece)).join(' | ')} |`),
    '',
    'Top-label sets (confidence, prediction, label only): test top-label ECE (%, 15 bins) of the 1-D maps.',
    '',
    '| set | split | raw | histogram | isotonic | platt | scaling-binning |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...topLabel.map((r) => `| ${r.set} | ${String(r.split).split(' (')[0]} | ${pct(r.raw_ece)} | ${pct(r.histogram)} | ${pct(r.isotonic)} | ${pct(r.platt)} | ${pct(r['scaling-binning'])} |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
