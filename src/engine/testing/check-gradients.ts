import { InvalidArgumentError } from '../../util/errors.js';
import { Random } from '../../util/random.js';
import { grad } from '../autodiff/grad.js';
import { type DType, isFloat } from '../ir/dtype.js';
import type { Shape } from '../ir/shape.js';
import { formatShape, shapeSize } from '../ir/shape.js';
import type { Tensor } from '../ir/tensor.js';
import { add } from '../ops/math/add.js';
import { constant } from '../ops/constant.js';
import { mul } from '../ops/math/mul.js';
import { sum } from '../ops/reduce/sum.js';
import { evaluate } from '../reference/evaluate.js';
import { namedOutputs, type TraceResult, trace } from '../trace.js';

/** A concrete input of a gradient check. */
export interface CheckInput {
  readonly shape: Shape;
  /** Values (float64 precision is used throughout). */
  readonly data: ArrayLike<number>;
  /** Declared dtype (default float64; integer inputs such as labels are held fixed). */
  readonly dtype?: DType;
}

/** Options of `checkGradients`. */
export interface GradCheckOptions {
  /** Inputs to differentiate with respect to (default: every float input). */
  readonly wrt?: readonly string[];
  /** Seed of the random tangents and cotangents (default 0). */
  readonly seed?: number;
  /** Number of random directions (default 2). */
  readonly directions?: number;
  /** Central-difference step (default 1e-6: float64 evaluation). */
  readonly eps?: number;
  /** Relative tolerance (default 1e-6). */
  readonly rtol?: number;
  /** Absolute tolerance (default 1e-8). */
  readonly atol?: number;
}

/** One direction of a gradient check. */
export interface GradCheckDirection {
  /** ⟨∇L, v⟩ from the traced gradient graph, evaluated in float64. */
  readonly analytic: number;
  /** (L(x + εv) − L(x − εv)) / 2ε. */
  readonly numeric: number;
  /** |analytic − numeric|. */
  readonly error: number;
  readonly ok: boolean;
}

/** Result of `checkGradients`. */
export interface GradCheckReport {
  readonly ok: boolean;
  readonly directions: readonly GradCheckDirection[];
  /** Gradients of L = Σ_o ⟨u_o, output_o⟩ per checked input, float64. */
  readonly gradients: Readonly<Record<string, Float64Array>>;
}

/**
 * Check reverse-mode gradients of `fn` by central finite differences (JAX `check_vjp` style), entirely in
 * float64 with the reference evaluator (so convolutions are covered too). The scalar objective is
 * L(x) = Σ_o ⟨u_o, fn(x)_o⟩ over the float outputs with random cotangents u_o; for random tangents v it
 * compares ⟨∇L(x), v⟩ (from `grad`) with (L(x + εv) − L(x − εv)) / 2ε, passing when
 * |analytic − numeric| ≤ atol + rtol · max(|analytic|, |numeric|). Choose inputs away from kinks (ReLU at 0,
 * ties in max) and inside each op's domain (log of positives, …).
 */
export function checkGradients(fn: (inputs: Readonly<Record<string, Tensor>>) => TraceResult, inputs: Readonly<Record<string, CheckInput>>, options: GradCheckOptions = {}): GradCheckReport {
  const rng = new Random(options.seed ?? 0);
  const eps = options.eps ?? 1e-6;
  const rtol = options.rtol ?? 1e-6;
  const atol = options.atol ?? 1e-8;
  const specs: Record<string, { dtype: DType; shape: Shape }> = {};
  const feeds: Record<string, Float64Array> = {};
  for (const [name, input] of Object.entries(inputs)) {
    const dtype = input.dtype ?? 'float64';
    specs[name] = { dtype, shape: input.shape };
    feeds[name] = Float64Array.from(input.data);
    if (feeds[name]!.length !== shapeSize(input.shape)) {
      throw new InvalidArgumentError(`inputs.${name}.data`, `${shapeSize(input.shape)} values for ${formatShape(input.shape)}`, String(feeds[name]!.length));
    }
  }
  const wrt = options.wrt ?? Object.keys(inputs).filter((n) => isFloat(specs[n]!.dtype));
  for (const n of wrt) {
    if (!specs[n] || !isFloat(specs[n]!.dtype)) throw new InvalidArgumentError('options.wrt', 'names of float inputs', JSON.stringify(n));
  }

  // Random cotangents are fixed constants of the objective, drawn once the output shapes are known.
  let cotangents: Float64Array[] | null = null;
  const objective = (x: Readonly<Record<string, Tensor>>): Tensor => {
    const outs = namedOutputs(fn(x)).filter((o) => isFloat(o.tensor.dtype));
    if (outs.length === 0) throw new InvalidArgumentError('fn', 'at least one float output', 'none');
    cotangents ??= outs.map((o) => Float64Array.from({ length: o.tensor.size }, () => rng.normal()));
    let total: Tensor | null = null;
    outs.forEach((o, i) => {
      const u = constant(cotangents![i]!, { shape: o.tensor.shape, dtype: o.tensor.dtype });
      const term = sum(mul(o.tensor, u));
      total = total ? add(total, term) : term;
    });
    return total!;
  };
  const gradGraph = trace(
    (x) => {
      const loss = objective(x);
      const gs = grad(
        loss,
        wrt.map((n) => x[n]!),
      );
      return Object.fromEntries([['loss', loss], ...wrt.map((n, i) => [`grad:${n}`, gs[i]!])]);
    },
    specs,
    { name: 'gradcheck' },
  );
  const lossGraph = trace((x) => objective(x), specs, { name: 'objective' });

  const evaluated = evaluate(gradGraph, feeds);
  const gradients = Object.fromEntries(wrt.map((n) => [n, evaluated[`grad:${n}`]!.data]));
  const L = (f: Record<string, Float64Array>): number => evaluate(lossGraph, f)['output']!.data[0]!;

  const directions: GradCheckDirection[] = [];
  for (let d = 0; d < (options.directions ?? 2); d++) {
    const v = Object.fromEntries(wrt.map((n) => [n, Float64Array.from({ length: feeds[n]!.length }, () => rng.normal())]));
    let analytic = 0;
    for (const n of wrt) gradients[n]!.forEach((g, i) => (analytic += g * v[n]![i]!));
    const shifted = (sign: number): Record<string, Float64Array> => {
      const f = { ...feeds };
      for (const n of wrt) f[n] = feeds[n]!.map((x, i) => x + sign * eps * v[n]![i]!);
      return f;
    };
    const numeric = (L(shifted(1)) - L(shifted(-1))) / (2 * eps);
    const error = Math.abs(analytic - numeric);
    const ok = error <= atol + rtol * Math.max(Math.abs(analytic), Math.abs(numeric)) && Number.isFinite(analytic);
    directions.push({ analytic, numeric, error, ok });
  }
  return { ok: directions.every((d) => d.ok), directions, gradients };
}

/** `checkGradients`, throwing an Error that lists every direction when the check fails (for tests). */
export function assertGradients(fn: (inputs: Readonly<Record<string, Tensor>>) => TraceResult, inputs: Readonly<Record<string, CheckInput>>, options: GradCheckOptions = {}): GradCheckReport {
  const report = checkGradients(fn, inputs, options);
  if (!report.ok) {
    const lines = report.directions.map((d, i) => `  direction ${i}: analytic ${d.analytic}, numeric ${d.numeric}, error ${d.error.toExponential(2)}${d.ok ? '' : '  ✗'}`);
    throw new Error(`gradient check failed:\n${lines.join('\n')}`);
  }
  return report;
}
