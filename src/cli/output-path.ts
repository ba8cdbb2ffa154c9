import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { invalidArgument } from '../util/errors.js';

/**
 * Output files of the commands (`--out`): checked before any work is done (so a typo in the directory does not
 * cost a whole fit), and file-system errors of the write itself (permission denied, disk full, ...) reported as
 * an `InvalidArgumentError` naming the flag and the path (exit code 2), never as a raw `ENOENT` on a temporary
 * file name (exit code 1, "internal error").
 */

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' ? 'no such directory'
    : code === 'ENOTDIR' ? 'a parent is not a directory'
    : code === 'EISDIR' ? 'a directory'
    : code === 'EACCES' || code === 'EPERM' ? 'permission denied'
    : code === 'EROFS' ? 'read-only file system'
    : code === 'ENOSPC' ? 'no space left on device'
    : (error as Error | undefined)?.message ?? String(error);
}

function isFileSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && 'syscall' in error;
}

/** Check that `path` (given as `argName`) can be created as a file: its directory exists and it is not a directory. */
export async function requireOutputPath(path: string, argName = '--out'): Promise<void> {
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
}

/** Run `write`, turning file-system errors into an `InvalidArgumentError` naming `argName` and `path`. */
export async function writingOutput<T>(path: string, argName: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isFileSystemError(error)) invalidArgument(argName, 'a writable file', `${JSON.stringify(path)} (${reason(error)})`);
    throw error;
  }
}
