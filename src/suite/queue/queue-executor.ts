/**
 * The coordinator side of `calib suite run … --queue URL`: every run to train becomes a job on the BullMQ queue
 * QUEUE_NAME; `calib worker` processes take them; the finished job's return value carries the run's files
 * (run-transfer.ts), written into the suite directory exactly where a local run would be.
 *
 * Job id = run id + a hash of the run's identity (run-identity.ts): its evaluation identity (every setting its files
 * depend on) and its post-hoc identity (calibrators, bins, convention, calibkit version). Re-running the suite command finds a job already
 * queued, running or finished (finished jobs stay in Redis 7 days) instead of adding it again, and a changed
 * setting gives a new job. A finished job's result is still checked before it is used: its config.json must have
 * the run's settings (else the job is discarded and queued again, once), and a posthoc.json computed with
 * other post-hoc settings is refitted here (run-suite.ts). A run to re-evaluate (only its evaluation settings
 * changed: run-reevaluate.ts) is trained again by a worker: its checkpoints stay in the coordinator's directory.
 *
 * Nothing waits silently. Every `pollMs` the coordinator asks Redis for each job's state:
 *   - a call that fails or gets no answer: "lost the connection to Redis …", repeated while it lasts, then
 *     "reconnected" (queue-health.ts ConnectionWatch);
 *   - a job Redis no longer knows (restarted without persistence, flushed) on two polls in a row: reported and
 *     queued again;
 *   - no worker connected for `workerWaitSeconds` while runs wait: said, and repeated every as many seconds.
 * A worker that dies mid-run stops renewing its job lock; another worker's stalled-job check puts the job back on
 * the queue and it runs again (training is deterministic, so the result is the same). A job that fails twice fails
 * the run.
 */
import { createHash } from 'node:crypto';
import { Job, Queue } from 'bullmq';
import type { TrainConfig } from '../../train/train-config.js';
import { maskQueueUrl, maskSecrets, parseQueueUrl, QUEUE_NAME } from './queue-connection.js';
import { ConnectionWatch, probeRedis, waitForRedis, withTimeout } from './queue-health.js';
import type { RunExecutor, RunOutcome, RunTask } from '../run-executor.js';
import { readQueueFailureReason } from './queue-failure.js';
import { posthocChanges } from '../identity/run-check.js';
import { posthocHash, posthocIdentity, evaluationHash, type PosthocIdentity } from '../identity/run-identity.js';
import { unpackRun, type PackedRun } from './run-transfer.js';

/** What a job carries to the worker. */
export interface RunJobData {
  readonly suite: string;
  readonly id: string;
  readonly config: TrainConfig;
  readonly threads: number;
  readonly posthoc: readonly string[];
  readonly bins: number;
  /** Opt-in metrics of the record the post-hoc step computes (the suite's `metrics:`); absent: none. */
  readonly metrics?: readonly string[];
}

export interface QueueExecutorOptions {
  readonly suiteName: string;
  readonly posthoc: readonly string[];
  readonly bins: number;
  /** Opt-in metrics of the record for the post-hoc step (default none). */
  readonly metrics?: readonly string[];
  /** Seconds runs may wait with no worker connected before the coordinator says so (and again every as many). */
  readonly workerWaitSeconds: number;
  /** Where the coordinator's messages go (connection lost / back, lost jobs, no worker, discarded results). */
  readonly log: (line: string) => void;
  /** Seconds between two looks at the queue (default 1). */
  readonly pollSeconds?: number;
}

/** How long one call to Redis may take before the connection counts as lost. */
const CALL_SECONDS = 5;
const FINISHED_AGE_SECONDS = 7 * 24 * 3600;

/** Job id of a run: its id and a hash of its training settings and post-hoc identity. */
export function runJobId(id: string, training: string, posthoc: PosthocIdentity): string {
  return `${id}-${createHash('sha256')
    .update(`${training}\n${posthocHash(posthoc)}`)
    .digest('hex')
    .slice(0, 16)}`;
}

/** Why a finished job's files are not the run's (its config.json has other training settings), or null. */
export function packedTrainingProblem(packed: PackedRun, training: string): string | null {
  if (packed === null || typeof packed !== 'object' || typeof packed.files !== 'object' || packed.files === null) return 'no run files';
  const config = packed.files['config.json'];
  if (config === undefined) return 'no config.json';
  try {
    const hash = evaluationHash(JSON.parse(Buffer.from(config, 'base64').toString('utf8')) as Record<string, unknown>);
    return hash === training ? null : 'its config.json has other training settings';
  } catch (e) {
    return `its config.json is unreadable (${(e as Error).message})`;
  }
}

/** What differs between a finished job's posthoc.json and the post-hoc identity asked for ([] when none). */
function packedPosthocChanges(packed: PackedRun, expected: PosthocIdentity): string[] {
  const text = packed.files['posthoc.json'];
  try {
    const identity = text === undefined ? undefined : (JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as { identity?: PosthocIdentity }).identity;
    return identity ? posthocChanges(identity, expected) : ['no recorded post-hoc identity'];
  } catch {
    return ['an unreadable posthoc.json'];
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export async function queueExecutor(url: string, options: QueueExecutorOptions): Promise<RunExecutor> {
  const connection = parseQueueUrl(url);
  const masked = maskQueueUrl(url);
  const log = (line: string): void => options.log(maskSecrets(line, url));
  const pollMs = Math.round((options.pollSeconds ?? 1) * 1000);
  await probeRedis(connection, url);
  const queue = new Queue<RunJobData, PackedRun>(QUEUE_NAME, { connection });
  const watch = new ConnectionWatch(url, log, Math.max(options.workerWaitSeconds, 10));
  // Always listened to: an 'error' without a listener would end the process with the client's stack trace.
  queue.on('error', (e) => watch.error(e));
  try {
    await waitForRedis(queue, url);
  } catch (e) {
    await withTimeout(queue.close(), CALL_SECONDS * 1000).catch(() => {});
    throw e;
  }
  /** A call to Redis; undefined when it failed or did not answer in time (the watch says so). */
  const call = async <T>(what: () => Promise<T>): Promise<T | undefined> => {
    try {
      const value = await withTimeout(what(), CALL_SECONDS * 1000);
      watch.ok();
      return value;
    } catch (e) {
      watch.failed((e as Error).message);
      return undefined;
    }
  };

  // Jobs this coordinator waits for, and the no-worker check over them.
  const waiting = new Set<string>();
  let noWorkerSince: number | null = null;
  let lastNoWorker = 0;
  let countWorkers = true;
  const checkWorkers = async (): Promise<void> => {
    if (!countWorkers || waiting.size === 0 || !watch.connected) {
      noWorkerSince = null;
      return;
    }
    let n: number;
    try {
      n = await withTimeout(queue.getWorkersCount(), CALL_SECONDS * 1000);
    } catch (e) {
      const message = (e as Error).message;
      if (/NOPERM|permission/i.test(message)) {
        countWorkers = false;
        log(`cannot count the workers on ${masked} (${message}): the no-worker warning is off`);
      }
      return;
    }
    const now = Date.now();
    if (n > 0) {
      noWorkerSince = null;
      return;
    }
    noWorkerSince ??= now;
    const waited = (now - noWorkerSince) / 1000;
    if (waited >= options.workerWaitSeconds && (now - lastNoWorker) / 1000 >= options.workerWaitSeconds) {
      lastNoWorker = now;
      log(`no calib worker has been connected to ${masked} for ${Math.round(waited)} s; ${waiting.size} run(s) waiting (start one: calib worker --queue ${masked})`);
    }
  };
  let checking = false;
  const monitor = setInterval(() => {
    if (checking) return;
    checking = true;
    void checkWorkers().finally(() => (checking = false));
  }, pollMs);

  const add = (task: RunTask, jobId: string): Promise<Job<RunJobData, PackedRun>> => {
    const data: RunJobData = {
      suite: options.suiteName,
      id: task.run.id,
      config: task.run.config,
      threads: task.threads,
      posthoc: options.posthoc,
      bins: options.bins,
      ...(options.metrics?.length ? { metrics: options.metrics } : {}),
    };
    return queue.add(task.run.id, data, { jobId, attempts: 2, backoff: { type: 'fixed', delay: 1000 }, removeOnComplete: { age: FINISHED_AGE_SECONDS }, removeOnFail: { age: FINISHED_AGE_SECONDS } });
  };

  return {
    concurrency: Number.MAX_SAFE_INTEGER,
    async execute(task: RunTask, onEpoch, signal): Promise<RunOutcome> {
      const training = evaluationHash(task.run.config);
      const expected = posthocIdentity(training, options.posthoc, options.bins, options.metrics ?? []);
      const jobId = runJobId(task.run.id, training, expected);
      const id = task.run.id;
      waiting.add(jobId);
      try {
        // Find the job (a failed one is retried) or add it; retried while Redis does not answer.
        for (;;) {
          if (signal.aborted) return { exitCode: 130 };
          const placed = await call(async () => {
            const job = await Job.fromId<RunJobData, PackedRun>(queue, jobId);
            if (job && (await job.isFailed())) await job.retry();
            if (!job) await add(task, jobId);
            return true;
          });
          if (placed) break;
          await sleep(pollMs, signal);
        }
        let unknown = 0;
        let discarded = 0;
        let lastEpoch = -1;
        for (;;) {
          await sleep(pollMs, signal);
          if (signal.aborted) return { exitCode: 130 };
          const state = await call(() => queue.getJobState(jobId));
          if (state === undefined) continue;
          if (state === 'unknown') {
            // Twice in a row: a job moving between lists is never in none of them for a whole poll.
            if (++unknown < 2) continue;
            unknown = 0;
            log(`lost job ${jobId} of run ${id}: Redis no longer has it (restarted or flushed?); queued again`);
            await call(() => add(task, jobId));
            continue;
          }
          unknown = 0;
          if (state === 'active') {
            const job = await call(() => Job.fromId<RunJobData, PackedRun>(queue, jobId));
            const epoch = (job?.progress as { epoch?: unknown } | undefined)?.epoch;
            if (typeof epoch === 'number' && epoch !== lastEpoch) {
              lastEpoch = epoch;
              onEpoch(epoch);
            }
            continue;
          }
          if (state === 'failed') {
            const job = await call(() => Job.fromId<RunJobData, PackedRun>(queue, jobId));
            const failure = readQueueFailureReason(job?.failedReason);
            return { exitCode: 1, error: maskSecrets(`queue job ${jobId} failed: ${failure.message}`, url), failure: failure.kind };
          }
          if (state !== 'completed') continue;
          const job = await call(() => Job.fromId<RunJobData, PackedRun>(queue, jobId));
          if (!job) continue;
          const result = job.returnvalue;
          const problem = packedTrainingProblem(result, training);
          if (problem !== null) {
            if (discarded++ >= 1) return { exitCode: 1, error: `queue job ${jobId} returned files that are not run ${id}'s (${problem}) twice` };
            log(`finished job ${jobId} of run ${id} holds other files than the run's settings give (${problem}): discarded and queued again`);
            await call(async () => {
              await job.remove();
              await add(task, jobId);
            });
            continue;
          }
          const changes = packedPosthocChanges(result, expected);
          if (changes.length) log(`finished job ${jobId} of run ${id}: its post-hoc results were computed with other settings (${changes.join('; ')}); refitted here`);
          await unpackRun(result, task.dir);
          return { exitCode: 0 };
        }
      } finally {
        waiting.delete(jobId);
      }
    },
    async close() {
      clearInterval(monitor);
      await withTimeout(queue.close(), CALL_SECONDS * 1000).catch(() => queue.disconnect());
    },
  };
}
