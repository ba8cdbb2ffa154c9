import { calibratorFromJSON, type Calibrator } from '../posthoc/index.js';
import { readInputText } from '../io/input-file.js';
import { InvalidArgumentError, invalidArgument } from '../util/errors.js';
import { atomicWriteFile } from '../util/atomic-write.js';

/** Calibrator JSON files: written atomically (pretty-printed), read back with errors naming the flag. */

/** Write `calibrator.toJSON()` to `path` atomically. */
export async function writeCalibratorFile(path: string, calibrator: Calibrator): Promise<void> {
  await atomicWriteFile(path, `${JSON.stringify(calibrator.toJSON(), null, 2)}\n`);
}

/** Read and rebuild a calibrator from a JSON file given as `argName` (e.g. `--calibrator`). */
export async function readCalibratorFile(path: string, argName: string): Promise<Calibrator> {
  const text = await readInputText({ argName, path });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    invalidArgument(argName, 'a calibrator JSON file (from calib fit)', `invalid JSON in ${JSON.stringify(path)}: ${(error as Error).message}`);
  }
  try {
    return calibratorFromJSON(json);
  } catch (error) {
    if (error instanceof InvalidArgumentError) {
      invalidArgument(argName, 'a calibrator JSON file (from calib fit)', `${JSON.stringify(path)} with ${error.message}`);
    }
    throw error;
  }
}
