/**
 * A training run that failed for a reason of its own making, not a bug and not bad input given up front: today, a
 * loss that stopped being finite (divergence: a learning rate far too high, a loss option that makes the objective
 * unbounded). The CLI prints it as one line, `calib: error: training failed: …`, and exits with code 1; the run
 * directory keeps its log and its last good checkpoint.
 */
export class TrainingError extends Error {
  /** 'diverged': the training loss or the validation outputs became NaN or ±∞; 'error': any other failure of the run. */
  readonly kind: TrainingFailureKind;
  constructor(message: string, kind: TrainingFailureKind = 'error') {
    super(message);
    this.name = 'TrainingError';
    this.kind = kind;
  }
}

/** How a training run failed, as the trainer records it (run-directory.ts: failure.json) and a suite's failed.json keeps it. */
export type TrainingFailureKind = 'diverged' | 'error';
