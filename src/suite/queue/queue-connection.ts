import { describe, invalidArgument } from '../../util/errors.js';

/**
 * The Redis connection of `--queue URL` (BullMQ's `connection` option, passed to ioredis):
 *
 *   redis://HOST:PORT                    plain
 *   redis://:PASSWORD@HOST:PORT          `requirepass` authentication
 *   redis://USER:PASSWORD@HOST:PORT      an ACL user
 *   rediss://…                           the same over TLS (the server's certificate is checked against the system's
 *                                        CAs and NODE_EXTRA_CA_CERTS)
 *   …/DB                                 a database number (default 0)
 *
 * The user name and password are percent-decoded (a password with @ or / is written %40, %2F). They never appear in
 * a message: `maskQueueUrl` is what is printed, and `maskSecrets` cleans any text that might carry them (errors from
 * the Redis client, log lines; a password shorter than 3 characters is masked only inside the URL).
 * `maxRetriesPerRequest: null` is what BullMQ workers require (blocking commands must not time out).
 */
export interface QueueConnection {
  readonly host: string;
  readonly port: number;
  readonly username?: string;
  readonly password?: string;
  readonly db?: number;
  readonly tls?: Record<string, never>;
  readonly maxRetriesPerRequest: null;
}

/** Name of the BullMQ queue every `calib` coordinator and worker uses (jobs carry their suite and run). */
export const QUEUE_NAME = 'calibkit-runs';

const URL_FORM = 'redis://[USER:PASSWORD@]HOST:PORT[/DB] or rediss://… (TLS)';
const URL_PATTERN = /^(rediss?):\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):(\d{1,5})(?:\/(\d{1,2}))?\/?$/;

/** `url` with its user information replaced: `redis://alice:***@host:6379`, `redis://:***@host:6379`. */
export function maskQueueUrl(url: string): string {
  if (typeof url !== 'string') return String(url);
  return url.replace(/^([a-z]+:\/\/)([^@/]*)@/i, (_m, scheme: string, info: string) => {
    const colon = info.indexOf(':');
    return `${scheme}${colon >= 0 ? `${info.slice(0, colon)}:***` : '***'}@`;
  });
}

/** `text` with the password (and the whole user information of `url`) of a queue connection replaced by ***. */
export function maskSecrets(text: string, url: string): string {
  let out = text.split(url).join(maskQueueUrl(url));
  const m = URL_PATTERN.exec(url);
  for (const secret of [m?.[3], m?.[3] !== undefined ? safeDecode(m[3]) : undefined]) {
    if (secret !== undefined && secret.length >= 3) out = out.split(secret).join('***');
  }
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function parseQueueUrl(url: string, argument = '--queue'): QueueConnection {
  const m = typeof url === 'string' ? URL_PATTERN.exec(url) : null;
  if (!m) invalidArgument(argument, URL_FORM, describe(maskQueueUrl(url)));
  const port = Number(m[5]);
  if (port < 1 || port > 65535) invalidArgument(argument, 'a port in 1…65535', describe(maskQueueUrl(url)));
  const decode = (s: string, what: string): string => {
    try {
      return decodeURIComponent(s);
    } catch {
      return invalidArgument(argument, `a percent-encoded ${what} (write @ as %40, / as %2F, % as %25)`, describe(maskQueueUrl(url)));
    }
  };
  const username = m[2] ? decode(m[2], 'user name') : undefined;
  const password = m[3] !== undefined ? decode(m[3], 'password') : undefined;
  if (username !== undefined && password === undefined) invalidArgument(argument, `${URL_FORM} (a user name needs its password: USER:PASSWORD@)`, describe(maskQueueUrl(url)));
  return {
    host: m[4]!.replace(/^\[|\]$/g, ''),
    port,
    ...(username ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
    ...(m[6] !== undefined ? { db: Number(m[6]) } : {}),
    ...(m[1] === 'rediss' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}
