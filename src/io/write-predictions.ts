import { extname } from 'node:path';
import { atomicWriteFile } from '../util/atomic-write.js';
import { describe, invalidArgument } from '../util/errors.js';
import type { Matrix } from '../util/matrix.js';
import { writeNpy } from './npy.js';

/**
 * Writing a prediction matrix (N × C) by extension, atomically: `.npy` (float32 or float64), `.csv` (no header,
 * shortest round-trip decimal for each value) or `.json` (`{"<key>": [[...], ...]}`).
 */
export interface MatrixWriteOptions {
  /** Stored precision: float32 (default) or float64. CSV/JSON print the value of that precision. */
  dtype?: 'float32' | 'float64';
  /** Key of the JSON object (default "probs"). */
  key?: string;
  /** Argument name for errors (default "path"). */
  argName?: string;
}

export async function writeMatrixFile(path: string, m: Matrix, options: MatrixWriteOptions = {}): Promise<void> {
  const argName = options.argName ?? 'path';
  const dtype = options.dtype ?? 'float32';
  if (dtype !== 'float32' && dtype !== 'float64') invalidArgument('dtype', "'float32' or 'float64'", describe(dtype));
  const data = dtype === 'float32' ? (m.data instanceof Float32Array ? m.data : Float32Array.from(m.data)) : m.data instanceof Float64Array ? m.data : Float64Array.from(m.data);
  const ext = extname(path).toLowerCase();
  if (ext === '.npy') return writeNpy(path, data, [m.rows, m.cols]);
  if (ext !== '.csv' && ext !== '.json') invalidArgument(argName, 'an output file ending in .npy, .csv or .json', describe(path));
  const lines: string[] = [];
  for (let i = 0; i < m.rows; i++) lines.push(Array.from(data.subarray(i * m.cols, (i + 1) * m.cols), String).join(','));
  const text = ext === '.csv' ? lines.join('\n') + (m.rows ? '\n' : '') : `{${JSON.stringify(options.key ?? 'probs')}: [\n${lines.map((l) => `[${l}]`).join(',\n')}\n]}\n`;
  return atomicWriteFile(path, text);
}
