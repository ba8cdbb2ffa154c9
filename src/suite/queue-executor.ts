/**
 * The coordinator side of `calib suite run … --queue redis://HOST:PORT`: every unfinished run becomes a job on the
 * BullMQ queue QUEUE_NAME (job id = run id + a hash of its configuration, so re-running the suite command finds
 * jobs already queued, running or finished instead of adding them again); `calib worker` processes take them;
 * progress (finished epochs) arrives as job progress events; the finished job's return value carries the run's
 * files (run-transfer.ts), written into the suite directory exactly where a local run would be. A worker that
 * dies mid-run stops renewing its job lock; another worker's stalled-job check puts the job back on the queue and
 * it runs again (from scratch on a machine without the checkpoint: training is deterministic, so the result is
 * the same). A job that fails twice fails the run.
 */
import { createHash } from 'node:crypto';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { TrainConfig } from '../train/train-config.js';
import { parseQueueUrl, QUEUE_NAME } from './queue-connection.js';
import type { RunExecutor, RunOutcome, RunTask } from './run-executor.js';
import { unpackRun, type PackedRun } from './run-transfer.js';

/** What a job carries to the worker. */
export interface RunJobData {
  readonly suite: string;
  readonly id: string;
  readonly config: TrainConfig;
  readonly threads: number;
  readonly posthoc: readonly string[];
  readonly bins: number;
}

/** Job id of a run: its id and a hash of its configuration (without out/threads). */
export function runJobId(task: RunTask): string {
  const { out: _o, threads: _t, ...rest } = task.run.config;
  return `${task.run.id}-${createHash('sha256').update(JSON.stringify(rest)).digest('hex').slice(0, 16)}`;
}

export async function queueExecutor(url: string, _suiteDir: string, suiteName: string, settings: { posthoc: readonly string[]; bins: number }): Promise<RunExecutor> {
  const connection = parseQueueUrl(url);
  const queue = new Queue<RunJobData, PackedRun>(QUEUE_NAME, { connection });
  const events = new QueueEvents(QUEUE_NAME, { connection });
  const listeners = new Map<string, (epoch: number) => void>();
  events.on('progress', ({ jobId, data }) => {
    const epoch = (data as { epoch?: unknown } | null)?.epoch;
    if (typeof epoch === 'number') listeners.get(jobId)?.(epoch);
  });
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  return {
    concurrency: Number.MAX_SAFE_INTEGER,
    async execute(task: RunTask, onEpoch, signal): Promise<RunOutcome> {
      const jobId = runJobId(task);
      listeners.set(jobId, onEpoch);
      try {
        let job = await Job.fromId<RunJobData, PackedRun>(queue, jobId);
        if (job && (await job.isFailed())) await job.retry();
        if (!job) {
          const data: RunJobData = { suite: suiteName, id: task.run.id, config: task.run.config, threads: task.threads, posthoc: settings.posthoc, bins: settings.bins };
          job = await queue.add(task.run.id, data, { jobId, attempts: 2, backoff: { type: 'fixed', delay: 1000 }, removeOnComplete: { age: 7 * 24 * 3600 }, removeOnFail: { age: 7 * 24 * 3600 } });
        }
        const finished = job.waitUntilFinished(events);
        const aborted = new Promise<'aborted'>((resolve) => {
          if (signal.aborted) resolve('aborted');
          signal.addEventListener('abort', () => resolve('aborted'), { once: true });
        });
        let result: PackedRun | 'aborted';
        try {
          result = await Promise.race([finished, aborted]);
        } catch (e) {
          return { exitCode: 1, error: `queue job ${jobId} failed: ${(e as Error).message}` };
        }
        if (result === 'aborted') {
          finished.catch(() => {});
          return { exitCode: 130 };
        }
        await unpackRun(result, task.dir);
        return { exitCode: 0 };
      } finally {
        listeners.delete(jobId);
      }
    },
    async close() {
      await events.close();
      await queue.close();
    },
  };
}
