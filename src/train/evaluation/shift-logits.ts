/**
 * The logits behind a run's ood.json, kept in its shift/ folder (run-directory.ts) so post-hoc calibrators fitted on
 * the clean validation split can be applied to the OOD and corrupted sets afterwards (the suite's post-hoc step):
 * float32 [n, C] logits per set, int32 [n] labels of the test images once (a corruption keeps the labels).
 * Which sets exist, with which names, seed and bins, is read from ood.json itself.
 */
import { mkdir } from 'node:fs/promises';
import type { Corruption } from '../../data/corruptions/corruptions.js';
import { writeNpy } from '../../io/npy.js';
import { readLabelsFile, readMatrixFile } from '../../io/read-predictions.js';
import type { Matrix } from '../../util/matrix.js';
import { pathExists } from '../../util/path-exists.js';
import { readJson, runPaths, shiftLabelsPath, shiftLogitsPath } from '../artefacts/run-directory.js';
import type { ShiftReport, ShiftSets } from './shift-metrics.js';

function float32(data: Float32Array | Float64Array): Float32Array {
  return data instanceof Float32Array ? data : Float32Array.from(data);
}

/** Write the logits of `sets` (from `predictShiftSets`) into run `dir`'s shift/ folder. */
export async function writeShiftLogits(dir: string, sets: ShiftSets): Promise<void> {
  await mkdir(runPaths(dir).shift, { recursive: true });
  const put = (path: string, m: Matrix) => writeNpy(path, float32(m.data), [m.rows, m.cols]);
  await put(shiftLogitsPath(dir, 'in'), sets.test.predictions);
  await writeNpy(shiftLabelsPath(dir), sets.test.labels, [sets.test.labels.length]);
  if (sets.noise) await put(shiftLogitsPath(dir, 'noise'), sets.noise);
  if (sets.oodDataset) await put(shiftLogitsPath(dir, 'ood'), sets.oodDataset.predictions);
  for (const c of sets.corruptions) await put(shiftLogitsPath(dir, c), c.predictions);
}

/**
 * The shift sets of run `dir` as written by `writeShiftLogits`, with ood.json's bins and seed; null when the run
 * has no ood.json or no shift/ logits (runs without `ood`, or written before the logits were kept).
 */
export async function readShiftLogits(dir: string): Promise<{ readonly sets: ShiftSets; readonly bins: number; readonly seed: number } | null> {
  const paths = runPaths(dir);
  if (!(await pathExists(paths.ood)) || !(await pathExists(shiftLogitsPath(dir, 'in')))) return null;
  const report = (await readJson(paths.ood)) as ShiftReport;
  const read = (path: string) => readMatrixFile(path, path);
  const corruptions: { corruption: Corruption; severity: number; predictions: Matrix }[] = [];
  for (const c of report.corruptions) corruptions.push({ corruption: c.corruption, severity: c.severity, predictions: await read(shiftLogitsPath(dir, c)) });
  const sets: ShiftSets = {
    input: 'logits',
    test: { dataset: report.in_distribution.dataset, predictions: await read(shiftLogitsPath(dir, 'in')), labels: await readLabelsFile(shiftLabelsPath(dir), shiftLabelsPath(dir)) },
    noise: report.noise ? await read(shiftLogitsPath(dir, 'noise')) : null,
    oodDataset: report.ood_dataset ? { dataset: report.ood_dataset.dataset, predictions: await read(shiftLogitsPath(dir, 'ood')) } : null,
    corruptions,
  };
  return { sets, bins: report.settings.bins, seed: report.settings.seed };
}
