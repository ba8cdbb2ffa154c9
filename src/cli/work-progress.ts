import type { Writer } from './command.js';

/**
 * Progress of a long computation (bootstrap resamples, ...) on stderr, shown only once it has run for
 * `delayMs` (default 2 s), so that quick commands print nothing extra. On a terminal: one line redrawn in place
 * (carriage return + clear to end of line) at most every 200 ms, cleared at the end. Elsewhere (pipes, CI logs):
 * one plain line every `lineIntervalMs` (default 10 s). `now` is injectable for tests.
 */
export class WorkProgress {
  readonly #stderr: Writer;
  readonly #label: string;
  readonly #total: number;
  readonly #tty: boolean;
  readonly #delayMs: number;
  readonly #lineIntervalMs: number;
  readonly #now: () => number;
  readonly #start: number;
  #lastShown = -Infinity;
  #live = false;

  constructor(
    stderr: Writer,
    label: string,
    total: number,
    options: { tty?: boolean; delayMs?: number; lineIntervalMs?: number; now?: () => number } = {},
  ) {
    this.#stderr = stderr;
    this.#label = label;
    this.#total = total;
    this.#tty = options.tty ?? (stderr as { isTTY?: boolean }).isTTY === true;
    this.#delayMs = options.delayMs ?? 2000;
    this.#lineIntervalMs = options.lineIntervalMs ?? 10_000;
    this.#now = options.now ?? Date.now;
    this.#start = this.#now();
  }

  /** `done` of the total units are finished. */
  update(done: number): void {
    const t = this.#now();
    const elapsed = t - this.#start;
    if (elapsed < this.#delayMs || done >= this.#total) return;
    if (t - this.#lastShown < (this.#tty ? 200 : this.#lineIntervalMs)) return;
    this.#lastShown = t;
    const eta = done > 0 ? ((elapsed / done) * (this.#total - done)) / 1000 : NaN;
    const text =
      `calib: ${this.#label}: ${done.toLocaleString('en-US')}/${this.#total.toLocaleString('en-US')} ` +
      `(${((100 * done) / this.#total).toFixed(0)}%, ${(elapsed / 1000).toFixed(0)} s elapsed${Number.isFinite(eta) ? `, ~${eta.toFixed(0)} s left` : ''})`;
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
