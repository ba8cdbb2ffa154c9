/**
 * The model of a run: a zoo kind or an alias, with the input shape and class count taken from the dataset.
 *
 * Aliases (`MODEL_ALIASES`):
 * - `cifar-resnet-D` (any D = 6n + 2) → cifar-resnet of depth D (He et al. 2016 §4.2, basic blocks, 16/32/64
 *   channels; on 28×28 one-channel images it runs unchanged: stages at 28, 14, 7); `resnet20`, `resnet32`,
 *   `resnet44`, `resnet56`, `resnet110` are kept as aliases of cifar-resnet-20 … -110;
 * - `resnet50`, `resnet101`, `resnet152` → the bottleneck ResNet (torchvision layout; the stem follows the input
 *   size unless `stem` is given); `resnet18` is the zoo kind (kuangliu's CIFAR ResNet-18);
 * - `preact-resnet18`, `preact-resnet34`; `densenet121`, `densenet169`, `densenet201`;
 * - `wrn-D-W` → wide-resnet depth D, widen W; `vggN` → vgg of depth N.
 * Any other name is an error that lists the valid ones.
 */
import type { Dataset } from '../../data/dataset.js';
import { createModel, MODEL_KINDS, type ModelKind, type ModelSpec } from '../../nn/models/zoo.js';
import type { Model } from '../../nn/model.js';
import { describe, invalidArgument } from '../../util/errors.js';
import type { Schema } from '../../util/schema.js';
import { didYouMean } from '../../util/typo-hint.js';

/**
 * A model name as the type checker sees it: a zoo kind or one of the alias families (the depths and widths are
 * checked by `modelAlias` when the name is read).
 */
export type ModelName = ModelKind | `cifar-resnet-${number}` | `resnet${number}` | `preact-resnet${18 | 34}` | `densenet${121 | 169 | 201}` | `wrn-${number}-${number}` | `vgg${number}`;

/** The option schema of a model name: checked by `modelAlias` where it is read, with a typo hint. */
export function modelName(): Schema<ModelName> {
  return {
    type: 'string',
    expected: 'a model kind or alias',
    parse(value, path) {
      if (typeof value !== 'string') return invalidArgument(path, 'a model name', describe(value));
      modelAlias(value, path);
      return value as ModelName;
    },
  };
}

/** Examples of every alias family, for documentation and error messages. */
export const MODEL_ALIASES = [
  'cifar-resnet-20',
  'cifar-resnet-D (D = 6n+2)',
  'resnet20',
  'resnet32',
  'resnet44',
  'resnet56',
  'resnet110',
  'resnet50',
  'resnet101',
  'resnet152',
  'preact-resnet18',
  'preact-resnet34',
  'densenet121',
  'densenet169',
  'densenet201',
  'wrn-28-10',
  'wrn-D-W',
  'vgg11',
  'vgg13',
  'vgg16',
  'vgg19',
] as const;

/** Depths of the CIFAR ResNets also reachable as `resnetD` (the names the CIFAR literature uses). */
const CIFAR_RESNET_SHORT = [20, 32, 44, 56, 110];

/** The zoo spec a model name stands for, before the dataset-derived options. */
export function modelAlias(name: string, argument = 'model'): { kind: string } & Record<string, unknown> {
  if ((MODEL_KINDS as readonly string[]).includes(name)) return { kind: name };
  const invalid = () => {
    const hint = didYouMean(name, [...MODEL_KINDS, ...MODEL_ALIASES.filter((a) => !a.includes(' ') && !/-[DW]\b/.test(a))]);
    return invalidArgument(argument, `a model kind (${MODEL_KINDS.join(', ')}) or an alias (${MODEL_ALIASES.join(', ')})${hint}`, describe(name));
  };
  let m = /^cifar-resnet-(\d+)$/.exec(name);
  if (m) {
    const depth = Number(m[1]);
    return depth >= 8 && (depth - 2) % 6 === 0 ? { kind: 'cifar-resnet', depth } : invalid();
  }
  m = /^resnet(\d+)$/.exec(name);
  if (m) {
    const depth = Number(m[1]);
    if (CIFAR_RESNET_SHORT.includes(depth)) return { kind: 'cifar-resnet', depth };
    if ([50, 101, 152].includes(depth)) return { kind: 'resnet', depth };
    return invalid();
  }
  m = /^preact-resnet(18|34)$/.exec(name);
  if (m) return { kind: 'preact-resnet', depth: Number(m[1]) };
  m = /^densenet(121|169|201)$/.exec(name);
  if (m) return { kind: 'densenet', depth: Number(m[1]) };
  m = /^wrn-(\d+)-(\d+)$/.exec(name);
  if (m) return { kind: 'wide-resnet', depth: Number(m[1]), widen: Number(m[2]) };
  m = /^vgg(\d+)$/.exec(name);
  if (m) return { kind: 'vgg', depth: Number(m[1]) };
  return invalid();
}

/**
 * The full spec of model `name` with `options` for `data` (inputShape and numClasses, or vocabularySize and
 * sequenceLength for text, come from the data; giving them with other values is an error).
 */
export function resolveModelSpec(name: string, options: Readonly<Record<string, unknown>>, data: Dataset, argument = 'config'): ModelSpec {
  const base = modelAlias(name, `${argument}.model`);
  const derived: Record<string, unknown> =
    base.kind === 'text-cnn'
      ? data.kind === 'text'
        ? { vocabularySize: data.vocabulary.length, sequenceLength: data.shape[0], numClasses: data.classes }
        : invalidArgument(`${argument}.model`, 'an image model for an image dataset', describe(name))
      : data.kind === 'text'
        ? invalidArgument(`${argument}.model`, "'text-cnn' for a text dataset", describe(name))
        : { inputShape: [...data.shape], numClasses: data.classes };
  for (const [k, v] of Object.entries(derived)) {
    if (k in options && JSON.stringify(options[k]) !== JSON.stringify(v)) {
      invalidArgument(`${argument}.modelOptions.${k}`, `${JSON.stringify(v)} (from the dataset) or nothing`, JSON.stringify(options[k]));
    }
    if (k in base && base[k] !== v) invalidArgument(`${argument}.model`, `a model matching the dataset`, describe(name));
  }
  return { ...base, ...options, ...derived } as unknown as ModelSpec;
}

/** Build the run's model (errors in its options name `${argument}.modelOptions.key`). */
export function createRunModel(name: string, options: Readonly<Record<string, unknown>>, data: Dataset, argument = 'config'): Model {
  return createModel(resolveModelSpec(name, options, data, argument), `${argument}.modelOptions`);
}
