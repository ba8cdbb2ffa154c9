import { test } from 'node:test';
import assert from 'node:assert/strict';
import { svgToPng } from '../../src/report/png.js';
import { reliabilityDiagramSvg } from '../../src/report/reliability-diagram.js';
import { calibrationFigureSvg } from '../../src/report/calibration-figure.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { makeData } from './make-data.js';
import { PNG_SIGNATURE, decodePng, readIhdr } from './png-decode.js';
import { byClass, num, parseXml } from './xml-check.js';

const DATA = makeData([
  [0, 0, 0],
  [10, 0.3, 0.35],
  [20, 0.5, 0.55],
  [30, 0.6, 0.7],
  [40, 0.8, 0.95],
]);

test('svgToPng writes a PNG of twice the SVG size by default, or of the requested width with the aspect ratio kept', () => {
  const svg = calibrationFigureSvg(DATA);
  const png = svgToPng(svg);
  assert.deepEqual(png.subarray(0, 8), PNG_SIGNATURE);
  assert.deepEqual([readIhdr(png).width, readIhdr(png).height], [960, 1440]);
  const small = svgToPng(svg, { width: 480 });
  assert.deepEqual([readIhdr(small).width, readIhdr(small).height], [480, 720]);
});

test('the rendered PNG shows the blue accuracy bar, the hatched red gap and a white background where the SVG puts them', () => {
  const svg = reliabilityDiagramSvg(DATA);
  const root = parseXml(svg);
  const { width, height, rgba } = decodePng(svgToPng(svg, { width: 420 }));
  assert.deepEqual([width, height], [420, 470]);
  const pixel = (x: number, y: number): number[] => {
    const i = (Math.round(y) * width + Math.round(x)) * 4;
    return [rgba[i]!, rgba[i + 1]!, rgba[i + 2]!, rgba[i + 3]!];
  };
  const bar = byClass(root, 'bar-accuracy').find((b) => b.attributes['data-bin'] === '4')!;
  const [r, g, b] = pixel(num(bar, 'x') + num(bar, 'width') / 2, num(bar, 'y') + num(bar, 'height') / 2);
  assert.ok(b! > 180 && r! < 120 && g! < 160, `bar centre is blue, got ${[r, g, b]}`);
  // Average over the gap rectangle: reddish (hatching mixes red lines with a pink fill).
  const gap = byClass(root, 'bar-gap').find((e) => e.attributes['data-bin'] === '4')!;
  let sr = 0;
  let sg = 0;
  let sb = 0;
  let n = 0;
  for (let y = num(gap, 'y') + 3; y < num(gap, 'y') + num(gap, 'height') - 3; y++) {
    for (let x = num(gap, 'x') + 3; x < num(gap, 'x') + num(gap, 'width') - 3; x++) {
      const p = pixel(x, y);
      sr += p[0]!;
      sg += p[1]!;
      sb += p[2]!;
      n++;
    }
  }
  assert.ok(n > 50);
  assert.ok(sr / n > sg / n + 40 && sr / n > sb / n + 40, `gap is red on average, got ${[sr / n, sg / n, sb / n]}`);
  assert.deepEqual(pixel(2, height - 2), [255, 255, 255, 255]);
});

test('text is rendered with a real font (the title row contains dark pixels)', () => {
  const svg = reliabilityDiagramSvg(DATA, { title: 'Title' });
  const { width, rgba } = decodePng(svgToPng(svg));
  let dark = 0;
  for (let y = 4; y < 24; y++) {
    for (let x = 0; x < width; x++) if (rgba[(y * width + x) * 4]! < 100) dark++;
  }
  assert.ok(dark > 100, `dark title pixels: ${dark}`);
});

test('svgToPng rejects non-SVG input and bad widths with InvalidArgumentError', () => {
  const named = (argument: string) => (e: unknown) => e instanceof InvalidArgumentError && e.argument === argument;
  assert.throws(() => svgToPng('hello'), named('svg'));
  assert.throws(() => svgToPng(42 as never), named('svg'));
  assert.throws(() => svgToPng('<svg><g></svg>'), named('svg'));
  assert.throws(() => svgToPng(reliabilityDiagramSvg(DATA), { width: 0 }), named('width'));
  assert.throws(() => svgToPng(reliabilityDiagramSvg(DATA), { width: 10.5 }), named('width'));
});
