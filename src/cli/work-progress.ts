import { invalidArgument } from '../util/errors.js';
import type { CliIO, Writer } from './command.js';

/** Display options of `WorkProgress`. */
export interface WorkProgressOptions {
  /** Redraw one line in place (default: whether stderr is a terminal). */
  readonly tty?: boolean;
  /** Nothing is shown before the work has run this long (default 2000 ms). */
  readonly delayMs?: number;
  /** Without a terminal: one line per this interval (default 10,000 ms). */
  readonly lineIntervalMs?: number;
  /** 'count': "done/total (p%, …)"; 'percent': "p% (…)" for work measured as a fraction (total 1). */
  readonly format?: 'count' | 'percent';
  readonly now?: () => number;
}

/**
 * Progress of a long computation (bootstrap resamples, calibrator fits, ...) on stderr, shown only once it has run
 * for `delayMs` (default 2 s), so that quick commands print nothing extra. On a terminal: one line redrawn in place
 * (carriage return + clear to end of line) at most every 200 ms, cleared at the end. Elsewhere (pipes, CI logs):
 * one plain line every `lineIntervalMs` (default 10 s). The time left is extrapolated from the rate since the first
 * update. `now` is injectable for tests.
 */
export class WorkProgress {
  readonly #stderr: Writer;
  readonly #label: string;
  readonly #total: number;
  readonly #tty: boolean;
  readonly #delayMs: number;
  readonly #lineIntervalMs: number;
  readonly #now: () => number;
  readonly #percent: boolean;
  readonly #start: number;
  #lastShown = -Infinity;
  /** Time and units done at the first update: the remaining time is extrapolated from the rate since then, so
   * set-up work before the first unit (reading, a softmax, JIT warm-up) does not inflate it. */
  #anchor: { t: number; done: number } | undefined;
  #live = false;

  constructor(stderr: Writer, label: string, total: number, options: WorkProgressOptions = {}) {
    this.#stderr = stderr;
    this.#label = label;
    this.#total = total;
    this.#tty = options.tty ?? (stderr as { isTTY?: boolean }).isTTY === true;
    this.#delayMs = options.delayMs ?? 2000;
    this.#lineIntervalMs = options.lineIntervalMs ?? 10_000;
    this.#now = options.now ?? Date.now;
    this.#percent = options.format === 'percent';
    this.#start = this.#now();
  }

  /** `done` of the total units are finished. */
  update(done: number): void {
    const t = this.#now();
    const elapsed = t - this.#start;
    this.#anchor ??= { t, done };
    if (elapsed < this.#delayMs || done >= this.#total) return;
    if (t - this.#lastShown < (this.#tty ? 200 : this.#lineIntervalMs)) return;
    this.#lastShown = t;
    const anchor = this.#anchor;
    const eta = done > anchor.done ? (((t - anchor.t) / (done - anchor.done)) * (this.#total - done)) / 1000 : NaN;
    const share = `${Math.floor((100 * done) / this.#total).toFixed(0)}%`;
    const times = `${(elapsed / 1000).toFixed(0)} s elapsed${Number.isFinite(eta) ? `, ~${eta.toFixed(0)} s left` : ''}`;
    const text = this.#percent ? `calib: ${this.#label}: ${share} (${times})` : `calib: ${this.#label}: ${done.toLocaleString('en-US')}/${this.#total.toLocaleString('en-US')} (${share}, ${times})`;
    if (this.#tty) {
      this.#stderr.write(`\r${text}\u001b[K`);
      this.#live = true;
    } else this.#stderr.write(`${text}\n`);
  }

  /** The work is over: clear a live terminal line. */
  finish(): void {
    if (this.#live) this.#stderr.write('\r\u001b[K');
    this.#live = false;
  }
}

/**
 * A progress display for a CLI command: timings from the environment when set, for tests and for users who want
 * more or fewer lines: CALIB_PROGRESS_DELAY_MS (before the first line, default 2000) and
 * CALIB_PROGRESS_INTERVAL_MS (between lines without a terminal, default 10000).
 */
export function commandProgress(io: CliIO, label: string, total: number, format: 'count' | 'percent' = 'count'): WorkProgress {
  const delayMs = envMilliseconds(io, 'CALIB_PROGRESS_DELAY_MS');
  const lineIntervalMs = envMilliseconds(io, 'CALIB_PROGRESS_INTERVAL_MS');
  return new WorkProgress(io.stderr, label, total, {
    format,
    ...(delayMs === undefined ? {} : { delayMs }),
    ...(lineIntervalMs === undefined ? {} : { lineIntervalMs }),
  });
}

/** Runs a calibrator fit (or other work measured as a fraction done) with a progress display on stderr. */
export function fitWithProgress<T>(io: CliIO, label: string, work: (onProgress: (fraction: number) => void) => T): T {
  const progress = commandProgress(io, label, 1, 'percent');
  try {
    return work((fraction) => progress.update(fraction));
  } finally {
    progress.finish();
  }
}

function envMilliseconds(io: CliIO, name: string): number | undefined {
  const text = io.env?.[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value)) invalidArgument(name, 'a whole number of milliseconds', JSON.stringify(text));
  return value;
}
