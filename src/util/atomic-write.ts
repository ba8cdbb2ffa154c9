import { randomUUID } from 'node:crypto';
import { accessSync, closeSync, constants, fchmodSync, fchownSync, fsyncSync, lstatSync, openSync, readlinkSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { InvalidArgumentError } from './errors.js';

/**
 * Atomic file writes, shared by every writer in the toolkit (arrays, calibrator JSON, plots, checkpoints).
 *
 * Protocol: write to a temporary file in the same directory as the target (`.<name>.<uuid>.tmp`, so the rename
 * never crosses a file system), fsync it, rename it over the target, then fsync the directory (best effort: some
 * file systems refuse to open a directory for syncing). A reader therefore sees either the old file or the
 * complete new one, never a partial write; a crash leaves at worst a stray `.tmp` file beside the target.
 * On any error the temporary file is removed and the target is left untouched.
 *
 * What is replaced is always a regular file the user may write (`resolveWriteTarget`): a symbolic link is
 * followed and its final target replaced (the link stays a link), the replacement keeps the old file's mode (and,
 * as root, its owner), and anything else — a directory, FIFO, device, socket, or a read-only file (no write bit
 * set, even for root, or not writable by this user) — is refused with an `UnwritableOutputError` before
 * anything is written.
 */

/** The target of an atomic write is not a regular file the user may replace (the CLI reports it with exit 2). */
export class UnwritableOutputError extends InvalidArgumentError {
  readonly path: string;
  readonly reason: string;
  constructor(path: string, reason: string) {
    super('output file', 'a regular, writable file or a new path', `${JSON.stringify(path)} (${reason})`);
    this.name = 'UnwritableOutputError';
    this.path = path;
    this.reason = reason;
  }
}

/** Where an atomic write of a path lands: the real path, and the mode/owner to keep (absent for a new file). */
export interface WriteTarget {
  readonly path: string;
  readonly existing?: { readonly mode: number; readonly uid: number; readonly gid: number };
}

function fileKind(st: Stats): string {
  return st.isDirectory()
    ? 'a directory'
    : st.isFIFO()
      ? 'a FIFO (named pipe)'
      : st.isCharacterDevice()
        ? 'a character device'
        : st.isBlockDevice()
          ? 'a block device'
          : st.isSocket()
            ? 'a socket'
            : 'not a regular file';
}

/** Follow symbolic links from `path` (at most 40, as the kernel does); the last path may not exist yet. */
function followLinks(path: string): string {
  let current = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    let st: Stats;
    try {
      st = lstatSync(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return current;
      throw error;
    }
    if (!st.isSymbolicLink()) return current;
    current = resolve(dirname(current), readlinkSync(current));
  }
  throw new UnwritableOutputError(path, 'too many levels of symbolic links');
}

/**
 * Resolve and check the target of a write to `path` (see the file comment): returns the real path to replace,
 * or throws `UnwritableOutputError` naming `path` and why it may not be replaced. File-system errors other than
 * a missing target (e.g. a missing directory) are left to the write itself.
 */
export function resolveWriteTarget(path: string): WriteTarget {
  const real = followLinks(path);
  let st: Stats;
  try {
    st = statSync(real);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path: real };
    throw error;
  }
  if (!st.isFile()) throw new UnwritableOutputError(path, fileKind(st));
  const mode = st.mode & 0o7777;
  if ((mode & 0o222) === 0) throw new UnwritableOutputError(path, `read-only file, mode ${mode.toString(8).padStart(4, '0')}`);
  try {
    accessSync(real, constants.W_OK);
  } catch {
    throw new UnwritableOutputError(path, 'read-only for this user: permission denied');
  }
  return { path: real, existing: { mode, uid: st.uid, gid: st.gid } };
}

/** Give the temporary file the replaced file's mode (and owner, when allowed: as root). */
function keepAttributes(fd: number, target: WriteTarget): void {
  if (!target.existing) return;
  fchmodSync(fd, target.existing.mode);
  try {
    fchownSync(fd, target.existing.uid, target.existing.gid);
  } catch {
    /* not permitted unless root: the file then belongs to the writer, as any new file would */
  }
}

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
export async function openAtomic(requested: string): Promise<AtomicFile> {
  const target = resolveWriteTarget(requested);
  const path = target.path;
  const temp = tempPathFor(path);
  const handle = await open(temp, 'wx', 0o644);
  try {
    keepAttributes(handle.fd, target);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  let state: 'open' | 'committed' | 'aborted' = 'open';
  let position = 0;
  const file: AtomicFile = {
    path: requested,
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
export function atomicWriteFileSync(requested: string, data: Uint8Array | string): void {
  const target = resolveWriteTarget(requested);
  const path = target.path;
  const temp = tempPathFor(path);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const fd = openSync(temp, 'wx', 0o644);
  let renamed = false;
  try {
    keepAttributes(fd, target);
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
