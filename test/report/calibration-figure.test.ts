import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calibrationFigureSvg, calibrationSubtitle } from '../../src/report/calibration-figure.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { makeData, type BinSpec } from './make-data.js';
import { byClass, num, parseXml, textOf, type XmlElement } from './xml-check.js';

const SPECS: BinSpec[] = [
  [0, 0, 0],
  [1000, 0.3, 0.35],
  [2000, 0.5, 0.52],
  [3000, 0.6, 0.7],
  [4000, 0.8, 0.95],
];

function frames(root: XmlElement): { x: number; y: number; w: number; h: number }[] {
  return byClass(root, 'frame').map((f) => ({ x: num(f, 'x'), y: num(f, 'y'), w: num(f, 'width'), h: num(f, 'height') }));
}

test('the stacked figure is 480 × 720, histogram above the diagram, x axes aligned', () => {
  const root = parseXml(calibrationFigureSvg(makeData(SPECS)));
  assert.equal(root.attributes['width'], '480');
  assert.equal(root.attributes['height'], '720');
  assert.equal(byClass(root, 'confidence-histogram').length, 1);
  assert.equal(byClass(root, 'reliability-diagram').length, 1);
  const [hist, diagram] = frames(root);
  assert.ok(hist!.y + hist!.h < diagram!.y, 'histogram above the diagram');
  assert.equal(hist!.x, diagram!.x);
  assert.equal(hist!.w, diagram!.w);
  assert.ok(diagram!.h > hist!.h);
  assert.ok(diagram!.y + diagram!.h < 720 && hist!.y > 0);
});

test('side by side, both plot areas share top and bottom', () => {
  const root = parseXml(calibrationFigureSvg(makeData(SPECS), { layout: 'side-by-side' }));
  assert.equal(root.attributes['width'], '900');
  const [hist, diagram] = frames(root);
  assert.ok(hist!.x + hist!.w < diagram!.x);
  assert.ok(Math.abs(hist!.y - diagram!.y) < 1e-3, `${hist!.y} vs ${diagram!.y}`);
  assert.ok(Math.abs(hist!.y + hist!.h - (diagram!.y + diagram!.h)) < 1e-3);
});

test('the figure heading carries the ECE and the subtitle n, accuracy, confidence, bins and convention', () => {
  const data = makeData(SPECS, { convention: '[l,u)' });
  const root = parseXml(calibrationFigureSvg(data, { title: 'ResNet & "CE"' }));
  // ECE = (1000·0.05 + 2000·0.02 + 3000·0.1 + 4000·0.15)/10000 = 0.099
  assert.equal(textOf(byClass(root, 'figure-title')[0]!), 'ResNet & "CE" — ECE 9.90%');
  assert.equal(textOf(byClass(root, 'figure-subtitle')[0]!), 'n = 10,000 · accuracy 63.0% · avg. confidence 72.9% · 5 bins [l,u)');
  assert.equal(calibrationSubtitle(makeData([[3, 1, 1]])), 'n = 3 · accuracy 100.0% · avg. confidence 100.0% · 1 bin (l,u]');
  // The panels draw no titles of their own.
  assert.equal(byClass(root, 'title').length, 0);
});

test('a long title shrinks to fit the figure width', () => {
  const long = 'A very long method name with many words that would overflow a 480 pixel wide figure easily';
  const root = parseXml(calibrationFigureSvg(makeData(SPECS), { title: long }));
  assert.ok(num(byClass(root, 'figure-title')[0]!, 'font-size') < 15);
});

test('figure options are validated', () => {
  const data = makeData(SPECS);
  const named = (argument: string) => (e: unknown) => e instanceof InvalidArgumentError && e.argument === argument;
  assert.throws(() => calibrationFigureSvg(data, { layout: 'grid' as never }), named('layout'));
  assert.throws(() => calibrationFigureSvg(data, { height: 50 }), named('height'));
  assert.throws(() => calibrationFigureSvg({ ...data, total: -1 }), named('data.total'));
});
