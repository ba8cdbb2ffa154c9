/**
 * The record of every `calib suite run` that trained into a suite directory, `DIR/sessions.json`: when it started,
 * how many runs it trained side by side (`--jobs`; null on a queue, whose workers decide) and with how many threads
 * each, on which host and with which calibkit. The measured machine time (suite-measured.ts) divides the runs'
 * summed time by the runs side by side, which nothing else in a suite directory records.
 *
 * Appended at the start of each (non-dry) run, by rewriting the whole file atomically (src/util/atomic-write.ts);
 * run identities (identity.json, suite.json's runs) are untouched. A missing file reads as no sessions (a suite
 * directory written before this record existed); an unreadable one as well, and the next run starts it afresh.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJson } from '../../train/artefacts/run-directory.js';

export const SESSIONS_FILE = 'sessions.json';

/** One `calib suite run` into the directory. */
export interface SuiteSession {
  /** ISO time the run started. */
  readonly started: string;
  /** Runs trained side by side (`--jobs`); null for a queue (its workers decide). */
  readonly jobs: number | null;
  /** ONNX Runtime threads of each run (the distinct values). */
  readonly threads: readonly number[];
  readonly executor: 'local' | 'queue';
  readonly host: string;
  readonly pid: number;
  readonly calibkit: string;
}

function isSession(x: unknown): x is SuiteSession {
  if (x === null || typeof x !== 'object') return false;
  const s = x as Record<string, unknown>;
  return typeof s['started'] === 'string' && (s['jobs'] === null || (typeof s['jobs'] === 'number' && Number.isInteger(s['jobs']) && s['jobs'] >= 1));
}

/** The sessions recorded in suite directory `dir`, oldest first (none when the file is missing or unreadable). */
export async function readSuiteSessions(dir: string): Promise<SuiteSession[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(dir, SESSIONS_FILE), 'utf8'));
  } catch {
    return [];
  }
  const list = (raw as { sessions?: unknown } | null)?.sessions;
  return Array.isArray(list) ? list.filter(isSession) : [];
}

/** Append `session` to `dir`/sessions.json (atomically: the whole file is rewritten). */
export async function recordSuiteSession(dir: string, session: SuiteSession): Promise<void> {
  const sessions = [...(await readSuiteSessions(dir)), session];
  await writeJson(join(dir, SESSIONS_FILE), { format: 1, sessions });
}

/**
 * The runs side by side the sessions agree on: the one `jobs` of every local session, or null when none is recorded,
 * a queue ran, or sessions differ (the caller then says so and uses what the user gives).
 */
export function recordedJobs(sessions: readonly SuiteSession[]): { readonly jobs: number | null; readonly values: readonly (number | null)[] } {
  const values = [...new Set(sessions.map((s) => s.jobs))];
  const only = values.length === 1 ? values[0]! : null;
  return { jobs: only, values };
}
