/**
 * Limits a suite is checked against before anything is written or trained, so a setting that cannot work fails
 * at once with a stated limit instead of after every run has trained:
 *
 *   MAX_SUITE_FILE_BYTES  a suite file is read only up to 1 MiB (its text is copied into suite.json and the report)
 *   MAX_SUITE_RUNS        at most 10,000 runs (methods × sweep values × seeds), counted before anything is expanded
 *   MAX_SUITE_BINS        at most 1,000 bins (the report draws one bar per bin in every reliability diagram)
 *   subset / testSubset / a validation count  within the dataset's size (data/dataset-sizes.ts), per run
 */
import { datasetSizes, type DatasetSizes } from '../data/dataset-sizes.js';
import type { DatasetName } from '../data/load-dataset.js';
import { requireWithin } from '../train/run/trainer-data.js';
import { invalidArgument } from '../util/errors.js';
import type { SuiteRun } from './expand-suite.js';
import { canonicalJson } from './identity/run-identity.js';

export const MAX_SUITE_FILE_BYTES = 1 << 20;
export const MAX_SUITE_RUNS = 10_000;
export const MAX_SUITE_BINS = 1_000;

/** The shape of a suite that decides how many runs it expands to. */
interface RunCountShape {
  readonly methods: readonly { readonly name: string }[];
  readonly sweeps: readonly { readonly values: readonly unknown[]; readonly methods?: readonly string[] | undefined }[];
  readonly seeds: readonly unknown[];
}

/** Runs a suite expands to: for each method, the values of the sweeps that apply to it (or one run), times the seeds. */
export function countSuiteRuns(suite: RunCountShape): number {
  let n = 0;
  for (const m of suite.methods) {
    const sweeps = suite.sweeps.filter((s) => s.methods === undefined || s.methods.includes(m.name));
    n += (sweeps.length === 0 ? 1 : sweeps.reduce((a, s) => a + s.values.length, 0)) * suite.seeds.length;
  }
  return n;
}

/** Refuse a suite of more than MAX_SUITE_RUNS runs, naming the largest sweep. */
export function checkSuiteRunCount(suite: RunCountShape, path: string): void {
  const n = countSuiteRuns(suite);
  if (n <= MAX_SUITE_RUNS) return;
  const largest = suite.sweeps.reduce((best, s, i) => (s.values.length > (suite.sweeps[best]?.values.length ?? -1) ? i : best), 0);
  const sweep = suite.sweeps.length ? `; ${path}.sweeps[${largest}] has ${suite.sweeps[largest]!.values.length} values` : '';
  invalidArgument(path, `a suite of at most ${MAX_SUITE_RUNS} runs (methods × sweep values × seeds)`, `${n} runs (${suite.methods.length} methods, ${suite.seeds.length} seeds${sweep})`);
}

/**
 * Check every run's data settings against its dataset's size before the first run trains: `subset` at most the
 * training samples (after the 20 % test hold-out of a dataset without a test split), a validation fraction or
 * count that leaves samples on both sides, `testSubset` at most the test samples. Each dataset (with its options)
 * is measured once.
 */
export async function checkRunData(runs: readonly SuiteRun[], path: string): Promise<void> {
  const sizes = new Map<string, DatasetSizes>();
  for (const run of runs) {
    const c = run.config;
    if (c.subset === undefined && c.testSubset === undefined && c.validation < 1) continue;
    const key = canonicalJson([c.dataset, c.datasetOptions]);
    let s = sizes.get(key);
    if (!s) {
      s = await datasetSizes(c.dataset as DatasetName, c.datasetOptions);
      sizes.set(key, s);
    }
    let train = s.train;
    let test = s.test;
    if (test === null) {
      test = Math.round(0.2 * train);
      train -= test;
    }
    const at = `${path} run ${run.id}: config`;
    if (c.subset !== undefined) requireWithin(`${at}.subset`, c.subset, train, `training samples of ${c.dataset}`);
    const n = Math.min(c.subset ?? train, train);
    const v = c.validation < 1 ? Math.round(c.validation * n) : c.validation;
    if (!(v >= 1 && v < n)) invalidArgument(`${at}.validation`, `a fraction or count leaving samples on both sides of the ${n} training samples`, `${c.validation} (→ ${v} of ${n})`);
    if (c.testSubset !== undefined) requireWithin(`${at}.testSubset`, c.testSubset, test, `test samples of ${c.dataset}`);
  }
}
