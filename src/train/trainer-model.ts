/**
 * The model of a run: a zoo kind or an alias, with the input shape and class count taken from the dataset.
 *
 * Aliases: resnet20 / resnet32 / resnet44 / resnet56 / resnet110 (any 6n+2) → cifar-resnet of that depth (He et al.
 * 2016 §4.2; on 28×28 one-channel images it runs unchanged: stages at 28, 14, 7); wrn-D-W → wide-resnet depth D,
 * widen W; vggN → vgg of depth N. Zoo kinds: mlp, lenet, cifar-resnet, resnet18, wide-resnet, vgg, text-cnn.
 */
import type { Dataset } from '../data/dataset.js';
import { createModel, MODEL_KINDS, type ModelSpec } from '../nn/models/zoo.js';
import type { Model } from '../nn/model.js';
import { describe, invalidArgument } from '../util/errors.js';

/** The zoo spec a model name stands for, before the dataset-derived options. */
export function modelAlias(name: string, argument = 'model'): { kind: string } & Record<string, unknown> {
  if ((MODEL_KINDS as readonly string[]).includes(name)) return { kind: name };
  let m = /^resnet(\d+)$/.exec(name);
  if (m) {
    const depth = Number(m[1]);
    if (depth >= 8 && (depth - 2) % 6 === 0) return { kind: 'cifar-resnet', depth };
  }
  m = /^wrn-(\d+)-(\d+)$/.exec(name);
  if (m) return { kind: 'wide-resnet', depth: Number(m[1]), widen: Number(m[2]) };
  m = /^vgg(\d+)$/.exec(name);
  if (m) return { kind: 'vgg', depth: Number(m[1]) };
  return invalidArgument(argument, `a model kind (${MODEL_KINDS.join(', ')}) or an alias (resnet20, resnet32, …, wrn-28-10, vgg16)`, describe(name));
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

/** Build the run's model. */
export function createRunModel(name: string, options: Readonly<Record<string, unknown>>, data: Dataset, argument = 'config'): Model {
  return createModel(resolveModelSpec(name, options, data, argument));
}
