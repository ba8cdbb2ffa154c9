/**
 * The files of a finished run that travel through the queue (no shared file system needed): the configuration,
 * log, summary, validation/test logits and labels, post-hoc results and OOD results — not checkpoints or the ONNX
 * model. Packed as base64 in the job's return value; unpacked atomically into the coordinator's run directory,
 * summary.json and posthoc.json last (they mark the run done).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWriteFile } from '../util/atomic-write.js';
import { describe, invalidArgument } from '../util/errors.js';
import { pathExists } from '../util/path-exists.js';
import { mkdir } from 'node:fs/promises';

/** Transferred files, in the order they are written (the state markers last). */
export const TRANSFERRED_FILES = ['config.json', 'log.jsonl', 'val-logits.npy', 'val-labels.npy', 'test-logits.npy', 'test-labels.npy', 'train-logits.npy', 'train-labels.npy', 'ood.json', 'summary.json', 'posthoc.json'] as const;

export interface PackedRun {
  readonly files: Readonly<Record<string, string>>;
}

export async function packRun(dir: string): Promise<PackedRun> {
  const files: Record<string, string> = {};
  for (const name of TRANSFERRED_FILES) {
    const p = join(dir, name);
    if (await pathExists(p)) files[name] = (await readFile(p)).toString('base64');
  }
  for (const required of ['summary.json', 'posthoc.json', 'test-logits.npy']) if (!(required in files)) invalidArgument('run directory', `a finished run with ${required}`, dir);
  return { files };
}

export async function unpackRun(packed: PackedRun, dir: string): Promise<void> {
  if (packed === null || typeof packed !== 'object' || typeof packed.files !== 'object') invalidArgument('job result', 'packed run files', describe(packed));
  await mkdir(dir, { recursive: true });
  for (const name of TRANSFERRED_FILES) {
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
