import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  adaptiveCalibrationError,
  debiasedCalibrationError,
  expectedCalibrationError,
  ksError,
  labelBinnedCalibrationError,
  maximumCalibrationError,
  overconfidenceError,
  sweepCalibrationError,
} from '../../src/metrics/index.js';
import { Random } from '../../src/util/random.js';
import { close, mean, naiveGroupedEce, naiveMembers } from './helpers.js';

const f64 = (xs: number[]): Float64Array => Float64Array.from(xs);
const u8 = (xs: number[]): Uint8Array => Uint8Array.from(xs);

// Hand-worked case: M = 5. Under (l,u] each confidence is alone in its bin; under [l,u) 0.8 joins 0.9.
/**
 * Naive monotonic sweep (Roelofs et al. 2020): split the samples in confidence order (`order`) into b equal-mass
 * groups for b = 2, 3, …; keep the largest b before the groups' accuracies stop being non-decreasing; ECE_2 there.
 */
function naiveSweep(order: readonly number[], c: Float64Array, a: Uint8Array): { bins: number; value: number } {
  const n = order.length;
  const groupsFor = (b: number): number[][] => {
    const g: number[][] = Array.from({ length: b }, () => []);
    order.forEach((idx, r) => g[Math.min(b - 1, Math.floor((r / n) * b))]!.push(idx));
    return g;
  };
  let chosen = 1;
  for (let b = 2; b < n; b++) {
    const accs = groupsFor(b)
      .filter((g) => g.length > 0)
      .map((g) => mean(g.map((i) => a[i]!)));
    if (accs.some((v, i) => i > 0 && v < accs[i - 1]!)) break;
    chosen = b;
  }
  return { bins: chosen, value: naiveGroupedEce(groupsFor(chosen), c, a, n, 2) };
}

const conf = f64([0.9, 0.8, 0.3, 0.6]);
const correct = u8([1, 0, 0, 1]);

test('ECE, ECE_l2, MCE and OE of a hand-worked case under (l,u]', () => {
  close(expectedCalibrationError(conf, correct, { bins: 5 }), (0.1 + 0.8 + 0.3 + 0.4) / 4, 1e-15);
  close(expectedCalibrationError(conf, correct, { bins: 5, p: 2 }), Math.sqrt((0.01 + 0.64 + 0.09 + 0.16) / 4), 1e-15);
  close(maximumCalibrationError(conf, correct, { bins: 5 }), 0.8, 1e-15);
  close(overconfidenceError(conf, correct, { bins: 5 }), 0.25 * 0.8 * 0.8 + 0.25 * 0.3 * 0.3, 1e-15);
});

test('the same case under [l,u) merges 0.8 with 0.9 and gives smaller errors', () => {
  const opt = { bins: 5, convention: '[l,u)' as const };
  close(expectedCalibrationError(conf, correct, opt), 0.5 * 0.35 + 0.25 * 0.4 + 0.25 * 0.3, 1e-15);
  close(expectedCalibrationError(conf, correct, { ...opt, p: 2 }), Math.sqrt(0.5 * 0.35 ** 2 + 0.25 * 0.16 + 0.25 * 0.09), 1e-15);
  close(maximumCalibrationError(conf, correct, opt), 0.4, 1e-15);
  close(labelBinnedCalibrationError(conf, correct, opt), Math.sqrt((0.16 + 0.09 + 0.16 + 0.09) / 4), 1e-15);
  // Jensen: the label-binned error is at least the binned one.
  assert.ok(labelBinnedCalibrationError(conf, correct, opt) >= expectedCalibrationError(conf, correct, { ...opt, p: 2 }));
});

test('label-binned ECE equals the binned ECE when every bin holds one sample', () => {
  close(labelBinnedCalibrationError(conf, correct, { bins: 5 }), Math.sqrt(0.9 / 4), 1e-15);
  close(labelBinnedCalibrationError(conf, correct, { bins: 5, p: 1 }), 0.4, 1e-15);
});

test('binned metrics match per-bin filtering on random data for both conventions and p = 1, 2, 3', () => {
  const rng = new Random(5);
  const n = 3000;
  const c = new Float64Array(n);
  const a = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    c[i] = i % 7 === 0 ? rng.int(16) / 15 : rng.uniform();
    a[i] = rng.uniform() < c[i]! * 0.8 ? 1 : 0;
  }
  for (const convention of ['(l,u]', '[l,u)'] as const) {
    for (const bins of [1, 7, 15]) {
      const groups = naiveMembers(c, bins, convention);
      for (const p of [1, 2, 3]) close(expectedCalibrationError(c, a, { bins, convention, p }), naiveGroupedEce(groups, c, a, n, p), 1e-12);
      const gaps = groups.filter((g) => g.length > 0).map((g) => Math.abs(mean(g.map((i) => a[i]!)) - mean(g.map((i) => c[i]!))));
      close(maximumCalibrationError(c, a, { bins, convention }), Math.max(...gaps), 1e-12);
      let oe = 0;
      let lb = 0;
      for (const g of groups) {
        if (g.length === 0) continue;
        const acc = mean(g.map((i) => a[i]!));
        const cf = mean(g.map((i) => c[i]!));
        oe += (g.length / n) * cf * Math.max(cf - acc, 0);
        for (const i of g) lb += (acc - c[i]!) ** 2;
      }
      close(overconfidenceError(c, a, { bins, convention }), oe, 1e-12);
      close(labelBinnedCalibrationError(c, a, { bins, convention }), Math.sqrt(lb / n), 1e-12);
    }
  }
});

test('equal-mass AdaECE and the interp variant on a hand-worked case', () => {
  const c = f64([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]);
  const a = u8([0, 1, 0, 1, 1, 1]);
  // Equal-mass, M = 3: {0.1, 0.2}, {0.3, 0.4}, {0.5, 0.6}.
  close(adaptiveCalibrationError(c, a, { bins: 3 }), (2 * 0.35 + 2 * 0.15 + 2 * 0.45) / 6, 1e-15);
  // interp, M = 3: edges [0.1, 0.3, 0.5, 0.6], (l,u]: the minimum 0.1 is dropped.
  close(adaptiveCalibrationError(c, a, { bins: 3, scheme: 'interp' }), (2 * 0.25 + 2 * 0.55 + 1 * 0.4) / 6, 1e-15);
});

test('equal-mass AdaECE matches grouping the sorted samples by rank on random data', () => {
  const rng = new Random(8);
  const n = 1001;
  const c = new Float64Array(n);
  const a = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    c[i] = rng.uniform();
    a[i] = rng.uniform() < c[i]! ? 1 : 0;
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => c[x]! - c[y]! || x - y);
  for (const bins of [1, 10, 15, 2000]) {
    const groups: number[][] = Array.from({ length: bins }, () => []);
    order.forEach((idx, r) => groups[Math.min(bins - 1, Math.floor((r * bins) / n))]!.push(idx));
    for (const p of [1, 2]) close(adaptiveCalibrationError(c, a, { bins, p }), naiveGroupedEce(groups, c, a, n, p), 1e-12);
  }
});

test('KS error of a hand-worked case and of a naive cumulative sum', () => {
  // Sorted c = [0.2, 0.6, 0.9], a = [0, 1, 1]: |cumsum(c − a)|/3 = 0.2/3, 0.2/3, 0.3/3.
  close(ksError(f64([0.9, 0.2, 0.6]), u8([1, 0, 1])), 0.1, 1e-15);
  const rng = new Random(9);
  const n = 500;
  const c = new Float64Array(n);
  const a = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    c[i] = rng.uniform();
    a[i] = rng.uniform() < c[i]! ** 2 ? 1 : 0;
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => c[x]! - c[y]! || x - y);
  let s = 0;
  let worst = 0;
  for (const i of order) {
    s += c[i]! - a[i]!;
    worst = Math.max(worst, Math.abs(s) / n);
  }
  close(ksError(c, a), worst, 1e-12);
});

test("debiased ECE of a hand-worked case follows Kumar et al.'s unbiased squared error", () => {
  // Groups [0.9, 0.9, 0.9] and [0.95, 0.95, 0.95] (edge 0.925), each with accuracy 1/3.
  const c = f64([0.9, 0.95, 0.9, 0.95, 0.9, 0.95]);
  const a = u8([0, 0, 0, 1, 1, 0]);
  const v = ((1 / 3) * (2 / 3)) / 2;
  const sq = 0.5 * ((0.9 - 1 / 3) ** 2 - v) + 0.5 * ((0.95 - 1 / 3) ** 2 - v);
  close(debiasedCalibrationError(c, a, { bins: 2 }), Math.sqrt(sq), 1e-14);
  // A calibrated-looking case whose bias correction exceeds the plug-in error is clamped at 0.
  assert.equal(debiasedCalibrationError(f64([0.1, 0.2, 0.3, 0.4, 0.6, 0.8]), u8([0, 0, 1, 0, 1, 1]), { bins: 2 }), 0);
});

test('monotonic sweep picks the largest monotone equal-mass binning (hand-worked) and uses the ℓ2 norm', () => {
  // b = 2: accuracies 1/3, 1; b = 3: 0.5, 0.5, 1 (monotone); b = 4: 0.5, 0, … → stop, b* = 3.
  const c = f64([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]);
  const a = u8([0, 1, 0, 1, 1, 1]);
  const r = sweepCalibrationError(c, a);
  assert.equal(r.bins, 3);
  close(r.value, Math.sqrt((2 * 0.35 ** 2 + 2 * 0.15 ** 2 + 2 * 0.45 ** 2) / 6), 1e-15);
  assert.equal(sweepCalibrationError(c, a, { maxBins: 2 }).bins, 2);
  close(sweepCalibrationError(c, a, { p: 1 }).value, (2 * 0.35 + 2 * 0.15 + 2 * 0.45) / 6, 1e-15);
});

test('monotonic sweep uses N − 1 bins when correctness never decreases with confidence, 1 bin when N < 3', () => {
  const n = 50;
  const c = new Float64Array(n);
  const a = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    c[i] = (i + 0.5) / n;
    a[i] = i >= 20 ? 1 : 0;
  }
  assert.equal(sweepCalibrationError(c, a).bins, n - 1);
  assert.equal(sweepCalibrationError(f64([0.4, 0.9]), u8([1, 0])).bins, 1);
  assert.equal(sweepCalibrationError(f64([0.7]), u8([1])).bins, 1);
});

test('monotonic sweep matches a naive re-binning at every bin count on random data', () => {
  const rng = new Random(21);
  const n = 400;
  const c = new Float64Array(n);
  const a = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    c[i] = rng.uniform();
    a[i] = rng.uniform() < c[i]! ? 1 : 0;
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => c[x]! - c[y]! || x - y);
  const naive = naiveSweep(order, c, a);
  const r = sweepCalibrationError(c, a);
  assert.equal(r.bins, naive.bins);
  close(r.value, naive.value, 1e-12);
});

test('the interp AdaECE compares float32 confidences with float32-rounded edges, as the PyTorch code does', () => {
  // Sorted [0.1, 0.2, 0.5, 0.5 + u] (u = 2^-24, one float32 ulp at 0.5), M = 3: the third edge
  // 0.5 + 2u/3 rounds to 0.5 + u in float32, which moves 0.5 + u from the last bin into the second.
  // torch 1.13 running the AdaptiveECELoss loop gives fround(0.2)/4: the same bins, but its float32 mean of
  // {0.5, 0.5 + u} rounds to 0.5; in float64 arithmetic the second bin's gap is u/2.
  const u = 2 ** -24;
  const values = [0.1, 0.2, 0.5, 0.5 + u];
  const a = u8([1, 0, 1, 0]);
  const c32 = adaptiveCalibrationError(Float32Array.from(values), a, { bins: 3, scheme: 'interp' });
  close(c32, (Math.fround(0.2) + u) / 4, 1e-15);
  close(c32, Math.fround(0.2) / 4, 2e-8, 'torch value up to its float32 mean');
  // In float64 the edge stays below 0.5 + u, which then sits alone in the last bin.
  const c64 = adaptiveCalibrationError(f64(values), a, { bins: 3, scheme: 'interp' });
  close(c64, (0.2 + 0.5 + 0.5 + u) / 4, 1e-15);
});

test('monotonic sweep matches the naive sweep on nearly separable data where many bins stay monotone', () => {
  const rng = new Random(33);
  for (const n of [37, 100, 257, 600]) {
    for (const swaps of [1, 3, 20]) {
      const c = new Float64Array(n);
      const a = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        c[i] = (i + rng.uniform()) / n;
        a[i] = i >= n / 3 ? 1 : 0;
      }
      for (let s = 0; s < swaps; s++) {
        const i = rng.int(n - 1);
        [a[i], a[i + 1]] = [a[i + 1]!, a[i]!];
      }
      const naive = naiveSweep(
        Array.from({ length: n }, (_, i) => i),
        c,
        a,
      );
      const r = sweepCalibrationError(c, a);
      assert.equal(r.bins, naive.bins, `n=${n} swaps=${swaps}`);
      close(r.value, naive.value, 1e-12);
    }
  }
});
