/**
 * Reading and writing the JSON of fitted calibrators. Every calibrator's JSON starts with the same header
 * `{ kind, version: { format, calibkit }, classes, settings }` followed by its fitted parameters; numbers are
 * written with JavaScript's shortest round-trip formatting, so parameters read back are bit-identical.
 * Readers validate every field and throw `InvalidArgumentError` naming it (e.g. `json.weights[3]`).
 */
import { describe, invalidArgument } from '../util/errors.js';
import { CALIBKIT_VERSION, CALIBRATOR_FORMAT_VERSION } from './calibrator.js';
import { parseOptions, type OptionSpecs, type SettingsOf } from './options.js';

/** The common header of a calibrator's JSON. */
export function jsonHeader(kind: string, classes: number, settings: object) {
  return {
    kind,
    version: { format: CALIBRATOR_FORMAT_VERSION, calibkit: CALIBKIT_VERSION },
    classes,
    settings: { ...settings },
  };
}

/** Validate that `value` is a plain JSON object (not an array, not null). */
export function requireRecord(argument: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    invalidArgument(argument, 'a JSON object', describe(value));
  }
  return value as Record<string, unknown>;
}

/**
 * Refuse a key of `given` (a parsed calibrator file) that `written` (what toJSON() writes for the same calibrator)
 * does not have, at any depth: objects key by key, arrays element by element. Throws naming the path
 * (`json.settings.bins`, `json.maps[2].extra`) and the keys expected there.
 */
export function requireKnownKeys(path: string, given: unknown, written: unknown, what: string): void {
  if (Array.isArray(given) && Array.isArray(written)) {
    for (let i = 0; i < Math.min(given.length, written.length); i++) requireKnownKeys(`${path}[${i}]`, given[i], written[i], what);
    return;
  }
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return;
  const known = typeof written === 'object' && written !== null && !Array.isArray(written) ? (written as Record<string, unknown>) : {};
  for (const [key, value] of Object.entries(given)) {
    if (!Object.hasOwn(known, key)) {
      const keys = Object.keys(known);
      invalidArgument(`${path}.${key}`, keys.length > 0 ? `one of the keys ${what} file has here (${keys.join(', ')})` : `no key here in ${what} file`, 'an unknown key');
    }
    requireKnownKeys(`${path}.${key}`, value, known[key], what);
  }
}

/**
 * Validate the header of a calibrator's JSON for `kind` and parse its settings with `spec`.
 * Returns the record (for the parameters), the number of classes and the settings.
 */
export function readHeader<S extends OptionSpecs>(json: unknown, kind: string, spec: S): { record: Record<string, unknown>; classes: number; settings: SettingsOf<S> } {
  const record = requireRecord('json', json);
  if (record.kind !== kind) invalidArgument('json.kind', JSON.stringify(kind), describe(record.kind));
  const version = requireRecord('json.version', record.version);
  if (version.format !== CALIBRATOR_FORMAT_VERSION) {
    invalidArgument('json.version.format', String(CALIBRATOR_FORMAT_VERSION), describe(version.format));
  }
  if (typeof version.calibkit !== 'string') invalidArgument('json.version.calibkit', 'a version string', describe(version.calibkit));
  const classes = record.classes;
  if (typeof classes !== 'number' || !Number.isInteger(classes) || classes < 2) {
    invalidArgument('json.classes', 'an integer ≥ 2', describe(classes));
  }
  const settings = parseOptions('json.settings', requireRecord('json.settings', record.settings), spec);
  return { record, classes, settings };
}

/** Smallest and largest temperature a calibrator file may hold (far wider than any fit gives; 1/T is finite). */
export const STORED_TEMPERATURE_RANGE = { min: 1e-100, max: 1e100 } as const;

/**
 * A finite number field (optionally > 0; `temperature`: within STORED_TEMPERATURE_RANGE, so that a subnormal
 * T such as 1e-320, whose reciprocal overflows, is refused when the file is read rather than giving NaN later).
 */
export function readNumber(record: Record<string, unknown>, field: string, opts: { positive?: boolean; temperature?: boolean } = {}): number {
  const value = record[field];
  if (typeof value !== 'number' || !Number.isFinite(value) || (opts.positive && !(value > 0))) {
    invalidArgument(`json.${field}`, opts.positive ? 'a finite number > 0' : 'a finite number', describe(value));
  }
  if (opts.temperature && !(value >= STORED_TEMPERATURE_RANGE.min && value <= STORED_TEMPERATURE_RANGE.max)) {
    invalidArgument(`json.${field}`, `a temperature in [${STORED_TEMPERATURE_RANGE.min}, ${STORED_TEMPERATURE_RANGE.max}]`, describe(value));
  }
  return value;
}

/** An array of `length` finite numbers, as a Float64Array. */
export function readVector(argument: string, value: unknown, length: number): Float64Array {
  if (!Array.isArray(value) || value.length !== length) {
    invalidArgument(argument, `an array of ${length} numbers`, describe(value));
  }
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    const v: unknown = value[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) invalidArgument(`${argument}[${i}]`, 'a finite number', describe(v));
    out[i] = v;
  }
  return out;
}

/** An array of `rows` arrays of `cols` finite numbers, as a row-major Float64Array. */
export function readMatrix(argument: string, value: unknown, rows: number, cols: number): Float64Array {
  if (!Array.isArray(value) || value.length !== rows) {
    invalidArgument(argument, `an array of ${rows} rows`, describe(value));
  }
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) out.set(readVector(`${argument}[${i}]`, value[i], cols), i * cols);
  return out;
}

/** Rows of a row-major matrix as nested number arrays (for JSON). */
export function matrixToRows(data: Float64Array, rows: number, cols: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < rows; i++) out.push(Array.from(data.subarray(i * cols, (i + 1) * cols)));
  return out;
}
