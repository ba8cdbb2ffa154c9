/**
 * The configuration of a training run (`calib train` flags and `--config file.json` are the same keys, camelCase):
 * one schema (`TRAIN_CONFIG_SCHEMA`) is the source of the type, the defaults and the validation; `resolveTrainConfig`
 * adds the checks that span keys (loss names and options through the loss registry, which mixup kinds suit the
 * dataset and losses, what a secondary placement needs). Every error names the key path (`config.lossOptions.eps`).
 *
 * Defaults follow the papers' recipes where they agree (METHODS.md § Training procedures): SGD, momentum 0.9,
 * weight decay 5e-4, multi-step decay ×0.1 at 50 % and 75 % of the epochs, batch 128, η₀ = 0.1; best epoch by
 * validation accuracy (see best-epoch.ts for why).
 */
import { checkDatasetOptions, DATASET_NAMES, isTextDataset, type DatasetName } from '../data/load-dataset.js';
import { termWeight } from '../losses/define-loss.js';
import { lossDefinition } from '../losses/registry.js';
import { describe, InvalidArgumentError, invalidArgument } from '../util/errors.js';
import { boolean, type Infer, list, number, object, optional, options, string } from '../util/schema.js';
import { parseSchedule } from './lr-schedule-spec.js';
import { defaultOodDataset } from './ood-evaluation.js';
import { SELECTION_METRICS } from './best-epoch.js';

/** Mixup variants: host-side input mixup (soft targets), feature-only (hard label of the nearer sample), and
 * graph-side mixing of hidden activations (manifold) or of word embeddings (embedding). */
export const MIXUP_KINDS = ['input', 'feature', 'manifold', 'embedding', 'cutmix'] as const;
export type MixupKind = (typeof MIXUP_KINDS)[number];

/** Where a secondary term (e.g. ARC) is computed when mixup is on (METHODS.md "ARC placement"). */
export const SECONDARY_PLACEMENTS = ['mixed', 'sources', 'holdout'] as const;
export type SecondaryPlacement = (typeof SECONDARY_PLACEMENTS)[number];

/** Host-side image augmentation of training batches. */
export const AUGMENTATIONS = ['auto', 'none', 'crop', 'crop-flip'] as const;
export type Augmentation = (typeof AUGMENTATIONS)[number];

export const OPTIMIZERS = ['sgd', 'adam', 'adamw'] as const;

/** Defaults of the settings whose presence the cross-key checks look at. */
const TRAIN_CONFIG_DEFAULTS = { weight: 1, holdout: 0.1, mixupKind: 'input' } as const;

/** The schema of a run's configuration (keys = the CLI's flags in camelCase). */
export const TRAIN_CONFIG_SCHEMA = object({
  /** Dataset name (loadDataset). */
  dataset: string(DATASET_NAMES),
  /** Options of the dataset loader (directory, download, images/labels paths for npy, train path for text, …). */
  datasetOptions: optional(options(), {}),
  /** Train on a stratified subset of this many training samples (before the validation split). */
  subset: optional(number({ integer: true, min: 2 })),
  /** Evaluate on a stratified subset of this many test samples. */
  testSubset: optional(number({ integer: true, min: 1 })),
  /** Validation split held out of the training set: a fraction in (0, 1) or a count. */
  validation: optional(number({ min: 0, exclusiveMin: true }), 0.1),
  /** Model: a zoo kind (mlp, lenet, cifar-resnet, resnet18, wide-resnet, vgg, text-cnn) or an alias (resnet20, wrn-28-10, …). */
  model: optional(string(), 'mlp'),
  /** Model hyperparameters (input shape and class count come from the dataset). */
  modelOptions: optional(options(), {}),
  /** Primary loss (registry name). */
  loss: optional(string(), 'ce'),
  lossOptions: optional(options(), {}),
  /** Secondary calibration term (registry name, role 'term'); total = primary + weight · secondary. */
  secondary: optional(string()),
  secondaryOptions: optional(options(), {}),
  /** β of the secondary term (default: the term's `defaultWeight` — 2 for MMCE as the focal-calibration code — else 1). */
  weight: optional(number({ min: 0 })),
  epochs: optional(number({ integer: true, min: 1 }), 30),
  batch: optional(number({ integer: true, min: 1 }), 128),
  /** Batch size of evaluation passes. */
  evalBatch: optional(number({ integer: true, min: 1 }), 500),
  /** Base learning rate η₀. */
  lr: optional(number({ min: 0, exclusiveMin: true }), 0.1),
  /** constant | cosine | step:S[,γ] | multistep:m1,m2,…[:γ] (milestones < 1 are fractions of the epochs). */
  schedule: optional(string(), 'multistep:0.5,0.75'),
  /** Linear warm-up over this many epochs (fractional allowed; per step). */
  warmup: optional(number({ min: 0 }), 0),
  optimizer: optional(string(OPTIMIZERS), 'sgd'),
  momentum: optional(number({ min: 0, max: 1 }), 0.9),
  nesterov: optional(boolean(), false),
  weightDecay: optional(number({ min: 0 }), 5e-4),
  /** Mixup α (Beta(α, α)); 0 = no mixup. */
  mixup: optional(number({ min: 0 }), 0),
  mixupKind: optional(string(MIXUP_KINDS), TRAIN_CONFIG_DEFAULTS.mixupKind),
  /** Candidate layers of manifold mixup (default: every feature layer but 'pool'). */
  mixupLayers: optional(list(string())),
  /** Where the secondary term is computed under mixup. */
  arcPlacement: optional(string(SECONDARY_PLACEMENTS), 'mixed'),
  /** Interleaved training (Karandikar et al. App. B): fraction of the training set held out for the secondary term. */
  interleaved: optional(number({ min: 0, max: 1, exclusiveMin: true })),
  /** Fraction of the training set held out for `arcPlacement: 'holdout'`. */
  holdout: optional(number({ min: 0, max: 1, exclusiveMin: true }), TRAIN_CONFIG_DEFAULTS.holdout),
  /** Host-side augmentation ('auto': crop + flip for CIFAR, crop for SVHN, none otherwise). */
  augment: optional(string(AUGMENTATIONS), 'auto'),
  /** Best-epoch criterion on the validation split. */
  select: optional(string(SELECTION_METRICS), 'accuracy'),
  /** Bins of ECE / AdaECE in the per-epoch validation metrics. */
  bins: optional(number({ integer: true, min: 1 }), 15),
  seed: optional(number({ integer: true }), 0),
  /** ORT intra-op threads. */
  threads: optional(number({ integer: true, min: 1 }), 2),
  /**
   * Data-parallel replicas: each batch split into this many shards whose gradients run at the same time on worker
   * threads (⌊threads / replicas⌋ ORT threads each) and are averaged before one update (replicated-step.ts); 1 = off.
   * Batch-level statistics (batch norm, MMCE, …) are then per shard, as DistributedDataParallel without SyncBatchNorm.
   */
  replicas: optional(number({ integer: true, min: 1 }), 1),
  /**
   * Keep every epoch's validation logits (epoch-logits/val-NNN.npy, float32 [N_val, C]) for per-epoch figures such as
   * Thulasidasan et al.'s accuracy–confidence joint density (suite reports draw it). Absent = false.
   */
  epochLogits: optional(boolean()),
  /**
   * Also evaluate the training split with the selected epoch's weights (no augmentation, no mixup): train-logits.npy,
   * train-labels.npy and summary.json's `train` metrics, for train-vs-test calibration (Karandikar et al. 2021,
   * Table 3). Absent = false (kept absent so older run configurations stay identical).
   */
  evaluateTrain: optional(boolean()),
  /** Run the OOD / dataset-shift evaluation after training. */
  ood: optional(boolean(), false),
  /** Second dataset for OOD AUROC (default: fashion-mnist for mnist, mnist for fashion-mnist, svhn ↔ cifar10 when present). */
  oodDataset: optional(string()),
  /** Options of the OOD dataset's loader. */
  oodDatasetOptions: optional(options(), {}),
  /** Samples per OOD / corruption evaluation (default: the whole test set). */
  oodSubset: optional(number({ integer: true, min: 1 })),
  /** Run directory. */
  out: string(),
});

/** A validated run configuration (every default filled in; `weight` resolved from the secondary term's default). */
export type TrainConfig = Omit<Infer<typeof TRAIN_CONFIG_SCHEMA>, 'weight'> & { weight: number };

/** Keys of the configuration. */
export const TRAIN_CONFIG_KEYS = Object.keys(TRAIN_CONFIG_SCHEMA.shape) as (keyof TrainConfig)[];

/**
 * Validate a raw configuration (a parsed JSON object, possibly merged with CLI flags) and fill in defaults.
 * `path` prefixes error messages (default 'config').
 */
export function resolveTrainConfig(raw: unknown, path = 'config'): TrainConfig {
  const c = TRAIN_CONFIG_SCHEMA.parse(raw, path);
  const primary = lossDefinition(c.loss, `${path}.loss`);
  if (primary.role === 'term') invalidArgument(`${path}.loss`, `a primary loss or combined method (${JSON.stringify(c.loss)} is a secondary term: give it as secondary)`, describe(c.loss));
  within(`${path}.lossOptions`, () => primary.resolve(c.lossOptions));
  within(`${path}.datasetOptions`, () => checkDatasetOptions(c.dataset as DatasetName, c.datasetOptions));
  // The OOD loader's options are checked here too, also for the default OOD dataset (mnist → fashion-mnist, …): the
  // trainer only loads it after training and then reports a failed load as "skipped" instead of an error.
  const oodName = c.oodDataset ?? defaultOodDataset(c.dataset);
  if (oodName !== null && (DATASET_NAMES as readonly string[]).includes(oodName)) {
    within(`${path}.oodDatasetOptions`, () => checkDatasetOptions(oodName as DatasetName, c.oodDatasetOptions));
  }
  let weight = c.weight ?? 1;
  if (c.secondary !== undefined) {
    const s = lossDefinition(c.secondary, `${path}.secondary`);
    if (s.hostState) invalidArgument(`${path}.secondary`, 'a stateless secondary term (host-state losses run as the primary loss)', describe(c.secondary));
    weight = termWeight(s, c.weight);
    if (s.role !== 'term') invalidArgument(`${path}.secondary`, 'a calibration term (sb-ece-bin, sb-ece-lb, avuc, avuc-gs, s-avuc, mmce, mmce-weighted, mdca, dca, arc)', describe(c.secondary));
    within(`${path}.secondaryOptions`, () => s.resolve(c.secondaryOptions));
  } else if (Object.keys(c.secondaryOptions).length > 0) {
    invalidArgument(`${path}.secondaryOptions`, 'no options without a secondary loss', JSON.stringify(c.secondaryOptions));
  }
  parseSchedule(c.schedule, c.epochs, `${path}.schedule`);
  if (c.warmup > c.epochs) invalidArgument(`${path}.warmup`, `at most the ${c.epochs} epochs`, describe(c.warmup));
  if (c.validation >= 1 && !Number.isInteger(c.validation)) invalidArgument(`${path}.validation`, 'a fraction in (0, 1) or an integer count', describe(c.validation));
  const soft = c.mixup > 0 && c.mixupKind !== 'feature';
  if (soft) {
    for (const [key, name] of [['loss', c.loss], ['secondary', c.secondary]] as const) {
      if (name === undefined) continue;
      // Under 'sources' / 'holdout' placements the secondary sees clean batches with hard labels.
      if (key === 'secondary' && c.arcPlacement !== 'mixed') continue;
      if (lossDefinition(name).targets === 'labels') {
        invalidArgument(`${path}.${key}`, `a loss that accepts soft targets (mixup kind '${c.mixupKind}' trains on mixed targets)`, describe(name));
      }
    }
  }
  if (primary.hostState && (c.mixup > 0 || c.interleaved !== undefined || c.arcPlacement !== 'mixed')) {
    invalidArgument(`${path}.loss`, `${c.loss} without mixup, interleaving or secondary placements (its host state, e.g. CRL's correctness history, follows individual samples)`, describe(c.loss));
  }
  // soft-ce is defined on soft targets only; without soft-target mixup every batch has hard labels.
  if (c.loss === 'soft-ce' && !soft) {
    invalidArgument(`${path}.loss`, `a loss for hard labels ('soft-ce' needs soft targets: give mixup > 0 with kind input, manifold or embedding, or use 'ce')`, describe(c.loss));
  }
  // Settings that only mean something together with another one are refused when given without it (at a value other
  // than the default, which is what a resolved config.json holds; the CLI also refuses the explicit flags).
  const defaults = TRAIN_CONFIG_DEFAULTS;
  if (c.secondary === undefined && c.weight !== undefined && c.weight !== defaults.weight) invalidArgument(`${path}.weight`, 'a weight only together with a secondary term (give secondary)', describe(c.weight));
  if (c.arcPlacement !== 'holdout' && c.holdout !== defaults.holdout) invalidArgument(`${path}.holdout`, "a held-out fraction only with arcPlacement 'holdout'", describe(c.holdout));
  if (c.mixup === 0 && c.mixupKind !== defaults.mixupKind) invalidArgument(`${path}.mixupKind`, 'a mixup kind only with mixup > 0', describe(c.mixupKind));
  if (c.arcPlacement !== 'mixed') {
    if (c.secondary === undefined) invalidArgument(`${path}.arcPlacement`, `'mixed' unless a secondary term is given`, describe(c.arcPlacement));
    if (c.arcPlacement === 'sources' && c.mixup === 0) invalidArgument(`${path}.arcPlacement`, `'mixed' or 'holdout' without mixup ('sources' are the unmixed images of a mixup batch)`, describe(c.arcPlacement));
    if (c.interleaved !== undefined) invalidArgument(`${path}.arcPlacement`, `'mixed' with interleaved training (which already puts the secondary term on a held-out part)`, describe(c.arcPlacement));
  }
  if (c.replicas > 1) {
    if (c.replicas > c.batch) invalidArgument(`${path}.replicas`, `at most the batch size ${c.batch} (each replica needs a row)`, describe(c.replicas));
    if (c.mixup > 0 && (c.mixupKind === 'manifold' || c.mixupKind === 'embedding')) {
      invalidArgument(`${path}.replicas`, `1 with ${c.mixupKind} mixup (it mixes rows across the whole batch, which the shards split)`, describe(c.replicas));
    }
    if (c.arcPlacement !== 'mixed') invalidArgument(`${path}.replicas`, `1 with arcPlacement '${c.arcPlacement}' (its extra rows follow the batch's main rows)`, describe(c.replicas));
  }
  if (c.interleaved !== undefined && c.secondary === undefined) invalidArgument(`${path}.interleaved`, 'a secondary loss to train on the held-out part', 'no secondary');
  if (c.mixupLayers !== undefined && !(c.mixup > 0 && c.mixupKind === 'manifold')) invalidArgument(`${path}.mixupLayers`, 'only with manifold mixup', JSON.stringify(c.mixupLayers));
  if (isTextDataset(c.dataset) && c.mixup > 0 && c.mixupKind !== 'embedding') {
    invalidArgument(`${path}.mixupKind`, `'embedding' for text (token ids cannot be mixed)`, describe(c.mixupKind));
  }
  if (!isTextDataset(c.dataset) && c.mixup > 0 && c.mixupKind === 'embedding') {
    invalidArgument(`${path}.mixupKind`, `'input', 'feature' or 'manifold' for image data ('embedding' mixes word embeddings)`, describe(c.mixupKind));
  }
  return { ...c, weight };
}

/**
 * Run `fn`, prefixing the message of an `InvalidArgumentError` it throws with `path` (so an error raised by another
 * validator — a loss's option schema, a model's constructor — names where in the configuration it comes from).
 */
export function within<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof InvalidArgumentError && !e.message.startsWith(path)) e.message = `${path}: ${e.message}`;
    throw e;
  }
}

/**
 * Merge CLI overrides into a configuration file's object: every given key replaces the file's, except the option
 * objects (datasetOptions, modelOptions, lossOptions, secondaryOptions, oodDatasetOptions), which are merged key by key.
 */
export function mergeConfig(file: Readonly<Record<string, unknown>>, overrides: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...file };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) continue;
    const base = out[k];
    if (k.endsWith('Options') && isPlainObject(v) && isPlainObject(base)) out[k] = { ...base, ...v };
    else out[k] = v;
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
