import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PANELS_PER_ROW, smallMultiplesSvg } from '../../src/suite/report/suite-figures.js';
import { makeData } from '../report/make-data.js';
import { parseXml } from '../report/xml-check.js';

/** Positions of the panel titles "Method k — …" in the SVG, in panel order. */
function titlePositions(svg: string): { x: number; y: number }[] {
  return [...svg.matchAll(/<text class="title" x="([\d.]+)" y="([\d.]+)"[^>]*>Method (\d+) —/g)].sort((a, b) => Number(a[3]) - Number(b[3])).map((m) => ({ x: Number(m[1]), y: Number(m[2]) }));
}

test('reliability small multiples wrap into rows of at most six panels (18 → 3 rows of 6, each panel 250 px wide)', () => {
  const data = makeData([
    [10, 0.5, 0.6],
    [20, 0.8, 0.9],
  ]);
  for (const [count, rows, columns] of [
    [1, 1, 1],
    [6, 1, 6],
    [7, 2, 4],
    [12, 2, 6],
    [18, 3, 6],
  ] as const) {
    const svg = smallMultiplesSvg(
      Array.from({ length: count }, (_, i) => ({ title: `Method ${i + 1}`, data })),
      'Before post-hoc calibration',
      'rel',
    );
    parseXml(svg); // well-formed
    const width = Number(/<svg[^>]* width="(\d+)"/.exec(svg)![1]);
    assert.equal(width, 250 * columns, `${count} panels: width ${width}`);
    assert.ok(columns <= MAX_PANELS_PER_ROW);
    const at = titlePositions(svg);
    assert.equal(at.length, count);
    assert.equal(new Set(at.map((p) => p.y)).size, rows, `${count} panels: ${rows} rows`);
    assert.equal(new Set(at.map((p) => p.x)).size, Math.min(count, columns), `${count} panels: ${columns} columns`);
    // Row-major: panel i sits in row ⌊i / columns⌋, column i mod columns.
    at.forEach((p, i) => {
      assert.equal(p.x, at[i % columns]!.x, `panel ${i + 1} column`);
      assert.equal(p.y, at[Math.floor(i / columns) * columns]!.y, `panel ${i + 1} row`);
    });
    const height = Number(/<svg[^>]* height="([\d.]+)"/.exec(svg)![1]);
    assert.ok(height >= rows * 290, `${count} panels: height ${height}`);
  }
});
