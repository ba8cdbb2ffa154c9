import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Atomic file writes, shared by every writer in the toolkit (arrays, calibrator JSON, plots, checkpoints).
 *
 * Protocol: write to a temporary file in the same directory as the target (`.<name>.<uuid>.tmp`, so the rename
 * never crosses a file system), fsync it, rename it over the target, then fsync the directory (best effort: some
 * file systems refuse to open a directory for syncing). A reader therefore sees either the old file or the
 * complete new one, never a partial write; a crash leaves at worst a stray `.tmp` file beside the target.
 * On any error the temporary file is removed and the target is left untouched.
 */

/** Path of a fresh temporary file beside `path`. */
function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
}

/** An open temporary file that becomes `path` on `commit()` and disappears on `abort()`. */
export interface AtomicFile {
  /** The final path. */
  readonly path: string;
  /** The file handle of the temporary file (for positioned writes). */
  readonly handle: FileHandle;
  /** Append bytes (or a UTF-8 string) at the current end of the temporary file. */
  write(data: Uint8Array | string): Promise<void>;
  /** fsync, close and rename over `path`. */
  commit(): Promise<void>;
  /** Close and delete the temporary file (safe to call after a failed commit, and more than once). */
  abort(): Promise<void>;
}

/**
 * Open a temporary file that will atomically replace `path` on `commit()`. Use for writes produced in pieces
 * (streamed arrays); for a whole buffer, `atomicWriteFile` is simpler.
 */
export async function openAtomic(path: string): Promise<AtomicFile> {
  const temp = tempPathFor(path);
  const handle = await open(temp, 'wx', 0o644);
  let state: 'open' | 'committed' | 'aborted' = 'open';
  let position = 0;
  const file: AtomicFile = {
    path,
    handle,
    async write(data) {
      if (state !== 'open') throw new Error(`atomic write of ${path}: write after ${state}`);
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      let done = 0;
      while (done < bytes.byteLength) {
        const { bytesWritten } = await handle.write(bytes, done, bytes.byteLength - done, position);
        done += bytesWritten;
        position += bytesWritten;
      }
    },
    async commit() {
      if (state !== 'open') throw new Error(`atomic write of ${path}: commit after ${state}`);
      try {
        await handle.sync();
        await handle.close();
        await rename(temp, path);
        state = 'committed';
      } catch (error) {
        await file.abort();
        throw error;
      }
      await syncDirectory(dirname(path));
    },
    async abort() {
      if (state === 'committed' || state === 'aborted') return;
      state = 'aborted';
      await handle.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
    },
  };
  return file;
}

/** Atomically replace `path` with `data` (bytes, or a string written as UTF-8). */
export async function atomicWriteFile(path: string, data: Uint8Array | string): Promise<void> {
  const file = await openAtomic(path);
  try {
    await file.write(data);
  } catch (error) {
    await file.abort();
    throw error;
  }
  await file.commit();
}

/** Synchronous twin of `atomicWriteFile` (for exit paths and code that cannot await). */
export function atomicWriteFileSync(path: string, data: Uint8Array | string): void {
  const temp = tempPathFor(path);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const fd = openSync(temp, 'wx', 0o644);
  let renamed = false;
  try {
    let done = 0;
    while (done < bytes.byteLength) done += writeSync(fd, bytes, done, bytes.byteLength - done, done);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, path);
    renamed = true;
  } finally {
    if (!renamed) {
      try {
        closeSync(fd);
      } catch {
        /* already closed */
      }
      try {
        unlinkSync(temp);
      } catch {
        /* already gone */
      }
    }
  }
  try {
    const dirFd = openSync(dirname(path), 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    /* directory fsync is best effort */
  }
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* directory fsync is best effort (not supported everywhere) */
  }
}
