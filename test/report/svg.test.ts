import { test } from 'node:test';
import assert from 'node:assert/strict';
import { el, escapeXml, formatNumber, renderSvg, svgDocument, translate } from '../../src/report/svg.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { parseXml, textOf } from './xml-check.js';

test('escapeXml escapes the five XML special characters and drops forbidden control characters', () => {
  assert.equal(escapeXml(`a<b>&"c"'d'`), 'a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;');
  assert.equal(escapeXml('x\u0000y\u0007z\tw\n'), 'xyz\tw\n');
  assert.equal(escapeXml('&amp;'), '&amp;amp;');
});

test('formatNumber rounds to 3 decimals, strips trailing zeros and never writes -0 or an exponent', () => {
  assert.equal(formatNumber(1), '1');
  assert.equal(formatNumber(0.1 + 0.2), '0.3');
  assert.equal(formatNumber(12.3456), '12.346');
  assert.equal(formatNumber(2.5, 0), '3');
  assert.equal(formatNumber(-0.0001), '0');
  assert.equal(formatNumber(-0), '0');
  assert.equal(formatNumber(-1.25), '-1.25');
  assert.equal(formatNumber(1e-7), '0');
  assert.equal(formatNumber(1e21 / 1e15), '1000000');
  assert.equal(formatNumber(3.14159, 1), '3.1');
});

test('formatNumber rejects NaN and infinities with a message naming the value', () => {
  assert.throws(
    () => formatNumber(Number.NaN),
    (e: unknown) => e instanceof InvalidArgumentError && /got NaN/.test(e.message),
  );
  assert.throws(() => formatNumber(Infinity), InvalidArgumentError);
  assert.throws(() => formatNumber(1, -1), /decimals/);
});

test('renderSvg writes attributes in order, self-closes empty elements and escapes text and attribute values', () => {
  const node = el('g', { class: 'a"b', x: 1.23456, hidden: true, skip: undefined, off: false, none: null }, el('rect', { width: 2 }), 'x < y & z', null, false, el('text', {}, '<b>'));
  assert.equal(renderSvg(node), '<g class="a&quot;b" x="1.235" hidden="hidden"><rect width="2"/>x &lt; y &amp; z<text>&lt;b&gt;</text></g>');
});

test('el rejects tag and attribute names that are not XML names (no markup injection through names)', () => {
  assert.throws(
    () => el('g x="1"'),
    (e: unknown) => e instanceof InvalidArgumentError && e.argument === 'tag',
  );
  assert.throws(() => el('g', { 'on"x': 1 }), InvalidArgumentError);
  assert.throws(() => el('1g'), InvalidArgumentError);
});

test('renderSvg refuses a non-finite numeric attribute, naming the element and attribute', () => {
  assert.throws(() => renderSvg(el('rect', { height: Number.NaN })), /<rect height>/);
});

test('svgDocument produces a well-formed document with size, viewBox, title and escaped content', () => {
  const svg = svgDocument(200, 100.5, { title: 'A & B <c>', fontFamily: 'DejaVu Sans, sans-serif', background: '#fff' }, el('text', { x: 1, y: 2 }, 'é "quoted" \'single\''));
  assert.ok(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg '));
  const root = parseXml(svg);
  assert.equal(root.tag, 'svg');
  assert.equal(root.attributes['xmlns'], 'http://www.w3.org/2000/svg');
  assert.equal(root.attributes['width'], '200');
  assert.equal(root.attributes['height'], '100.5');
  assert.equal(root.attributes['viewBox'], '0 0 200 100.5');
  const title = root.children.find((c) => typeof c !== 'string' && c.tag === 'title');
  assert.ok(title && typeof title !== 'string');
  assert.equal(textOf(title), 'A & B <c>');
  assert.ok(textOf(root).includes('é "quoted" \'single\''));
  assert.throws(() => svgDocument(0, 10, {}), /width/);
  assert.throws(() => svgDocument(10, Number.NaN, {}), /height/);
});

test('translate formats its numbers like attributes', () => {
  assert.equal(translate(1.00001, -0.00001), 'translate(1 0)');
});

test('the test XML checker itself rejects malformed documents', () => {
  assert.throws(() => parseXml('<a><b></a></b>'), /does not match/);
  assert.throws(() => parseXml('<a>'), /unclosed/);
  assert.throws(() => parseXml('<a x="1" x="2"/>'), /duplicate/);
  assert.throws(() => parseXml('<a x=1/>'), /must be/);
  assert.throws(() => parseXml('<a>x & y</a>'), /stray/);
  assert.throws(() => parseXml('<a>&nbsp;</a>'), /unknown entity/);
  assert.throws(() => parseXml('<a/><b/>'), /second root/);
  assert.throws(() => parseXml('<a x="<"/>'), /raw '<'/);
  assert.deepEqual(parseXml('<a x="&lt;&#39;"><b/>t&amp;</a>'), {
    tag: 'a',
    attributes: { x: "<'" },
    children: [{ tag: 'b', attributes: {}, children: [] }, 't&'],
  });
});
