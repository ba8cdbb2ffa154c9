import { test } from 'node:test';
import assert from 'node:assert/strict';
import { confidenceHistogramSeries } from '../../src/suite/report/suite-figures.js';
import type { RunResult } from '../../src/suite/report/suite-results.js';

test('the in-vs-out confidence histograms of a method sum its seeds and show % of samples per bin centre', () => {
  const run = (inD: number[], noise: number[] | null, ood: number[] | null) =>
    ({ ood: { ood_dataset: ood ? { dataset: 'mnist/test' } : null, confidence_histogram: { bins: 4, in_distribution: inD, noise, ood_dataset: ood } } }) as unknown as RunResult;
  const series = confidenceHistogramSeries([run([0, 0, 1, 3], [2, 1, 1, 0], [0, 2, 2, 0]), run([0, 0, 0, 4], [4, 0, 0, 0], [1, 1, 1, 1]), { ood: null } as unknown as RunResult]);
  assert.deepEqual(
    series.map((s) => s.name),
    ['in distribution (test)', 'Gaussian noise', 'mnist/test'],
  );
  assert.deepEqual(series[0]!.points, [
    { x: 0.125, y: 0 },
    { x: 0.375, y: 0 },
    { x: 0.625, y: 12.5 },
    { x: 0.875, y: 87.5 },
  ]);
  assert.deepEqual(
    series[1]!.points.map((p) => p.y),
    [75, 12.5, 12.5, 0],
  );
  assert.deepEqual(
    series[2]!.points.map((p) => p.y),
    [12.5, 37.5, 37.5, 12.5],
  );
  assert.deepEqual(confidenceHistogramSeries([{ ood: { noise: { auroc: 1 } } } as unknown as RunResult]), [], 'an ood.json written before the histograms existed draws nothing');
});
