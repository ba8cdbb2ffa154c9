import { describe, invalidArgument, requireNumber } from '../util/errors.js';
import { Random } from '../util/random.js';
import { datasetSize, subset, type Dataset } from './dataset.js';

/** Options of `randomSplit`. */
export interface SplitOptions {
  /** Seed of the shuffle (same seed, same sizes → same split). */
  seed: number;
  /**
   * Labels (length n) to stratify by: every part receives each class in (as nearly as integers allow)
   * the proportion of the whole set.
   */
  stratify?: Int32Array;
}

/**
 * Split the indices 0..n−1 into disjoint parts of the given sizes, deterministically from `seed`.
 *
 * `sizes` are either counts summing to n, or fractions summing to 1 (turned into counts by the largest-remainder
 * rule, ties to the earlier part). Without `stratify`: one permutation of 0..n−1 (Random(seed).permutation(n)) cut
 * into consecutive pieces. With `stratify`: the members of each class are permuted (classes in increasing order,
 * from the same generator) and the parts are filled one after another; part j takes from class k
 * ⌊r_k·s_j/R⌋ members plus one for the classes with the largest fractional remainders (ties to the smaller
 * class index), where r_k and R are the class's and the total's members not yet assigned, so part sizes are
 * exact and class proportions are as even as integers allow (the last part takes what is left).
 * Each part is returned in ascending index order.
 */
export function randomSplit(n: number, sizes: readonly number[], options: SplitOptions): Int32Array[] {
  requireNumber('n', n, { integer: true, min: 0 });
  const seed = requireNumber('seed', options.seed, { integer: true });
  const counts = resolveSizes(n, sizes);
  const rng = new Random(seed);
  let parts: Int32Array[];
  if (options.stratify === undefined) {
    const perm = rng.permutation(n);
    parts = [];
    let offset = 0;
    for (const c of counts) {
      parts.push(perm.slice(offset, offset + c));
      offset += c;
    }
  } else {
    parts = stratifiedParts(options.stratify, n, counts, rng);
  }
  for (const p of parts) p.sort();
  return parts;
}

function resolveSizes(n: number, sizes: readonly number[]): number[] {
  if (!Array.isArray(sizes) || sizes.length === 0) invalidArgument('sizes', 'a non-empty array of counts or fractions', describe(sizes));
  sizes.forEach((s, i) => requireNumber(`sizes[${i}]`, s, { min: 0 }));
  const total = sizes.reduce((a, b) => a + b, 0);
  if (sizes.every((s) => Number.isInteger(s)) && total === n) return [...sizes];
  if (sizes.every((s) => s <= 1) && Math.abs(total - 1) < 1e-9) {
    const exact = sizes.map((s) => s * n);
    const counts = exact.map(Math.floor);
    let missing = n - counts.reduce((a, b) => a + b, 0);
    const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    for (const [, i] of order) {
      if (missing <= 0) break;
      counts[i]!++;
      missing--;
    }
    return counts;
  }
  return invalidArgument('sizes', `integer counts summing to n = ${n}, or fractions summing to 1`, `[${sizes.join(', ')}] (sum ${total})`);
}

function stratifiedParts(labels: Int32Array, n: number, counts: readonly number[], rng: Random): Int32Array[] {
  if (!(labels instanceof Int32Array) || labels.length !== n) invalidArgument('stratify', `an Int32Array of ${n} labels`, describe(labels));
  let classes = 0;
  for (let i = 0; i < n; i++) {
    if (labels[i]! < 0) invalidArgument(`stratify[${i}]`, 'a class index ≥ 0', String(labels[i]));
    classes = Math.max(classes, labels[i]! + 1);
  }
  const members: number[][] = Array.from({ length: classes }, () => []);
  for (let i = 0; i < n; i++) members[labels[i]!]!.push(i);
  for (const m of members) {
    const perm = rng.permutation(m.length);
    const copy = m.slice();
    for (let i = 0; i < m.length; i++) m[i] = copy[perm[i]!]!;
  }
  const remaining = members.map((m) => m.length);
  const taken = new Array<number>(classes).fill(0);
  let remainingTotal = n;
  const parts: Int32Array[] = [];
  for (const [j, size] of counts.entries()) {
    const perClass = new Array<number>(classes).fill(0);
    if (j === counts.length - 1) {
      for (let k = 0; k < classes; k++) perClass[k] = remaining[k]!;
    } else if (remainingTotal > 0) {
      const exact = remaining.map((r) => (r * size) / remainingTotal);
      let assigned = 0;
      for (let k = 0; k < classes; k++) {
        perClass[k] = Math.floor(exact[k]! + 1e-9);
        assigned += perClass[k]!;
      }
      const order = exact
        .map((e, k) => [e - perClass[k]!, k] as const)
        .filter(([f, k]) => f > 1e-9 && perClass[k]! < remaining[k]!)
        .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
      for (const [, k] of order) {
        if (assigned >= size) break;
        perClass[k]!++;
        assigned++;
      }
    }
    const part = new Int32Array(size);
    let o = 0;
    for (let k = 0; k < classes; k++) {
      const m = members[k]!;
      for (let t = 0; t < perClass[k]!; t++) part[o++] = m[taken[k]! + t]!;
      taken[k]! += perClass[k]!;
      remaining[k]! -= perClass[k]!;
    }
    remainingTotal -= size;
    parts.push(part);
  }
  return parts;
}

/** Options of `holdOut`. */
export interface HoldOutOptions {
  /** Number (integer ≥ 1) or fraction (in (0, 1)) of samples held out. */
  size: number;
  seed: number;
  /** Stratify by the dataset's labels (default true). */
  stratified?: boolean;
}

/**
 * The indices of `holdOut` without the copies: { restIndices, heldOutIndices }, each ascending (see `holdOut`).
 * For callers that build only one part, or build the rest in place (`compactInPlace`).
 */
export function holdOutIndices(dataset: Dataset, options: HoldOutOptions): { restIndices: Int32Array; heldOutIndices: Int32Array } {
  const n = datasetSize(dataset);
  const size = requireNumber('size', options.size, { min: 0, exclusiveMin: true });
  const m = size < 1 ? Math.round(size * n) : size;
  if (!Number.isInteger(m) || m < 1 || m >= n) invalidArgument('size', `a count in [1, ${n - 1}] or a fraction giving one`, describe(options.size));
  const [restIndices, heldOutIndices] = randomSplit(n, [n - m, m], {
    seed: options.seed,
    ...(options.stratified === false ? {} : { stratify: dataset.labels }),
  });
  return { restIndices: restIndices!, heldOutIndices: heldOutIndices! };
}

/**
 * Hold out part of a dataset, e.g. a validation split of 5,000 of CIFAR-10's 50,000 training images:
 * `holdOut(train, { size: 5000, seed: 0 })` → { rest: 45,000, heldOut: 5,000 }, both in original order.
 * Uses `randomSplit(n, [n − m, m], { seed, stratify })`, so it is deterministic and the parts are disjoint.
 * Both parts are copies (`subset`); `holdOutIndices` gives the indices alone.
 */
export function holdOut<D extends Dataset>(dataset: D, options: HoldOutOptions): { rest: D; heldOut: D; restIndices: Int32Array; heldOutIndices: Int32Array } {
  const { restIndices, heldOutIndices } = holdOutIndices(dataset, options);
  return {
    rest: subset(dataset, restIndices, `${dataset.name}[rest]`),
    heldOut: subset(dataset, heldOutIndices, `${dataset.name}[held-out]`),
    restIndices,
    heldOutIndices,
  };
}
