/**
 * The lock of a run directory, `run.lock`: while a `train` process runs in a directory it holds this file
 * (`{ pid, host, started, nonce }`), so a second process into the same directory is refused instead of
 * interleaving logs and checkpoints with the first. A lock left behind by a process that died (crash, SIGKILL,
 * power loss) is stale: its PID no longer runs on this host, so it is taken over. A lock from another host cannot
 * be checked and is refused, naming the file to delete.
 *
 * Races (two processes starting at once, or both finding the same stale lock):
 * - The lock never exists half-written: its content is written to a private draft file first and published with
 *   link(2), which fails with EEXIST when `run.lock` exists (atomic create-if-absent, also on NFS).
 * - A stale lock is replaced only by the one process holding its takeover token, `run.lock.takeover-<hash of the
 *   stale content>`, itself created by link(2). Under the token the process re-reads `run.lock`; only if it is
 *   still byte-for-byte the stale lock does it rename its own lock over it (atomic replace). Since every lock's
 *   content is unique (pid, start time, random nonce) and only the token holder may replace that content, no two
 *   processes can both take over the same stale lock; the losers re-read, find the winner alive and are refused.
 *   The token is removed after the replacement. A token left by a process that died mid-takeover is named in the
 *   refusal after TAKEOVER_WAIT_MS, to be deleted by hand.
 */
import { createHash, randomBytes } from 'node:crypto';
import { link, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { invalidArgument } from '../../util/errors.js';

/** File name of the lock inside a run directory. */
export const LOCK_FILE = 'run.lock';

/** How long a process waits for another one's takeover of a stale lock to finish. */
const TAKEOVER_WAIT_MS = 5000;

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

function errorCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

/** The file's text, or null when it does not exist. */
async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return null;
    throw e;
  }
}

/** The holder named by a lock's text, or null when it is not a lock (corrupt: treated as stale). */
function parseLock(text: string): LockContent | null {
  try {
    const v = JSON.parse(text) as Partial<LockContent>;
    return Number.isInteger(v.pid) && typeof v.host === 'string' ? (v as LockContent) : null;
  } catch {
    return null;
  }
}

/**
 * Take the lock of run directory `dir` (which must exist). Refuses (InvalidArgumentError naming `argument`) while
 * another live process holds it; a stale lock is replaced (see the file comment for the races).
 */
export async function lockRunDirectory(dir: string, argument = '--out'): Promise<RunLock> {
  const path = join(dir, LOCK_FILE);
  const nonce = randomBytes(8).toString('hex');
  const mine = `${JSON.stringify({ pid: process.pid, host: hostname(), started: new Date().toISOString(), nonce })}\n`;
  const draft = join(dir, `${LOCK_FILE}.${process.pid}.${nonce}`);
  await writeFile(draft, mine, { flag: 'wx' });
  const ours: RunLock = {
    path,
    async release() {
      if ((await readText(path)) === mine) await rm(path, { force: true });
    },
  };
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  try {
    for (;;) {
      try {
        await link(draft, path);
        return ours;
      } catch (e) {
        if (errorCode(e) !== 'EEXIST') throw e;
      }
      const seen = await readText(path);
      if (seen === null) continue; // released meanwhile
      refuseLiveHolder(parseLock(seen), dir, path, argument);
      // Stale: replace it under its takeover token.
      const token = join(dir, `${LOCK_FILE}.takeover-${createHash('sha256').update(seen).digest('hex').slice(0, 16)}`);
      try {
        await link(draft, token);
      } catch (e) {
        if (errorCode(e) !== 'EEXIST') throw e;
        // Another process is taking this stale lock over: wait for it, then look again.
        if (Date.now() > deadline) refuseStuckTakeover(token, dir, argument);
        await sleep(10);
        continue;
      }
      try {
        if ((await readText(path)) === seen) {
          await rename(draft, path);
          return ours;
        }
      } finally {
        await rm(token, { force: true });
      }
    }
  } finally {
    await rm(draft, { force: true });
  }
}

/** The process holding run directory `dir`'s lock while it may still run (another host, or a live PID here); null when unlocked or stale. */
export async function runDirectoryHolder(dir: string): Promise<{ readonly pid: number; readonly host: string; readonly started: string } | null> {
  const text = await readText(join(dir, LOCK_FILE));
  const held = text === null ? null : parseLock(text);
  return held !== null && mayStillRun(held) ? { pid: held.pid, host: held.host, started: held.started } : null;
}

/** Whether a lock's holder may still run: it is on another host (unknowable from here) or a live PID here (this process included). */
function mayStillRun(held: LockContent): boolean {
  return held.host !== hostname() || alive(held.pid);
}

/** Refuses when the lock's holder may still run: another host, this very process, or a live PID. */
function refuseLiveHolder(held: LockContent | null, dir: string, path: string, argument: string): void {
  if (held === null || !mayStillRun(held)) return;
  if (held.host !== hostname()) {
    invalidArgument(argument, `a run directory no other process uses`, `${dir} is locked by process ${held.pid} on host ${held.host} (delete ${path} if that process is gone)`);
  }
  if (held.pid === process.pid) {
    invalidArgument(argument, `a run directory no other run of this process uses`, `${dir} is already being trained by this process`);
  }
  invalidArgument(argument, `a run directory no other process uses`, `${dir} is in use by running process ${held.pid} (started ${held.started}); wait for it or stop it`);
}

/** A takeover token that stays: its process died between taking it and replacing the lock. */
function refuseStuckTakeover(token: string, dir: string, argument: string): never {
  return invalidArgument(
    argument,
    'a run directory whose stale lock can be taken over',
    `${dir} has had a takeover of its stale lock in progress for over ${TAKEOVER_WAIT_MS / 1000} s (delete ${token} if no process is starting in ${dir})`,
  );
}
