import { invalidArgument } from '../util/errors.js';

/**
 * The last guard before a command prints or writes numbers: a NaN or ±∞ anywhere in `value` (a JSON-like tree)
 * is an error naming `argName` and the path of the value, never a `null` in JSON (what JSON.stringify makes of
 * NaN) with exit 0. `expected` says what the input must be for the values to be finite.
 */
export function requireFiniteValues(value: unknown, argName: string, expected: string, path = ''): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) invalidArgument(argName, expected, `${value} for ${path || 'the result'}`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => requireFiniteValues(v, argName, expected, `${path}[${i}]`));
    return;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) requireFiniteValues(v, argName, expected, path ? `${path}.${k}` : k);
  }
}
