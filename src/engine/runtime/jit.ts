import { describe, InvalidArgumentError } from '../../util/errors.js';
import type { DType } from '../ir/dtype.js';
import { isDType } from '../ir/dtype.js';
import { formatShape, type Shape } from '../ir/shape.js';
import { type InputSpecs, type Placeholders, type TraceResult, trace } from '../trace.js';
import { type CompileOptions, type Feed, type RunOutputs, Session } from './session.js';

/** An input spec whose dimensions may be −1: resolved from each call's feed length (at most one per input). */
export interface JitSpec {
  readonly dtype: DType;
  readonly shape: readonly number[];
}

/**
 * A function compiled on demand per input-shape signature: the first call with a new batch size traces `fn`
 * with concrete shapes, compiles an ORT session and caches it (ORT is fastest with static shapes; compiling
 * costs 0.1–0.6 s, so keep batch sizes few — e.g. drop or separately compile the last partial batch).
 */
export class CompiledFunction<S extends Readonly<Record<string, JitSpec>>> {
  private readonly cache = new Map<string, Session>();

  constructor(
    private readonly fn: (inputs: Placeholders<S>) => TraceResult,
    readonly specs: S,
    private readonly options: CompileOptions & { name?: string } = {},
  ) {
    for (const [name, spec] of Object.entries(specs)) {
      if (!isDType(spec?.dtype)) throw new InvalidArgumentError(`specs.${name}.dtype`, 'an engine dtype', describe(spec?.dtype));
      const ok = Array.isArray(spec.shape) && spec.shape.every((d) => Number.isInteger(d) && d >= -1) && spec.shape.filter((d) => d === -1).length <= 1;
      if (!ok) throw new InvalidArgumentError(`specs.${name}.shape`, 'non-negative integers with at most one −1', JSON.stringify(spec.shape));
    }
  }

  /** Concrete shapes for these feeds (−1 dimensions resolved from the feed lengths). */
  shapesFor(feeds: Readonly<Record<string, Feed>>): Record<string, Shape> {
    const shapes: Record<string, Shape> = {};
    for (const [name, spec] of Object.entries(this.specs)) {
      const feed = feeds[name];
      if (feed === undefined) throw new InvalidArgumentError(`feeds.${name}`, `a ${spec.dtype}${formatShape(spec.shape)} feed`, 'nothing');
      const length = typeof feed === 'number' ? 1 : feed.length;
      const known = spec.shape.reduce((acc, d) => (d === -1 ? acc : acc * d), 1);
      if (spec.shape.includes(-1)) {
        if (known === 0 || length % known !== 0) {
          throw new InvalidArgumentError(`feeds.${name}`, `a multiple of ${known} values for ${formatShape(spec.shape)}`, String(length));
        }
        shapes[name] = spec.shape.map((d) => (d === -1 ? length / known : d));
      } else shapes[name] = [...spec.shape];
    }
    return shapes;
  }

  /** The session for concrete input shapes (traced and compiled on first use). */
  session(shapes: Readonly<Record<string, Shape>>): Session {
    const key = Object.keys(this.specs)
      .map((n) => formatShape(shapes[n] ?? []))
      .join(';');
    let s = this.cache.get(key);
    if (!s) {
      const concrete: Record<string, { dtype: DType; shape: Shape }> = {};
      for (const [name, spec] of Object.entries(this.specs)) concrete[name] = { dtype: spec.dtype, shape: shapes[name]! };
      const graph = trace(this.fn as (inputs: Placeholders<InputSpecs>) => TraceResult, concrete, { name: this.options.name ?? (this.fn.name || 'main') });
      s = new Session(graph, this.options);
      this.cache.set(key, s);
    }
    return s;
  }

  /** Run on `feeds`, compiling first if their shapes are new. */
  run(feeds: Readonly<Record<string, Feed>>): RunOutputs {
    return this.session(this.shapesFor(feeds)).run(feeds);
  }

  /** `run` after yielding to the event loop. */
  runAsync(feeds: Readonly<Record<string, Feed>>): Promise<RunOutputs> {
    return this.session(this.shapesFor(feeds)).runAsync(feeds);
  }

  /** Number of compiled sessions. */
  get compiledCount(): number {
    return this.cache.size;
  }

  /** Release every compiled session. */
  dispose(): void {
    for (const s of this.cache.values()) s.dispose();
    this.cache.clear();
  }
}

/** Compile `fn` lazily per input-shape signature; −1 in a spec's shape marks a dimension taken from the feed. */
export function jit<S extends Readonly<Record<string, JitSpec>>>(fn: (inputs: Placeholders<S>) => TraceResult, specs: S, options: CompileOptions & { name?: string } = {}): CompiledFunction<S> {
  return new CompiledFunction(fn, specs, options);
}
