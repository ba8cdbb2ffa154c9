import { InvalidArgumentError } from '../util/errors.js';

/**
 * A dataset's files are not where the loader looked. A user error (the CLI prints it on one line and exits with
 * code 2), whose message says where the files were looked for and how to get them.
 */
export class DatasetNotFoundError extends InvalidArgumentError {
  constructor(dataset: string, message: string) {
    super(dataset, 'its files', 'none found');
    this.name = 'DatasetNotFoundError';
    this.message = message;
  }
}
