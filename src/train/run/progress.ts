/**
 * Progress display of a training run. On a terminal: one line redrawn in place (carriage return + clear to end
 * of line) with a bar over the run's updates, the epoch, the running loss, samples/s and the ETA, redrawn at most
 * every `interval` ms; each finished epoch is printed as a permanent line above it. Elsewhere (CI logs, pipes, a
 * parent process reading stdout): the per-epoch lines, and within an epoch a permanent progress line every
 * `lineInterval` ms (default 30 s), so a long first epoch is not silent.
 *
 * ETA = remaining updates × (elapsed time / updates done in this process), so a resumed run estimates from its own
 * speed; validation time per epoch is folded in through the elapsed time.
 */
import type { EpochRecord } from '../artefacts/train-log.js';

/** What the trainer reports to a progress display. */
export interface TrainProgress {
  /** Training starts (or resumes) with `done` of `total` updates already made. */
  start(info: { readonly totalSteps: number; readonly doneSteps: number; readonly epochs: number }): void;
  /** One update finished (0-based epoch; running mean loss of the epoch; samples processed in the epoch). */
  step(info: { readonly epoch: number; readonly doneSteps: number; readonly loss: number; readonly samples: number; readonly trainSeconds: number }): void;
  /** An epoch finished. */
  epoch(record: EpochRecord, epochs: number): void;
  /** A free-form status line (evaluation, export, …). */
  message(text: string): void;
  /** Training is over (clears a live line). */
  finish(): void;
}

/** Something with `write` (a stream or a test buffer). */
export interface ProgressWriter {
  write(text: string): unknown;
}

/** Options of `ConsoleProgress`. */
export interface ConsoleProgressOptions {
  /** Redraw a live bar (true on a TTY). */
  readonly live: boolean;
  /** Width of the bar in characters (default 24). */
  readonly width?: number;
  /** Minimum ms between redraws (default 100). */
  readonly interval?: number;
  /** Without `live`: ms between progress lines within an epoch (default 30 000; 0 = epoch lines only). */
  readonly lineInterval?: number;
  /** Clock in ms (default performance.now; tests inject one). */
  readonly now?: () => number;
}

/** h:mm:ss or m:ss. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  const two = (n: number): string => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
}

const pct = (v: number): string => (Number.isFinite(v) ? `${(100 * v).toFixed(2)}%` : 'n/a');
const fixed = (v: number, d: number): string => (Number.isFinite(v) ? v.toFixed(d) : 'n/a');

/** The permanent line of a finished epoch. */
export function formatEpochLine(r: EpochRecord, epochs: number): string {
  const width = String(epochs).length;
  return (
    `epoch ${String(r.epoch).padStart(width)}/${epochs}  loss ${fixed(r.train_loss, 4)}  ` +
    `val acc ${pct(r.val_accuracy)}  nll ${fixed(r.val_nll, 4)}  ece ${pct(r.val_ece)}  adaece ${pct(r.val_adaece)}  ` +
    `lr ${r.lr.toPrecision(3)}  ${r.epoch_time_s.toFixed(1)} s  ${Math.round(r.samples_per_s)} samples/s${r.best ? '  *best' : ''}`
  );
}

/** Progress on a writer: a live bar on terminals, plain lines otherwise. */
export class ConsoleProgress implements TrainProgress {
  private readonly width: number;
  private readonly interval: number;
  private readonly now: () => number;
  private total = 0;
  private startDone = 0;
  private startTime = 0;
  private lastDraw = -Infinity;
  private lastLine = 0;
  private liveShown = false;
  private epochs = 0;

  constructor(
    private readonly out: ProgressWriter,
    private readonly options: ConsoleProgressOptions,
  ) {
    this.width = options.width ?? 24;
    this.interval = options.interval ?? 100;
    this.now = options.now ?? (() => performance.now());
  }

  start(info: { totalSteps: number; doneSteps: number; epochs: number }): void {
    this.total = info.totalSteps;
    this.startDone = info.doneSteps;
    this.epochs = info.epochs;
    this.startTime = this.now();
    this.lastLine = this.startTime;
  }

  step(info: { epoch: number; doneSteps: number; loss: number; samples: number; trainSeconds: number }): void {
    const t = this.now();
    if (!this.options.live) {
      const every = this.options.lineInterval ?? 30_000;
      if (every > 0 && t - this.lastLine >= every) {
        this.lastLine = t;
        this.out.write(`${this.status(info, t)}\n`);
      }
      return;
    }
    if (t - this.lastDraw < this.interval && info.doneSteps < this.total) return;
    this.lastDraw = t;
    const frac = this.total > 0 ? Math.min(1, info.doneSteps / this.total) : 1;
    const filled = Math.round(frac * this.width);
    const line = `[${'#'.repeat(filled)}${'-'.repeat(this.width - filled)}] ${this.status(info, t)}`;
    this.out.write(`\r${line}\x1b[K`);
    this.liveShown = true;
  }

  epoch(record: EpochRecord, epochs: number): void {
    this.lastLine = this.now();
    this.line(formatEpochLine(record, epochs));
  }

  /** "updates done/total  epoch e/E  loss …  samples/s  ETA" (ETA from this process's own speed). */
  private status(info: { epoch: number; doneSteps: number; loss: number; samples: number; trainSeconds: number }, t: number): string {
    const madeHere = info.doneSteps - this.startDone;
    const elapsed = (t - this.startTime) / 1000;
    const eta = madeHere > 0 ? ((this.total - info.doneSteps) * elapsed) / madeHere : Number.NaN;
    const speed = info.trainSeconds > 0 ? info.samples / info.trainSeconds : Number.NaN;
    return (
      `${info.doneSteps}/${this.total}  epoch ${info.epoch + 1}/${this.epochs}  loss ${fixed(info.loss, 4)}  ` +
      `${Number.isFinite(speed) ? Math.round(speed) : '?'} samples/s  ETA ${formatDuration(eta)}`
    );
  }

  message(text: string): void {
    this.line(text);
  }

  finish(): void {
    this.clearLive();
  }

  private line(text: string): void {
    this.clearLive();
    this.out.write(`${text}\n`);
  }

  private clearLive(): void {
    if (this.liveShown) {
      this.out.write('\r\x1b[K');
      this.liveShown = false;
      this.lastDraw = -Infinity;
    }
  }
}

/** A progress sink that shows nothing. */
export const SILENT_PROGRESS: TrainProgress = {
  start() {},
  step() {},
  epoch() {},
  message() {},
  finish() {},
};
