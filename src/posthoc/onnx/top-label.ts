/**
 * ONNX emission of the top-label reduction (posthoc/composite/top-versus-all.ts `recalibrateTopLabel`): ŷ = ArgMax (first
 * maximum), c = p_ŷ, q = g(c) for a binary map g of the confidence, then q at ŷ and the other classes rescaled,
 * p_k (1 − q) / Σ_{j≠ŷ} p_j (uniform (1 − q)/(C − 1) when that sum is 0). Maps of the confidence ([N, 1] → [N, 1]):
 * the score maps of score-map.ts ('histogram': the first edge ≥ c, 'isotonic': interpolation as
 * `predictIsotonic`, 'platt': σ(a · logit(clip(c)) + b)) and step functions (step-ensemble.ts). Used by
 * top-versus-all and by BBQ / ENIR / near-isotonic with mode=top-label.
 */
import type { CalibratorJSON } from '../calibrator.js';
import type { StepFunction } from '../nonparametric/step-ensemble.js';
import { LOGIT_CLIP } from '../nonparametric/score-map.js';
import { CAST_TO, type OnnxSnippet, type SnippetInput, type SnippetOutput } from './snippet.js';

/** #{thresholds < x} for x [N, 1] and the [K] thresholds → int64 [N, 1]. */
function countBelowColumn(b: OnnxSnippet, x: string, thresholds: number[]): string {
  const below = b.op('Less', [b.constant('thresholds', [1, thresholds.length], thresholds), x]); // [N, K]
  const counts = b.op('MatMul', [b.op('Cast', [below], { to: CAST_TO.double }), b.constant('ones_k', [thresholds.length, 1], new Array(thresholds.length).fill(1))]);
  return b.op('Cast', [counts], { to: CAST_TO.int64 });
}

/** values[first j with upper_j ≥ c] (clipped to the last), as `edgeBin`: [N, 1]. */
export function stepOfColumn(b: OnnxSnippet, c: string, step: StepFunction): string {
  const interior = Array.from(step.upper.subarray(0, step.upper.length - 1));
  if (interior.length === 0) return b.op('Add', [b.op('Mul', [c, b.constant('zero', [], [0])]), b.constant('step_value', [], [step.values[0]!])]);
  return b.op('Gather', [b.constant('step_values', [step.values.length], step.values), countBelowColumn(b, c, interior)], { axis: 0 });
}

/** `predictIsotonic` on [N, 1]. */
export function isotonicOfColumn(b: OnnxSnippet, c: string, x: number[], y: number[]): string {
  if (x.length === 1) return stepOfColumn(b, c, { upper: Float64Array.of(1), values: Float64Array.of(y[0]!) });
  const n = x.length;
  const t = b.op('Min', [b.op('Max', [c, b.constant('x_first', [], [x[0]!])]), b.constant('x_last', [], [x[n - 1]!])]);
  const count = countBelowColumn(b, t, x);
  const i = b.op('Min', [b.op('Max', [count, b.constant('one_i', [], [1], 'int64')]), b.constant('max_index', [], [n - 1], 'int64')]);
  const iPrev = b.op('Sub', [i, b.constant('one_i', [], [1], 'int64')]);
  const xs = b.constant('x_table', [n], x);
  const ys = b.constant('y_table', [n], y);
  const at = (table: string, idx: string) => b.op('Gather', [table, idx], { axis: 0 });
  const xLo = at(xs, iPrev);
  const yLo = at(ys, iPrev);
  const slope = b.op('Div', [b.op('Sub', [at(ys, i), yLo]), b.op('Sub', [at(xs, i), xLo])]);
  return b.op('Add', [b.op('Mul', [slope, b.op('Sub', [t, xLo])]), yLo]);
}

/** σ(a · logit(clip(c)) + b) on [N, 1]. */
export function plattOfColumn(b: OnnxSnippet, c: string, a: number, bias: number): string {
  const clipped = b.op('Min', [b.op('Max', [c, b.constant('clip_lo', [], [LOGIT_CLIP])]), b.constant('clip_hi', [], [1 - LOGIT_CLIP])]);
  const logit = b.op('Log', [b.op('Div', [clipped, b.op('Sub', [b.constant('one', [], [1]), clipped])])]);
  return b.op('Sigmoid', [b.op('Add', [b.op('Mul', [logit, b.constant('platt_a', [], [a])]), b.constant('platt_b', [], [bias])])]);
}

/** The score map of score-map.ts (its JSON form) on [N, 1]. */
export function scoreMapOfColumn(b: OnnxSnippet, c: string, map: Record<string, unknown>): string {
  if (map.kind === 'histogram') return stepOfColumn(b, c, { upper: Float64Array.from(map.edges as number[]), values: Float64Array.from(map.values as number[]) });
  if (map.kind === 'isotonic') return isotonicOfColumn(b, c, map.x as number[], map.y as number[]);
  return plattOfColumn(b, c, map.a as number, map.b as number);
}

/** p [N, C] with the top probability replaced by g(c) and the others rescaled (`recalibrateTopLabel`). */
export function recalibrateTopLabelOnnx(b: OnnxSnippet, p: string, g: (c: string) => string): string {
  const C = b.classes;
  const top = b.op('ArgMax', [p], { axis: 1, keepdims: 1 }); // [N, 1] int64, first maximum
  const isTop = b.op('Equal', [
    top,
    b.constant(
      'class_index',
      [1, C],
      Array.from({ length: C }, (_, k) => k),
      'int64',
    ),
  ]); // [N, C]
  const zero = b.constant('zero', [], [0]);
  const c = b.rowSum(b.op('Where', [isTop, p, zero])); // [N, 1]
  const rest = b.rowSum(b.op('Where', [isTop, zero, p]));
  const q = g(c);
  const oneMinusQ = b.op('Sub', [b.constant('one', [], [1]), q]);
  const positive = b.op('Greater', [rest, zero]);
  const safeRest = b.op('Where', [positive, rest, b.constant('one', [], [1])]);
  const scaled = b.op('Div', [b.op('Mul', [p, oneMinusQ]), safeRest]);
  const uniform = b.op('Div', [oneMinusQ, b.constant('others', [], [C - 1])]);
  const others = b.op('Where', [positive, scaled, uniform]);
  return b.op('Where', [isTop, q, others]);
}

/** Top-versus-all (posthoc/composite/top-versus-all.ts): its one score map on the confidence. */
export function topVersusAllToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const map = json.map as Record<string, unknown>;
  return { probabilities: recalibrateTopLabelOnnx(b, b.probabilitiesOf(input), (c) => scoreMapOfColumn(b, c, map)) };
}

/**
 * Top-label calibration (posthoc/composite/top-label-calibrator.ts): every class's map applied to the confidence, the
 * predicted class's value kept (q = Σ_l 1[ŷ = l] g_l(c)); a class without a map (never predicted) keeps c.
 */
export function topLabelToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const maps = json.maps as (Record<string, unknown> | null)[];
  const p = b.probabilitiesOf(input);
  return {
    probabilities: recalibrateTopLabelOnnx(b, p, (c) => {
      const perClass = maps.map((m) => (m ? scoreMapOfColumn(b, c, m) : c));
      const all = perClass.length === 1 ? perClass[0]! : b.op('Concat', perClass, { axis: 1 }); // [N, C]
      const top = b.op('ArgMax', [p], { axis: 1, keepdims: 1 });
      const isTop = b.op('Equal', [
        top,
        b.constant(
          'class_index',
          [1, b.classes],
          Array.from({ length: b.classes }, (_, k) => k),
          'int64',
        ),
      ]);
      return b.rowSum(b.op('Where', [isTop, all, b.constant('zero', [], [0])]));
    }),
  };
}

/** Column k of p [N, C] as [N, 1] (a MatMul with the unit vector e_k: exact for finite p). */
function columnOf(b: OnnxSnippet, p: string, k: number): string {
  return b.op('MatMul', [
    p,
    b.constant(
      'unit',
      [b.classes, 1],
      Array.from({ length: b.classes }, (_, j) => (j === k ? 1 : 0)),
    ),
  ]);
}

/** Scaling-binning (posthoc/nonparametric/scaling-binning.ts): binned(platt(s)); marginal per class then rows renormalised, or top-label. */
export function scalingBinningToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const maps = json.maps as { platt: Record<string, unknown>; binned: Record<string, unknown> }[];
  const g = (s: string, m: (typeof maps)[number]) => scoreMapOfColumn(b, scoreMapOfColumn(b, s, m.platt), m.binned);
  const p = b.probabilitiesOf(input);
  if ((json.settings as { mode: string }).mode !== 'marginal') return { probabilities: recalibrateTopLabelOnnx(b, p, (c) => g(c, maps[0]!)) };
  const columns = maps.map((m, k) => g(columnOf(b, p, k), m));
  return { probabilities: b.normalizeRows(b.op('Concat', columns, { axis: 1 })) };
}

/**
 * Spline (posthoc/nonparametric/spline.ts `interpolateTable`, clipped to [0, 1]) on the confidence: y_0 at or below x_0, y_last
 * at or above x_last, else (α y_lo + β y_{lo−1}) / (α + β) with lo = #{x < c}, α = c − x_{lo−1}, β = x_lo − c.
 */
export function splineToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const x = json.scores as number[];
  const y = json.values as number[];
  const n = x.length;
  const g = (c: string): string => {
    const lo = b.op('Min', [b.op('Max', [countBelowColumn(b, c, x), b.constant('one_i', [], [1], 'int64')]), b.constant('max_index', [], [Math.max(1, n - 1)], 'int64')]);
    const prev = b.op('Sub', [lo, b.constant('one_i', [], [1], 'int64')]);
    const xs = b.constant('x_table', [n], x);
    const ys = b.constant('y_table', [n], y);
    const at = (table: string, idx: string) => b.op('Gather', [table, idx], { axis: 0 });
    const alpha = b.op('Sub', [c, at(xs, prev)]);
    const beta = b.op('Sub', [at(xs, lo), c]);
    const sum = b.op('Add', [alpha, beta]);
    const zero = b.constant('zero', [], [0]);
    const positive = b.op('Greater', [sum, zero]);
    const inner = b.op('Div', [b.op('Add', [b.op('Mul', [alpha, at(ys, lo)]), b.op('Mul', [beta, at(ys, prev)])]), b.op('Where', [positive, sum, b.constant('one', [], [1])])]);
    const interior = b.op('Where', [positive, inner, at(ys, lo)]);
    const low = b.op('Where', [b.op('Greater', [c, b.constant('x_first', [], [x[0]!])]), interior, b.constant('y_first', [], [y[0]!])]);
    const value = b.op('Where', [b.op('Less', [c, b.constant('x_last', [], [x[n - 1]!])]), low, b.constant('y_last', [], [y[n - 1]!])]);
    return b.op('Min', [b.op('Max', [value, zero]), b.constant('one', [], [1])]);
  };
  return { probabilities: recalibrateTopLabelOnnx(b, b.probabilitiesOf(input), g) };
}

/** Venn–Abers (posthoc/nonparametric/venn-abers.ts `vennAbersPredict`): p0 at #{x ≤ s}, p1 at #{x < s}, p = p1 / (1 − p0 + p1). */
function vennAbersOfColumn(b: OnnxSnippet, s: string, table: { scores: number[]; p0: number[]; p1: number[] }): string {
  const K = table.scores.length;
  const above = b.op('Less', [s, b.constant('thresholds', [1, K], table.scores)]); // [N, K]: x > s
  const countAbove = b.op('MatMul', [b.op('Cast', [above], { to: CAST_TO.double }), b.constant('ones_k', [K, 1], new Array(K).fill(1))]);
  const atMost = b.op('Cast', [b.op('Sub', [b.constant('k', [], [K]), countAbove])], { to: CAST_TO.int64 });
  const p0 = b.op('Gather', [b.constant('p0_table', [table.p0.length], table.p0), atMost], { axis: 0 });
  const p1 = b.op('Gather', [b.constant('p1_table', [table.p1.length], table.p1), countBelowColumn(b, s, table.scores)], { axis: 0 });
  return b.op('Div', [p1, b.op('Add', [b.op('Sub', [b.constant('one', [], [1]), p0]), p1])]);
}

/** Venn–Abers: C = 2 on the class-1 probability, top-label, or one-vs-rest with rows renormalised. */
export function vennAbersToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const tables = json.tables as { scores: number[]; p0: number[]; p1: number[] }[];
  const p = b.probabilitiesOf(input);
  if (b.classes === 2) {
    const q = vennAbersOfColumn(b, columnOf(b, p, 1), tables[0]!);
    return { probabilities: b.op('Concat', [b.op('Sub', [b.constant('one', [], [1]), q]), q], { axis: 1 }) };
  }
  if ((json.settings as { mode: string }).mode === 'top-label') return { probabilities: recalibrateTopLabelOnnx(b, p, (c) => vennAbersOfColumn(b, c, tables[0]!)) };
  return {
    probabilities: b.normalizeRows(
      b.op(
        'Concat',
        tables.map((t, k) => vennAbersOfColumn(b, columnOf(b, p, k), t)),
        { axis: 1 },
      ),
    ),
  };
}
