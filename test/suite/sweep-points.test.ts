import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sweepPoints } from '../../src/suite/report/suite-figures.js';
import type { RunResult } from '../../src/suite/report/suite-results.js';

test('sweep curves skip seeds without the metric (a failed post-hoc fit) and values no seed has, instead of drawing NaN', () => {
  const run = (ece: number) => ({ ece }) as unknown as RunResult;
  const values = [
    { value: 0.3, runs: [run(0.02), run(0.04), run(0.03)] },
    { value: 1, runs: [run(0.05), run(Number.NaN), run(0.07)] },
    { value: 3, runs: [run(Number.NaN), run(Number.NaN)] },
  ];
  const points = sweepPoints(values, (r) => (r as unknown as { ece: number }).ece, true, 'std');
  assert.deepEqual(
    points.map((p) => p.x),
    [0.3, 1],
  );
  assert.ok(Math.abs(points[0]!.y - 3) < 1e-12 && Math.abs(points[1]!.y - 6) < 1e-12, JSON.stringify(points));
  assert.ok(Math.abs(points[1]!.err! - Math.SQRT2) < 1e-12, 'std over the two seeds that have it: 1.414 points');
});
