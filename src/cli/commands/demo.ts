import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { syntheticOverconfident } from '../../data/synthetic.js';
import { writeNpy } from '../../io/npy.js';
import { CalibrationAccumulator, requireBins, type CalibrationMetrics } from '../../metrics/index.js';
import { fitCalibrator } from '../../posthoc/index.js';
import { calibrationFigureSvg, writeFigure } from '../../report/index.js';
import { atomicWriteFile } from '../../util/atomic-write.js';
import { invalidArgument } from '../../util/errors.js';
import { matrix, type Matrix } from '../../util/matrix.js';
import { writeCalibratorFile } from '../calibrator-file.js';
import { type CliIO, defineCommand } from '../command.js';
import { UsageError } from '../args.js';
import { suiteCommand } from './suite.js';
import { formatComparisonTable, metricsJson, type EvalSettings } from '../eval/metrics-report.js';
import { flag } from '../flag.js';
import { boolean, number, optional, string } from '../../util/schema.js';

/** The demo suite's scales (it has no deep scale: the deep scale is the paper suites'). */
const DEMO_SCALE_NAMES = ['quick', 'machine', 'paper'] as const;

const BANNER_WIDTH = 78;

/** Most logits the demo generates (N × C; 20 million float64 values are 160 MB). */
const MAX_DEMO_VALUES = 20_000_000;

function banner(lines: readonly string[]): string {
  const rule = '='.repeat(BANNER_WIDTH);
  return [rule, ...lines.map((l) => `  ${l}`), rule, ''].join('\n');
}

/**
 * `calib demo`: the built-in `demo` suite (src/suite/builtin-suites.ts) and its report — the front door.
 * `calib demo --synthetic`: the whole post-hoc workflow on a SYNTHETIC overconfident classifier (src/data/synthetic.ts),
 * until a trained model is available: generate N samples, split them into a validation half (first N/2 rows)
 * and a test half (the rest; samples are i.i.d.), evaluate, fit temperature scaling on the validation half,
 * evaluate the test half before and after, and write every input and output so the same steps can be repeated
 * with `calib eval/fit/apply/plot`. The data is labelled as synthetic on screen, in metrics.json and in the
 * figure titles.
 */
export const demoCommand = defineCommand({
  name: 'demo',
  summary: 'The main job: train CE, LS, focal, MbLS and mixup on the embedded MNIST digits and write the comparison report.',
  description: [
    'Runs the built-in suite demo (calib suite show demo): five training objectives on the embedded MNIST digits,',
    'an MLP that fits its 1,000 training images (so cross-entropy ends overconfident), one seed, temperature scaling',
    'fitted on validation; about 1.5 CPU-minutes on 2 cores. Ends with DIR/report.html (open it in a browser), report.md',
    'and report.json, stating what it found. Re-running continues where it stopped.',
    'calib demo --synthetic instead runs the post-hoc workflow (eval, fit temperature scaling, apply, plot) in a',
    'second on SYNTHETIC overconfident data, no training: a made-up 10-class problem whose "model" multiplies',
    'calibrated logits by --overconfidence (3 by default).',
  ].join('\n'),
  examples: ['calib demo', 'calib demo --out /tmp/demo --jobs 2', 'calib demo --synthetic --out /tmp/synthetic --n 100000 --seed 7'],
  flags: {
    out: flag(optional(string(), 'calib-demo', 'output directory (created if missing)'), { valueName: 'DIR' }),
    jobs: flag(optional(number({ integer: true }), 1, 'runs trained side by side'), { valueName: 'N' }),
    scale: flag(optional(string(DEMO_SCALE_NAMES), 'quick', 'quick (≈ 1 min), machine (all 7,000 training images) or paper (LeNet with batch norm, weight decay 5e-4)')),
    progress: flag(optional(string(['auto', 'bar', 'lines', 'none']), 'auto', 'progress display: auto = live line on a terminal')),
    synthetic: flag(optional(boolean(), false, 'the post-hoc workflow on synthetic data instead (no training)')),
    n: flag(optional(number({ integer: true, min: 4 }), 20000, '--synthetic: number of synthetic samples (split in halves)')),
    classes: flag(optional(number({ integer: true, min: 2 }), 10, '--synthetic: number of classes')),
    overconfidence: flag(optional(number({ min: 0, exclusiveMin: true }), 3, '--synthetic: factor tau multiplying the logits (> 1: overconfident)')),
    seed: flag(optional(number({ integer: true }), 0, '--synthetic: seed of the synthetic data')),
    bins: flag(optional(number({ integer: true }), 15, '--synthetic: number of confidence bins M')),
    png: flag(optional(boolean(), true, '--synthetic: also render the figures as PNG (--png=false: SVG only)')),
  },
  async run(flags, io) {
    if (flags.synthetic) return syntheticDemo(flags, io);
    const given = SYNTHETIC_ONLY.filter((k) => flags[k] !== DEMO_DEFAULTS[k]);
    if (given.length) throw new UsageError(`demo: --${given.join(', --')} only with --synthetic`);
    return suiteCommand.run(
      {
        action: 'run',
        target: 'demo',
        out: flags.out,
        scale: flags.scale,
        jobs: flags.jobs,
        report: true,
        progress: flags.progress,
        threads: undefined,
        queue: undefined,
        'worker-wait': 60,
        check: false,
        'dry-run': false,
        'reuse-from': undefined,
        markdown: undefined,
        'measured-root': undefined,
        second: undefined,
      },
      io,
    );
  },
});

const SYNTHETIC_ONLY = ['n', 'classes', 'overconfidence', 'seed', 'bins', 'png'] as const;
const DEMO_DEFAULTS = { n: 20000, classes: 10, overconfidence: 3, seed: 0, bins: 15, png: true } as const;

/** `calib demo --synthetic`: the post-hoc workflow on synthetic overconfident data. */
async function syntheticDemo(flags: { out: string; n: number; classes: number; overconfidence: number; seed: number; bins: number; png: boolean }, io: CliIO): Promise<void> {
  const n = flags.n;
  const classes = flags.classes;
  if (n * classes > MAX_DEMO_VALUES) {
    invalidArgument('--n', `--n × --classes ≤ ${MAX_DEMO_VALUES.toLocaleString('en-US')} logits (the demo holds them in memory)`, `${n} × ${classes}`);
  }
  const tau = flags.overconfidence;
  const bins = requireBins(flags.bins, '--bins');
  const dir = flags.out;
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'a file is in the way' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (error as Error).message;
    invalidArgument('--out', 'a directory (created if missing)', `${JSON.stringify(dir)} (${why})`);
  }
  const out = io.stdout;
  out.write(
    banner([
      'SYNTHETIC DATA - NOT A REAL MODEL',
      `${n.toLocaleString('en-US')} samples of a made-up ${classes}-class problem; the "model" multiplies calibrated`,
      `logits by tau = ${tau}, so it is overconfident by construction (src/data/synthetic.ts).`,
      'Use calib eval / fit / apply / plot on your own predictions for real numbers.',
    ]),
  );
  const data = syntheticOverconfident({ n, classes, seed: flags.seed, overconfidence: tau });
  // Stored as float32, like most models' outputs; all numbers below come from exactly what is written.
  const logits = Float32Array.from(data.logits);
  const nVal = Math.floor(n / 2);
  const nTest = n - nVal;
  const val = matrix(nVal, classes, logits.subarray(0, nVal * classes));
  const test = matrix(nTest, classes, logits.subarray(nVal * classes));
  const valLabels = data.labels.subarray(0, nVal);
  const testLabels = data.labels.subarray(nVal);

  const path = (name: string): string => join(dir, name);
  await writeNpy(path('val-logits.npy'), val.data, [nVal, classes]);
  await writeNpy(path('val-labels.npy'), valLabels, [nVal], { dtype: 'int64' });
  await writeNpy(path('test-logits.npy'), test.data, [nTest, classes]);
  await writeNpy(path('test-labels.npy'), testLabels, [nTest], { dtype: 'int64' });

  // As calib eval computes them (the calibration–refinement split included), so its --json reproduces metrics.json.
  const settings: EvalSettings = { input: 'logits', bins, convention: '(l,u]', classes, refinementCalibrator: 'temperature' };
  const evaluateOn = (m: Matrix, y: Int32Array, input: 'logits' | 'probabilities'): CalibrationAccumulator => new CalibrationAccumulator({ ...settings, input }).update(m, y);
  const valBefore = evaluateOn(val, valLabels, 'logits').compute();
  const calibrator = fitCalibrator('temperature', { logits: val }, valLabels);
  const temperature = calibrator.toJSON()['temperature'] as number;
  await writeCalibratorFile(path('calibrator.json'), calibrator);
  const beforeState = evaluateOn(test, testLabels, 'logits');
  const calibrated = matrix(nTest, classes, Float32Array.from(calibrator.apply({ logits: test }).data));
  await writeNpy(path('test-calibrated-probs.npy'), calibrated.data, [nTest, classes]);
  const afterState = evaluateOn(calibrated, testLabels, 'probabilities');
  const before = beforeState.compute();
  const after = afterState.compute();

  const figures: string[] = [];
  for (const [name, state, label] of [
    ['reliability-before', beforeState, 'before'],
    ['reliability-after', afterState, `after temperature scaling (T = ${temperature.toFixed(2)})`],
  ] as const) {
    const svg = calibrationFigureSvg(state.reliability(), { title: `SYNTHETIC test half, ${label}` });
    await writeFigure(path(`${name}.svg`), svg);
    figures.push(`${name}.svg`);
    if (flags.png) {
      await writeFigure(path(`${name}.png`), svg);
      figures.push(`${name}.png`);
    }
  }
  const report = {
    synthetic: true,
    description: `SYNTHETIC overconfident data (src/data/synthetic.ts), tau = ${tau}; not a real model`,
    seed: flags.seed,
    samples: { validation: nVal, test: nTest },
    temperature,
    validation_before: metricsJson(valBefore, settings),
    test_before: metricsJson(before, settings),
    test_after: metricsJson(after, { ...settings, input: 'probabilities' }),
  };
  await atomicWriteFile(path('metrics.json'), `${JSON.stringify(report, null, 2)}\n`);

  out.write(`validation half: ${nVal.toLocaleString('en-US')} samples, ECE ${(valBefore.ece * 100).toFixed(2)}% before calibration\n`);
  out.write(`temperature scaling fitted on the validation half: T = ${temperature.toFixed(4)}\n\n`);
  out.write(`test half (${nTest.toLocaleString('en-US')} SYNTHETIC samples), ${bins} bins (l,u]:\n`);
  const names = ['accuracy', 'nll', 'brier', 'ece', 'adaece', 'mce', 'classwise_ece', 'mean_confidence'] as const;
  out.write(formatComparisonTable(['before', 'after TS'], [before, after] as CalibrationMetrics[], names));
  out.write(`\nwrote to ${dir}/: val-logits.npy val-labels.npy test-logits.npy test-labels.npy calibrator.json\n`);
  out.write(`  test-calibrated-probs.npy metrics.json ${figures.join(' ')}\n`);
  out.write('\nthe same steps with the CLI (replace the synthetic files by your own predictions):\n');
  const q = (name: string): string => JSON.stringify(path(name)).replace(/^"([\w./-]+)"$/, '$1');
  out.write(
    [
      `  calib eval  --logits ${q('test-logits.npy')} --labels ${q('test-labels.npy')}`,
      `  calib fit   --method temperature --logits ${q('val-logits.npy')} --labels ${q('val-labels.npy')} --out ${q('calibrator.json')}`,
      `  calib apply --calibrator ${q('calibrator.json')} --logits ${q('test-logits.npy')} --out ${q('test-calibrated-probs.npy')}`,
      `  calib plot  --probs ${q('test-calibrated-probs.npy')} --labels ${q('test-labels.npy')} --out ${q('reliability-after.svg')}`,
      '',
    ].join('\n'),
  );
}
