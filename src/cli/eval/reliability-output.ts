import { extname } from 'node:path';
import type { CalibrationCurve } from '../../metrics/index.js';
import { atomicWriteFile } from '../../util/atomic-write.js';
import { invalidArgument } from '../../util/errors.js';
import { requireOutputPath, writingOutput } from '../output-path.js';

/**
 * `--reliability FILE`: the reliability-diagram bins as data (`calibrationCurve`, scikit-learn's
 * `calibration_curve` semantics), as JSON ({"strategy", "bins": [{lower, upper, count, mean_predicted,
 * fraction_positive}]}) or CSV (one row per non-empty bin, header lower,upper,count,mean_predicted,
 * fraction_positive) by the file's extension; written atomically.
 */
export async function requireReliabilityPath(path: string): Promise<void> {
  const ext = extname(path).toLowerCase();
  if (ext !== '.json' && ext !== '.csv') invalidArgument('--reliability', 'a file ending in .json or .csv', JSON.stringify(path));
  await requireOutputPath(path, '--reliability');
}

export function reliabilityText(curve: CalibrationCurve, format: 'json' | 'csv'): string {
  const rows = Array.from(curve.count, (count, b) => ({
    lower: curve.lower[b]!,
    upper: curve.upper[b]!,
    count,
    mean_predicted: curve.meanPredicted[b]!,
    fraction_positive: curve.fractionPositive[b]!,
  }));
  if (format === 'json') return `${JSON.stringify({ strategy: curve.strategy, bins: rows }, null, 1)}\n`;
  return ['lower,upper,count,mean_predicted,fraction_positive', ...rows.map((r) => `${r.lower},${r.upper},${r.count},${r.mean_predicted},${r.fraction_positive}`)].join('\n') + '\n';
}

export async function writeReliability(path: string, curve: CalibrationCurve): Promise<void> {
  const format = extname(path).toLowerCase() === '.csv' ? 'csv' : 'json';
  await writingOutput(path, '--reliability', () => atomicWriteFile(path, reliabilityText(curve, format)));
}
