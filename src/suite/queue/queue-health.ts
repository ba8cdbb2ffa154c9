/**
 * Connecting to the queue's Redis without waiting silently: `probeRedis` (and `waitForRedis` for the BullMQ client
 * made afterwards) fails at the first connection error (refused, unknown host, wrong password, TLS) or after
 * QUEUE_CONNECT_SECONDS, naming the URL with its password masked; `ConnectionWatch` follows a live connection and says when it is lost, when it is still lost (every
 * `repeatSeconds`), and when it is back.
 */
import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { invalidArgument } from '../../util/errors.js';
import { maskQueueUrl, maskSecrets, type QueueConnection } from './queue-connection.js';

/** How long a coordinator or worker waits for Redis to answer at start. */
export const QUEUE_CONNECT_SECONDS = 10;

/**
 * Check that the Redis server of `connection` accepts it — connect (TLS for rediss://), AUTH with the URL's
 * credentials, SELECT its database, PING — on a plain socket, before any BullMQ object exists (a BullMQ client
 * that never connected keeps retrying, and closing it then can raise an unhandled error). Refuses `--queue`
 * (InvalidArgumentError, the URL masked) at the first error or after `seconds`.
 */
export async function probeRedis(connection: QueueConnection, url: string, seconds = QUEUE_CONNECT_SECONDS): Promise<void> {
  const commands: string[][] = [];
  if (connection.password !== undefined) commands.push(connection.username ? ['AUTH', connection.username, connection.password] : ['AUTH', connection.password]);
  if (connection.db !== undefined) commands.push(['SELECT', String(connection.db)]);
  commands.push(['PING']);
  const encode = (args: readonly string[]): string => `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
  try {
    await new Promise<void>((resolve, reject) => {
      const socket: Socket = connection.tls
        ? tlsConnect({ host: connection.host, port: connection.port, ...(isIP(connection.host) ? {} : { servername: connection.host }) })
        : netConnect({ host: connection.host, port: connection.port });
      let settled = false;
      const done = (error?: Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        if (error) reject(error);
        else resolve();
      };
      const timer = setTimeout(() => done(new Error(`no answer within ${seconds} s`)), seconds * 1000);
      let buffer = '';
      let answered = 0;
      socket.once(connection.tls ? 'secureConnect' : 'connect', () => socket.write(commands.map(encode).join('')));
      socket.on('data', (data: Buffer) => {
        buffer += data.toString('utf8');
        for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (line.startsWith('-')) return done(new Error(line.slice(1)));
          if (++answered === commands.length) return done();
        }
      });
      socket.on('error', (e) => done(e));
      socket.on('close', () => done(new Error('the server closed the connection')));
    });
  } catch (e) {
    invalidArgument('--queue', `a Redis server that accepts the connection (tried for up to ${seconds} s)`, `${maskQueueUrl(url)} (${maskSecrets((e as Error).message || String(e), url)})`);
  }
}

/** A BullMQ Queue or Worker (both emit 'error' and can wait until connected). */
interface Connectable {
  waitUntilReady(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/** Wait until `target` (created after probeRedis passed) is connected; refuse `--queue` at its first error or the time limit. */
export async function waitForRedis(target: Connectable, url: string, seconds = QUEUE_CONNECT_SECONDS): Promise<void> {
  let onError: (e: Error) => void = () => {};
  let timer: NodeJS.Timeout | undefined;
  const failed = new Promise<never>((_, reject) => {
    onError = reject;
    target.on('error', onError);
    timer = setTimeout(() => reject(new Error(`no answer within ${seconds} s`)), seconds * 1000);
  });
  const ready = target.waitUntilReady();
  ready.catch(() => {});
  try {
    await Promise.race([ready, failed]);
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
    this.lastError = '';
  }

  /** A call failed (`reason`: its error); the client's last error, when there is one, says more. */
  failed(reason?: string): void {
    const t = this.now();
    const why = this.lastError || (reason ? maskSecrets(reason, this.url) : 'no answer');
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
