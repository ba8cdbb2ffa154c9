import { requireStateArray, requireStatePair } from './accumulator-state.js';
import { additionError, mergeCompensated } from '../numeric/compensated-sum.js';
import { describe, invalidArgument, requireNumber } from '../../util/errors.js';

/**
 * Streaming state declared once, field by field, with how two states merge (torchmetrics' `add_state(...,
 * dist_reduce_fx=...)`). From the declaration come snapshot/restore (a chunk that fails validation leaves the
 * state unchanged), `merge` (two states as if their chunks had been given to one state in order), `toState` /
 * `fromState` (plain data for worker threads) and the transfer list — nobody spells them out field by field.
 *
 * | merge             | holds                                    | merge of a and b                  | plain data                  |
 * | ----------------- | ---------------------------------------- | --------------------------------- | --------------------------- |
 * | `sum`             | `length` float64 sums (scalar if absent)  | a + b element-wise (exact counts) | number, or Float64Array     |
 * | `compensated-sum` | Neumaier pairs (s, c), value s + c       | (s, c) ⊕ (s', c'), see compensated-sum.ts | [s, c], or `name` + `nameError` arrays |
 * | `max`             | `length` float64 maxima                  | max(a, b) element-wise            | number, or Float64Array     |
 * | `all`             | a boolean                                | a ∧ b                             | boolean                     |
 * | `concat`          | `length` values per sample (default 1), in arrival order | b's samples after a's | typed array (`type`), samples × length |
 *
 * Compensated sums merge to the last bit of one big update in practice (see compensated-sum.ts), sums of
 * integers and concatenations exactly, so merged metrics equal one update's bit for bit (tested).
 */

export type MergeRule = 'sum' | 'compensated-sum' | 'max' | 'all' | 'concat';

/** One state field. */
export interface StateField {
  readonly merge: MergeRule;
  /** sum / compensated-sum / max: number of elements (absent: a scalar); concat: values per sample (default 1). */
  readonly length?: number;
  /** Element type of a concat field (default 'float64'). */
  readonly type?: 'float64' | 'int32' | 'uint8';
  /** Initial value of a `max` field (default −Infinity) or an `all` field (default true). */
  readonly initial?: number | boolean;
}

export type StateSpec = Readonly<Record<string, StateField>>;

type Column = Float64Array | Int32Array | Uint8Array;

const CONSTRUCTORS = { float64: Float64Array, int32: Int32Array, uint8: Uint8Array } as const;

/** A saved state (see `MetricState.snapshot`). */
export interface StateSnapshot {
  readonly arrays: Readonly<Record<string, Float64Array>>;
  readonly flags: Readonly<Record<string, boolean>>;
  readonly used: Readonly<Record<string, number>>;
}

/** The values of the fields of a `StateSpec`, with the operations the spec implies. */
export class MetricState {
  readonly spec: StateSpec;
  private readonly arrays: Record<string, Float64Array> = {};
  private readonly errors: Record<string, Float64Array> = {};
  private readonly flags: Record<string, boolean> = {};
  private readonly columns: Record<string, Column> = {};
  private readonly used: Record<string, number> = {};

  constructor(spec: StateSpec) {
    this.spec = spec;
    for (const [name, field] of Object.entries(spec)) {
      const length = field.length ?? 1;
      requireNumber(`state field ${name}.length`, length, { integer: true, min: 1 });
      if (field.merge === 'concat') {
        this.columns[name] = new CONSTRUCTORS[field.type ?? 'float64'](64 * length);
        this.used[name] = 0;
      } else if (field.merge === 'all') {
        this.flags[name] = field.initial === undefined ? true : Boolean(field.initial);
      } else {
        const values = new Float64Array(length);
        if (field.merge === 'max') values.fill(typeof field.initial === 'number' ? field.initial : -Infinity);
        this.arrays[name] = values;
        if (field.merge === 'compensated-sum') this.errors[name] = new Float64Array(length);
      }
    }
  }

  private field(name: string, merge: MergeRule): StateField {
    const field = this.spec[name];
    if (field === undefined || field.merge !== merge) invalidArgument('name', `a ${merge} field of this state`, describe(name));
    return field;
  }

  /** The sums (s of the pairs, for compensated sums) or maxima of a fixed-length field (live view). */
  values(name: string): Float64Array {
    const values = this.arrays[name];
    if (values === undefined) invalidArgument('name', 'a sum, compensated-sum or max field of this state', describe(name));
    return values;
  }

  /** The rounding errors c of a compensated-sum field (live view). */
  errorsOf(name: string): Float64Array {
    const errors = this.errors[name];
    if (errors === undefined) invalidArgument('name', 'a compensated-sum field of this state', describe(name));
    return errors;
  }

  /** Add x to element `index` of a sum or compensated-sum field (Neumaier, as `CompensatedSum.add`). */
  add(name: string, x: number, index = 0): void {
    const s = this.values(name);
    const errors = this.errors[name];
    const a = s[index]!;
    const t = a + x;
    if (errors !== undefined) errors[index] = errors[index]! + additionError(a, x, t);
    s[index] = t;
  }

  /** Add values[0], …, values[count − 1] in order to element `index` of a sum or compensated-sum field. */
  addAll(name: string, values: ArrayLike<number>, count: number, index = 0): void {
    const s = this.values(name);
    const errors = this.errors[name];
    let a = s[index]!;
    if (errors === undefined) {
      for (let r = 0; r < count; r++) a += values[r]!;
    } else {
      let c = errors[index]!;
      for (let r = 0; r < count; r++) {
        const x = values[r]!;
        const t = a + x;
        c += additionError(a, x, t);
        a = t;
      }
      errors[index] = c;
    }
    s[index] = a;
  }

  /** Raise element `index` of a max field to at least x. */
  max(name: string, x: number, index = 0): void {
    const s = this.values(name);
    if (x > s[index]!) s[index] = x;
  }

  /** Value of a scalar field: s + c for a compensated sum, else the number; the flag of an `all` field as 0/1. */
  scalar(name: string): number {
    if (name in this.flags) return this.flags[name] ? 1 : 0;
    const s = this.values(name)[0]!;
    const errors = this.errors[name];
    return errors === undefined ? s : s + errors[0]!;
  }

  /** Values s + c of a compensated-sum field (copy), or a copy of a sum / max field. */
  valuesOf(name: string): Float64Array {
    const s = this.values(name);
    const errors = this.errors[name];
    if (errors === undefined) return s.slice();
    const out = new Float64Array(s.length);
    for (let j = 0; j < s.length; j++) out[j] = s[j]! + errors[j]!;
    return out;
  }

  /** An `all` field. */
  flag(name: string): boolean {
    this.field(name, 'all');
    return this.flags[name]!;
  }

  /** Clear an `all` field (once false it stays false). */
  clearFlag(name: string): void {
    this.field(name, 'all');
    this.flags[name] = false;
  }

  /** Append `count` samples (count × length values from `source[offset…]`) to a concat field. */
  append(name: string, source: ArrayLike<number>, offset: number, count: number): void {
    const width = this.field(name, 'concat').length ?? 1;
    const used = this.used[name]!;
    const need = used + count * width;
    const column = this.reserveColumn(name, need);
    const values = count * width;
    if (ArrayBuffer.isView(source) && offset === 0 && (source as unknown as Column).length === values) column.set(source as unknown as Column, used);
    else for (let j = 0; j < values; j++) column[used + j] = source[offset + j]!;
    this.used[name] = need;
  }

  /** Append one value (a sample of a width-1 concat field). */
  push(name: string, value: number): void {
    const used = this.used[name]!;
    const column = this.reserveColumn(name, used + 1);
    column[used] = value;
    this.used[name] = used + 1;
  }

  /**
   * The live column of a concat field with room for `samples` samples (capacity doubles; the used samples are kept),
   * for callers that write samples in place and then declare them with `setSamples` (the top-label hot path).
   */
  reserveSamples(name: string, samples: number): Column {
    return this.reserveColumn(name, samples * (this.field(name, 'concat').length ?? 1));
  }

  /** Declare the first `samples` samples of a concat field's column (written in place) as its content. */
  setSamples(name: string, samples: number): void {
    const values = samples * (this.field(name, 'concat').length ?? 1);
    if (values > this.columns[name]!.length) invalidArgument('samples', `at most the reserved ${this.columns[name]!.length} values`, String(values));
    this.used[name] = values;
  }

  /** Make room for `need` values in a concat field (capacity doubles). */
  private reserveColumn(name: string, need: number): Column {
    let column = this.columns[name];
    if (column === undefined) invalidArgument('name', 'a concat field of this state', describe(name));
    if (need > column.length) {
      let capacity = column.length;
      while (capacity < need) capacity *= 2;
      const grown = new (column.constructor as new (n: number) => Column)(capacity);
      grown.set(column.subarray(0, this.used[name]!));
      this.columns[name] = grown;
      column = grown;
    }
    return column;
  }

  /** The samples of a concat field (view of the used part; shape samples × length). */
  column(name: string): Column {
    const column = this.columns[name];
    if (column === undefined) invalidArgument('name', 'a concat field of this state', describe(name));
    return column.subarray(0, this.used[name]!);
  }

  /** Copy of the state for `restore`: fixed fields copied (O(size)), concat fields by their lengths. */
  snapshot(): StateSnapshot {
    const arrays: Record<string, Float64Array> = {};
    for (const [name, values] of Object.entries(this.arrays)) arrays[name] = values.slice();
    for (const [name, errors] of Object.entries(this.errors)) arrays[`${name}Error`] = errors.slice();
    return { arrays, flags: { ...this.flags }, used: { ...this.used } };
  }

  /** Return to a state saved by `snapshot` (samples appended since are dropped). */
  restore(saved: StateSnapshot): void {
    for (const [name, values] of Object.entries(this.arrays)) values.set(saved.arrays[name]!);
    for (const [name, errors] of Object.entries(this.errors)) errors.set(saved.arrays[`${name}Error`]!);
    Object.assign(this.flags, saved.flags);
    Object.assign(this.used, saved.used);
  }

  /** Merge another state of the same spec after this one, field by field by its merge rule. */
  merge(other: MetricState): void {
    for (const [name, field] of Object.entries(this.spec)) {
      switch (field.merge) {
        case 'sum': {
          const a = this.arrays[name]!;
          const b = other.arrays[name]!;
          for (let j = 0; j < a.length; j++) a[j] = a[j]! + b[j]!;
          break;
        }
        case 'compensated-sum':
          mergeCompensated(this.arrays[name]!, this.errors[name]!, other.arrays[name]!, other.errors[name]!);
          break;
        case 'max': {
          const a = this.arrays[name]!;
          const b = other.arrays[name]!;
          for (let j = 0; j < a.length; j++) if (b[j]! > a[j]!) a[j] = b[j]!;
          break;
        }
        case 'all':
          this.flags[name] = this.flags[name]! && other.flags[name]!;
          break;
        case 'concat': {
          const values = other.column(name);
          const used = this.used[name]!;
          this.reserveColumn(name, used + values.length).set(values, used);
          this.used[name] = used + values.length;
          break;
        }
      }
    }
  }

  /**
   * The state as plain data (copies): per field, by its declaration, a number, a boolean, a pair [s, c], a
   * Float64Array, or (compensated arrays) `name` and `nameError`; concat fields as typed arrays of the used part.
   */
  toState(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(this.spec)) {
      const scalar = field.length === undefined;
      switch (field.merge) {
        case 'sum':
        case 'max':
          out[name] = scalar ? this.arrays[name]![0]! : this.arrays[name]!.slice();
          break;
        case 'compensated-sum':
          if (scalar) out[name] = [this.arrays[name]![0]!, this.errors[name]![0]!];
          else {
            out[name] = this.arrays[name]!.slice();
            out[`${name}Error`] = this.errors[name]!.slice();
          }
          break;
        case 'all':
          out[name] = this.flags[name]!;
          break;
        case 'concat':
          out[name] = this.column(name).slice();
          break;
      }
    }
    return out;
  }

  /**
   * Rebuild a state from `toState` output (validated; errors name `${prefix}.${field}`; arrays copied).
   * `samples`: when given, every concat field must hold exactly that many samples.
   */
  static fromState(spec: StateSpec, state: Readonly<Record<string, unknown>>, prefix: string, samples?: number): MetricState {
    const out = new MetricState(spec);
    for (const [name, field] of Object.entries(spec)) {
      const argument = `${prefix}.${name}`;
      const length = field.length ?? 1;
      const scalar = field.length === undefined;
      const value = state[name];
      switch (field.merge) {
        case 'sum':
        case 'max':
          if (scalar) out.arrays[name]![0] = field.merge === 'max' ? requireMaxValue(argument, value) : requireNumber(argument, value);
          else out.arrays[name]!.set(requireStateArray(argument, value, Float64Array, length));
          break;
        case 'compensated-sum':
          if (scalar) {
            const [s, c] = requireStatePair(argument, value);
            out.arrays[name]![0] = s;
            out.errors[name]![0] = c;
          } else {
            out.arrays[name]!.set(requireStateArray(argument, value, Float64Array, length));
            out.errors[name]!.set(requireStateArray(`${argument}Error`, state[`${name}Error`], Float64Array, length));
          }
          break;
        case 'all':
          if (typeof value !== 'boolean') invalidArgument(argument, 'a boolean', describe(value));
          out.flags[name] = value;
          break;
        case 'concat': {
          const type = CONSTRUCTORS[field.type ?? 'float64'];
          const column = requireStateArray(argument, value, type, samples === undefined ? undefined : samples * length);
          if (column.length % length !== 0) invalidArgument(argument, `a multiple of ${length} elements`, `${column.length} elements`);
          out.reserveColumn(name, column.length).set(column as never);
          out.used[name] = column.length;
          break;
        }
      }
    }
    return out;
  }
}

/** The distinct ArrayBuffers of the typed arrays anywhere in a plain-data state (the transfer list of `postMessage`). */
export function stateBuffers(state: unknown): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  const visit = (value: unknown): void => {
    if (ArrayBuffer.isView(value)) {
      if (value.buffer instanceof ArrayBuffer) buffers.add(value.buffer);
    } else if (value !== null && typeof value === 'object') {
      for (const v of Object.values(value)) visit(v);
    }
  };
  visit(state);
  return [...buffers];
}

/** A max field's value: a number, NaN excluded (−Infinity is the empty maximum). */
function requireMaxValue(argument: string, value: unknown): number {
  if (typeof value !== 'number' || Number.isNaN(value)) invalidArgument(argument, 'a number', describe(value));
  return value;
}
