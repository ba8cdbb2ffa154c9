import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Random } from '../../src/util/random.js';

/** The committed fixture folder (dist/test/data/*.js → test/fixtures/data). */
export const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/data/', import.meta.url));

/** Run `body` with a fresh temporary directory that is removed afterwards. */
export async function withTempDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'calibkit-data-'));
  try {
    return await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Smooth random images in [0, 1] (sums of a few random low-frequency sinusoids), NCHW float32. */
export function smoothImages(n: number, c: number, h: number, w: number, seed: number): Float32Array {
  const rng = new Random(seed);
  const out = new Float32Array(n * c * h * w);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < c; k++) {
      const terms = Array.from({ length: 3 }, () => ({ fy: rng.uniform() * 0.6, fx: rng.uniform() * 0.6, p: rng.uniform() * 6.28, a: 0.15 + 0.1 * rng.uniform() }));
      const base = 0.3 + 0.4 * rng.uniform();
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          let v = base;
          for (const t of terms) v += t.a * Math.sin(t.fy * y + t.fx * x + t.p);
          out[((i * c + k) * h + y) * w + x] = Math.min(1, Math.max(0, v));
        }
      }
    }
  }
  return out;
}

/** Mean and population variance of an array. */
export function moments(values: ArrayLike<number>): { mean: number; variance: number } {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i]!;
  const mean = s / values.length;
  let v = 0;
  for (let i = 0; i < values.length; i++) v += (values[i]! - mean) ** 2;
  return { mean, variance: v / values.length };
}

/** MD5 of bytes, hex. */
export const md5Of = (b: Uint8Array): string => createHash('md5').update(b).digest('hex');

/**
 * Serve `files` (name → body) under http://127.0.0.1:<port>/data/ (404 for other names), appending each
 * requested name to `log`; returns the server (close it) and the base URL.
 */
export async function serveFiles(files: Readonly<Record<string, Uint8Array>>, log: string[]): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const name = (req.url ?? '').replace(/^\/data\//, '');
    log.push(name);
    const body = files[name];
    if (body === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { server, base: `http://127.0.0.1:${address.port}/data/` };
}
