import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { invalidArgument } from '../util/errors.js';

/**
 * Atomic file downloads into a cache directory: the body is streamed to `<destination>.<random>.part` in the
 * same directory, its checksum is verified (when one is given), and only then is it renamed onto the
 * destination, so an interrupted or corrupt download never leaves a file that looks complete.
 */
export interface DownloadOptions {
  /** Expected MD5 of the file (hex), checked before the file is moved into place. */
  md5?: string;
  /** Abort the request after this many milliseconds (default 10 minutes). */
  timeoutMs?: number;
}

/** Default cache root: $CALIBKIT_CACHE, else $XDG_CACHE_HOME/calibkit, else ~/.cache/calibkit. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env['CALIBKIT_CACHE']) return env['CALIBKIT_CACHE'];
  if (env['XDG_CACHE_HOME']) return join(env['XDG_CACHE_HOME'], 'calibkit');
  return join(homedir(), '.cache', 'calibkit');
}

/** MD5 of a file, hex. */
export async function md5File(path: string): Promise<string> {
  const hash = createHash('md5');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** Download `url` to `destination` atomically (see above). Throws with the URL and the reason on failure. */
export async function downloadFile(url: string, destination: string, options: DownloadOptions = {}): Promise<void> {
  if (!/^https?:\/\//.test(url)) invalidArgument('url', 'an http(s) URL', JSON.stringify(url));
  await mkdir(dirname(destination), { recursive: true });
  const part = `${destination}.${randomBytes(6).toString('hex')}.part`;
  try {
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 600_000), redirect: 'follow' });
    } catch (e) {
      throw new Error(`download: cannot fetch ${url}: ${(e as Error).message}${causeOf(e)}`);
    }
    if (!response.ok || response.body === null) throw new Error(`download: ${url} answered HTTP ${response.status} ${response.statusText}`);
    const hash = createHash('md5');
    const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
    body.on('data', (chunk: Buffer) => hash.update(chunk));
    await pipeline(body, createWriteStream(part, { flags: 'wx' }));
    const digest = hash.digest('hex');
    if (options.md5 !== undefined && digest !== options.md5.toLowerCase()) throw new Error(`download: ${url} has MD5 ${digest}, expected ${options.md5} (corrupt or changed file; nothing was saved)`);
    await rename(part, destination);
  } finally {
    await rm(part, { force: true });
  }
}

function causeOf(e: unknown): string {
  const cause = (e as { cause?: { message?: string } }).cause;
  return cause?.message ? ` (${cause.message})` : '';
}
