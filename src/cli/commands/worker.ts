import { defineCommand } from '../command.js';
import { maskQueueUrl, parseQueueUrl } from '../../suite/queue/queue-connection.js';
import { flag } from '../flag.js';
import { described, number, optional, string } from '../../util/schema.js';

/** `calib worker --queue URL [--jobs N]`: train suite runs from a BullMQ queue (src/suite/queue/queue-worker.ts). */
export const workerCommand = defineCommand({
  name: 'worker',
  summary: 'Train suite runs taken from a BullMQ queue in Redis (for calib suite run --queue), on any machine.',
  description: [
    'Takes runs put on the queue by calib suite run --queue, trains up to --jobs of them side by side (calib train',
    'children in a temporary directory), fits the post-hoc calibrators, and returns the run files (config, log,',
    'summary, validation/test logits and labels, post-hoc and OOD results; not checkpoints) through the queue. Runs',
    'until Ctrl-C (or SIGTERM); a run it was training is then retried by another worker. If a worker dies, its job',
    "is requeued once its lock expires (--lock seconds) by BullMQ's stalled-job check in another worker.",
    'URL: redis://HOST:PORT, redis://:PASSWORD@HOST:PORT or redis://USER:PASSWORD@HOST:PORT (percent-encode @ / % in',
    'the password), rediss://… for TLS, /DB for a database number. A server that does not accept the connection is',
    'refused within 10 s; a lost connection is reported and retried. The password is never printed.',
  ].join('\n'),
  examples: ['calib worker --queue redis://127.0.0.1:6379 --jobs 2', 'calib worker --queue rediss://calib:s3cret@redis.example.org:6380 --jobs 4'],
  flags: {
    queue: flag(described(string(), 'the Redis server of the queue: redis://[USER:PASSWORD@]HOST:PORT[/DB], rediss:// for TLS'), { valueName: 'URL' }),
    jobs: flag(optional(number({ integer: true, min: 1 }), 1, 'runs trained side by side'), { valueName: 'N' }),
    threads: flag(described(optional(number({ integer: true, min: 1 })), 'ONNX Runtime threads per run (default: as the suite asked)'), { valueName: 'T' }),
    lock: flag(optional(number({ min: 1 }), 30, "job lock duration in seconds: a dead worker's job is requeued after it"), { valueName: 'S' }),
  },
  async run(flags, io) {
    const jobs = flags.jobs;
    const lock = flags.lock;
    parseQueueUrl(flags.queue);
    const { startQueueWorker } = await import('../../suite/queue/queue-worker.js'); // BullMQ is loaded only here and with --queue
    const worker = await startQueueWorker(flags.queue, { jobs, ...(flags.threads !== undefined ? { threads: flags.threads } : {}), lockSeconds: lock, log: (l) => io.stdout.write(`${l}\n`) });
    io.stdout.write(`worker ${process.pid}: taking runs from ${maskQueueUrl(flags.queue)} (${jobs} at a time)\n`);
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.removeListener('SIGINT', stop);
        process.removeListener('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    io.stdout.write('worker: stopping\n');
    await worker.close();
    return 0;
  },
});
