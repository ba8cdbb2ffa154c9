import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block, DataDocument, ReportDocument, Table } from '../../src/report/document/document.js';
import { documentFigures } from '../../src/report/document/document.js';
import { escapeMarkdown, renderMarkdown, renderMarkdownBlocks } from '../../src/report/document/render-markdown.js';
import { escapeHtml, renderHtml, renderHtmlBlocks } from '../../src/report/document/render-html.js';
import { renderJson } from '../../src/report/document/render-json.js';
import { findAll, parseXml, textOf } from './xml-check.js';

const SVG = '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><title>t</title></svg>\n';

const TABLE: Table = {
  kind: 'table',
  className: 'results',
  columns: ['Method', 'ECE (%)', 'Note'],
  rows: [
    { header: 'A | B', attributes: { 'data-method': 'a"b' }, cells: [{ text: '1.23', best: true }, { text: 'x < y & z\nnext' }] },
    { header: '<script>', cells: [{ text: '4.56' }, { text: 'holds', highlight: 'verdict-holds' }] },
  ],
};

const DOC: ReportDocument = {
  title: 'T & <U>',
  styles: ['body{margin:0}'],
  blocks: [
    { kind: 'heading', level: 1, text: 'Title *1*' },
    { kind: 'paragraph', content: [{ strong: 'Warning:' }, ' a_b ', { emphasis: 'c' }, ' ', { code: 'x`y' }], className: 'warning' },
    { kind: 'heading', level: 2, text: 'Table', id: 'table' },
    TABLE,
    { kind: 'list', items: [['one'], [{ strong: 'two' }, ': [2]']], className: 'findings' },
    { kind: 'code', text: 'calib report DIR\n# a comment', language: 'sh' },
    { kind: 'figure-group', figures: [] },
    { kind: 'figure-group', className: 'charts', figures: [{ kind: 'figure', id: 'fig-a', path: 'figs/a.svg', svg: SVG, alt: 'A: reliability', caption: 'A, before [TS]' }] },
    { kind: 'figure', id: 'fig-b', path: 'figs/b.svg', svg: SVG, alt: 'B <alt>' },
  ],
};

test('Markdown: one escaper for headings, paragraphs and cells (|, <, &, newlines), best and highlighted cells bold', () => {
  const md = renderMarkdown(DOC);
  assert.equal(
    md,
    [
      '# Title \\*1\\*',
      '',
      '**Warning:** a\\_b *c* ``x`y``',
      '',
      '## Table',
      '',
      '| Method | ECE (%) | Note |',
      '| --- | ---: | ---: |',
      '| A \\| B | **1.23** | x &lt; y &amp; z next |',
      '| &lt;script&gt; | 4.56 | **holds** |',
      '',
      '- one',
      '- **two**: \\[2\\]',
      '',
      '```sh',
      'calib report DIR',
      '# a comment',
      '```',
      '',
      '![A: reliability](figs/a.svg)',
      '',
      '*A, before \\[TS\\]*',
      '',
      '![B &lt;alt&gt;](figs/b.svg)',
      '',
    ].join('\n'),
  );
  // Every table line has as many cells as the header: an escaped pipe does not split a cell.
  const rows = md.split('\n').filter((l) => l.startsWith('|'));
  for (const r of rows) assert.equal(r.split(/(?<!\\)\|/).length, 5, r);
  assert.equal(escapeMarkdown('a|b\r\nc'), 'a\\|b c');
});

test('Markdown: column alignment is per column, the first left and the others right by default', () => {
  const t: Table = { kind: 'table', columns: ['Claim', 'Outcome'], align: ['left', 'left'], rows: [{ header: 'c', cells: [{ text: 'o' }] }] };
  assert.equal(renderMarkdownBlocks([t]), '| Claim | Outcome |\n| --- | --- |\n| c | o |\n');
});

test('HTML: a well-formed page, text and attributes escaped, best cells in <b>, highlights as classes, figures inlined', () => {
  const html = renderHtml(DOC);
  assert.ok(
    html.startsWith(
      '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\n<title>T &amp; &lt;U&gt;</title>\n<style>\nbody{margin:0}\n</style></head><body>\n',
    ),
  );
  assert.ok(html.endsWith('</body></html>\n'));
  assert.ok(!html.includes('<?xml'), 'the figures lose their XML declaration');
  assert.ok(!html.includes('<script>'));
  // XHTML-compatible apart from the doctype and the void meta tags.
  const root = parseXml(html.replace('<!DOCTYPE html>\n', '').replace(/<meta ([^>]*[^/])>/g, '<meta $1/>'));
  assert.equal(findAll(root, (e) => e.tag === 'h1').length, 1);
  assert.equal(textOf(findAll(root, (e) => e.tag === 'title')[0]!), 'T & <U>');
  const ids = findAll(root, (e) => e.attributes['id'] !== undefined).map((e) => e.attributes['id']);
  assert.deepEqual(ids, ['table', 'fig-a', 'fig-b']);
  const rows = findAll(root, (e) => e.tag === 'tr');
  assert.equal(rows.length, 3);
  assert.equal(rows[1]!.attributes['data-method'], 'a"b');
  const cells = findAll(root, (e) => e.tag === 'td');
  assert.equal(textOf(cells[1]!), 'x < y & z\nnext');
  assert.equal(cells[3]!.attributes['class'], 'verdict-holds');
  assert.deepEqual(findAll(root, (e) => e.tag === 'b').map(textOf), ['Warning:', '1.23', 'two']);
  assert.equal(textOf(findAll(root, (e) => e.tag === 'th' && e.attributes['scope'] === 'row')[1]!), '<script>');
  // A captioned figure has its figcaption; one without a caption is named by its alt text.
  const figures = findAll(root, (e) => e.tag === 'figure');
  assert.equal(textOf(findAll(figures[0]!, (e) => e.tag === 'figcaption')[0]!), 'A, before [TS]');
  assert.equal(figures[1]!.attributes['aria-label'], 'B <alt>');
  assert.equal(findAll(root, (e) => e.tag === 'svg').length, 2);
  // Side-by-side figures sit in their wrapper; an empty group without a class leaves nothing.
  assert.match(html, /<div class="charts">\n<figure id="fig-a">/);
  assert.match(html, /<pre><code class="language-sh">calib report DIR\n# a comment<\/code><\/pre>/);
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
});

test('HTML: a table is wrapped for scrolling, with the row headers as <th scope="row">', () => {
  assert.deepEqual(renderHtmlBlocks([TABLE]), [
    '<div class="table-wrap"><table class="results">',
    '<thead><tr><th>Method</th><th>ECE (%)</th><th>Note</th></tr></thead><tbody>',
    '<tr data-method="a&quot;b"><th scope="row">A | B</th><td><b>1.23</b></td><td>x &lt; y &amp; z\nnext</td></tr>',
    '<tr><th scope="row">&lt;script&gt;</th><td>4.56</td><td class="verdict-holds">holds</td></tr>',
    '</tbody></table></div>',
  ]);
});

/** A generated page with inline runs in headings and cells, links, a comment and kept prose (the reproductions README's parts). */
const PAGE: ReportDocument = {
  title: 'Page',
  styles: [],
  blocks: [
    { kind: 'heading', level: 2, text: [{ code: 'mbls' }, ' at *deep* scale'] },
    { kind: 'comment', text: 'Generated by `calib suite readme` --> edit the prose only' },
    { kind: 'prose', name: 'intro', markdown: 'Hand-written **Markdown** | kept <as is>.\n\nSecond paragraph.' },
    { kind: 'prose', name: 'empty', markdown: '' },
    {
      kind: 'table',
      columns: ['suite', 'Ours [interval]', 'report'],
      align: ['left', 'left', 'left'],
      rows: [{ header: [{ code: 'a_b' }], cells: [{ text: '-0.88 [-1.06, -0.71]' }, { text: [{ link: 'md', href: 'a_b/report.md' }, ' · ', { link: 'h<t>ml', href: 'a_b/report.html?x=1&y=2' }] }] }],
    },
  ],
};

test('Markdown: inline runs in headings and cells, links, comments, and prose kept verbatim between its markers', () => {
  assert.equal(
    renderMarkdown(PAGE),
    [
      '## `mbls` at \\*deep\\* scale',
      '',
      '<!-- Generated by `calib suite readme` - - > edit the prose only -->',
      '',
      '<!-- prose:intro -->',
      'Hand-written **Markdown** | kept <as is>.',
      '',
      'Second paragraph.',
      '<!-- /prose:intro -->',
      '',
      '<!-- prose:empty -->',
      '<!-- /prose:empty -->',
      '',
      '| suite | Ours \\[interval\\] | report |',
      '| --- | --- | --- |',
      '| `a_b` | -0.88 \\[-1.06, -0.71\\] | [md](a_b/report.md) · [h&lt;t&gt;ml](a_b/report.html?x=1&y=2) |',
      '',
    ].join('\n'),
  );
});

test('HTML: inline runs in headings and cells, links as <a href>, comments kept, prose shown as preformatted text', () => {
  const html = renderHtml(PAGE);
  assert.deepEqual(html.split('\n').slice(5, -2), [
    '<h2><code>mbls</code> at *deep* scale</h2>',
    '<!-- Generated by `calib suite readme` - - > edit the prose only -->',
    '<pre class="prose" data-prose="intro">Hand-written **Markdown** | kept &lt;as is&gt;.',
    '',
    'Second paragraph.</pre>',
    '<pre class="prose" data-prose="empty"></pre>',
    '<div class="table-wrap"><table>',
    '<thead><tr><th>suite</th><th>Ours [interval]</th><th>report</th></tr></thead><tbody>',
    '<tr><th scope="row"><code>a_b</code></th><td>-0.88 [-1.06, -0.71]</td><td><a href="a_b/report.md">md</a> · <a href="a_b/report.html?x=1&amp;y=2">h&lt;t&gt;ml</a></td></tr>',
    '</tbody></table></div>',
  ]);
  const root = parseXml(html.replace('<!DOCTYPE html>\n', '').replace(/<meta ([^>]*[^/])>/g, '<meta $1/>'));
  assert.deepEqual(
    findAll(root, (e) => e.tag === 'a').map((a) => [a.attributes['href'], textOf(a)]),
    [
      ['a_b/report.md', 'md'],
      ['a_b/report.html?x=1&y=2', 'h<t>ml'],
    ],
  );
});

test('JSON: a document renders to its data (not its blocks), NaN and ±Infinity as null, 2-space indented with a final newline', () => {
  const doc: DataDocument = { ...DOC, data: { suite: 'toy', ece: Number.NaN, values: [1, Infinity, -Infinity], nested: { label: 'a < b' } } };
  assert.equal(renderJson(doc), '{\n  "suite": "toy",\n  "ece": null,\n  "values": [\n    1,\n    null,\n    null\n  ],\n  "nested": {\n    "label": "a < b"\n  }\n}\n');
  assert.ok(!renderJson(doc).includes('<svg'), "the figures are the page's, not the data's");
  assert.deepEqual(
    documentFigures(DOC).map((f) => f.path),
    ['figs/a.svg', 'figs/b.svg'],
  );
});

test('the renderers are pure: the same document renders to the same text, and the document is not changed', () => {
  const before = JSON.stringify(DOC);
  const blocks: Block[] = [...DOC.blocks];
  assert.equal(renderMarkdown(DOC), renderMarkdown({ ...DOC, blocks }));
  assert.equal(renderHtml(DOC), renderHtml({ ...DOC, blocks }));
  const data = { a: [1, 2] };
  assert.equal(renderJson({ ...DOC, data }), renderJson({ ...DOC, blocks, data }));
  assert.equal(JSON.stringify(DOC), before);
});
