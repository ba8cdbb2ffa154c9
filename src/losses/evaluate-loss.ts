import { compile, evaluate, grad, trace, type Graph, type Tensor } from '../engine/index.js';
import { describe, invalidArgument, requireNumber } from '../util/errors.js';
import { reducePerExample } from './define-loss.js';
import { LossInput } from './loss-input.js';
import { calibrationObjective } from './objective.js';
import { lossDefinition } from './registry.js';
import type { LossTargets } from './types.js';

/** A host array with its shape (row-major). */
export interface HostArray<T extends ArrayLike<number> = ArrayLike<number>> {
  readonly data: T;
  readonly shape: readonly number[];
}

/** Host inputs of `evaluateLoss`. */
export interface HostLossInputs {
  /** Logits [N, C] or [N, C, d1, …]. */
  readonly logits: HostArray;
  /** Integer labels [N] or [N, d1, …] (may hold `ignoreIndex`). */
  readonly labels?: HostArray;
  /** Soft targets, the logits' shape, rows summing to 1. */
  readonly soft?: HostArray;
  /** CRL: correctness counts [N], epochs ≥ 1, optional global minimum count. */
  readonly history?: { readonly counts: ArrayLike<number>; readonly epochs: number; readonly min?: number };
}

/** What to compute. */
export interface HostLossSpec {
  /** The loss (or term) by registry name, with its options. */
  readonly name: string;
  readonly options?: Readonly<Record<string, unknown>>;
  /** For a term: primary + weight·term with this primary loss. */
  readonly primary?: { readonly name: string; readonly options?: Readonly<Record<string, unknown>> };
  /** β of primary + β·term (default 1). */
  readonly weight?: number;
  /** Positions with this label are left out. */
  readonly ignoreIndex?: number;
  /** Computation dtype (default float32). */
  readonly dtype?: 'float32' | 'float64';
  /** Also return d loss / d logits. */
  readonly gradient?: boolean;
  /**
   * Also return a per-sample quantity of a per-example loss (no `primary`), from its declared rows
   * (`PerExampleRows`): 'loss' (ℓ_i, whose mean is the loss), 'regulariser' (R_i of a method CE + R, e.g. ACLS α·reg)
   * or the name of one of its terms (unweighted, e.g. ACLS 'reg', 'positive'); 0 at ignored positions.
   */
  readonly perSample?: string;
  /**
   * How errors name the inputs (e.g. the CLI's `--logits`); default the field names. `perSample` names the request
   * for per-sample values (refused for batch-level losses), `perSampleOf` the quantity asked for (default: as
   * `perSample`; the CLI's `--per-sample` and `--per-sample-of`).
   */
  readonly argumentNames?: Partial<Record<'logits' | 'labels' | 'soft' | 'history' | 'perSample' | 'perSampleOf', string>>;
}

/** Result of `evaluateLoss`. */
export interface HostLossResult {
  readonly loss: number;
  readonly terms: Readonly<Record<string, number>>;
  /** d loss / d logits, float64, the logits' shape (row-major). */
  readonly gradient?: Float64Array;
  /** The `perSample` quantity, float64, one value per row: shape [N] (or [N, d1, …] for dense logits), row-major. */
  readonly perSample?: Float64Array;
  /** Where it ran: ONNX Runtime, or the float64 reference evaluator when ORT cannot run the graph. */
  readonly backend: 'onnxruntime' | 'reference';
}

/**
 * Compute a loss (optionally primary + β·term, and its gradient) on host arrays, as one batch: traced, compiled and
 * run on ONNX Runtime in `dtype` (falling back to the float64 reference evaluator if ORT rejects the graph). Inputs
 * are validated first (finite logits; labels integral in [0, C) or equal to the ignore index; soft targets ≥ 0 with
 * rows summing to 1 within 1e−3), with errors naming `logits`, `labels`, `soft` or `history`. Used by `calib loss`.
 */
export function evaluateLoss(inputs: HostLossInputs, spec: HostLossSpec): HostLossResult {
  const def = lossDefinition(spec.name, 'name');
  const dtype = spec.dtype ?? 'float32';
  if (dtype !== 'float32' && dtype !== 'float64') invalidArgument('dtype', "'float32' or 'float64'", describe(dtype));
  const ignoreIndex = spec.ignoreIndex === undefined ? undefined : requireNumber('ignoreIndex', spec.ignoreIndex, { integer: true });
  const names = { logits: 'logits', labels: 'labels', soft: 'soft', history: 'history', perSample: 'perSample', ...spec.argumentNames };
  const perSampleOf = spec.argumentNames?.perSampleOf ?? names.perSample;
  const { logits } = inputs;
  checkShape(names.logits, logits);
  if (logits.shape.length < 2 || logits.shape[1]! < 2) invalidArgument(names.logits, 'shape [N, C] or [N, C, d1, …] with C ≥ 2', `[${logits.shape.join(', ')}]`);
  for (let i = 0; i < logits.data.length; i++) if (!Number.isFinite(logits.data[i]!)) invalidArgument(names.logits, 'finite values', `${logits.data[i]} at index ${i}`);
  const classes = logits.shape[1]!;
  const labelShape = [logits.shape[0]!, ...logits.shape.slice(2)];
  if (inputs.labels) checkLabels(names.labels, inputs.labels, labelShape, classes, ignoreIndex);
  if (inputs.soft) checkSoft(names.soft, inputs.soft, logits.shape);
  if (!inputs.labels && !inputs.soft) invalidArgument(names.labels, 'integer labels or soft targets', 'neither');
  if (def.name === 'crl') {
    const h = inputs.history;
    if (!h) invalidArgument(names.history, 'correctness counts for crl', 'none');
    if (h.counts.length !== logits.shape[0]) invalidArgument(names.history, `${logits.shape[0]} counts (one per sample)`, `${h.counts.length}`);
    requireNumber('epochs', h.epochs, { min: 1 });
  }
  const options = { ...spec.options, ...(ignoreIndex === undefined ? {} : { ignoreIndex }) };
  let objective: (z: Tensor, t: LossTargets) => { loss: Tensor; terms: Readonly<Record<string, Tensor>>; perSample?: Tensor };
  const quantity = spec.perSample;
  if (quantity !== undefined) {
    if (spec.primary) invalidArgument(names.perSample, 'a loss evaluated alone (per-sample values of primary + β·term are not defined per row)', describe(quantity));
    const perExample = def.perExample;
    if (!perExample)
      invalidArgument(names.perSample, `a per-example loss (${def.name} is batch-level: its value couples the samples, so it has no per-sample values)`, `the loss ${describe(def.name)}`);
    const resolved = def.resolve(options);
    objective = (z, t) => {
      const input = LossInput.prepare(def.name, z, t, def.targets, resolved.ignoreIndex);
      const rows = perExample(input, resolved);
      const r = reducePerExample(input, rows);
      const q = quantity === 'loss' ? r.perExample : quantity === 'regulariser' ? rows.regulariser : Object.hasOwn(rows.terms, quantity) ? rows.terms[quantity] : undefined;
      if (!q) invalidArgument(perSampleOf, `'loss'${rows.regulariser ? ", 'regulariser'" : ''} or a term of ${def.name} (${Object.keys(rows.terms).join(', ')})`, describe(quantity));
      return { ...r, perSample: input.masked(q) };
    };
  } else if (spec.primary) {
    if (def.role !== 'term') invalidArgument('primary', `to be used with a calibration term (${spec.name} is a ${def.role} loss: it is computed whole)`, describe(spec.primary.name));
    const combined = calibrationObjective({
      primary: { name: spec.primary.name, ...(spec.primary.options ? { options: spec.primary.options } : {}) },
      secondary: { name: spec.name, options: spec.options ?? {}, ...(spec.weight !== undefined ? { weight: spec.weight } : {}) },
      ...(ignoreIndex === undefined ? {} : { ignoreIndex }),
    });
    objective = (z, t) => combined(z, t);
  } else {
    if (spec.weight !== undefined) invalidArgument('weight', 'a primary loss to weigh the term against (primary + weight·term)', 'no primary');
    def.resolve(options); // fail before tracing
    objective = (z, t) => def.apply(z, t, options as never);
  }

  const specs: Record<string, { dtype: 'float32' | 'float64' | 'int32'; shape: number[] }> = { logits: { dtype, shape: [...logits.shape] } };
  if (inputs.labels) specs['labels'] = { dtype: 'int32', shape: labelShape };
  if (inputs.soft) specs['soft'] = { dtype, shape: [...logits.shape] };
  if (inputs.history) specs['counts'] = { dtype, shape: [logits.shape[0]!] };
  const graph = trace(
    (x: Record<string, Tensor>) => {
      const targets: LossTargets = {
        ...(x['labels'] ? { labels: x['labels'] } : {}),
        ...(x['soft'] ? { soft: x['soft'] } : {}),
        ...(x['counts'] ? { history: { counts: x['counts'], epochs: inputs.history!.epochs, ...(inputs.history!.min !== undefined ? { min: inputs.history!.min } : {}) } } : {}),
      };
      const r = objective(x['logits']!, targets);
      const out: Record<string, Tensor> = { loss: r.loss };
      for (const [k, v] of Object.entries(r.terms)) out[`term:${k}`] = v;
      if (spec.gradient) out['gradient'] = grad(r.loss, [x['logits']!])[0]!;
      if (r.perSample) out['perSample'] = r.perSample;
      return out;
    },
    specs,
    { name: `loss_${def.name.replace(/-/g, '_')}` },
  );

  const Float = dtype === 'float32' ? Float32Array : Float64Array;
  const feeds: Record<string, Float32Array | Float64Array | Int32Array> = { logits: Float.from(logits.data) };
  if (inputs.labels) feeds['labels'] = Int32Array.from(inputs.labels.data);
  if (inputs.soft) feeds['soft'] = Float.from(inputs.soft.data);
  if (inputs.history) feeds['counts'] = Float.from(inputs.history.counts);
  const { outputs, backend } = run(graph, feeds);
  const terms: Record<string, number> = {};
  for (const [k, v] of Object.entries(outputs)) if (k.startsWith('term:')) terms[k.slice(5)] = v[0]!;
  return {
    loss: outputs['loss']![0]!,
    terms,
    ...(spec.gradient ? { gradient: Float64Array.from(outputs['gradient']!) } : {}),
    ...(quantity !== undefined ? { perSample: Float64Array.from(outputs['perSample']!) } : {}),
    backend,
  };
}

function run(graph: Graph, feeds: Record<string, Float32Array | Float64Array | Int32Array>): { outputs: Record<string, ArrayLike<number>>; backend: 'onnxruntime' | 'reference' } {
  let session;
  try {
    session = compile(graph);
  } catch {
    const ref = evaluate(graph, feeds);
    return { outputs: Object.fromEntries(Object.entries(ref).map(([k, v]) => [k, v.data])), backend: 'reference' };
  }
  try {
    return { outputs: session.run(feeds) as Record<string, ArrayLike<number>>, backend: 'onnxruntime' };
  } finally {
    session.dispose();
  }
}

function checkShape(name: string, a: HostArray): void {
  const size = a.shape.reduce((x, y) => x * y, 1);
  if (!a.shape.every((d) => Number.isInteger(d) && d >= 1) || size !== a.data.length) {
    invalidArgument(name, `${size} values for shape [${a.shape.join(', ')}] (every dimension ≥ 1)`, `${a.data.length} values`);
  }
}

function checkLabels(name: string, labels: HostArray, shape: readonly number[], classes: number, ignoreIndex: number | undefined): void {
  if (labels.shape.length !== shape.length || labels.shape.some((d, i) => d !== shape[i])) {
    invalidArgument(name, `shape [${shape.join(', ')}] to match the logits`, `[${labels.shape.join(', ')}]`);
  }
  for (let i = 0; i < labels.data.length; i++) {
    const y = labels.data[i]!;
    if (y === ignoreIndex) continue;
    if (!Number.isInteger(y) || y < 0 || y >= classes) {
      invalidArgument(name, `integers in [0, ${classes})${ignoreIndex === undefined ? '' : ` or the ignore index ${ignoreIndex}`}`, `${y} at index ${i}`);
    }
  }
}

function checkSoft(name: string, soft: HostArray, shape: readonly number[]): void {
  if (soft.shape.length !== shape.length || soft.shape.some((d, i) => d !== shape[i])) {
    invalidArgument(name, `the logits' shape [${shape.join(', ')}]`, `[${soft.shape.join(', ')}]`);
  }
  const c = shape[1]!;
  const inner = shape.slice(2).reduce((a, b) => a * b, 1);
  for (let n = 0; n < shape[0]!; n++) {
    for (let s = 0; s < inner; s++) {
      let total = 0;
      for (let k = 0; k < c; k++) {
        const v = soft.data[(n * c + k) * inner + s]!;
        if (!(v >= 0 && v <= 1)) invalidArgument(name, 'probabilities in [0, 1]', `${v} in sample ${n}`);
        total += v;
      }
      if (Math.abs(total - 1) > 1e-3) invalidArgument(name, 'target rows summing to 1 (within 1e-3)', `a sum of ${total} in sample ${n}`);
    }
  }
}
