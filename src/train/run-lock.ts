/**
 * The lock of a run directory, `run.lock`: while a `train` process runs in a directory it holds this file (created
 * exclusively, O_CREAT | O_EXCL, holding `{ pid, host, started }`), so a second process into the same directory is
 * refused instead of interleaving logs and checkpoints with the first. A lock left behind by a process that died
 * (crash, SIGKILL, power loss) is stale: its PID no longer runs on this host, so it is taken over. A lock from
 * another host cannot be checked and is refused, naming the file to delete.
 */
import { open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { invalidArgument } from '../util/errors.js';

/** File name of the lock inside a run directory. */
export const LOCK_FILE = 'run.lock';

interface LockContent {
  readonly pid: number;
  readonly host: string;
  readonly started: string;
}

/** A held lock. */
export interface RunLock {
  readonly path: string;
  /** Delete the lock file (only if it is still ours). */
  release(): Promise<void>;
}

/** Whether process `pid` runs on this machine (EPERM: it runs under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readLock(path: string): Promise<LockContent | null> {
  try {
    const v = JSON.parse(await readFile(path, 'utf8')) as Partial<LockContent>;
    return Number.isInteger(v.pid) && typeof v.host === 'string' ? (v as LockContent) : null;
  } catch {
    return null; // vanished or half-written: treated as stale
  }
}

/**
 * Take the lock of run directory `dir` (which must exist). Refuses (InvalidArgumentError naming `argument`) while
 * another live process holds it; a stale lock is replaced.
 */
export async function lockRunDirectory(dir: string, argument = '--out'): Promise<RunLock> {
  const path = join(dir, LOCK_FILE);
  const mine: LockContent = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx');
      try {
        await handle.writeFile(`${JSON.stringify(mine)}\n`);
      } finally {
        await handle.close();
      }
      return {
        path,
        async release() {
          const held = await readLock(path);
          if (held && held.pid === mine.pid && held.host === mine.host) await rm(path, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const held = await readLock(path);
    if (held && held.host !== mine.host) {
      invalidArgument(argument, `a run directory no other process uses`, `${dir} is locked by process ${held.pid} on host ${held.host} (delete ${path} if that process is gone)`);
    }
    if (held && held.pid !== process.pid && alive(held.pid)) {
      invalidArgument(argument, `a run directory no other process uses`, `${dir} is in use by running process ${held.pid} (started ${held.started}); wait for it or stop it`);
    }
    if (held && held.pid === process.pid) {
      invalidArgument(argument, `a run directory no other run of this process uses`, `${dir} is already being trained by this process`);
    }
    await rm(path, { force: true }); // stale: its process is gone
  }
  return invalidArgument(argument, 'a run directory whose lock can be taken', `${path} keeps reappearing`);
}
