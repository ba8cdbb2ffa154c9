import { describe, invalidArgument } from '../../util/errors.js';

/**
 * Checks for the plain-data states of the accumulators (`toState` / `fromState`): states are objects of
 * numbers, strings, booleans and typed arrays only, so they survive `structuredClone` and `postMessage`
 * (worker threads) unchanged, and their typed-array buffers can be transferred.
 */

type TypedArrayConstructor = Float64ArrayConstructor | Uint8ArrayConstructor | Int32ArrayConstructor;

/** Throw unless `value` is an instance of `type` of exactly `length` elements (any length when undefined). */
export function requireStateArray<T extends TypedArrayConstructor>(argument: string, value: unknown, type: T, length?: number): InstanceType<T> {
  if (!(value instanceof type)) invalidArgument(argument, `a ${type.name}`, describe(value));
  if (length !== undefined && (value as InstanceType<T>).length !== length) invalidArgument(argument, `${length} elements`, `${(value as InstanceType<T>).length} elements`);
  return value as InstanceType<T>;
}

/** Throw unless `value` is a pair [s, c] of numbers (a `CompensatedSum` state). */
export function requireStatePair(argument: string, value: unknown): [number, number] {
  if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'number' || typeof value[1] !== 'number') invalidArgument(argument, 'a pair [sum, error] of numbers', describe(value));
  return [value[0], value[1]];
}

/** Throw unless `value` is a non-null object. */
export function requireStateObject(argument: string, value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object') invalidArgument(argument, 'a state object', describe(value));
  return value as Record<string, unknown>;
}
