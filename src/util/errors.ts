/**
 * Errors the toolkit raises for bad input. Every public function validates its arguments and throws
 * `InvalidArgumentError` with a message that names the argument, what was expected and what was found.
 * The CLI prints `error: <message>` on one line and exits with code 2 for these (and only these);
 * anything else is a bug and is reported as such.
 */
export class InvalidArgumentError extends Error {
  readonly argument: string;
  constructor(argument: string, expected: string, actual: string) {
    super(`${argument}: expected ${expected}, got ${actual}`);
    this.name = 'InvalidArgumentError';
    this.argument = argument;
  }
}

/** Throw an `InvalidArgumentError` naming `argument`, the expectation and the actual value. */
export function invalidArgument(argument: string, expected: string, actual: string): never {
  throw new InvalidArgumentError(argument, expected, actual);
}

/** Short human description of a value for error messages (numbers keep full precision, long strings are cut). */
export function describe(value: unknown): string {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? value.slice(0, 57) + '...' : value);
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of length ${(value as unknown as { length: number }).length}`;
  return typeof value;
}

/** Require `value` to be a finite number (optionally within bounds); returns it. */
export function requireNumber(argument: string, value: unknown, opts: { min?: number; max?: number; integer?: boolean; exclusiveMin?: boolean; exclusiveMax?: boolean } = {}): number {
  const kind = opts.integer ? 'an integer' : 'a finite number';
  if (typeof value !== 'number' || !Number.isFinite(value)) invalidArgument(argument, kind, describe(value));
  if (opts.integer && !Number.isInteger(value)) invalidArgument(argument, kind, describe(value));
  if (opts.min !== undefined) {
    if (opts.exclusiveMin ? value <= opts.min : value < opts.min) invalidArgument(argument, `${kind} ${opts.exclusiveMin ? '>' : '≥'} ${opts.min}`, describe(value));
  }
  if (opts.max !== undefined) {
    if (opts.exclusiveMax ? value >= opts.max : value > opts.max) invalidArgument(argument, `${kind} ${opts.exclusiveMax ? '<' : '≤'} ${opts.max}`, describe(value));
  }
  return value;
}
