/**
 * Measured costs of reference runs, so a suite can be estimated before any of its runs has trained
 * (suite-estimate.ts). Each entry comes from the deep-scale pilot (docs/reproductions/deep-scale-pilot.json,
 * `reference_costs`, written by `node dist/bench/deep-scale-pilot.js table` from the runs' own records; a test
 * checks that the two agree): a cost class, its seconds per epoch on a core of its own, and the rest of a run
 * (start-up; test and training-split evaluation, ONNX export, temperature fit at the end) in epoch units.
 *
 * Seconds per epoch are the CPU seconds (user + sys) of whole one-thread `calib train` processes divided by their
 * epochs plus final part: with `--jobs 2 --threads 1` on two cores each run has a core and its wall time is its
 * CPU time. The pilot ran on a shared, loaded 2-core machine, where wall times say more about the other work than
 * about the run, so CPU time is the measure; it includes the start-up (data loading, graph compilation).
 */
import { type CostClass, costClassKey } from './run-cost-class.js';

export interface CostReference {
  readonly cost: CostClass;
  /** Seconds per epoch on a core of its own. */
  readonly secondsPerEpoch: number;
  /** The rest of a run in epochs of this class: start-up (data loading, graph compilation) and end (final evaluations, export, temperature fit). */
  readonly overheadEpochs: number;
  /** Where it was measured (shown by the estimate). */
  readonly source: string;
}

export const RUN_COST_REFERENCES: readonly CostReference[] = [
  {
    cost: { dataset: 'fashion-mnist', model: 'cifar-resnet-8', modelOptions: '{"width":16}', trainImages: 10000, validation: 5000, batch: 128, threads: 1 },
    secondsPerEpoch: 13.2,
    overheadEpochs: 1.24,
    source: 'deep-scale pilot, ResNet-8 w16 on 10,000 Fashion-MNIST images: 13.2 CPU-s per epoch over 36 epochs, 1.24 epochs of start-up and end',
  },
];

/**
 * The reference for `cost`: one of the same class, or one that differs only in training images (seconds per epoch
 * scaled by the ratio of training images); undefined when there is none.
 */
export function referenceFor(cost: CostClass, references: readonly CostReference[]): { readonly reference: CostReference; readonly scale: number } | undefined {
  const key = costClassKey(cost);
  const same = references.find((r) => costClassKey(r.cost) === key);
  if (same) return { reference: same, scale: 1 };
  if (cost.trainImages === null) return undefined;
  const withImages = (c: CostClass, n: number | null): string => costClassKey({ ...c, trainImages: n });
  const scalable = references.find((r) => r.cost.trainImages !== null && withImages(r.cost, null) === withImages(cost, null));
  return scalable ? { reference: scalable, scale: cost.trainImages / scalable.cost.trainImages! } : undefined;
}
