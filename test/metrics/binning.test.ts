import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assignEqualWidthBins,
  binLowerClosed,
  binUpperClosed,
  countAtMost,
  equalMassBinOfRank,
  equalMassBoundaries,
  equalWidthBin,
  equalWidthEdges,
  interpEqualMassEdges,
  midpointEqualMassEdges,
  upperEdgeBin,
} from '../../src/metrics/binned/binning.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { Random } from '../../src/util/random.js';
import { loadFixture, naiveBin } from './helpers.js';

/** The next float64 above / below x. */
function nextUp(x: number): number {
  const b = new Float64Array([x]);
  const u = new BigInt64Array(b.buffer);
  u[0] = x >= 0 ? u[0]! + 1n : u[0]! - 1n;
  return b[0]!;
}
function nextDown(x: number): number {
  if (x === 0) return -Number.MIN_VALUE;
  const b = new Float64Array([x]);
  const u = new BigInt64Array(b.buffer);
  u[0] = x > 0 ? u[0]! - 1n : u[0]! + 1n;
  return b[0]!;
}

test('equal-width edges are m/M in float64 from 0 to 1', () => {
  assert.deepEqual(Array.from(equalWidthEdges(4)), [0, 0.25, 0.5, 0.75, 1]);
  const e = equalWidthEdges(15);
  assert.equal(e.length, 16);
  for (let m = 0; m <= 15; m++) assert.equal(e[m], m / 15);
});

test('a confidence on an edge goes below it under (l,u] and above it under [l,u)', () => {
  // M = 4, hand-worked: 0.25 closes bin 0 under (l,u] and opens bin 1 under [l,u).
  assert.equal(equalWidthBin(0.25, 4, '(l,u]'), 0);
  assert.equal(equalWidthBin(0.25, 4, '[l,u)'), 1);
  assert.equal(equalWidthBin(0.5, 4, '(l,u]'), 1);
  assert.equal(equalWidthBin(0.5, 4, '[l,u)'), 2);
  assert.equal(equalWidthBin(0.3, 4, '(l,u]'), 1);
  assert.equal(equalWidthBin(0.3, 4, '[l,u)'), 1);
});

test('confidence 0 goes to the first bin and 1 to the last bin in both conventions (no extra bin)', () => {
  for (const m of [1, 2, 10, 15, 100]) {
    for (const conv of ['(l,u]', '[l,u)'] as const) {
      assert.equal(equalWidthBin(0, m, conv), 0);
      assert.equal(equalWidthBin(1, m, conv), m - 1);
      assert.equal(equalWidthBin(1.0005, m, conv), m - 1, 'values above 1 (sum tolerance) stay in the last bin');
    }
  }
});

test('float32 confidences near edges are binned by their exact float64 value', () => {
  // float32(0.2) = 0.20000000298… > 0.2, so it is not on the edge 0.2 of M = 5: bin 1 in both conventions.
  const f02 = Math.fround(0.2);
  assert.ok(f02 > 0.2);
  assert.equal(equalWidthBin(f02, 5, '(l,u]'), 1);
  assert.equal(equalWidthBin(f02, 5, '[l,u)'), 1);
  // float32(0.7) = 0.69999998807… < 0.7: bin 6 of M = 10 in both conventions.
  const f07 = Math.fround(0.7);
  assert.ok(f07 < 0.7);
  assert.equal(equalWidthBin(f07, 10, '(l,u]'), 6);
  assert.equal(equalWidthBin(f07, 10, '[l,u)'), 6);
  // float32(0.5) is exactly 0.5: the conventions differ.
  assert.equal(equalWidthBin(Math.fround(0.5), 10, '(l,u]'), 4);
  assert.equal(equalWidthBin(Math.fround(0.5), 10, '[l,u)'), 5);
});

test('bin functions agree with scanning the edges for values on, just above and just below every edge', () => {
  for (const m of [1, 2, 3, 5, 7, 10, 13, 15, 20, 30, 100, 1000, 999_983]) {
    const edges = equalWidthEdges(m);
    const probes: number[] = [0, 1, 1e-300, 5e-324, 0.9999999999999999, 1.0000001];
    const step = Math.max(1, Math.floor(m / 50));
    for (let b = 0; b <= m; b += b < 3 || b > m - 3 ? 1 : step) {
      const e = b / m;
      probes.push(e, nextUp(e), nextDown(e), Math.fround(e), nextUp(Math.fround(e)), nextDown(Math.fround(e)));
      probes.push(e + 0.5 / m, e + 1e-9 / m, e - 1e-9 / m);
    }
    for (const c of probes) {
      if (c < 0) continue;
      assert.equal(binUpperClosed(c, m, edges), naiveBin(c, m, '(l,u]'), `(l,u] M=${m} c=${c}`);
      assert.equal(binLowerClosed(c, m, edges), naiveBin(c, m, '[l,u)'), `[l,u) M=${m} c=${c}`);
    }
  }
});

test('bin functions agree with scanning the edges on random confidences (float64 and float32)', () => {
  const rng = new Random(3);
  for (const m of [4, 15, 37]) {
    const conf = new Float64Array(20000);
    for (let i = 0; i < conf.length; i++) conf[i] = i % 2 ? rng.uniform() : Math.fround(rng.int(m + 1) / m);
    for (const conv of ['(l,u]', '[l,u)'] as const) {
      const bins = assignEqualWidthBins(conf, m, conv);
      for (let i = 0; i < conf.length; i++) assert.equal(bins[i], naiveBin(conf[i]!, m, conv));
    }
  }
});

test('bins must be an integer in [1, 1e6] and the convention one of the two', () => {
  assert.throws(() => equalWidthEdges(0), InvalidArgumentError);
  assert.throws(() => equalWidthEdges(2.5), /bins: expected an integer/);
  assert.throws(() => equalWidthEdges(2_000_000), /bins: expected an integer ≤ 1000000/);
  assert.throws(() => assignEqualWidthBins(new Float64Array([0.5]), 10, '[l,u]' as never), /convention: expected '\(l,u\]' or '\[l,u\)'/);
});

test('equal-mass ranks split N samples into bins of floor or ceil N/M, consistent with the boundaries', () => {
  for (const [n, m] of [
    [10, 3],
    [15, 15],
    [7, 10],
    [1000, 15],
    [999, 7],
    [1, 1],
    [3, 5],
  ] as const) {
    const start = equalMassBoundaries(n, m);
    assert.equal(start[0], 0);
    assert.equal(start[m], n);
    for (let b = 0; b < m; b++) {
      const size = start[b + 1]! - start[b]!;
      assert.ok(size >= 0 && size <= Math.ceil(n / m), `size ${size}`);
      if (n >= m) assert.ok(size >= Math.floor(n / m));
      for (let r = start[b]!; r < start[b + 1]!; r++) assert.equal(equalMassBinOfRank(r, n, m), b);
    }
  }
  // Hand-worked: N = 10, M = 3 → ⌊r·3/10⌋ = 0,0,0,0,1,1,1,2,2,2.
  assert.deepEqual(Array.from(equalMassBoundaries(10, 3)), [0, 4, 7, 10]);
});

test('interp edges reproduce np.interp(linspace(0, N, M+1), arange(N), sorted)', () => {
  // Hand-worked: sorted [0.1, 0.2, 0.3, 0.4], M = 2: x = [0, 2, 4] → [0.1, 0.3, 0.4 (clamped max)].
  assert.deepEqual(Array.from(interpEqualMassEdges(Float64Array.from([0.1, 0.2, 0.3, 0.4]), 2)), [0.1, 0.3, 0.4]);
  // M = 3: x = 4/3 lies a third of the way from 0.2 to 0.3.
  const e = interpEqualMassEdges(Float64Array.from([0.1, 0.2, 0.3, 0.4]), 3);
  assert.ok(Math.abs(e[1]! - (0.2 + 0.1 / 3)) < 1e-15);
  assert.ok(Math.abs(e[2]! - (0.3 + 0.2 / 3)) < 1e-15);
  for (const c of loadFixture().interp_edges) {
    const got = interpEqualMassEdges(Float64Array.from(c.sorted), c.bins);
    assert.deepEqual(Array.from(got), c.expected, `N=${c.sorted.length} M=${c.bins}`);
  }
});

test("midpoint edges reproduce uncertainty-calibration's get_equal_bins (array_split groups, deduplicated)", () => {
  // Hand-worked: [0.1 … 0.5], M = 2 → groups [0.1, 0.2, 0.3], [0.4, 0.5] → edges [0.35, 1].
  assert.deepEqual(Array.from(midpointEqualMassEdges(Float64Array.from([0.1, 0.2, 0.3, 0.4, 0.5]), 2)), [0.35, 1]);
  for (const c of loadFixture().midpoint_edges) {
    assert.deepEqual(Array.from(midpointEqualMassEdges(Float64Array.from(c.sorted), c.bins)), c.expected, `N=${c.sorted.length}`);
  }
});

test('upper-edge bins follow np.searchsorted(edges, c) and sorted counts are exact', () => {
  const edges = Float64Array.from([0.35, 0.6, 1]);
  assert.equal(upperEdgeBin(0, edges), 0);
  assert.equal(upperEdgeBin(0.35, edges), 0);
  assert.equal(upperEdgeBin(nextUp(0.35), edges), 1);
  assert.equal(upperEdgeBin(1, edges), 2);
  assert.equal(upperEdgeBin(1.0005, edges), 2);
  const sorted = Float64Array.from([0.1, 0.2, 0.2, 0.3]);
  assert.equal(countAtMost(sorted, 0.2), 3);
  assert.equal(countAtMost(sorted, 0.05), 0);
  assert.equal(countAtMost(sorted, 0.3), 4);
});
