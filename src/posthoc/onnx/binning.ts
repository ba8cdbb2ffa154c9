/**
 * ONNX emission of the one-vs-rest probability maps: histogram binning (posthoc/nonparametric/histogram.ts) and isotonic
 * regression as piecewise-linear interpolation (posthoc/nonparametric/isotonic.ts, isotonic-regression.ts), each followed by
 * the row renormalisation.
 *
 * Histogram: the bin of p under the (l, u] convention is the number of interior edges m/M (m = 1 … M−1) strictly
 * below p — exactly metrics/binned/binning.ts' `binUpperClosed` (p ≤ 1/M → bin 0) — then θ[k·M + bin] by Gather.
 * Isotonic: per class k, t = min(max(p, x₀), x_last); i = #{x_j < t} (searchsorted 'left') clamped to
 * [1, n_k − 1]; y = (y_i − y_{i−1}) / (x_i − x_{i−1}) · (t − x_{i−1}) + y_{i−1}, the same arithmetic as
 * `predictIsotonic`. Classes with fewer points are padded with their last point (never < t, so i is unchanged);
 * a class with one point becomes two points with the same y (a constant, as `predictIsotonic`).
 */
import type { CalibratorJSON } from '../calibrator.js';
import { CAST_TO, type OnnxSnippet, type SnippetInput, type SnippetOutput } from './snippet.js';

/** [N, C] → [N, C, 1] (Reshape with 0 = keep that dimension). */
function withTrailingAxis(b: OnnxSnippet, x: string): string {
  return b.op('Reshape', [x, b.constant('shape_nc1', [3], [0, 0, 1], 'int64')]);
}

/** Count of `thresholds` ([1 or C, K] float64) strictly below x ([N, C]) → int64 [N, C]. */
export function countBelow(b: OnnxSnippet, x: string, thresholds: string): string {
  const below = b.op('Less', [thresholds, withTrailingAxis(b, x)]); // [N, C, K] bool
  const asDouble = b.op('Cast', [below], { to: CAST_TO.double });
  const K = thresholdCount(b, thresholds);
  const counts = b.op('MatMul', [asDouble, b.constant('ones_k', [K, 1], new Array(K).fill(1))]); // [N, C, 1]
  const flat = b.op('Reshape', [counts, b.constant('shape_nc', [2], [0, 0], 'int64')]);
  return b.op('Cast', [flat], { to: CAST_TO.int64 });
}

function thresholdCount(b: OnnxSnippet, name: string): number {
  const c = b.constants.find((k) => k.name === name)!;
  return c.dims[c.dims.length - 1]!;
}

/** Gather table[k · width + index[n, k]] → [N, C]. */
export function gatherPerClass(b: OnnxSnippet, table: string, width: number, index: string): string {
  const offsets = b.constant(
    'class_offsets',
    [b.classes],
    Array.from({ length: b.classes }, (_, k) => k * width),
    'int64',
  );
  return b.op('Gather', [table, b.op('Add', [index, offsets])], { axis: 0 });
}

/** θ_k,bin(p_k), rows renormalised. */
export function histogramToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const M = (json.settings as { bins: number }).bins;
  const values = (json.values as number[][]).flat();
  const p = b.probabilitiesOf(input);
  let bin: string;
  if (M === 1) {
    bin = b.op('Cast', [b.op('Mul', [p, b.constant('zero', [], [0])])], { to: CAST_TO.int64 });
  } else {
    const edges = Array.from({ length: M - 1 }, (_, m) => (m + 1) / M);
    bin = countBelow(b, p, b.constant('edges', [1, M - 1], edges));
  }
  const mapped = gatherPerClass(b, b.constant('bin_values', [values.length], values), M, bin);
  return { probabilities: b.normalizeRows(mapped) };
}

/** Per-class isotonic interpolation, rows renormalised. */
export function isotonicToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const C = b.classes;
  const fits = (json.thresholds as { x: number[]; y: number[] }[]).map(({ x, y }) => (x.length === 1 ? { x: [x[0]!, x[0]! + 1], y: [y[0]!, y[0]!] } : { x, y }));
  const L = Math.max(...fits.map((f) => f.x.length));
  const xs: number[] = [];
  const ys: number[] = [];
  for (const { x, y } of fits) {
    for (let j = 0; j < L; j++) {
      xs.push(x[Math.min(j, x.length - 1)]!);
      ys.push(y[Math.min(j, y.length - 1)]!);
    }
  }
  const p = b.probabilitiesOf(input);
  const lo = b.constant(
    'x_first',
    [C],
    fits.map((f) => f.x[0]!),
  );
  const hi = b.constant(
    'x_last',
    [C],
    fits.map((f) => f.x[f.x.length - 1]!),
  );
  const t = b.op('Min', [b.op('Max', [p, lo]), hi]);
  const count = countBelow(b, t, b.constant('x_points', [C, L], xs));
  const maxIndex = b.constant(
    'max_index',
    [C],
    fits.map((f) => f.x.length - 1),
    'int64',
  );
  const i = b.op('Min', [b.op('Max', [count, b.constant('one_i', [], [1], 'int64')]), maxIndex]);
  const iPrev = b.op('Sub', [i, b.constant('one_i', [], [1], 'int64')]);
  const xTable = b.constant('x_table', [C * L], xs);
  const yTable = b.constant('y_table', [C * L], ys);
  const xLo = gatherPerClass(b, xTable, L, iPrev);
  const xHi = gatherPerClass(b, xTable, L, i);
  const yLo = gatherPerClass(b, yTable, L, iPrev);
  const yHi = gatherPerClass(b, yTable, L, i);
  const slope = b.op('Div', [b.op('Sub', [yHi, yLo]), b.op('Sub', [xHi, xLo])]);
  const y = b.op('Add', [b.op('Mul', [slope, b.op('Sub', [t, xLo])]), yLo]);
  return { probabilities: b.normalizeRows(y) };
}
