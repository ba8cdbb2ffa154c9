import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calibrationFigureSvg } from '../../src/report/calibration-figure.js';
import { reliabilityDiagramSvg } from '../../src/report/reliability-diagram.js';
import { beforeAfterFigureSvg } from '../../src/report/before-after-figure.js';
import { lineChartSvg } from '../../src/report/line-chart.js';
import { textWidth } from '../../src/report/theme.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { makeData, type BinSpec } from './make-data.js';
import { byClass, findAll, num, parseXml, textOf } from './xml-check.js';

const SPECS: BinSpec[] = [
  [0, 0, 0],
  [1000, 0.3, 0.35],
  [2000, 0.5, 0.52],
  [3000, 0.6, 0.7],
  [4000, 0.8, 0.95],
];

test('an empty title draws no title row (the ECE leads the subtitle), in the figure and the diagram', () => {
  const data = makeData(SPECS);
  const root = parseXml(calibrationFigureSvg(data, { title: '' }));
  assert.equal(byClass(root, 'figure-title').length, 0);
  assert.match(textOf(byClass(root, 'figure-subtitle')[0]!), /^ECE \d+\.\d\d% · n = 10,000/);
  assert.equal(byClass(parseXml(reliabilityDiagramSvg(data, { title: '' })), 'title').length, 0);
});

test('a long title wraps onto lines that fit the figure instead of being clipped or shrunk to nothing', () => {
  const long = 'ResNet-110 trained with margin-based label smoothing on CIFAR-100, evaluated on the corrupted test set at severity five';
  const root = parseXml(calibrationFigureSvg(makeData(SPECS), { title: long }));
  const t = byClass(root, 'figure-title')[0]!;
  const lines = findAll(t, (e) => e.tag === 'tspan');
  assert.ok(lines.length >= 2 && lines.length <= 3, `${lines.length} lines`);
  const fs = num(t, 'font-size');
  assert.ok(fs >= 11, `font ${fs}`);
  const cx = num(t, 'x');
  for (const l of lines) {
    const half = (textWidth(textOf(l), fs) * 1.15) / 2;
    assert.ok(cx - half >= 0 && cx + half <= 480, `"${textOf(l)}" fits`);
  }
  assert.equal(lines.map(textOf).join(' '), `${long} — ECE ${(makeData(SPECS).ece * 100).toFixed(2)}%`);
  // The subtitle moves below the wrapped title.
  assert.ok(num(byClass(root, 'figure-subtitle')[0]!, 'y') > num(t, 'y') + (lines.length - 1) * fs);
});

test('bin counts are printed at 10 px, also in a 250-px small multiple with 15 bins', () => {
  const specs: BinSpec[] = Array.from({ length: 15 }, (_, i) => [100 + 37 * i, i / 15, (i + 0.5) / 15] as BinSpec);
  const root = parseXml(reliabilityDiagramSvg(makeData(specs), { width: 250, height: 290 }));
  const counts = byClass(root, 'counts')[0]!;
  assert.equal(num(counts, 'font-size'), 10);
  assert.equal(byClass(root, 'count').length, 15);
});

test('before and after recalibration in one figure: two panels, or both curves overlaid with their ECEs', () => {
  const before = makeData(SPECS);
  const after = makeData([
    [0, 0, 0],
    [1000, 0.3, 0.31],
    [2000, 0.5, 0.5],
    [3000, 0.6, 0.62],
    [4000, 0.8, 0.81],
  ]);
  const panels = parseXml(beforeAfterFigureSvg(before, after, { labels: ['Before', 'After TS (T = 1.50)'], title: 'CE on CIFAR-10' }));
  assert.equal(byClass(panels, 'reliability-diagram').length, 2);
  const titles = byClass(panels, 'title').map(textOf);
  assert.deepEqual(titles, [`Before — ECE ${(before.ece * 100).toFixed(2)}%`, `After TS (T = 1.50) — ECE ${(after.ece * 100).toFixed(2)}%`]);
  const ids = findAll(panels, (e) => e.attributes['id'] !== undefined).map((e) => e.attributes['id']);
  assert.equal(new Set(ids).size, ids.length, 'hatch pattern ids do not collide');
  const overlay = parseXml(beforeAfterFigureSvg(before, after, { layout: 'overlay' }));
  assert.equal(findAll(byClass(overlay, 'series-before')[0]!, (e) => e.tag === 'circle').length, 4, 'one marker per non-empty bin');
  assert.equal(findAll(byClass(overlay, 'series-after')[0]!, (e) => e.tag === 'circle').length, 4);
  const legend = textOf(byClass(overlay, 'legend')[0]!);
  assert.match(legend, new RegExp(`Before — ECE ${(before.ece * 100).toFixed(2)}%`));
  assert.match(legend, new RegExp(`After — ECE ${(after.ece * 100).toFixed(2)}%`));
  assert.throws(
    () => beforeAfterFigureSvg(before, makeData([[5, 1, 1]])),
    (e: unknown) => e instanceof InvalidArgumentError && /same 10000 samples/.test(e.message),
  );
  assert.throws(() => beforeAfterFigureSvg(before, after, { layout: 'grid' as never }), /layout: expected 'panels' or 'overlay'/);
});

test('line charts: error bars of ± err, the legend beside the plot, y range covering every bar', () => {
  const svg = lineChartSvg(
    [
      {
        name: 'MbLS',
        points: [
          { x: 0, y: 5, err: 1 },
          { x: 5, y: 3, err: 0.5 },
          { x: 10, y: 4 },
        ],
      },
      {
        name: 'MbLS after TS',
        points: [
          { x: 0, y: 2 },
          { x: 5, y: 1.5 },
          { x: 10, y: 1.8 },
        ],
      },
    ],
    { xLabel: 'margin m', yLabel: 'ECE (%)' },
  );
  const root = parseXml(svg);
  assert.equal(byClass(root, 'error-bar').length, 2);
  assert.equal(byClass(root, 'series').length, 2);
  const frame = byClass(root, 'frame')[0]!;
  const legendTexts = findAll(byClass(root, 'legend')[0]!, (e) => e.tag === 'text');
  assert.deepEqual(legendTexts.map(textOf), ['MbLS', 'MbLS after TS']);
  for (const t of legendTexts) assert.ok(num(t, 'x') > num(frame, 'x') + num(frame, 'width'), 'legend right of the plot');
  const yTicks = byClass(root, 'tick-labels')[0]!
    .children.filter((c) => typeof c !== 'string')
    .map((c) => Number(textOf(c as never)));
  assert.ok(Math.min(...yTicks) <= 1.5 && Math.max(...yTicks) >= 6, `ticks ${yTicks}`);
});
