/**
 * `calib worker --queue URL [--jobs N]` (URL: redis://[USER:PASSWORD@]HOST:PORT[/DB], rediss:// for TLS): a BullMQ worker that takes suite runs off the queue and
 * trains up to N side by side, each as a `calib train` child in a private temporary directory (resuming there if
 * this worker already holds a checkpoint of the run), reports finished epochs as job progress, fits the post-hoc
 * calibrators, and returns the run's files (run-transfer.ts) as the job's result; the temporary directory is
 * removed afterwards. Killed mid-run, the job's lock expires after `lockSeconds` and another worker's stalled-job
 * check requeues it (BullMQ's stalled-job handling; up to `maxStalled` times). The worker fails at start when Redis
 * does not accept the connection (queue-health.ts), and says when a live connection is lost and when it is back;
 * the URL's password never appears in its output.
 */
import { requireOptInNames } from '../../metrics/record/opt-in-metrics.js';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { CalibratorKind } from '../../posthoc/calibrators.js';
import { runTrainChild } from '../local-executor.js';
import { runPosthoc } from '../posthoc-step.js';
import { maskSecrets, parseQueueUrl, QUEUE_NAME } from './queue-connection.js';
import { ConnectionWatch, probeRedis, waitForRedis, withTimeout } from './queue-health.js';
import type { RunJobData } from './queue-executor.js';
import { queueFailureReason } from './queue-failure.js';
import { packRun, type PackedRun } from './run-transfer.js';
import { resolveTrainConfig } from '../../train/train-config.js';

export interface QueueWorkerOptions {
  readonly jobs: number;
  /** ONNX Runtime threads per run (default: the job's own). */
  readonly threads?: number;
  /** Seconds a job's lock lasts without renewal (default 30): how soon a dead worker's job is requeued. */
  readonly lockSeconds?: number;
  /** Times a stalled job is requeued before it fails (default 2). */
  readonly maxStalled?: number;
  /** Working directory (default: a calibkit-worker-<pid> folder in the system temp directory). */
  readonly workDir?: string;
  /** Log lines (job started, finished, failed). */
  readonly log?: (line: string) => void;
}

export interface RunningWorker {
  /** Stop taking jobs, stop the running ones (they are retried elsewhere) and disconnect. */
  close(): Promise<void>;
}

export async function startQueueWorker(url: string, options: QueueWorkerOptions): Promise<RunningWorker> {
  const connection = parseQueueUrl(url);
  const workDir = options.workDir ?? join(tmpdir(), `calibkit-worker-${process.pid}`);
  const raw = options.log ?? (() => {});
  const log = (line: string): void => raw(maskSecrets(line, url));
  const controller = new AbortController();
  const lockDuration = Math.round((options.lockSeconds ?? 30) * 1000);
  const processor = async (job: Job<RunJobData, PackedRun>): Promise<PackedRun> => {
    const data = job.data;
    const dir = join(workDir, job.id ?? data.id, 'run');
    await mkdir(join(workDir, job.id ?? data.id), { recursive: true });
    const config = resolveTrainConfig({ ...data.config, out: dir }, `job ${job.id} config`);
    log(`start ${data.suite}/${data.id} (job ${job.id}, attempt ${job.attemptsMade + 1})`);
    const outcome = await runTrainChild(
      { run: { id: data.id, method: '', seed: config.seed, config }, dir, threads: options.threads ?? data.threads },
      join(workDir, job.id ?? data.id, 'logs'),
      (epoch) => void job.updateProgress({ epoch }).catch(() => {}),
      controller.signal,
    );
    if (outcome.exitCode !== 0) {
      log(`failed ${data.id}: ${outcome.error ?? outcome.exitCode}`);
      const reason = queueFailureReason(outcome.failure ?? 'error', outcome.error ?? `calib train exited with code ${outcome.exitCode}`);
      // Training is deterministic: a run that diverged diverges again, so its job is not retried.
      throw outcome.failure === 'diverged' ? new UnrecoverableError(reason) : new Error(reason);
    }
    await runPosthoc(dir, data.posthoc as CalibratorKind[], data.bins, requireOptInNames(data.metrics ?? [], 'job metrics'));
    const packed = await packRun(dir);
    await rm(join(workDir, job.id ?? data.id), { recursive: true, force: true });
    log(`done  ${data.suite}/${data.id}`);
    return packed;
  };
  await probeRedis(connection, url);
  const worker = new Worker<RunJobData, PackedRun>(QUEUE_NAME, processor, {
    connection,
    concurrency: options.jobs,
    lockDuration,
    stalledInterval: Math.max(1000, Math.round(lockDuration / 2)),
    maxStalledCount: options.maxStalled ?? 2,
  });
  const watch = new ConnectionWatch(url, log, 30);
  // A lost connection shows as errors of the client (retried by ioredis): said once, then every 30 s, and when back.
  // Listened to from the start: an 'error' without a listener would end the process with the client's stack trace.
  let started = false;
  worker.on('error', (e) => {
    if (!started) return;
    watch.error(e);
    if (/ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH|Connection is closed|WRONGPASS|NOAUTH/i.test(e.message)) watch.failed();
    else log(`worker error: ${e.message}`);
  });
  try {
    await waitForRedis(worker, url);
  } catch (e) {
    await withTimeout(worker.close(true), 5000).catch(() => {});
    throw e;
  }
  started = true;
  const heartbeat = setInterval(() => {
    void withTimeout(worker.client, 5000).then(
      (c) => (c.status === 'ready' ? watch.ok() : watch.failed()),
      () => watch.failed(),
    );
  }, 2000);
  return {
    async close() {
      clearInterval(heartbeat);
      controller.abort();
      await worker.close();
    },
  };
}
