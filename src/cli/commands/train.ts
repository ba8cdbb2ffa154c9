import { readFile } from 'node:fs/promises';
import type { SegmentationSummary } from '../../train/tasks/segmentation-task.js';
import { ConsoleProgress, type TrainProgress, SILENT_PROGRESS } from '../../train/run/progress.js';
import { MC_DROPOUT_SCHEMA, mergeConfig, resolveTrainConfig, TRAIN_CONFIG_SCHEMA } from '../../train/train-config.js';
import { resumeTraining, train, type TrainResult } from '../../train/run/trainer.js';
import { readJson, runPaths } from '../../train/artefacts/run-directory.js';
import { invalidArgument } from '../../util/errors.js';
import { boolean, defaultText, described, type Infer, number, optional, type Schema, string } from '../../util/schema.js';
import { parseKeyValues, UsageError } from '../args.js';
import { type CliIO, defineCommand } from '../command.js';
import { percent } from '../format-table.js';
import { calibrateRun } from '../calibrate-run.js';
import type { CalibratorKind } from '../../posthoc/index.js';
import { flag, type FlagPresentation } from '../flag.js';

/**
 * `calib train`: train a classifier with a calibration loss (src/train/run/trainer.ts) into a run directory, or
 * continue a stopped run with --resume. Every setting is a flag or a key of --config FILE (the same names,
 * camelCase in the file: --weight-decay ↔ "weightDecay"); flags override the file. Ctrl-C stops after the current
 * update; the run resumes from its last finished epoch with the same results.
 */

type ConfigKey = keyof typeof TRAIN_CONFIG_SCHEMA.shape;
type ConfigValue<K extends ConfigKey> = Infer<(typeof TRAIN_CONFIG_SCHEMA.shape)[K]>;

/**
 * The flag that sets configuration key `key`: the key's own schema (train/train-config.ts) — its type, choices, range
 * and description, so `--epochs 0` is refused at parsing as `config.epochs: 0` would be in a file — without its
 * fallback, which is only shown: an absent flag stays absent so that a --config file's value is kept.
 * `description` replaces the schema's text where the command line reads differently (a flag's own syntax).
 */
function setting<K extends ConfigKey, const P extends FlagPresentation>(key: K, presentation: P, description?: string) {
  const schema = TRAIN_CONFIG_SCHEMA.shape[key] as Schema<ConfigValue<K>>;
  return flag(described(optional(schema), description ?? schema.description ?? key), { ...shownDefault(key), ...presentation });
}

/**
 * A flag that fills configuration key `key` from text of its own syntax (`--opt k=v`, `--mixup-layers L1,L2`): `schema`
 * reads the text, the key's schema gives the description and the default shown.
 */
function fillsSetting<T, const P extends FlagPresentation>(key: ConfigKey, schema: Schema<T>, presentation: P, description?: string) {
  return flag(described(schema, description ?? TRAIN_CONFIG_SCHEMA.shape[key].description ?? key), { ...shownDefault(key), ...presentation });
}

/** The configuration's fallback of `key` as --help shows it (none for a boolean's false). */
function shownDefault(key: ConfigKey): { readonly shownDefault?: string } {
  const shown = defaultText(TRAIN_CONFIG_SCHEMA.shape[key]);
  return shown !== undefined && shown !== 'false' ? { shownDefault: shown } : {};
}

const KEY_VALUE = { repeatable: true, valueName: 'KEY=VALUE' } as const;

/** Flags that set configuration keys (kebab-case → camelCase). */
const SETTING_FLAGS = {
  dataset: setting('dataset', {}, 'dataset (mnist is embedded; others load from files, see --data-opt)'),
  'data-opt': fillsSetting('datasetOptions', string(), KEY_VALUE),
  subset: setting('subset', { valueName: 'N' }),
  'test-subset': setting('testSubset', { valueName: 'N' }),
  validation: setting('validation', { valueName: 'F' }),
  model: setting('model', { valueName: 'NAME' }),
  'model-opt': fillsSetting('modelOptions', string(), KEY_VALUE),
  loss: setting('loss', { valueName: 'NAME' }),
  opt: fillsSetting('lossOptions', string(), KEY_VALUE),
  secondary: setting('secondary', { valueName: 'NAME' }),
  'secondary-opt': fillsSetting('secondaryOptions', string(), KEY_VALUE),
  weight: setting('weight', { valueName: 'β' }),
  epochs: setting('epochs', {}),
  batch: setting('batch', {}),
  'eval-batch': setting('evalBatch', {}),
  lr: setting('lr', {}),
  schedule: setting('schedule', { valueName: 'SPEC' }),
  warmup: setting('warmup', { valueName: 'E' }, 'linear learning-rate warm-up over E epochs (fractional allowed; per step)'),
  optimizer: setting('optimizer', {}),
  momentum: setting('momentum', {}),
  nesterov: setting('nesterov', {}),
  'weight-decay': setting('weightDecay', {}),
  mixup: setting('mixup', { valueName: 'α' }),
  'mixup-kind': setting('mixupKind', {}),
  cutmix: flag(described(optional(number({ min: 0 })), 'CutMix (Yun et al. 2019) with λ ~ Beta(α, α): the same as --mixup α --mixup-kind cutmix'), { valueName: 'α' }),
  'mixup-layers': fillsSetting('mixupLayers', optional(string()), { valueName: 'L1,L2' }),
  'arc-placement': setting('arcPlacement', {}),
  interleaved: setting('interleaved', { valueName: 'F' }, 'interleaved training: hold out fraction F of train for the secondary term'),
  holdout: setting('holdout', { valueName: 'F' }, 'fraction held out for --arc-placement holdout'),
  augment: setting('augment', {}),
  select: setting('select', {}),
  bins: setting('bins', {}),
  seed: setting('seed', {}),
  threads: setting('threads', {}),
  replicas: setting('replicas', { valueName: 'R' }),
  'epoch-logits': setting('epochLogits', {}),
  'evaluate-train': setting('evaluateTrain', {}),
  'mc-dropout': fillsSetting(
    'mcDropout',
    optional(MC_DROPOUT_SCHEMA.shape.passes),
    { valueName: 'K' },
    'final evaluation by MC dropout with K ≥ 2 passes (config key mcDropout: {"passes": K, "seed": S}): logits = log of the mean softmax of K passes with dropout on; the model needs dropout (--model-opt dropout=0.3); best-epoch selection stays deterministic',
  ),
  ood: setting('ood', {}),
  'ood-dataset': setting('oodDataset', { valueName: 'NAME' }),
  'ood-data-opt': fillsSetting('oodDatasetOptions', string(), KEY_VALUE),
  'ood-subset': setting('oodSubset', { valueName: 'N' }),
  // The schema requires `out`; the command fills it in when absent, so this default is the command's own.
  out: fillsSetting('out', optional(string()), { valueName: 'DIR', shownDefault: 'runs/<dataset>-<model>-<loss>' }),
} as const;

/** Flags whose values are `key=value` option lists, and the configuration key they fill. */
const OPTION_FLAGS: Readonly<Record<string, string>> = {
  'data-opt': 'datasetOptions',
  'model-opt': 'modelOptions',
  opt: 'lossOptions',
  'secondary-opt': 'secondaryOptions',
  'ood-data-opt': 'oodDatasetOptions',
};

const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/** Option values written as JSON lists (`hidden=[256]`, a one-element list) become arrays. */
function jsonLists(flag: string, options: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(options)) {
    if (typeof v !== 'string' || !v.startsWith('[')) continue;
    try {
      options[k] = JSON.parse(v) as unknown;
    } catch {
      throw new UsageError(`--${flag}: ${k}=${v} is not a JSON list`);
    }
  }
  return options;
}

/** The configuration keys given on the command line (absent flags are left out, so the file's values stay). */
export function flagOverrides(flags: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(SETTING_FLAGS)) {
    const v = flags[name];
    if (v === undefined || v === false || (Array.isArray(v) && v.length === 0)) continue;
    if (name in OPTION_FLAGS) out[OPTION_FLAGS[name]!] = jsonLists(name, parseKeyValues(name, v as string[]));
    else if (name === 'mixup-layers')
      out['mixupLayers'] = (v as string)
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
    else if (name === 'mc-dropout') out['mcDropout'] = { passes: v };
    else if (name === 'cutmix') {
      if (flags['mixup'] !== undefined || flags['mixup-kind'] !== undefined) throw new UsageError('train: --cutmix α stands for --mixup α --mixup-kind cutmix; give one or the other');
      out['mixup'] = v;
      out['mixupKind'] = 'cutmix';
    } else out[camel(name)] = v;
  }
  return out;
}

function isTty(io: CliIO): boolean {
  return (io.stdout as { isTTY?: boolean }).isTTY === true;
}

function progressFor(mode: string, io: CliIO, lineSeconds: number): TrainProgress {
  if (mode === 'none') return SILENT_PROGRESS;
  return new ConsoleProgress(io.stdout, { live: mode === 'bar' || (mode === 'auto' && isTty(io)), lineInterval: lineSeconds * 1000 });
}

/** Exit codes of a stopped run: 128 + the signal's number, as shells report it. */
const STOP_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

function report(result: TrainResult, io: CliIO, stoppedBy: keyof typeof STOP_CODES | null): number {
  const dir = result.paths.dir;
  if (result.status === 'stopped') {
    io.stdout.write(`stopped at epoch ${result.epochs + 1}, update ${result.steps} (checkpoint saved); continue with: calib train --resume ${dir}\n`);
    return STOP_CODES[stoppedBy ?? 'SIGINT'];
  }
  if (result.segmentation) return reportSegmentation(dir, result.segmentation, io);
  const s = result.summary!;
  const t = s.test as Record<string, number>;
  const files = ['config.json', 'log.jsonl', 'checkpoint-last.ckpt', 'checkpoint-best.ckpt', 'val-logits.npy', 'val-labels.npy', 'test-logits.npy', 'test-labels.npy', 'model.onnx', 'summary.json'];
  if (s.train) files.push('train-logits.npy', 'train-labels.npy');
  if (result.ood) files.push('ood.json', 'shift/');
  const lines = [
    `best epoch ${s.best_epoch}/${s.epochs} by validation ${s.select}; ${Math.round(s.samples_per_s)} samples/s over ${s.train_time_s.toFixed(1)} s of training`,
    `test (${s.data.test} samples${s.mc_dropout ? `, MC dropout ${s.mc_dropout.passes} passes at p = ${s.mc_dropout.rate}` : ''}): accuracy ${percent(t['accuracy']!)}%  NLL ${t['nll']!.toFixed(4)}  ECE ${percent(t['ece']!)}%  AdaECE ${percent(t['adaece']!)}%`,
  ];
  if (result.ood) {
    const o = result.ood;
    const parts = [o.noise ? `noise AUROC ${o.noise.auroc.toFixed(4)}` : '', o.ood_dataset ? `${o.ood_dataset.dataset} AUROC ${o.ood_dataset.auroc.toFixed(4)}` : ''].filter(Boolean);
    if (o.corruptions.length) {
      const acc = o.corruptions.reduce((a, c) => a + c.accuracy, 0) / o.corruptions.length;
      const ece = o.corruptions.reduce((a, c) => a + c.ece, 0) / o.corruptions.length;
      parts.push(`corruptions: mean accuracy ${percent(acc)}%, mean ECE ${percent(ece)}%`);
    }
    lines.push(`ood: ${parts.join('; ')}`);
  }
  lines.push(`wrote ${dir}: ${files.join(' ')}`);
  lines.push(`next: calib eval --logits ${dir}/test-logits.npy --labels ${dir}/test-labels.npy`);
  io.stdout.write(lines.join('\n') + '\n');
  return 0;
}

/** The end of a segmentation run: pixel metrics of the test split, with and without background. */
function reportSegmentation(dir: string, s: SegmentationSummary, io: CliIO): number {
  const t = s.test;
  const f = t.foreground;
  io.stdout.write(
    [
      `best epoch ${s.best_epoch}/${s.epochs} by validation pixel ${s.select}; ${Math.round(s.samples_per_s)} images/s over ${s.train_time_s.toFixed(1)} s of training`,
      `test (${s.data.test} images, ${t.pixels} labelled pixels; ${s.ignore_index} ignored): pixel accuracy ${percent(t.pixel_accuracy)}%  mIoU ${percent(t.miou)}%`,
      `  all pixels:         confidence ${percent(t.mean_confidence)}%  ECE ${percent(t.ece)}%  AdaECE ${percent(t.adaece)}%  classwise ECE ${percent(t.classwise_ece)}%  NLL ${t.nll.toFixed(4)}`,
      `  without background: accuracy ${percent(f.pixel_accuracy)}%  confidence ${percent(f.mean_confidence)}%  ECE ${percent(f.ece)}%  AdaECE ${percent(f.adaece)}%  classwise ECE ${percent(f.classwise_ece)}%  NLL ${f.nll.toFixed(4)}  (${f.pixels} pixels)`,
      `wrote ${dir}: config.json log.jsonl {val,test}-{logits,labels}.npy (${s.data.logit_images} images, a seeded sample when the split is larger, N×C×H×W) model.onnx summary.json`,
      `next: calib eval --logits ${dir}/test-logits.npy --labels ${dir}/test-labels.npy --ignore-index ${s.ignore_index}`,
    ].join('\n') + '\n',
  );
  return 0;
}

export const trainCommand = defineCommand({
  name: 'train',
  summary: 'Train a network with a calibration loss (+ mixup variants, interleaving), log per epoch, export logits and ONNX.',
  usage: '--dataset NAME [options] | --config FILE [options] | --resume DIR',
  description: [
    'Writes a run directory: config.json, log.jsonl (one line per epoch: losses, validation accuracy/NLL/ECE/AdaECE,',
    'lr, time, samples/s), checkpoint-last.ckpt and checkpoint-best.ckpt, {val,test}-{logits,labels}.npy of the best',
    'epoch (for calib eval / calib fit), model.onnx, summary.json, and with --ood an ood.json.',
    'The best epoch is chosen on the validation split by --select (accuracy, as the MbLS/ACLS code; or nll, ece,',
    'adaece, last; or refinement: the lowest validation refinement NLL, the NLL after temperature scaling fitted on the',
    'validation split itself — "refine, then calibrate", Berta et al. 2025 — then calibrate with calib fit as usual;',
    'log.jsonl records it as val_refinement_nll; or any other calib eval --json metric with a better direction, e.g.',
    'brier or aurc, lowest, or cov_at_5risk, highest, as its metric record declares). --config FILE takes the same settings as JSON with camelCase keys (weightDecay, lossOptions, …);',
    'flags override it. Ctrl-C or SIGTERM stops after the current update and saves a checkpoint (exit 130 / 143);',
    '--resume DIR continues from the last checkpoint (epoch end, every --checkpoint-minutes / --checkpoint-steps within',
    'an epoch, or the stop) and ends with the same weights as an uninterrupted run. A run directory is locked while',
    'a process trains in it (run.lock; a lock left by a dead process is taken over). A loss that becomes NaN or',
    'infinite stops the run with "training failed" naming epoch and step (exit 1), keeping the log and last checkpoint.',
    "Segmentation datasets (mnist-seg) train a dense model (seg-net) on pixel rows with the loss's ignoreIndex = 255 and",
    'report pixel accuracy, mIoU and pixel ECE / AdaECE / classwise ECE with and without background; the same trainer',
    '(checkpoints within epochs, --resume, --replicas; --calibrate temperature fits one temperature on the labelled',
    'validation pixels of val-logits.npy and exports model-calibrated.onnx with per-pixel calibrated outputs).',
  ].join('\n'),
  examples: [
    'calib train --dataset mnist --model mlp --epochs 2',
    'calib train --dataset fashion-mnist --model lenet --epochs 10 --select refinement',
    'calib train --dataset fashion-mnist --model resnet20 --loss mbls --opt margin=6 --epochs 10 --out runs/fm-mbls',
    'calib train --dataset cifar10 --model resnet20 --loss focal --secondary sb-ece-lb --weight 1 --schedule cosine',
    'calib train --dataset mnist --mixup 0.2 --mixup-kind manifold --secondary arc --arc-placement sources',
    'calib train --dataset mnist-seg --model seg-net --loss mbls --opt margin=10 --epochs 4 --out runs/seg-mbls',
    'calib train --config run.json --seed 3 --out runs/seed3',
    'calib train --resume runs/fm-mbls',
  ],
  flags: {
    config: flag(described(optional(string()), 'JSON settings (flags override them)'), { valueName: 'FILE' }),
    resume: flag(described(optional(string()), 'continue the stopped run in DIR from its last checkpoint'), { valueName: 'DIR' }),
    force: flag(optional(boolean(), false, 'replace an existing run in --out')),
    progress: flag(optional(string(['auto', 'bar', 'lines', 'none']), 'auto', 'progress display: auto = live bar on a terminal, lines otherwise')),
    'progress-seconds': flag(optional(number({ min: 0 }), 30, 'without a live bar: a progress line every S seconds within an epoch (0 = epoch lines only)'), { valueName: 'S' }),
    'checkpoint-minutes': flag(optional(number({ min: 0 }), 5, "mid-epoch checkpoint every M minutes (0 = off); not part of the run's config"), { valueName: 'M' }),
    'checkpoint-steps': flag(optional(number({ integer: true, min: 0 }), 0, "mid-epoch checkpoint every N updates (0 = off); not part of the run's config"), { valueName: 'N' }),
    calibrate: flag(described(optional(string(['temperature'])), 'end the run with a calibrated export: fit on the validation logits, write calibrator.json and model-calibrated.onnx')),
    ...SETTING_FLAGS,
  },
  async run(flags, io) {
    const overrides = flagOverrides(flags as Record<string, unknown>);
    const progressSeconds = flags['progress-seconds'];
    const checkpointEvery = { seconds: 60 * flags['checkpoint-minutes'], steps: flags['checkpoint-steps'] };
    const controller = new AbortController();
    let stoppedBy: keyof typeof STOP_CODES | null = null;
    const onSignal = (signal: keyof typeof STOP_CODES): void => {
      if (stoppedBy !== null) process.exit(STOP_CODES[signal]); // a second signal: quit now (the lock is stale then)
      stoppedBy = signal;
      if (signal === 'SIGINT') io.stderr.write('\ncalib: stopping after the current update (Ctrl-C again to quit now)\n');
      controller.abort();
    };
    const onSigint = (): void => onSignal('SIGINT');
    const onSigterm = (): void => onSignal('SIGTERM');
    const progress = progressFor(flags.progress, io, progressSeconds);
    const common = { progress, signal: controller.signal, checkpointEvery, onWarning: (text: string) => io.stderr.write(`calib: warning: ${text}\n`) };
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigterm);
    try {
      if (flags.resume !== undefined) {
        const extra = [...Object.keys(overrides).filter((k) => k !== 'threads'), ...(flags.config !== undefined ? ['config'] : []), ...(flags.force ? ['force'] : [])];
        if (extra.length)
          throw new UsageError(`train: --resume continues a run with its own config.json; remove ${extra.map((k) => `--${k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}`).join(', ')}`);
        const configPath = runPaths(flags.resume).config;
        if (flags.calibrate !== undefined) {
          const saved = (await readJson(configPath, `${flags.resume}/config.json`)) as Record<string, unknown>;
          checkCalibrate(saved['mcDropout'] !== undefined);
        }
        const threads = overrides['threads'];
        const resumed = await resumeTraining(flags.resume, { ...common, ...(typeof threads === 'number' ? { threads } : {}) });
        const code = report(resumed, io, stoppedBy);
        if (code === 0 && flags.calibrate !== undefined) await calibrateRun(resumed.paths.dir, flags.calibrate as CalibratorKind, io);
        return code;
      }
      let file: Record<string, unknown> = {};
      if (flags.config !== undefined) {
        let text: string;
        try {
          text = await readFile(flags.config, 'utf8');
        } catch {
          return invalidArgument('--config', 'a readable JSON file', `no file at ${flags.config}`);
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(text) as unknown;
        } catch (e) {
          return invalidArgument('--config', 'valid JSON', `unparsable text (${(e as Error).message})`);
        }
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
          invalidArgument('--config', 'a JSON object of settings', Array.isArray(parsed) ? 'array' : parsed === null ? 'null' : typeof parsed);
        }
        file = parsed as Record<string, unknown>;
      }
      const merged = mergeConfig(file, overrides);
      checkInapplicableFlags(flags as Record<string, unknown>, merged);
      if (merged['dataset'] === undefined) throw new UsageError('train: give --dataset (or a "dataset" key in --config), or --resume DIR');
      if (merged['out'] === undefined) {
        const loss = [merged['loss'] ?? 'ce', merged['secondary']].filter((v) => v !== undefined).join('+');
        merged['out'] = `runs/${String(merged['dataset'])}-${String(merged['model'] ?? 'mlp')}-${String(loss)}`;
      }
      const config = resolveTrainConfig(merged, flags.config !== undefined ? `config (${flags.config} + flags)` : 'config');
      if (flags.calibrate !== undefined) checkCalibrate(config.mcDropout !== undefined);
      const trained = await train(config, { ...common, overwrite: flags.force });
      const code = report(trained, io, stoppedBy);
      if (code === 0 && flags.calibrate !== undefined) await calibrateRun(trained.paths.dir, flags.calibrate as CalibratorKind, io);
      return code;
    } finally {
      process.removeListener('SIGINT', onSigint);
      process.removeListener('SIGTERM', onSigterm);
      progress.finish();
    }
  },
});

/**
 * --calibrate appends a calibrator fitted on the run's validation logits to model.onnx; with MC dropout those logits
 * are log p̄ of K stochastic passes, not model.onnx's (deterministic) outputs, so the export would be miscalibrated.
 */
function checkCalibrate(mcDropout: boolean): void {
  if (mcDropout)
    throw new UsageError(
      "train: --calibrate exports model.onnx (the deterministic network) with a calibrator fitted on the run's logits, which MC dropout (--mc-dropout / config mcDropout) replaces by the mean of K stochastic passes; fit with calib fit on the run's logits instead",
    );
}

/**
 * Flags given on the command line that the rest of the settings make meaningless are refused rather than ignored
 * (the configuration check catches non-default values from a file; this catches explicit flags, even at defaults).
 */
function checkInapplicableFlags(flags: Readonly<Record<string, unknown>>, merged: Readonly<Record<string, unknown>>): void {
  const given = (f: string): boolean => flags[f] !== undefined;
  if (given('weight') && merged['secondary'] === undefined) throw new UsageError('train: --weight is the weight of the secondary term; give --secondary NAME too (or drop --weight)');
  if (given('holdout') && merged['arcPlacement'] !== 'holdout') throw new UsageError('train: --holdout is the held-out fraction of --arc-placement holdout; give that too (or drop --holdout)');
  if (given('mixup-kind') && !(((merged['mixup'] as number | undefined) ?? 0) > 0)) throw new UsageError('train: --mixup-kind needs --mixup ALPHA > 0 (or drop --mixup-kind)');
}
