/** Public API of the toolkit. */
export { InvalidArgumentError } from './util/errors.js';
export { Random } from './util/random.js';
