import { InvalidArgumentError } from '../../util/errors.js';

/**
 * Thrown at trace time when an op receives operands whose shapes or element types it cannot accept.
 * The message names the op and the offending shapes, e.g.
 * `matmul: shapes [128,784] and [512,10] are incompatible (784 ≠ 512)`. `argument` is the op name.
 * It is an `InvalidArgumentError`, so the CLI reports it as a one-line user error.
 */
export class ShapeError extends InvalidArgumentError {
  constructor(op: string, detail: string) {
    super(op, '', '');
    this.message = `${op}: ${detail}`;
    this.name = 'ShapeError';
  }
}

/** Throw a `ShapeError` for `op`. */
export function shapeError(op: string, detail: string): never {
  throw new ShapeError(op, detail);
}
