/**
 * Expanding a suite into runs: for each method, each sweep that applies to it (one run per value; a method no sweep
 * touches gets one run) and each seed, the configuration
 *
 *   base ← scales[scale] ← method ← {sweep key: value} ← {seed}
 *
 * merged with `mergeConfig` (option objects key by key), validated in full by `resolveTrainConfig`. A suite's `ood`
 * applies to its image runs only: runs on a text dataset skip the OOD evaluation (noise images and corruptions are
 * image transforms), so a suite may mix image and text methods. Each run is
 * named after its settings: `<method>[-<key>=<value>]-seed<s>` (`mbls-margin=6-seed0`), the name of its run
 * directory. Sweeps are one-dimensional, as in the papers (m for MbLS, α for mixup), not a cross product.
 */
import { isTextDataset } from '../data/load-dataset.js';
import { mergeConfig, resolveTrainConfig, type TrainConfig } from '../train/train-config.js';
import { invalidArgument } from '../util/errors.js';
import { scaledSuite } from './scale-grid.js';
import type { Suite, SuiteScale } from './suite-schema.js';

/** One run of an expanded suite. */
export interface SuiteRun {
  /** Directory name (unique within the suite). */
  readonly id: string;
  readonly method: string;
  /** The swept key and its value, when the run belongs to a sweep. */
  readonly sweep?: { readonly key: string; readonly value: number | string | boolean };
  readonly seed: number;
  /** The full training configuration (with `out` set to the placeholder RUN_OUT_PLACEHOLDER until placed). */
  readonly config: TrainConfig;
}

/** `out` of an expanded run's configuration before the runner places it in a suite directory. */
export const RUN_OUT_PLACEHOLDER = '<suite-dir>/runs/<id>';

/** Set `key` ("mixup" or "lossOptions.margin") to `value` in a configuration object (returns a copy). */
export function setKey(config: Readonly<Record<string, unknown>>, key: string, value: unknown): Record<string, unknown> {
  const [head, inner] = key.split('.') as [string, string | undefined];
  if (inner === undefined) return { ...config, [head]: value };
  const options = (config[head] as Record<string, unknown> | undefined) ?? {};
  return { ...config, [head]: { ...options, [inner]: value } };
}

/** The last part of a key ("lossOptions.margin" → "margin"). */
export function shortKey(key: string): string {
  return key.split('.').pop()!;
}

function idPart(value: unknown): string {
  return String(value).replace(/[^A-Za-z0-9.+-]+/g, '_');
}

/** Strip keys whose value is undefined (absent optional keys of a parsed partial configuration). */
function defined(o: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/**
 * The runs of `suite` at `scale`, in a stable order (methods, then sweep values, then seeds): the scale's grid
 * applied (scale-grid.ts), each method with its own seeds (default the suite's).
 */
export function expandSuite(full: Suite, scale: SuiteScale, path = 'suite'): SuiteRun[] {
  const suite = scaledSuite(full, scale);
  const scaled = suite.scales[scale];
  const declared = Object.keys(suite.scales).filter((k) => suite.scales[k as SuiteScale] !== undefined);
  if (scaled === undefined && declared.length > 0) {
    invalidArgument('--scale', `a scale the suite declares (${declared.join(', ')})`, JSON.stringify(scale));
  }
  const base = mergeConfig(defined(suite.base), defined(scaled ?? {}));
  const runs: SuiteRun[] = [];
  for (const method of suite.methods) {
    const { name, label: _label, seeds: methodSeeds, ...settings } = method;
    const config = mergeConfig(base, defined(settings));
    const sweeps = suite.sweeps.filter((s) => s.methods === undefined || s.methods.includes(name));
    const variants: { sweep?: { key: string; value: number | string | boolean }; config: Record<string, unknown> }[] =
      sweeps.length === 0 ? [{ config }] : sweeps.flatMap((s) => s.values.map((value) => ({ sweep: { key: s.key, value }, config: setKey(config, s.key, value) })));
    for (const v of variants) {
      for (const seed of methodSeeds ?? suite.seeds) {
        const id = `${name}${v.sweep ? `-${shortKey(v.sweep.key)}=${idPart(v.sweep.value)}` : ''}-seed${seed}`;
        if (v.config['dataset'] === undefined) invalidArgument(`${path}.base.dataset`, 'a dataset (in base, the scale or the method)', 'nothing');
        const resolved = resolveTrainConfig(
          { ...v.config, seed, ...(suite.ood && !isTextDataset(String(v.config['dataset'])) ? { ood: true } : {}), out: RUN_OUT_PLACEHOLDER },
          `${path} run ${id}: config`,
        );
        runs.push({ id, method: name, ...(v.sweep ? { sweep: v.sweep } : {}), seed, config: resolved });
      }
    }
  }
  const ids = new Set<string>();
  for (const r of runs) {
    if (ids.has(r.id)) invalidArgument(`${path}.sweeps`, 'sweeps whose values give distinct run names', JSON.stringify(r.id));
    ids.add(r.id);
  }
  return runs;
}

/**
 * ONNX Runtime threads a suite states for a method's runs (the method's `threads`, else its scale's, else its
 * base's), or undefined when it states none. `calib suite run` uses it unless `--threads` is given.
 */
export function explicitThreads(suite: Suite, scale: SuiteScale, method: string): number | undefined {
  return suite.methods.find((m) => m.name === method)?.threads ?? suite.scales[scale]?.threads ?? suite.base.threads;
}
