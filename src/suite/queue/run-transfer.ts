/**
 * The files of a finished run that travel through the queue (no shared file system needed): the configuration,
 * log, summary, validation/test logits and labels, post-hoc results, OOD results and the shift/ logits behind them —
 * not checkpoints or the ONNX model. Packed as base64 in the job's return value; unpacked atomically into the coordinator's run directory,
 * summary.json and posthoc.json last (they mark the run done).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWriteFile } from '../../util/atomic-write.js';
import { describe, invalidArgument } from '../../util/errors.js';
import { pathExists } from '../../util/path-exists.js';
import { mkdir } from 'node:fs/promises';

/** Transferred files, in the order they are written (the state markers last). */
export const TRANSFERRED_FILES = [
  'config.json',
  'log.jsonl',
  'val-logits.npy',
  'val-labels.npy',
  'test-logits.npy',
  'test-labels.npy',
  'train-logits.npy',
  'train-labels.npy',
  'ood.json',
  'summary.json',
  'posthoc.json',
] as const;

/** Files of shift/ (run-directory.ts): `shift/<name>.npy`, packed under that relative name. */
const SHIFT_FILE = /^shift\/[a-z0-9-]+\.npy$/;

async function shiftFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(join(dir, 'shift')))
      .map((f) => `shift/${f}`)
      .filter((f) => SHIFT_FILE.test(f))
      .sort();
  } catch {
    return [];
  }
}

export interface PackedRun {
  readonly files: Readonly<Record<string, string>>;
}

export async function packRun(dir: string): Promise<PackedRun> {
  const files: Record<string, string> = {};
  for (const name of [...(await shiftFiles(dir)), ...TRANSFERRED_FILES]) {
    const p = join(dir, name);
    if (await pathExists(p)) files[name] = (await readFile(p)).toString('base64');
  }
  for (const required of ['summary.json', 'posthoc.json', 'test-logits.npy']) if (!(required in files)) invalidArgument('run directory', `a finished run with ${required}`, dir);
  return { files };
}

export async function unpackRun(packed: PackedRun, dir: string): Promise<void> {
  if (packed === null || typeof packed !== 'object' || typeof packed.files !== 'object') invalidArgument('job result', 'packed run files', describe(packed));
  await mkdir(dir, { recursive: true });
  const shift = Object.keys(packed.files).filter((name) => SHIFT_FILE.test(name));
  if (shift.length) await mkdir(join(dir, 'shift'), { recursive: true });
  for (const name of [...shift, ...TRANSFERRED_FILES]) {
    const data = packed.files[name];
    if (data === undefined) continue;
    let text = Buffer.from(data, 'base64');
    if (name === 'config.json') {
      // The worker trained in its own temporary directory: record where the run lives here.
      const config = JSON.parse(text.toString('utf8')) as Record<string, unknown>;
      text = Buffer.from(`${JSON.stringify({ ...config, out: dir }, null, 2)}\n`);
    }
    await atomicWriteFile(join(dir, name), text);
  }
}
