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
import { checkDatasetOptions, DATASETS, DATASET_NAMES, isSegmentationDatasetName, isTextDataset, type DatasetName } from '../data/load-dataset.js';
import { termWeight } from '../losses/define-loss.js';
import { resolveOptions } from '../losses/options.js';
import { LOSS_NAMES, lossDefinition } from '../losses/registry.js';
import { MODEL_OPTIONS, type ModelKind } from '../nn/models/zoo.js';
import { createOptimizer, OPTIMIZER_NAMES, type OptimizerSpec } from '../optim/create.js';
import { describe, InvalidArgumentError, invalidArgument } from '../util/errors.js';
import { boolean, described, type Infer, list, number, object, optional, options, partial, string } from '../util/schema.js';
import { parseSchedule, scheduleText } from './lr-schedule-spec.js';
import { defaultOodDataset } from './evaluation/ood-evaluation.js';
import { SELECTION_METRICS } from './run/best-epoch.js';
import { modelAlias, modelName } from './run/trainer-model.js';
import { MAX_BINS } from '../metrics/binned/binning.js';

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

/** The optimizer names (optim/create.ts's registry). */
export const OPTIMIZERS = OPTIMIZER_NAMES;

/** Registry names of the losses with the given roles, comma-separated (for descriptions). */
function lossNamesOf(roles: readonly string[]): string {
  return LOSS_NAMES.filter((n) => roles.includes(lossDefinition(n).role)).join(', ');
}

/** Defaults of the settings whose presence the cross-key checks look at. */
const TRAIN_CONFIG_DEFAULTS = { weight: 1, holdout: 0.1, mixupKind: 'input' } as const;

/** Monte-Carlo dropout at the final evaluation (the `mcDropout` key below; `calib train --mc-dropout K` sets its passes). */
export const MC_DROPOUT_SCHEMA = object({
  passes: optional(number({ integer: true, min: 2 }), 10, 'stochastic forward passes K'),
  seed: described(optional(number({ integer: true })), 'seed of the dropout masks (default: the run seed)'),
});

/**
 * The schema of a run's configuration (keys = the CLI's flags in camelCase). Each key's default and one-line
 * description are stated here only: `calib train --help` prints them (cli/commands/train.ts).
 */
export const TRAIN_CONFIG_SCHEMA = object({
  dataset: described(string(DATASET_NAMES), 'dataset (mnist is embedded; the others load from files, see the dataset options)'),
  datasetOptions: optional(
    options(),
    {},
    'dataset loader options (directory=… for fashion-mnist/svhn, path=… for cifar, download=true, images=… labels=… for npy, train=… for text, sections=… listsDirectory=… for debian-packages)',
  ),
  subset: described(optional(number({ integer: true, min: 2 })), 'train on a class-stratified subset of N training samples (before the validation split)'),
  testSubset: described(optional(number({ integer: true, min: 1 })), 'evaluate on a class-stratified subset of N test samples'),
  validation: optional(number({ min: 0, exclusiveMin: true }), 0.1, 'validation split held out of train: a fraction in (0, 1) or a count'),
  model: optional(
    modelName(),
    'mlp',
    'mlp, lenet, cifar-resnet-D (D = 6n+2; resnet20/32/44/56/110 as aliases), resnet18 (CIFAR), resnet50/101/152 (bottleneck, torchvision), preact-resnet18, densenet121, wrn-28-10, vgg16, text-cnn, seg-net (segmentation datasets)',
  ),
  /** Checked against the model's option schema (nn/models/zoo.ts MODEL_OPTIONS); input shape and class count come from the dataset. */
  modelOptions: optional(options(), {}, 'model options (e.g. hidden=256,256 or hidden=[256] for mlp, width=8 for resnets, stem=cifar|imagenet, dropout=0.3)'),
  loss: optional(string(LOSS_NAMES), 'ce', `primary loss: ${lossNamesOf(['primary', 'combined'])}`),
  lossOptions: optional(options(), {}, 'options of the primary loss (e.g. epsilon=0.05 for ls, margin=6 for mbls)'),
  secondary: described(optional(string(LOSS_NAMES)), `secondary calibration term, total = loss + weight · secondary: ${lossNamesOf(['term'])}`),
  secondaryOptions: optional(options(), {}, 'options of the secondary term'),
  weight: described(optional(number({ min: 0 })), "weight β of the secondary term (default: the term's defaultWeight — 2 for mmce and mmce-weighted as the focal-calibration code — else 1)"),
  epochs: optional(number({ integer: true, min: 1 }), 30, 'epochs'),
  batch: optional(number({ integer: true, min: 1 }), 128, 'batch size'),
  evalBatch: optional(number({ integer: true, min: 1 }), 500, 'batch size of evaluation passes'),
  lr: optional(number({ min: 0, exclusiveMin: true }), 0.1, 'base learning rate η₀'),
  schedule: optional(scheduleText(), 'multistep:0.5,0.75', 'constant | cosine | step:S[,γ] | multistep:m1,m2,…[:γ] (milestones < 1 are fractions of the epochs)'),
  warmup: optional(number({ min: 0 }), 0, 'linear learning-rate warm-up over this many epochs (fractional allowed; per step)'),
  optimizer: optional(string(OPTIMIZERS), 'sgd', 'optimizer'),
  momentum: optional(number({ min: 0, max: 1 }), 0.9, 'SGD momentum'),
  nesterov: optional(boolean(), false, 'Nesterov momentum (SGD)'),
  weightDecay: optional(number({ min: 0 }), 5e-4, 'weight decay'),
  mixup: optional(number({ min: 0 }), 0, 'mixup with λ ~ Beta(α, α); 0 = off'),
  mixupKind: optional(string(MIXUP_KINDS), TRAIN_CONFIG_DEFAULTS.mixupKind, 'input (soft targets), feature (nearer label), manifold (hidden layer), embedding (text), cutmix (pasted box)'),
  mixupLayers: described(optional(list(string())), "candidate layers of manifold mixup (default: every feature layer but 'pool')"),
  arcPlacement: optional(string(SECONDARY_PLACEMENTS), 'mixed', 'secondary term on the mixed batch, the unmixed sources, or a held-out batch'),
  interleaved: described(optional(number({ min: 0, max: 1, exclusiveMin: true })), 'interleaved training (Karandikar et al. App. B): hold out this fraction of train for the secondary term'),
  holdout: optional(number({ min: 0, max: 1, exclusiveMin: true }), TRAIN_CONFIG_DEFAULTS.holdout, "fraction of train held out for the 'holdout' arc placement"),
  augment: optional(string(AUGMENTATIONS), 'auto', 'image augmentation (auto: crop+flip for CIFAR, crop for SVHN, none otherwise)'),
  select: optional(
    string(SELECTION_METRICS),
    'accuracy',
    'best-epoch criterion on the validation split: accuracy, nll, ece, adaece, refinement, last, or any metric of calib eval --json with a better direction (its declared direction decides)',
  ),
  bins: optional(number({ integer: true, min: 1, max: MAX_BINS }), 15, 'bins of ECE / AdaECE in the per-epoch validation metrics'),
  seed: optional(number({ integer: true }), 0, 'seed of initialisation, batch order, augmentation and mixup'),
  threads: optional(number({ integer: true, min: 1 }), 2, 'ONNX Runtime intra-op threads'),
  /**
   * Data-parallel replicas: each batch split into this many shards whose gradients run at the same time on worker
   * threads (⌊threads / replicas⌋ ORT threads each) and are averaged before one update (replicated-step.ts); 1 = off.
   * Batch-level statistics (batch norm, MMCE, …) are then per shard, as DistributedDataParallel without SyncBatchNorm.
   */
  replicas: optional(
    number({ integer: true, min: 1 }),
    1,
    'data-parallel replicas: each batch split into R shards trained at once on worker threads, gradients averaged (2 is faster for conv nets on 2 cores)',
  ),
  /**
   * Keep every epoch's validation logits (epoch-logits/val-NNN.npy, float32 [N_val, C]) for per-epoch figures such as
   * Thulasidasan et al.'s accuracy–confidence joint density (suite reports draw it). Absent = false.
   */
  epochLogits: described(optional(boolean()), "keep every epoch's validation logits (epoch-logits/val-NNN.npy; suite reports draw the accuracy-confidence density per epoch)"),
  /**
   * Also evaluate the training split with the selected epoch's weights (no augmentation, no mixup): train-logits.npy,
   * train-labels.npy and summary.json's `train` metrics, for train-vs-test calibration (Karandikar et al. 2021,
   * Table 3). Absent = false (kept absent so older run configurations stay identical).
   */
  evaluateTrain: described(optional(boolean()), 'also evaluate the training split (no augmentation): train-logits.npy, train-labels.npy and summary.json train metrics'),
  ood: optional(boolean(), false, 'after training, evaluate OOD AUROC (noise, a second dataset) and corruptions into ood.json'),
  oodDataset: described(optional(string(DATASET_NAMES)), 'second dataset of the OOD AUROC (default: fashion-mnist ↔ mnist, svhn ↔ cifar10 when present)'),
  oodDatasetOptions: optional(options(), {}, 'loader options of the OOD dataset'),
  oodSubset: described(optional(number({ integer: true, min: 1 })), 'test samples per OOD / corruption evaluation (default: the whole test set)'),
  /**
   * Monte-Carlo dropout at the final evaluation (Gal & Ghahramani 2016; Thulasidasan et al. 2019's baseline, p = 0.3,
   * 10 passes): the validation, test (and training, with evaluateTrain) logits and the OOD predictor become
   * log p̄ with p̄ = (1/K) Σ_k softmax(f(x; mask_k)) under the model's own dropout rate (run-predictor.ts). Best-epoch
   * selection stays deterministic (dropout off). Absent = off (kept absent so older run configurations stay identical).
   */
  mcDropout: described(
    optional(MC_DROPOUT_SCHEMA),
    'final evaluation by MC dropout: {"passes": K (default 10), "seed": S (default the run seed)}; logits written are log of the mean softmax of K passes with dropout on (the model needs dropout, e.g. modelOptions.dropout 0.3); best-epoch selection stays deterministic',
  ),
  out: described(string(), 'run directory'),
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
  resolveOptions(`${path}.lossOptions`, primary.options, c.lossOptions);
  // Model and optimizer options are checked by their schemas here, before any data is loaded (the model's input
  // shape and class count, which come from the dataset, are checked when it is built).
  const modelKind = modelAlias(c.model, `${path}.model`).kind as ModelKind;
  const modelOptions = partial(MODEL_OPTIONS[modelKind]).parse(c.modelOptions, `${path}.modelOptions`) as Record<string, unknown>;
  if (c.mcDropout !== undefined) checkMcDropoutModel(modelKind, modelOptions, path);
  // A dense model on a classification dataset would fail inside the first update (labels [B] against logits [B, C, H, W]).
  if (modelKind === 'seg-net' && !isSegmentationDatasetName(c.dataset)) {
    invalidArgument(`${path}.model`, `a classifier for the classification dataset ${c.dataset} (seg-net is for segmentation datasets such as mnist-seg)`, describe(c.model));
  }
  createOptimizer(optimizerSpec(c), path);
  within(`${path}.datasetOptions`, () => checkDatasetOptions(c.dataset as DatasetName, c.datasetOptions));
  // The OOD loader's options are checked here too, also for the default OOD dataset (mnist → fashion-mnist, …): the
  // trainer only loads it after training and then reports a failed load as "skipped" instead of an error.
  const oodName = c.oodDataset ?? defaultOodDataset(c.dataset);
  if (oodName !== null) {
    within(`${path}.oodDatasetOptions`, () => checkDatasetOptions(oodName as DatasetName, c.oodDatasetOptions));
  }
  if (c.oodDataset !== undefined && DATASETS.get(`${path}.oodDataset`, c.oodDataset).task !== 'image') {
    invalidArgument(`${path}.oodDataset`, 'an image dataset (the OOD AUROC compares image predictions)', describe(c.oodDataset));
  }
  let weight = c.weight ?? 1;
  if (c.secondary !== undefined) {
    const s = lossDefinition(c.secondary, `${path}.secondary`);
    if (s.hostState) invalidArgument(`${path}.secondary`, 'a stateless secondary term (host-state losses run as the primary loss)', describe(c.secondary));
    weight = termWeight(s, c.weight);
    if (s.role !== 'term') invalidArgument(`${path}.secondary`, 'a calibration term (sb-ece-bin, sb-ece-lb, avuc, avuc-gs, s-avuc, mmce, mmce-weighted, mdca, dca, arc)', describe(c.secondary));
    resolveOptions(`${path}.secondaryOptions`, s.options, c.secondaryOptions);
  } else if (Object.keys(c.secondaryOptions).length > 0) {
    invalidArgument(`${path}.secondaryOptions`, 'no options without a secondary loss', JSON.stringify(c.secondaryOptions));
  }
  parseSchedule(c.schedule, c.epochs, `${path}.schedule`);
  if (c.warmup > c.epochs) invalidArgument(`${path}.warmup`, `at most the ${c.epochs} epochs`, describe(c.warmup));
  if (c.validation >= 1 && !Number.isInteger(c.validation)) invalidArgument(`${path}.validation`, 'a fraction in (0, 1) or an integer count', describe(c.validation));
  const soft = c.mixup > 0 && c.mixupKind !== 'feature';
  if (soft) {
    for (const [key, name] of [
      ['loss', c.loss],
      ['secondary', c.secondary],
    ] as const) {
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
  if (c.secondary === undefined && c.weight !== undefined && c.weight !== defaults.weight)
    invalidArgument(`${path}.weight`, 'a weight only together with a secondary term (give secondary)', describe(c.weight));
  if (c.arcPlacement !== 'holdout' && c.holdout !== defaults.holdout) invalidArgument(`${path}.holdout`, "a held-out fraction only with arcPlacement 'holdout'", describe(c.holdout));
  if (c.mixup === 0 && c.mixupKind !== defaults.mixupKind) invalidArgument(`${path}.mixupKind`, 'a mixup kind only with mixup > 0', describe(c.mixupKind));
  if (c.arcPlacement !== 'mixed') {
    if (c.secondary === undefined) invalidArgument(`${path}.arcPlacement`, `'mixed' unless a secondary term is given`, describe(c.arcPlacement));
    if (c.arcPlacement === 'sources' && c.mixup === 0)
      invalidArgument(`${path}.arcPlacement`, `'mixed' or 'holdout' without mixup ('sources' are the unmixed images of a mixup batch)`, describe(c.arcPlacement));
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
  // Refused here rather than after training (run-finalise.ts's runOod checks the loaded data again).
  if (isTextDataset(c.dataset) && c.ood) {
    invalidArgument(`${path}.ood`, `false for the text dataset ${c.dataset} (the OOD evaluation's noise and corruptions are image transforms)`, 'true');
  }
  if (!isTextDataset(c.dataset) && c.mixup > 0 && c.mixupKind === 'embedding') {
    invalidArgument(`${path}.mixupKind`, `'input', 'feature' or 'manifold' for image data ('embedding' mixes word embeddings)`, describe(c.mixupKind));
  }
  return { ...c, weight };
}

/**
 * MC dropout needs a model with dropout: the model kind must take a `dropout` option and the run's rate (given, or
 * the kind's default) must be > 0. Checked with the configuration, before any data is loaded or any epoch trained;
 * a model whose rate is set but that has no dropout layer (an MLP without hidden layers) is refused when the run's
 * MC-dropout step is compiled, also before training (run-predictor.ts).
 */
function checkMcDropoutModel(kind: ModelKind, options: Readonly<Record<string, unknown>>, path: string): void {
  const schema = MODEL_OPTIONS[kind].shape as Readonly<Record<string, { fallback?: unknown }>>;
  if (!('dropout' in schema))
    invalidArgument(`${path}.mcDropout`, `a model with dropout (${kind} has no dropout option; use e.g. mlp, the ResNets, DenseNet, VGG or WRN with modelOptions.dropout)`, kind);
  const rate = options['dropout'] ?? schema['dropout']!.fallback ?? 0;
  if (!(typeof rate === 'number' && rate > 0)) {
    invalidArgument(`${path}.mcDropout`, `a model with dropout rate > 0 (give ${path}.modelOptions.dropout, e.g. --model-opt dropout=0.3)`, `${kind} with dropout ${String(rate)}`);
  }
}

/**
 * The optimizer specification of a configuration: SGD with the configuration's momentum, Nesterov flag and weight
 * decay, or Adam / AdamW with its weight decay (their option keys are the configuration's, so errors of the
 * optimizer's schema name configuration keys: `config.nesterov: …`).
 */
export function optimizerSpec(config: Pick<TrainConfig, 'optimizer' | 'momentum' | 'nesterov' | 'weightDecay'>): OptimizerSpec {
  return config.optimizer === 'sgd'
    ? { kind: 'sgd', momentum: config.momentum, nesterov: config.nesterov, weightDecay: config.weightDecay }
    : ({ kind: config.optimizer, weightDecay: config.weightDecay } as OptimizerSpec);
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
 * objects (datasetOptions, modelOptions, lossOptions, secondaryOptions, oodDatasetOptions) and mcDropout, which are
 * merged key by key.
 */
export function mergeConfig(file: Readonly<Record<string, unknown>>, overrides: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...file };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) continue;
    const base = out[k];
    if ((k.endsWith('Options') || k === 'mcDropout') && isPlainObject(v) && isPlainObject(base)) out[k] = { ...base, ...v };
    else out[k] = v;
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
