import { test } from 'node:test';
import { textWidth } from '../../src/report/theme.js';
import assert from 'node:assert/strict';
import { confidenceHistogramSvg } from '../../src/report/confidence-histogram.js';
import { makeData, type BinSpec } from './make-data.js';
import { byClass, num, parseXml, textOf, type XmlElement } from './xml-check.js';

const PX = 2e-3;

function frameOf(root: XmlElement): { x: number; y: number; w: number; h: number } {
  const f = byClass(root, 'frame')[0]!;
  return { x: num(f, 'x'), y: num(f, 'y'), w: num(f, 'width'), h: num(f, 'height') };
}

function close(actual: number, expected: number, what: string, tol = PX): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: expected ${expected}, got ${actual}`);
}

const SPECS: BinSpec[] = [
  [0, 0, 0],
  [5, 0.3, 0.3],
  [15, 0.5, 0.5],
  [30, 0.6, 0.7],
  [50, 0.8, 0.95],
];

test('the histogram is well-formed with one bar per non-empty bin, heights proportional to the sample fraction', () => {
  const data = makeData(SPECS);
  const root = parseXml(confidenceHistogramSvg(data));
  const f = frameOf(root);
  const bars = byClass(root, 'bar-fraction');
  assert.deepEqual(
    bars.map((b) => b.attributes['data-bin']),
    ['1', '2', '3', '4'],
  );
  // Largest fraction 0.5 → nice axis limit 0.5 (ticks 0, 10, …, 50 %): the 50 % bar fills the plot height.
  const ticks = byClass(root, 'tick-labels')[0]!.children.map((c) => textOf(c as XmlElement));
  assert.deepEqual(ticks.slice(6), ['0', '10', '20', '30', '40', '50']);
  for (const bar of bars) {
    const bin = data.bins[Number(bar.attributes['data-bin'])]!;
    close(num(bar, 'height'), (bin.count / data.total / 0.5) * f.h, 'height');
    close(num(bar, 'y') + num(bar, 'height'), f.y + f.h, 'bottom');
    close(num(bar, 'x'), f.x + bin.lower * f.w, 'x');
  }
  const h = bars.map((b) => num(b, 'height'));
  close(h[2]! / h[0]!, 30 / 5, 'ratio', 1e-4);
});

test('dashed vertical lines mark the accuracy and the average confidence, labelled with their values', () => {
  const data = makeData(SPECS);
  const root = parseXml(confidenceHistogramSvg(data));
  const f = frameOf(root);
  const acc = byClass(root, 'line-accuracy')[0]!;
  const conf = byClass(root, 'line-confidence')[0]!;
  close(num(acc, 'x1'), f.x + data.accuracy * f.w, 'accuracy line');
  close(num(acc, 'x2'), num(acc, 'x1'), 'vertical');
  close(num(conf, 'x1'), f.x + data.meanConfidence * f.w, 'confidence line');
  assert.ok(acc.attributes['stroke-dasharray'] && conf.attributes['stroke-dasharray']);
  // accuracy = (5·0.3 + 15·0.5 + 30·0.6 + 50·0.8)/100 = 0.67; confidence = (1.5 + 7.5 + 21 + 47.5)/100 = 0.775.
  assert.equal(textOf(byClass(root, 'line-accuracy-label')[0]!), 'Accuracy 67.0%');
  assert.equal(textOf(byClass(root, 'line-confidence-label')[0]!), 'Avg. confidence 77.5%');
  // Both labels sit in a legend row above the plot (never over the bars or each other), in value order.
  const al = byClass(root, 'line-accuracy-label')[0]!;
  const cl = byClass(root, 'line-confidence-label')[0]!;
  assert.ok(num(al, 'y') < f.y && num(cl, 'y') < f.y, 'above the plot area');
  assert.ok(num(al, 'x') + textWidth('Accuracy 67.0%', num(al, 'font-size')) < num(cl, 'x'), 'side by side without overlap');
  assert.equal(al.attributes['transform'], undefined, 'horizontal text');
});

test('labels of lines at the plot edge stay inside the figure and do not overlap each other', () => {
  const data = { ...makeData([[10, 1, 1]]), accuracy: 0.995, meanConfidence: 1 };
  const root = parseXml(confidenceHistogramSvg(data));
  const width = Number(root.attributes['width']);
  const a = byClass(root, 'line-accuracy-label')[0]!;
  const c = byClass(root, 'line-confidence-label')[0]!;
  const end = num(c, 'x') + textWidth(textOf(c), num(c, 'font-size'));
  assert.ok(end <= width, 'inside the figure');
  assert.ok(num(a, 'x') + textWidth(textOf(a), num(a, 'font-size')) < num(c, 'x'), 'no overlap');
});

test('all samples in one bin give a single full-height bar and a 0–100 % axis', () => {
  const specs: BinSpec[] = Array.from({ length: 15 }, () => [0, 0, 0] as const);
  specs[14] = [42, 1, 1];
  const root = parseXml(confidenceHistogramSvg(makeData(specs)));
  const f = frameOf(root);
  const bars = byClass(root, 'bar-fraction');
  assert.equal(bars.length, 1);
  close(num(bars[0]!, 'height'), f.h, 'full height');
  const ticks = byClass(root, 'tick-labels')[0]!.children.map((c) => textOf(c as XmlElement));
  assert.equal(ticks[ticks.length - 1], '100');
});

test('100 bins draw 100 bars and a small maximum fraction gets fractional percent ticks', () => {
  const specs: BinSpec[] = Array.from({ length: 100 }, (_, b) => [b % 3 === 0 ? 3 : 2, 0.5, (b + 0.5) / 100] as const);
  const data = makeData(specs);
  const root = parseXml(confidenceHistogramSvg(data));
  assert.equal(byClass(root, 'bar-fraction').length, 100);
  const ticks = byClass(root, 'tick-labels')[0]!
    .children.map((c) => textOf(c as XmlElement))
    .slice(6);
  // max fraction 3/234 ≈ 1.28 % → step 0.5 % (0.25 % would need 6 intervals), up to 1.5 %
  assert.deepEqual(ticks, ['0', '0.5', '1', '1.5']);
  // A 2.5 % step keeps its decimal: max fraction 110/1000 = 11 % → raw step 2.2 % → 2.5 %.
  const q = parseXml(
    confidenceHistogramSvg(
      makeData(
        [
          [110, 0.5, 0.5],
          [90, 0.5, 0.5],
        ],
        { total: 1000 },
      ),
    ),
  );
  assert.deepEqual(
    byClass(q, 'tick-labels')[0]!
      .children.map((c) => textOf(c as XmlElement))
      .slice(6),
    ['0', '2.5', '5', '7.5', '10', '12.5'],
  );
});

test('a histogram of no samples has axes but no bars or lines', () => {
  const root = parseXml(
    confidenceHistogramSvg(
      makeData([
        [0, 0, 0],
        [0, 0, 0],
      ]),
    ),
  );
  assert.equal(byClass(root, 'bar-fraction').length, 0);
  assert.equal(byClass(root, 'line-accuracy').length, 0);
  assert.equal(byClass(root, 'frame').length, 1);
});

test('the histogram title is escaped and can be removed', () => {
  const root = parseXml(confidenceHistogramSvg(makeData(SPECS), { title: 'a < b & c' }));
  assert.equal(textOf(byClass(root, 'title')[0]!), 'a < b & c');
  assert.equal(byClass(parseXml(confidenceHistogramSvg(makeData(SPECS), { title: null })), 'title').length, 0);
});
