import { calibratorFromJSON, isGroupwiseJSON, type Calibrator } from '../posthoc/index.js';
import { readInputText } from '../io/input-file.js';
import { InvalidArgumentError, invalidArgument } from '../util/errors.js';
import { atomicWriteFile } from '../util/atomic-write.js';

/** Calibrator JSON files: written atomically (pretty-printed), read back with errors naming the flag. */

/** Write `calibrator.toJSON()` to `path` atomically. */
export async function writeCalibratorFile(path: string, calibrator: Calibrator): Promise<void> {
  await atomicWriteFile(path, `${JSON.stringify(calibrator.toJSON(), null, 2)}\n`);
}

/**
 * Read and rebuild a calibrator from a JSON file given as `argName` (e.g. `--calibrator`). A group-wise calibrator
 * (calib fit --groups) is refused with `groupwiseReason` (why this command cannot apply it without group ids).
 */
export async function readCalibratorFile(
  path: string,
  argName: string,
  groupwiseReason = 'it needs a group id per row: apply it with calib apply --calibrator FILE --groups FILE',
): Promise<Calibrator> {
  const text = await readInputText({ argName, path });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    invalidArgument(argName, 'a calibrator JSON file (from calib fit)', `invalid JSON in ${JSON.stringify(path)}: ${(error as Error).message}`);
  }
  if (isGroupwiseJSON(json)) invalidArgument(argName, 'a calibrator fitted without --groups', `the group-wise calibrator ${JSON.stringify(path)}: ${groupwiseReason}`);
  try {
    return calibratorFromJSON(json);
  } catch (error) {
    if (error instanceof InvalidArgumentError) {
      invalidArgument(argName, 'a calibrator JSON file (from calib fit)', `${JSON.stringify(path)} with ${error.message}`);
    }
    throw error;
  }
}
