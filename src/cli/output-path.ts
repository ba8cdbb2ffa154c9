import { realpathSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { resolveWriteTarget, UnwritableOutputError } from '../util/atomic-write.js';
import { invalidArgument } from '../util/errors.js';

/**
 * Output files of the commands (`--out`): checked before any work is done (so a typo in the directory does not
 * cost a whole fit), and file-system errors of the write itself (permission denied, disk full, ...) reported as
 * an `InvalidArgumentError` naming the flag and the path (exit code 2), never as a raw `ENOENT` on a temporary
 * file name (exit code 1, "internal error"). What `--out` names must be a new path or a regular, writable file
 * (util/atomic-write.ts: links are followed, special files and read-only files refused), and never one of the
 * command's inputs (compared by device and inode after following links, so `./a.npy`, a hard link or a symbolic
 * link to the input are caught too).
 */

/** A file the command reads: its flag and path (undefined when the flag was not given). */
export interface CommandInput {
  readonly argName: string;
  readonly path: string | undefined;
}

/** Throw when `path` (as `argName`) is the same file as one of `inputs`. */
export function requireNotAnInput(path: string, argName: string, inputs: readonly CommandInput[]): void {
  const target = (() => {
    try {
      return statSync(path);
    } catch {
      return undefined;
    }
  })();
  const realOut = (() => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  })();
  for (const input of inputs) {
    if (input.path === undefined) continue;
    let same = false;
    try {
      const st = statSync(input.path);
      same = target !== undefined ? st.dev === target.dev && st.ino === target.ino : realpathSync(input.path) === realOut;
    } catch {
      same = resolve(input.path) === realOut;
    }
    if (same) {
      invalidArgument(argName, `an output file other than the inputs`, `${JSON.stringify(path)}, which is the ${input.argName} file (it would be overwritten)`);
    }
  }
}

/** Throw when the file named by `path` exists and is not a regular file this user may replace. */
function requireReplaceable(path: string, argName: string): void {
  try {
    resolveWriteTarget(path);
  } catch (error) {
    if (error instanceof UnwritableOutputError) invalidArgument(argName, 'a regular, writable file or a new path', `${JSON.stringify(path)} (${error.reason})`);
    throw error;
  }
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT'
    ? 'no such directory'
    : code === 'ENOTDIR'
      ? 'a parent is not a directory'
      : code === 'EISDIR'
        ? 'a directory'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'EROFS'
            ? 'read-only file system'
            : code === 'ENOSPC'
              ? 'no space left on device'
              : ((error as Error | undefined)?.message ?? String(error));
}

function isFileSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && 'syscall' in error;
}

/**
 * Check that `path` (given as `argName`) can be written as a file: its directory exists, it is a new path or a
 * regular writable file (links followed), and it is none of `inputs`.
 */
export async function requireOutputPath(path: string, argName = '--out', inputs: readonly CommandInput[] = []): Promise<void> {
  const dir = dirname(resolve(path));
  let dirStat;
  try {
    dirStat = await stat(dir);
  } catch (error) {
    invalidArgument(argName, 'a file path in an existing directory', `${JSON.stringify(path)} (${JSON.stringify(dirname(path))}: ${reason(error)})`);
  }
  if (!dirStat.isDirectory()) {
    invalidArgument(argName, 'a file path in an existing directory', `${JSON.stringify(path)} (${JSON.stringify(dirname(path))} is not a directory)`);
  }
  try {
    if ((await stat(path)).isDirectory()) invalidArgument(argName, 'a file path', `${JSON.stringify(path)} (a directory)`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // absent: will be created
  }
  requireReplaceable(path, argName);
  requireNotAnInput(path, argName, inputs);
}

/** Run `write`, turning file-system errors into an `InvalidArgumentError` naming `argName` and `path`. */
export async function writingOutput<T>(path: string, argName: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UnwritableOutputError) invalidArgument(argName, 'a regular, writable file or a new path', `${JSON.stringify(path)} (${error.reason})`);
    if (isFileSystemError(error)) invalidArgument(argName, 'a writable file', `${JSON.stringify(path)} (${reason(error)})`);
    throw error;
  }
}
