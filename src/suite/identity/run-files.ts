/**
 * Checks of a trained run's files, each problem one line naming the file (`test-logits.npy: 12 non-finite values
 * (NaN or ±∞) of 2000`): the files a suite reads after training must exist, parse, and agree with each other —
 * config.json and summary.json parse; the validation and test logits (and the training split's with
 * `evaluateTrain`) are finite float arrays whose rows match their labels, and the labels are classes of the logits
 * (or the ignored label of a segmentation run); with `ood`, ood.json parses and its shift/ logits are finite.
 * Used by `calib suite status` (to show broken runs), `calib suite run` (to retrain them) and the report (to
 * refuse them).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readNpy, type NpyArray } from '../../io/npy.js';
import { runPaths } from '../../train/artefacts/run-directory.js';
import { readShiftLogits } from '../../train/evaluation/shift-logits.js';
import { pathExists } from '../../util/path-exists.js';

/** A JSON file parsed as an object, or the problem ("summary.json: missing", "…: not valid JSON (…)"). */
export async function readJsonObject(path: string, name: string): Promise<{ value: Record<string, unknown> } | { problem: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    return { problem: `${name}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : `unreadable (${(e as Error).message})`}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: `${name}: not valid JSON (${(e as Error).message})` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { problem: `${name}: not a JSON object` };
  return { value: value as Record<string, unknown> };
}

async function npy(path: string, name: string, problems: string[]): Promise<NpyArray | null> {
  if (!(await pathExists(path))) {
    problems.push(`${name}: missing`);
    return null;
  }
  try {
    return await readNpy(path, name);
  } catch (e) {
    problems.push((e as Error).message.startsWith(name) ? (e as Error).message : `${name}: ${(e as Error).message}`);
    return null;
  }
}

function nonFinite(data: ArrayLike<number>): number {
  let n = 0;
  for (let i = 0; i < data.length; i++) if (!Number.isFinite(data[i]!)) n++;
  return n;
}

/** Problems of one logits / labels pair (same rows, finite logits, labels that are classes or the ignored label). */
async function checkPair(dir: string, logitsName: string, labelsName: string, ignoreIndex: number | null, problems: string[]): Promise<void> {
  const z = await npy(join(dir, logitsName), logitsName, problems);
  const y = await npy(join(dir, labelsName), labelsName, problems);
  if (z) {
    if (!(z.data instanceof Float32Array || z.data instanceof Float64Array) || z.shape.length < 2)
      problems.push(`${logitsName}: expected float logits (N, C, …), got ${z.dtype} (${z.shape.join(', ')})`);
    else {
      const bad = nonFinite(z.data);
      if (bad > 0) problems.push(`${logitsName}: ${bad} non-finite value${bad === 1 ? '' : 's'} (NaN or ±∞) of ${z.data.length}`);
    }
  }
  if (y) {
    if (y.data instanceof Float32Array || y.data instanceof Float64Array) problems.push(`${labelsName}: expected integer labels, got ${y.dtype}`);
    else if (z && z.shape.length >= 2) {
      if (y.shape[0] !== z.shape[0]) problems.push(`${labelsName}: ${y.shape[0]} rows, but ${logitsName} has ${z.shape[0]}`);
      const classes = z.shape[1]!;
      let bad = 0;
      for (let i = 0; i < y.data.length; i++) {
        const v = y.data[i]!;
        if (!(v >= 0 && v < classes) && v !== ignoreIndex) bad++;
      }
      if (bad > 0) problems.push(`${labelsName}: ${bad} label${bad === 1 ? '' : 's'} outside the ${classes} classes of ${logitsName}`);
    }
  }
}

/**
 * Problems of the files `calib train` wrote into run directory `dir` for configuration `config` (empty when the run
 * is whole). Expects a finished run (summary.json).
 */
export async function trainedFileProblems(dir: string, config: Readonly<Record<string, unknown>>): Promise<string[]> {
  const p = runPaths(dir);
  const problems: string[] = [];
  const summary = await readJsonObject(p.summary, 'summary.json');
  if ('problem' in summary) problems.push(summary.problem);
  const ignoreIndex = 'value' in summary && summary.value['task'] === 'segmentation' ? Number(summary.value['ignore_index']) : null;
  await checkPair(dir, 'val-logits.npy', 'val-labels.npy', ignoreIndex, problems);
  await checkPair(dir, 'test-logits.npy', 'test-labels.npy', ignoreIndex, problems);
  if (config['evaluateTrain'] === true) await checkPair(dir, 'train-logits.npy', 'train-labels.npy', ignoreIndex, problems);
  if (config['ood'] === true) {
    const ood = await readJsonObject(p.ood, 'ood.json');
    if ('problem' in ood) problems.push(ood.problem);
    else {
      try {
        const shift = await readShiftLogits(dir);
        if (shift) {
          const sets: [string, ArrayLike<number>][] = [['shift/in-logits.npy', shift.sets.test.predictions.data]];
          if (shift.sets.noise) sets.push(['shift/noise-logits.npy', shift.sets.noise.data]);
          if (shift.sets.oodDataset) sets.push(['shift/ood-logits.npy', shift.sets.oodDataset.predictions.data]);
          for (const c of shift.sets.corruptions) sets.push([`shift/${c.corruption}-s${c.severity}-logits.npy`, c.predictions.data]);
          for (const [name, data] of sets) {
            const bad = nonFinite(data);
            if (bad > 0) problems.push(`${name}: ${bad} non-finite value${bad === 1 ? '' : 's'} (NaN or ±∞) of ${data.length}`);
          }
        }
      } catch (e) {
        problems.push(`shift/: ${(e as Error).message.replace(`${dir}/`, '')}`);
      }
    }
  }
  return problems;
}
