import { describe, invalidArgument } from '../util/errors.js';

/**
 * The Redis connection of `--queue redis://HOST:PORT` (BullMQ's `connection` option). `maxRetriesPerRequest:
 * null` is what BullMQ workers require (blocking commands must not time out).
 */
export interface QueueConnection {
  readonly host: string;
  readonly port: number;
  readonly maxRetriesPerRequest: null;
}

/** Name of the BullMQ queue every `calib` coordinator and worker uses (jobs carry their suite and run). */
export const QUEUE_NAME = 'calibkit-runs';

export function parseQueueUrl(url: string, argument = '--queue'): QueueConnection {
  const m = typeof url === 'string' ? /^redis:\/\/([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):(\d{1,5})\/?$/.exec(url) : null;
  if (!m) invalidArgument(argument, 'redis://HOST:PORT', describe(url));
  const port = Number(m[2]);
  if (port < 1 || port > 65535) invalidArgument(argument, 'a port in 1…65535', describe(url));
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port, maxRetriesPerRequest: null };
}
