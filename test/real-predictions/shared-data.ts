/**
 * Access to ../shared/data/real-predictions for the tests (never copied into the repository). Tests call
 * `sharedDataOrSkip(t)`: when the folder is absent it prints the reason and skips.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readNpy } from '../../src/io/npy.js';
import type { Matrix } from '../../src/util/matrix.js';

/** dist/test/real-predictions → repository root → ../shared/data/real-predictions. */
export const REAL_PREDICTIONS = fileURLToPath(new URL('../../../../shared/data/real-predictions/', import.meta.url));

export const PUBLISHED = JSON.parse(readFileSync(fileURLToPath(new URL('../../../test/fixtures/real-predictions/published.json', import.meta.url)), 'utf8'));

/** True when the shared data exist; otherwise prints why and marks the test skipped. */
export function sharedDataOrSkip(t: { skip(message?: string): void }): boolean {
  if (existsSync(REAL_PREDICTIONS)) return true;
  const reason = `${REAL_PREDICTIONS} is absent (the real published predictions live beside the repository in ../shared)`;
  console.log(`# skipped: ${reason}`);
  t.skip(reason);
  return false;
}

export async function readMatrix(path: string): Promise<Matrix> {
  const a = await readNpy(REAL_PREDICTIONS + path);
  return { rows: a.shape[0]!, cols: a.shape[1]!, data: a.data as Float32Array };
}

export async function readLabels(path: string): Promise<Int32Array> {
  return (await readNpy(REAL_PREDICTIONS + path)).data as Int32Array;
}

export async function readVector(path: string): Promise<Float32Array> {
  return (await readNpy(REAL_PREDICTIONS + path)).data as Float32Array;
}
