/**
 * Renders the report layer's figures for synthetic overconfident (s = 2, τ = 5) and well-calibrated (s = 2, τ = 2)
 * models (syntheticOverconfident is calibrated near τ = s: the noise is unit Gaussian, so the posterior is softmax(s·z*))
 * to a directory (default /tmp/report-check) as SVG and PNG, and prints render timings as JSON.
 * Usage: node dist/bench/report-figures.js [outDir]
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { syntheticOverconfident } from '../src/data/synthetic.js';
import { calibrationFigureSvg, confidenceHistogramSvg, reliabilityDiagramSvg, svgToPng, writeFigure } from '../src/report/index.js';
import { reliabilityFromLogits } from '../test/report/reliability-helper.js';

const outDir = process.argv[2] ?? '/tmp/report-check';
mkdirSync(outDir, { recursive: true });

const cases = [
  { name: 'overconfident', overconfidence: 5, title: 'Overconfident (τ = 5)' },
  { name: 'calibrated', overconfidence: 2, title: 'Well calibrated (τ = 2)' },
];
const timings: Record<string, number> = {};
for (const c of cases) {
  const set = syntheticOverconfident({ n: 10000, classes: 10, seed: 1, separation: 2, overconfidence: c.overconfidence });
  const data = reliabilityFromLogits(set.logits, set.labels, set.classes, 15);
  let t = performance.now();
  const figure = calibrationFigureSvg(data, { title: c.title });
  timings[`${c.name}.figureSvgMs`] = performance.now() - t;
  t = performance.now();
  svgToPng(figure);
  timings[`${c.name}.figurePngMs`] = performance.now() - t;
  await writeFigure(join(outDir, `${c.name}-figure.svg`), figure);
  await writeFigure(join(outDir, `${c.name}-figure.png`), figure);
  await writeFigure(join(outDir, `${c.name}-side.png`), calibrationFigureSvg(data, { title: c.title, layout: 'side-by-side' }));
  await writeFigure(join(outDir, `${c.name}-reliability.png`), reliabilityDiagramSvg(data, { title: c.title }));
  await writeFigure(join(outDir, `${c.name}-histogram.png`), confidenceHistogramSvg(data, { title: c.title }));
  const fine = reliabilityFromLogits(set.logits, set.labels, set.classes, 100);
  await writeFigure(join(outDir, `${c.name}-100bins.png`), calibrationFigureSvg(fine, { title: `${c.title}, 100 bins` }));
  timings[`${c.name}.ecePercent`] = data.ece * 100;
}
process.stdout.write(JSON.stringify({ outDir, ...timings }, null, 2) + '\n');
