/**
 * The suite report's accuracy–confidence joint density per epoch (Thulasidasan et al. 2019, Fig. 1), drawn from
 * the per-epoch validation logits that runs keep with `epochLogits`: one row per method (its first seed's run),
 * one column per chosen epoch (first, ¼, ½, ¾ and last), each panel the density of 300 random groups of 100
 * validation samples (the same groups in every panel) at (mean confidence, accuracy).
 */
import { groupConfidenceAccuracy } from '../../metrics/group-confidence-accuracy.js';
import { readLabelsFile, readMatrixFile } from '../../io/read-predictions.js';
import { jointDensitySvg, type DensityPanel } from '../../report/joint-density-chart.js';
import { epochLogitsPath, runPaths } from '../../train/artefacts/run-directory.js';
import { pathExists } from '../../util/path-exists.js';
import type { MethodResults } from './suite-results.js';

/** Up to five epochs spread over 1..E: 1, ⌈E/4⌉, ⌈E/2⌉, ⌈3E/4⌉, E (duplicates dropped). */
export function densityEpochs(epochs: number): number[] {
  return [...new Set([1, Math.ceil(epochs / 4), Math.ceil(epochs / 2), Math.ceil((3 * epochs) / 4), epochs])].filter((e) => e >= 1);
}

/** The figure for `methods` (one group), or null when no method's first run kept its epoch logits. */
export async function densityFigureSvg(methods: readonly MethodResults[], group: string): Promise<string | null> {
  const rows: DensityPanel[][] = [];
  const labels: string[] = [];
  for (const m of methods) {
    const run = m.runs[0];
    if (!run || !(await pathExists(epochLogitsPath(run.dir, 1)))) continue;
    const y = await readLabelsFile(runPaths(run.dir).valLabels, 'val-labels.npy');
    const panels: DensityPanel[] = [];
    for (const e of densityEpochs(run.log.length)) {
      const path = epochLogitsPath(run.dir, e);
      if (!(await pathExists(path))) continue;
      const points = groupConfidenceAccuracy(await readMatrixFile(path, `epoch-logits/val-${e}`), y, { seed: 0 });
      panels.push({ title: `epoch ${e}`, points });
    }
    if (panels.length) {
      rows.push(panels);
      labels.push(m.label.length > 20 ? `${m.label.slice(0, 19)}…` : m.label);
    }
  }
  if (!rows.length) return null;
  // Both axes start at the lowest group value, floored to a tenth, so the panels zoom onto where the points are.
  let low = 1;
  for (const row of rows) for (const p of row) for (const q of p.points) low = Math.min(low, q.confidence, q.accuracy);
  const lo = Math.min(0.9, Math.max(0, Math.floor(low * 10) / 10));
  return jointDensitySvg(rows, { title: `Accuracy vs confidence per epoch (validation) — ${group}`, rowLabels: labels, lo });
}
