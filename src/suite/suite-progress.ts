/**
 * One progress display for a whole suite: runs done / running / left (and failed), the current epoch of each
 * running run, and the ETA. On a terminal one line is redrawn in place; elsewhere (CI logs, pipes) a line is
 * printed when a run starts, ends or fails, and at most every `interval` seconds otherwise.
 *
 * ETA = epochs still to train (over every unfinished run) × (elapsed time / epochs trained since this process
 * started): the rate already includes the runs trained side by side, and a resumed suite estimates from its own
 * speed. Before the first epoch finishes the ETA is unknown ('?').
 */
import { formatDuration, type ProgressWriter } from '../train/run/progress.js';

export interface SuiteProgressSnapshot {
  readonly total: number;
  readonly done: number;
  readonly failed: number;
  readonly running: readonly { readonly id: string; readonly epoch: number; readonly epochs: number }[];
  /** Epochs left to train over all unfinished runs. */
  readonly epochsLeft: number;
  /** Epochs trained since this process started. */
  readonly epochsTrained: number;
  /** Seconds since this process started. */
  readonly elapsed: number;
}

/** The status line of a snapshot. */
export function formatSuiteProgress(s: SuiteProgressSnapshot): string {
  const left = s.total - s.done - s.failed - s.running.length;
  const eta = s.epochsTrained > 0 ? (s.epochsLeft * s.elapsed) / s.epochsTrained : Number.NaN;
  const running = s.running.map((r) => `${r.id} ${r.epoch}/${r.epochs}`).join(', ');
  return (
    `suite: ${s.done}/${s.total} done, ${s.running.length} running${running ? ` (${running})` : ''}, ${left} left` +
    `${s.failed ? `, ${s.failed} failed` : ''}  ETA ${s.epochsLeft === 0 ? '0:00' : formatDuration(eta)}`
  );
}

export interface SuiteProgress {
  update(snapshot: SuiteProgressSnapshot, event?: string): void;
  finish(): void;
}

export class ConsoleSuiteProgress implements SuiteProgress {
  private lastPrint = -Infinity;
  private liveShown = false;

  constructor(
    private readonly out: ProgressWriter,
    private readonly options: { readonly live: boolean; readonly interval?: number; readonly now?: () => number },
  ) {}

  update(snapshot: SuiteProgressSnapshot, event?: string): void {
    const line = formatSuiteProgress(snapshot);
    if (this.options.live) {
      if (event !== undefined) this.write(`\r\x1b[K${event}\n`);
      this.write(`\r${line}\x1b[K`);
      this.liveShown = true;
      return;
    }
    const now = (this.options.now ?? (() => performance.now()))();
    if (event !== undefined) this.write(`${event}\n`);
    if (event !== undefined || now - this.lastPrint >= (this.options.interval ?? 30) * 1000) {
      this.write(`${line}\n`);
      this.lastPrint = now;
    }
  }

  finish(): void {
    if (this.liveShown) this.write('\r\x1b[K');
    this.liveShown = false;
  }

  private write(text: string): void {
    this.out.write(text);
  }
}

export const SILENT_SUITE_PROGRESS: SuiteProgress = { update() {}, finish() {} };
