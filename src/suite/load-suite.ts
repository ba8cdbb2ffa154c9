import { readFile, stat } from 'node:fs/promises';
import { describe, InvalidArgumentError, invalidArgument } from '../util/errors.js';
import { didYouMean } from '../util/typo-hint.js';
import { MAX_SUITE_FILE_BYTES } from './suite-limits.js';
import { BUILTIN_SUITE_NAMES, BUILTIN_SUITES } from './builtin-suites.js';
import { parseSuite, type Suite } from './suite-schema.js';

/**
 * A suite by built-in name (`demo`) or from a JSON file of at most MAX_SUITE_FILE_BYTES; validated (errors name the
 * file and the key path).
 * `argument` names the CLI argument in messages.
 */
export async function loadSuite(nameOrFile: string, argument = 'SUITE'): Promise<Suite> {
  if (typeof nameOrFile !== 'string' || nameOrFile === '') invalidArgument(argument, 'a built-in suite name or a suite file', describe(nameOrFile));
  const builtin = BUILTIN_SUITES[nameOrFile];
  if (builtin !== undefined) return parseSuite(structuredClone(builtin.suite), `suite ${nameOrFile}`);
  let text: string;
  try {
    const size = (await stat(nameOrFile)).size;
    if (size > MAX_SUITE_FILE_BYTES) return invalidArgument(argument, `a suite file of at most ${MAX_SUITE_FILE_BYTES} bytes (1 MiB)`, `${JSON.stringify(nameOrFile)} of ${size} bytes`);
    text = await readFile(nameOrFile, 'utf8');
  } catch (e) {
    if (e instanceof InvalidArgumentError) throw e;
    return invalidArgument(argument, `a built-in suite (${BUILTIN_SUITE_NAMES.join(', ')}) or a readable suite file${didYouMean(nameOrFile, BUILTIN_SUITE_NAMES)}`, JSON.stringify(nameOrFile));
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return invalidArgument(argument, 'a JSON suite file', `unparsable text in ${nameOrFile} (${(e as Error).message})`);
  }
  return parseSuite(raw, nameOrFile);
}
