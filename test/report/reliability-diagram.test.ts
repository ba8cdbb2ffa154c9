import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reliabilityDiagramSvg } from '../../src/report/reliability-diagram.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { makeData, type BinSpec } from './make-data.js';
import { reliabilityFromLogits } from './reliability-helper.js';
import { byClass, findAll, num, parseXml, textOf, type XmlElement } from './xml-check.js';

/** Pixel tolerance: coordinates are written with 3 decimals. */
const PX = 2e-3;

function frameOf(root: XmlElement): { x: number; y: number; w: number; h: number } {
  const frames = byClass(root, 'frame');
  assert.equal(frames.length, 1);
  const f = frames[0]!;
  return { x: num(f, 'x'), y: num(f, 'y'), w: num(f, 'width'), h: num(f, 'height') };
}

function close(actual: number, expected: number, what: string, tol = PX): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: expected ${expected}, got ${actual}`);
}

const FIVE: BinSpec[] = [
  [0, 0, 0],
  [10, 0.3, 0.31],
  [20, 0.5, 0.5],
  [30, 0.4, 0.71],
  [40, 0.95, 0.9],
];

test('the reliability diagram is a well-formed SVG with one accuracy bar per non-empty bin', () => {
  const root = parseXml(reliabilityDiagramSvg(makeData(FIVE)));
  const bars = byClass(root, 'bar-accuracy');
  assert.deepEqual(
    bars.map((b) => b.attributes['data-bin']),
    ['1', '2', '3', '4'],
  );
});

test('accuracy bars stand on the x axis with heights proportional to accuracy and span their bin', () => {
  const data = makeData(FIVE);
  const root = parseXml(reliabilityDiagramSvg(data));
  const f = frameOf(root);
  for (const bar of byClass(root, 'bar-accuracy')) {
    const bin = data.bins[Number(bar.attributes['data-bin'])]!;
    close(num(bar, 'height'), bin.accuracy * f.h, 'height');
    close(num(bar, 'y') + num(bar, 'height'), f.y + f.h, 'bottom');
    close(num(bar, 'x'), f.x + bin.lower * f.w, 'x');
    close(num(bar, 'width'), (bin.upper - bin.lower) * f.w, 'width');
  }
  // Heights relative to each other follow the accuracies exactly (0.3 : 0.5 : 0.4 : 0.95).
  const h = byClass(root, 'bar-accuracy').map((b) => num(b, 'height'));
  close(h[1]! / h[0]!, 0.5 / 0.3, 'ratio', 1e-4);
  close(h[3]! / h[2]!, 0.95 / 0.4, 'ratio', 1e-4);
});

test('gap bars appear exactly where accuracy differs from confidence and span from one to the other', () => {
  const data = makeData(FIVE);
  const root = parseXml(reliabilityDiagramSvg(data));
  const f = frameOf(root);
  const gaps = byClass(root, 'bar-gap');
  assert.deepEqual(
    gaps.map((g) => g.attributes['data-bin']),
    ['1', '3', '4'],
  );
  for (const g of gaps) {
    const bin = data.bins[Number(g.attributes['data-bin'])]!;
    const hi = Math.max(bin.accuracy, bin.meanConfidence);
    close(num(g, 'y'), f.y + (1 - hi) * f.h, 'gap top');
    close(num(g, 'height'), Math.abs(bin.accuracy - bin.meanConfidence) * f.h, 'gap height');
    close(num(g, 'x'), f.x + bin.lower * f.w, 'gap x');
  }
  // Underconfident bin 4 (acc 0.95 > conf 0.9): the gap sits on top of the confidence, below the bar top.
  const bar4 = byClass(root, 'bar-accuracy').find((b) => b.attributes['data-bin'] === '4')!;
  const gap4 = gaps.find((g) => g.attributes['data-bin'] === '4')!;
  close(num(gap4, 'y'), num(bar4, 'y'), 'underconfident gap top = bar top');
});

test('the title and the document title contain the ECE in percent with two decimals', () => {
  const data = { ...makeData(FIVE), ece: 0.1234 };
  const root = parseXml(reliabilityDiagramSvg(data, { title: 'CE on CIFAR-10' }));
  assert.equal(textOf(byClass(root, 'title')[0]!), 'CE on CIFAR-10 — ECE 12.34%');
  const docTitle = root.children.find((c) => typeof c !== 'string' && c.tag === 'title') as XmlElement;
  assert.match(textOf(docTitle), /ECE 12\.34%/);
  // The ECE comes from the data, not recomputed: the hand-computed value of FIVE is different.
  const own = makeData(FIVE).ece;
  assert.notEqual(own.toFixed(4), '0.1234');
  assert.match(textOf(byClass(parseXml(reliabilityDiagramSvg(makeData(FIVE))), 'title')[0]!), new RegExp(`ECE ${(own * 100).toFixed(2)}%`));
});

test('title text is escaped and survives markup characters', () => {
  const svg = reliabilityDiagramSvg(makeData(FIVE), { title: '<script>alert("x")</script> & co' });
  assert.ok(!svg.includes('<script>'));
  const root = parseXml(svg);
  assert.equal(textOf(byClass(root, 'title')[0]!).startsWith('<script>alert("x")</script> & co — ECE'), true);
  assert.equal(findAll(root, (e) => e.tag === 'script').length, 0);
});

test('bin counts are printed above their bins and empty bins get no label', () => {
  const root = parseXml(reliabilityDiagramSvg(makeData(FIVE)));
  const f = frameOf(root);
  const counts = byClass(root, 'count');
  assert.deepEqual(
    counts.map((c) => [c.attributes['data-bin'], textOf(c)]),
    [
      ['1', '10'],
      ['2', '20'],
      ['3', '30'],
      ['4', '40'],
    ],
  );
  for (const c of counts) {
    assert.ok(num(c, 'y') < f.y, 'count text sits above the plot area');
    const b = Number(c.attributes['data-bin']);
    close(num(c, 'x'), f.x + ((b + 0.5) / 5) * f.w, 'centred on the bin', 1e-2);
  }
});

test('the identity diagonal runs from the bottom-left to the top-right corner, dashed', () => {
  const root = parseXml(reliabilityDiagramSvg(makeData(FIVE)));
  const f = frameOf(root);
  const d = byClass(root, 'diagonal')[0]!;
  close(num(d, 'x1'), f.x, 'x1');
  close(num(d, 'y1'), f.y + f.h, 'y1');
  close(num(d, 'x2'), f.x + f.w, 'x2');
  close(num(d, 'y2'), f.y, 'y2');
  assert.ok(d.attributes['stroke-dasharray']);
  const legend = textOf(byClass(root, 'legend')[0]!);
  assert.match(legend, /Outputs/);
  assert.match(legend, /Gap/);
  const labels = [textOf(byClass(root, 'x-label')[0]!), textOf(byClass(root, 'y-label')[0]!)];
  assert.deepEqual(labels, ['Confidence', 'Accuracy']);
  assert.deepEqual(
    byClass(root, 'tick-labels')[0]!
      .children.map((c) => textOf(c as XmlElement))
      .slice(0, 6),
    ['0.0', '0.2', '0.4', '0.6', '0.8', '1.0'],
  );
});

test('all samples in one bin draw a single bar and a single count', () => {
  const specs: BinSpec[] = Array.from({ length: 15 }, () => [0, 0, 0] as const);
  specs[14] = [500, 0.8, 0.99];
  const root = parseXml(reliabilityDiagramSvg(makeData(specs)));
  assert.equal(byClass(root, 'bar-accuracy').length, 1);
  assert.equal(byClass(root, 'bar-gap').length, 1);
  assert.deepEqual(byClass(root, 'count').map(textOf), ['500']);
});

test('a single bin spans the whole axis', () => {
  const root = parseXml(reliabilityDiagramSvg(makeData([[7, 0.5, 0.75]])));
  const f = frameOf(root);
  const [bar] = byClass(root, 'bar-accuracy');
  close(num(bar!, 'x'), f.x, 'x');
  close(num(bar!, 'width'), f.w, 'width');
  close(num(bar!, 'height'), 0.5 * f.h, 'height');
});

test('100 bins draw 100 bars and switch the counts to a shaded strip with tooltips', () => {
  const set = syntheticOverconfident({ n: 4000, classes: 10, seed: 3, separation: 2, overconfidence: 2 });
  const data = reliabilityFromLogits(set.logits, set.labels, 10, 100);
  const nonEmpty = data.bins.filter((b) => b.count > 0).length;
  const root = parseXml(reliabilityDiagramSvg(data));
  assert.equal(byClass(root, 'bar-accuracy').length, nonEmpty);
  assert.ok(nonEmpty > 70);
  const cells = byClass(root, 'count-cell');
  assert.equal(cells.length, nonEmpty);
  const first = cells[0]!;
  const bin = data.bins[Number(first.attributes['data-bin'])]!;
  const tip = first.children.find((c) => typeof c !== 'string' && c.tag === 'title') as XmlElement;
  assert.match(textOf(tip), new RegExp(`n = ${bin.count}$`));
  // The most populated bin is shaded darkest.
  const darkest = cells.reduce((a, b) => (num(b, 'fill-opacity') > num(a, 'fill-opacity') ? b : a));
  const maxCount = Math.max(...data.bins.map((b) => b.count));
  assert.equal(data.bins[Number(darkest.attributes['data-bin'])]!.count, maxCount);
  close(num(darkest, 'fill-opacity'), 1, 'darkest opacity', 1e-3);
});

test('counts that do not fit horizontally are rotated', () => {
  const specs: BinSpec[] = Array.from({ length: 30 }, (_, b) => [123456 + b, 0.5, (b + 0.5) / 30] as const);
  const root = parseXml(reliabilityDiagramSvg(makeData(specs)));
  const counts = byClass(root, 'count');
  assert.equal(counts.length, 30);
  assert.match(counts[0]!.attributes['transform'] ?? '', /^rotate\(-90 /);
  assert.equal(textOf(counts[0]!), '123k');
});

test('accuracy and confidence of exactly 0 and 1 give empty, full and full-height-gap bars', () => {
  const data = makeData([
    [5, 0, 0],
    [5, 1, 1],
    [5, 0, 1],
  ]);
  const root = parseXml(reliabilityDiagramSvg(data));
  const f = frameOf(root);
  const bars = byClass(root, 'bar-accuracy');
  assert.deepEqual(
    bars.map((b) => num(b, 'height')),
    [0, f.h, 0],
  );
  const gaps = byClass(root, 'bar-gap');
  assert.deepEqual(
    gaps.map((g) => g.attributes['data-bin']),
    ['2'],
  );
  close(num(gaps[0]!, 'height'), f.h, 'full gap');
});

test('equal-mass (uneven) bins are drawn with their own edges', () => {
  const data = makeData(
    [
      [10, 0.2, 0.3],
      [10, 0.6, 0.7],
      [10, 0.9, 0.97],
    ],
    { edges: [0.1, 0.55, 0.8, 1] },
  );
  const root = parseXml(reliabilityDiagramSvg(data));
  const f = frameOf(root);
  const bars = byClass(root, 'bar-accuracy');
  close(num(bars[0]!, 'x'), f.x + 0.1 * f.w, 'x0');
  close(num(bars[0]!, 'width'), 0.45 * f.w, 'w0');
  close(num(bars[2]!, 'width'), 0.2 * f.w, 'w2');
});

test('no samples at all draws empty axes with a note and ECE n/a', () => {
  const data = makeData(Array.from({ length: 10 }, () => [0, 0, 0] as const));
  const root = parseXml(reliabilityDiagramSvg(data));
  assert.equal(byClass(root, 'bar-accuracy').length, 0);
  assert.equal(textOf(byClass(root, 'empty-note')[0]!), 'no samples');
  assert.match(textOf(byClass(root, 'title')[0]!), /ECE n\/a/);
});

test('the same data always produces byte-identical SVG, and idPrefix renames the gap pattern', () => {
  const a = reliabilityDiagramSvg(makeData(FIVE));
  assert.equal(a, reliabilityDiagramSvg(makeData(FIVE)));
  const root = parseXml(reliabilityDiagramSvg(makeData(FIVE), { idPrefix: 'fig2' }));
  const pattern = findAll(root, (e) => e.tag === 'pattern')[0]!;
  assert.equal(pattern.attributes['id'], 'fig2-gap-hatch');
  assert.equal(byClass(root, 'gaps')[0]!.attributes['fill'], 'url(#fig2-gap-hatch)');
});

test('options can hide counts and the legend, and null removes the title row', () => {
  const root = parseXml(reliabilityDiagramSvg(makeData(FIVE), { showCounts: false, legend: false, title: null }));
  assert.equal(byClass(root, 'count').length, 0);
  assert.equal(byClass(root, 'legend').length, 0);
  assert.equal(byClass(root, 'title').length, 0);
});

test('invalid data is rejected with the offending field named', () => {
  const good = makeData(FIVE);
  const cases: [unknown, RegExp][] = [
    [{ ...good, bins: [] }, /^data\.bins: expected a non-empty array/],
    [{ ...good, total: 1.5 }, /^data\.total: expected a non-negative integer, got 1\.5/],
    [{ ...good, total: 50 }, /^data\.total: expected at least the sum of bin counts \(100\), got 50/],
    [{ ...good, convention: '[l,u]' }, /^data\.convention/],
    [{ ...good, ece: Number.NaN }, /^data\.ece: expected a number in \[0, 1\], got NaN/],
    [{ ...good, bins: good.bins.map((b, i) => (i === 3 ? { ...b, accuracy: 1.2 } : b)) }, /^data\.bins\[3\]\.accuracy: expected a number in \[0, 1\], got 1\.2/],
    [{ ...good, bins: good.bins.map((b, i) => (i === 2 ? { ...b, meanConfidence: Number.NaN } : b)) }, /^data\.bins\[2\]\.meanConfidence/],
    [{ ...good, bins: good.bins.map((b, i) => (i === 1 ? { ...b, count: -1 } : b)) }, /^data\.bins\[1\]\.count/],
    [{ ...good, bins: [...good.bins].reverse() }, /^data\.bins\[1\]\.lower: expected bins in ascending order/],
    [{ ...good, bins: good.bins.map((b, i) => (i === 0 ? { ...b, upper: 1.5 } : b)) }, /^data\.bins\[0\]\.upper/],
  ];
  for (const [data, message] of cases) {
    assert.throws(
      () => reliabilityDiagramSvg(data as never),
      (e: unknown) => e instanceof InvalidArgumentError && message.test(e.message),
      String(message),
    );
  }
  const named = (argument: string) => (e: unknown) => e instanceof InvalidArgumentError && e.argument === argument;
  assert.throws(() => reliabilityDiagramSvg(good, { width: 10 }), named('width'));
  assert.throws(() => reliabilityDiagramSvg(good, { idPrefix: 'a b' }), named('idPrefix'));
  assert.throws(() => reliabilityDiagramSvg(good, { title: 5 as never }), named('title'));
});

test('an empty bin may carry NaN statistics, as the metrics layer produces', () => {
  const data = makeData(FIVE);
  assert.ok(Number.isNaN(data.bins[0]!.accuracy));
  assert.doesNotThrow(() => parseXml(reliabilityDiagramSvg(data)));
});

test('the legend moves to the corner that hides the least bar area', () => {
  const overconfident = parseXml(reliabilityDiagramSvg(makeData(FIVE)));
  const f0 = frameOf(overconfident);
  const box0 = byClass(overconfident, 'legend')[0]!.children[0] as XmlElement;
  close(num(box0, 'x'), f0.x + 8, 'top-left x');
  close(num(box0, 'y'), f0.y + 8, 'top-left y');
  // A tall bar in the first bin and short bars elsewhere: only the top-right corner is free.
  const root = parseXml(
    reliabilityDiagramSvg(
      makeData([
        [10, 0.95, 0.9],
        [10, 0.1, 0.1],
        [10, 0.1, 0.1],
        [10, 0.1, 0.1],
        [10, 0.1, 0.1],
      ]),
    ),
  );
  const f = frameOf(root);
  const box = byClass(root, 'legend')[0]!.children[0] as XmlElement;
  close(num(box, 'x') + num(box, 'width'), f.x + f.w - 8, 'right edge');
  close(num(box, 'y'), f.y + 8, 'top');
});
