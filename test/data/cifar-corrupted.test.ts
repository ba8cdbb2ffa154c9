import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { CIFAR_C_CORRUPTIONS, DatasetNotFoundError, loadCifarCorrupted } from '../../src/data/index.js';
import { writeNpy } from '../../src/io/npy.js';
import { withTempDir } from './helpers.js';

const value = (n: number, y: number, x: number, k: number) => (5 * n + 3 * y + 7 * x + 11 * k) % 256;

test('CIFAR-10-C: severity s is the s-th of five row blocks, HWC bytes become [3, 32, 32] in [0, 1]', async () => {
  await withTempDir(async (dir) => {
    const folder = join(dir, 'CIFAR-10-C');
    await mkdir(folder);
    const n = 10; // five severities of two images (the release: 5 × 10,000)
    const x = new Uint8Array(n * 32 * 32 * 3);
    for (let i = 0; i < n; i++) for (let y = 0; y < 32; y++) for (let xx = 0; xx < 32; xx++) for (let k = 0; k < 3; k++) x[((i * 32 + y) * 32 + xx) * 3 + k] = value(i, y, xx, k);
    await writeNpy(join(folder, 'fog.npy'), x, [n, 32, 32, 3], { dtype: 'uint8' });
    await writeNpy(
      join(folder, 'labels.npy'),
      Int32Array.from({ length: n }, (_, i) => (i * 3) % 10),
      [n],
    );
    for (const severity of [1, 3, 5]) {
      const d = await loadCifarCorrupted({ path: folder, corruption: 'fog', severity });
      assert.equal(d.name, `cifar10-c/fog/${severity}`);
      assert.deepEqual(d.shape, [3, 32, 32]);
      const first = (severity - 1) * 2;
      assert.deepEqual(Array.from(d.labels), [(first * 3) % 10, ((first + 1) * 3) % 10]);
      for (const [i, k, y, xx] of [
        [0, 0, 0, 0],
        [1, 2, 31, 4],
        [0, 1, 7, 30],
      ] as const) {
        assert.equal(d.images[((i * 3 + k) * 32 + y) * 32 + xx], Math.fround(value(first + i, y, xx, k) / 255));
      }
    }
    await assert.rejects(loadCifarCorrupted({ path: folder, corruption: 'fogg', severity: 1 }), /corruption: expected one of gaussian_noise/);
    await assert.rejects(loadCifarCorrupted({ path: folder, corruption: 'fog', severity: 6 }), /severity: expected an integer in 1\.\.5/);
    await assert.rejects(
      loadCifarCorrupted({ path: folder, corruption: 'snow', severity: 1 }),
      (e: unknown) => e instanceof DatasetNotFoundError && /snow\.npy not found.*zenodo/.test((e as Error).message),
    );
    await writeNpy(join(folder, 'frost.npy'), new Uint8Array(3 * 32 * 32 * 3), [3, 32, 32, 3], { dtype: 'uint8' });
    await assert.rejects(loadCifarCorrupted({ path: folder, corruption: 'frost', severity: 1 }), /labels/);
  });
  assert.equal(CIFAR_C_CORRUPTIONS.length, 19);
});
