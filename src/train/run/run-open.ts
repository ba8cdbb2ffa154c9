/**
 * Opening a run directory for a new run or a resumed one, before any data is loaded:
 *
 *   --out naming something that is not a directory          → refused (InvalidArgumentError, exit 2 in the CLI)
 *   a new run in a directory that is not a run's: it holds files but none a run writes (config.json of train settings,
 *     log.jsonl, checkpoint-last.ckpt, summary.json, run.lock), or its config.json is not train settings
 *                                                            → refused, even with --force (the user's files stay theirs)
 *   another live process training in it (run.lock)          → refused; a stale lock (dead PID) is taken over
 *   new run over an existing run (checkpoint-last.ckpt)     → refused, naming --resume and --force
 *   new run over a finished run whose checkpoints are gone (summary.json) → refused, naming --force
 *   new run with overwrite                                  → the old run's outputs are deleted first
 *   resume without checkpoint-last.ckpt                     → refused
 *
 * The lock is held until `release` (the trainer releases it however the run ends).
 */
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { describe, invalidArgument } from '../../util/errors.js';
import { pathExists } from '../../util/path-exists.js';
import { lockRunDirectory, type RunLock } from '../artefacts/run-lock.js';
import { runPaths, type RunPaths, writeJson } from '../artefacts/run-directory.js';
import { TRAIN_CONFIG_KEYS, type TrainConfig } from '../train-config.js';

/** An opened run directory. */
export interface OpenRun {
  readonly paths: RunPaths;
  readonly lock: RunLock;
}

/** Refuse a path that exists but is not a directory. */
async function requireDirectoryPath(dir: string, argument: string): Promise<void> {
  let kind: string | null = null;
  try {
    const s = await stat(dir);
    if (!s.isDirectory()) kind = s.isFile() ? 'a file' : 'not a directory';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') kind = 'a path through a file';
    else if (code !== 'ENOENT') throw e;
  }
  if (kind) invalidArgument(argument, 'a run directory (an existing directory or a new path)', `${describe(dir)} is ${kind}`);
}

/** True when `file` holds a JSON object whose keys are all train settings (a run's config.json, or the user's for this run). */
async function holdsTrainSettings(file: string): Promise<boolean> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return false;
  }
  const known = new Set<string>(TRAIN_CONFIG_KEYS);
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).every((k) => known.has(k));
}

/**
 * Refuse to start a new run in a directory that belongs to something else: one that holds files (dot-files aside) but
 * none of a run's, or whose config.json is not train settings (a run would replace it). A new path, an empty directory
 * and a run's directory (finished, interrupted, or stopped before its first checkpoint) pass.
 */
async function requireRunOrEmptyDirectory(paths: RunPaths): Promise<void> {
  let names: string[];
  try {
    names = (await readdir(paths.dir)).filter((n) => !n.startsWith('.')).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (names.length === 0) return;
  const expected = 'a new or empty directory, or a run directory';
  if (names.includes('config.json') && !(await holdsTrainSettings(paths.config))) {
    invalidArgument('out', `${expected} (a run writes its settings to config.json; choose another --out)`, `${paths.dir} holds a config.json that is not train settings`);
  }
  const runMarkers = ['config.json', 'log.jsonl', 'checkpoint-last.ckpt', 'summary.json', 'run.lock'];
  if (!names.some((n) => runMarkers.includes(n))) {
    const shown = names.slice(0, 3).join(', ') + (names.length > 3 ? `, … (${names.length} entries)` : '');
    invalidArgument('out', `${expected} (choose another --out; --force replaces a run, never other files)`, `${paths.dir} holds files that are not a run's: ${shown}`);
  }
}

/** Open `config.out` for training (see the module comment). */
export async function openRunDirectory(config: TrainConfig, mode: { readonly resume: boolean; readonly overwrite: boolean }): Promise<OpenRun> {
  const paths = runPaths(config.out);
  const argument = mode.resume ? '--resume' : 'out';
  await requireDirectoryPath(paths.dir, argument);
  if (mode.resume && !(await pathExists(paths.lastCheckpoint))) invalidArgument('--resume', 'a run directory with checkpoint-last.ckpt', `none in ${paths.dir}`);
  if (!mode.resume) await requireRunOrEmptyDirectory(paths);
  await mkdir(paths.dir, { recursive: true });
  const lock = await lockRunDirectory(paths.dir, argument);
  try {
    if (!mode.resume) {
      if (!mode.overwrite && (await pathExists(paths.lastCheckpoint))) {
        invalidArgument(
          'out',
          `a directory without a run (continue it with calib train --resume ${paths.dir}, replace it with --force, or choose another --out)`,
          `${paths.dir} holds a run (checkpoint-last.ckpt)`,
        );
      }
      // A finished run whose checkpoints were deleted is recognised by summary.json, so it is not replaced unasked.
      if (!mode.overwrite && (await pathExists(paths.summary))) {
        invalidArgument('out', 'a directory without a finished run (replace it with --force, or choose another --out)', `${paths.dir} holds a finished run (summary.json)`);
      }
      if (mode.overwrite) {
        // Outputs of the replaced run must not survive next to the new one (e.g. an old ood.json).
        const stale = [paths.lastCheckpoint, paths.bestCheckpoint, paths.valLogits, paths.valLabels, paths.testLogits, paths.testLabels, paths.onnx, paths.summary, paths.ood];
        await Promise.all([...stale.map((f) => rm(f, { force: true })), rm(paths.shift, { recursive: true, force: true })]);
      }
      await writeJson(paths.config, config);
    }
    return { paths, lock };
  } catch (e) {
    await lock.release();
    throw e;
  }
}
