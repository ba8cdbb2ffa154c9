/**
 * Connecting to the queue's Redis without waiting silently: `waitForRedis` fails at the first connection error
 * (refused, unknown host, wrong password, TLS) or after QUEUE_CONNECT_SECONDS, naming the URL with its password
 * masked; `ConnectionWatch` follows a live connection and says when it is lost, when it is still lost (every
 * `repeatSeconds`), and when it is back.
 */
import { invalidArgument } from '../util/errors.js';
import { maskQueueUrl, maskSecrets } from './queue-connection.js';

/** How long a coordinator or worker waits for Redis to answer at start. */
export const QUEUE_CONNECT_SECONDS = 10;

/** A BullMQ Queue or Worker (both emit 'error' and can wait until connected). */
interface Connectable {
  waitUntilReady(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/** Wait until `target` is connected; refuse `--queue` (InvalidArgumentError) at its first error or the time limit. */
export async function waitForRedis(target: Connectable, url: string, seconds = QUEUE_CONNECT_SECONDS): Promise<void> {
  let onError: (e: Error) => void = () => {};
  let timer: NodeJS.Timeout | undefined;
  const failed = new Promise<never>((_, reject) => {
    onError = reject;
    target.on('error', onError);
    timer = setTimeout(() => reject(new Error(`no answer within ${seconds} s`)), seconds * 1000);
  });
  try {
    await Promise.race([target.waitUntilReady(), failed]);
  } catch (e) {
    invalidArgument('--queue', `a Redis server that accepts the connection (tried for up to ${seconds} s)`, `${maskQueueUrl(url)} (${maskSecrets((e as Error).message || String(e), url)})`);
  } finally {
    clearTimeout(timer);
    target.removeListener('error', onError);
    failed.catch(() => {});
  }
}

/**
 * Follows the health of a connection from the outcome of regular calls (`ok()` after a call answered, `failed()`
 * when one failed or did not answer in time) and the client's errors (`error(e)`), and says what happened through
 * `log`: "lost the connection to Redis at URL (reason); retrying", "still no connection … after N s", "reconnected".
 */
export class ConnectionWatch {
  private lostSince: number | null = null;
  private lastSaid = 0;
  private lastError = '';

  constructor(
    private readonly url: string,
    private readonly log: (line: string) => void,
    private readonly repeatSeconds: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  error(e: Error): void {
    this.lastError = maskSecrets(e.message || String(e), this.url);
  }

  ok(): void {
    if (this.lostSince !== null) this.log(`reconnected to Redis at ${maskQueueUrl(this.url)} after ${Math.round((this.now() - this.lostSince) / 1000)} s`);
    this.lostSince = null;
  }

  failed(reason?: string): void {
    const t = this.now();
    const why = reason ? maskSecrets(reason, this.url) : this.lastError || 'no answer';
    if (this.lostSince === null) {
      this.lostSince = t;
      this.lastSaid = t;
      this.log(`lost the connection to Redis at ${maskQueueUrl(this.url)} (${why}); retrying`);
    } else if (t - this.lastSaid >= this.repeatSeconds * 1000) {
      this.lastSaid = t;
      this.log(`still no connection to Redis at ${maskQueueUrl(this.url)} after ${Math.round((t - this.lostSince) / 1000)} s (${why}); retrying (Ctrl-C stops; the suite resumes where it stopped)`);
    }
  }

  get connected(): boolean {
    return this.lostSince === null;
  }
}

/** `promise`, or a rejection after `ms` (the promise keeps running; its late outcome is ignored). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  promise.catch(() => {});
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
