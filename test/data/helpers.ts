import { mkdtemp, rm } from 'node:fs/promises';
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
