/**
 * How one run of a suite is executed: a `RunExecutor` trains it into its run directory (fresh, or resuming a
 * checkpoint) and reports finished epochs. The local executor runs a `calib train` child process; the queue
 * executor (queue-executor.ts) hands the run to a BullMQ worker and writes the returned files.
 */
import type { TrainingFailureKind } from '../train/training-error.js';
import type { SuiteRun } from './expand-suite.js';

export interface RunTask {
  readonly run: SuiteRun;
  /** The run directory. */
  readonly dir: string;
  /** ONNX Runtime threads of this run. */
  readonly threads: number;
}

export interface RunOutcome {
  /** 0 when the run finished (summary.json written); 130 when stopped; anything else a failure. */
  readonly exitCode: number;
  /** Short reason of a failure (last line of the run's error output). */
  readonly error?: string;
  /**
   * The kind of a failure as the trainer recorded it (failure.json: 'diverged' when the training loss became NaN or
   * ±∞, else 'error'); the queue executor reads it from the job's failure reason (queue-failure.ts).
   */
  readonly failure?: TrainingFailureKind;
}

export interface RunExecutor {
  /** Most runs in flight at once. */
  readonly concurrency: number;
  execute(task: RunTask, onEpoch: (epoch: number) => void, signal: AbortSignal): Promise<RunOutcome>;
  /** Release resources (connections) once the suite is over. */
  close?(): Promise<void>;
}
