import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markdownReport, escapeMarkdown } from '../../src/report/markdown.js';
import { htmlReport } from '../../src/report/html.js';
import { writeReport } from '../../src/report/write-report.js';
import { metricTable, formatMetric, uniqueSlug } from '../../src/report/metric-table.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { makeData } from './make-data.js';
import { byClass, findAll, parseXml, textOf } from './xml-check.js';

const CE = makeData([
  [0, 0, 0],
  [10, 0.4, 0.5],
  [30, 0.6, 0.75],
  [60, 0.85, 0.97],
]);
const LS = makeData([
  [0, 0, 0],
  [15, 0.45, 0.47],
  [35, 0.7, 0.72],
  [50, 0.9, 0.91],
]);
const RESULTS = [
  { name: 'CE', metrics: { accuracy: 0.751, ece: 0.1234, nll: 0.9 }, reliability: CE },
  { name: 'LS (ε = 0.05)', metrics: { accuracy: 0.7512, ece: 0.0123, nll: 0.85 }, reliability: LS },
  { name: 'Focal | γ=3', metrics: { accuracy: 0.74, ece: Number.NaN, nll: 0.84995 } },
];

test('the metric table formats percents and numbers and marks the best printed value per column', () => {
  const t = metricTable(RESULTS);
  assert.deepEqual(
    t.columns.map((c) => c.label),
    ['Acc. (%)', 'ECE (%)', 'NLL'],
  );
  assert.deepEqual(
    t.rows.map((r) => r.cells.map((c) => (c.best ? `*${c.text}` : c.text))),
    [
      ['75.10', '12.34', '0.9000'],
      ['*75.12', '*1.23', '0.8500'],
      ['74.00', '—', '*0.8499'],
    ],
  );
  // Equal printed values tie.
  const tie = metricTable([
    { name: 'a', metrics: { ece: 0.012341 } },
    { name: 'b', metrics: { ece: 0.012339 } },
  ]);
  assert.deepEqual(
    tie.rows.map((r) => r.cells[0]!.best),
    [true, true],
  );
  // Unknown metrics print as plain numbers without a best mark; explicit columns pick and order.
  const custom = metricTable(
    [
      { name: 'a', metrics: { foo: 1 / 3, ece: 0.5 } },
      { name: 'b', metrics: { foo: 0.1 } },
    ],
    ['foo'],
  );
  assert.deepEqual(
    custom.rows.map((r) => r.cells.map((c) => [c.text, c.best])),
    [[['0.3333', false]], [['0.1000', false]]],
  );
  assert.equal(formatMetric(-0.00001, { key: 'x', label: 'x', format: 'percent', decimals: 2 }), '0.00');
});

test('the Markdown report has an escaped title, a table, the binning convention and one figure per plotted method', () => {
  const { markdown, figures } = markdownReport(RESULTS, { title: 'Calibration <CIFAR-10>', description: 'Small *run*' });
  const lines = markdown.split('\n');
  assert.equal(lines[0], '# Calibration &lt;CIFAR-10&gt;');
  assert.ok(lines.includes('Small \\*run\\*'));
  assert.ok(lines.includes('| Method | Acc. (%) | ECE (%) | NLL |'));
  assert.ok(lines.includes('| --- | ---: | ---: | ---: |'));
  assert.ok(lines.includes('| LS (ε = 0.05) | **75.12** | **1.23** | 0.8500 |'));
  assert.ok(lines.includes('| Focal \\| γ=3 | 74.00 | — | **0.8499** |'));
  assert.ok(lines.includes('Best value per column in bold. Reliability data: 4 equal-width bins, convention (l,u\\].'));
  assert.deepEqual(
    figures.map((f) => f.path),
    ['figures/ce.svg', 'figures/ls-0-05.svg'],
  );
  assert.ok(lines.includes('![CE: confidence histogram and reliability diagram](figures/ce.svg)'));
  for (const f of figures) parseXml(f.svg);
  assert.match(textOf(byClass(parseXml(figures[0]!.svg), 'figure-title')[0]!), /^CE — ECE /);
});

test('the HTML report is well-formed XHTML-compatible markup with inline figures whose ids do not collide', () => {
  const html = htmlReport(RESULTS, { title: 'A & B' });
  const root = parseXml(html.replace('<!DOCTYPE html>\n', '').replace(/<meta ([^>]*[^/])>/g, '<meta $1/>'));
  assert.equal(textOf(findAll(root, (e) => e.tag === 'h1')[0]!), 'A & B');
  const rows = findAll(root, (e) => e.tag === 'tr');
  assert.equal(rows.length, 4);
  assert.deepEqual(findAll(root, (e) => e.tag === 'b').map(textOf), ['75.12', '1.23', '0.8499']);
  const ids = findAll(root, (e) => e.tag === 'pattern').map((p) => p.attributes['id']);
  assert.equal(ids.length, 2);
  assert.equal(new Set(ids).size, 2);
  assert.ok(!html.includes('<?xml'));
  assert.ok(!/<script/i.test(htmlReport([{ name: '<script>x</script>', metrics: {} }], { title: 't' })));
});

test('writeReport writes Markdown with figures beside it, or a single HTML file, or the data as JSON', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'calibkit-report-'));
  try {
    const written = await writeReport(join(dir, 'my run.md'), RESULTS, { title: 'Run' });
    assert.deepEqual(readdirSync(dir).sort(), ['my run.md', 'my-run-figures']);
    assert.deepEqual(readdirSync(join(dir, 'my-run-figures')).sort(), ['ce.svg', 'ls-0-05.svg']);
    assert.equal(written.length, 3);
    assert.match(readFileSync(join(dir, 'my run.md'), 'utf8'), /\(my-run-figures\/ce\.svg\)/);
    await writeReport(join(dir, 'r.html'), RESULTS, { title: 'Run' });
    assert.match(readFileSync(join(dir, 'r.html'), 'utf8'), /^<!DOCTYPE html>/);
    // JSON: the numbers the table was formatted from (NaN as null), the columns each method is best in, no figures.
    assert.deepEqual(await writeReport(join(dir, 'r.json'), RESULTS, { title: 'Run' }), [join(dir, 'r.json')]);
    const json = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as {
      title: string;
      binning: string;
      columns: { key: string }[];
      methods: { name: string; metrics: Record<string, number | null>; best: string[]; reliability: unknown }[];
    };
    assert.equal(json.title, 'Run');
    assert.deepEqual(
      json.columns.map((c) => c.key),
      ['accuracy', 'ece', 'nll'],
    );
    assert.deepEqual(
      json.methods.map((m) => [m.name, m.best]),
      [
        ['CE', []],
        ['LS (ε = 0.05)', ['accuracy', 'ece']],
        ['Focal | γ=3', ['nll']],
      ],
    );
    assert.deepEqual(json.methods[2]!.metrics, { accuracy: 0.74, ece: null, nll: 0.84995 });
    assert.equal((json.methods[0]!.reliability as { total: number }).total, CE.total);
    assert.equal(json.methods[2]!.reliability, null);
    assert.match(json.binning, /equal-width bins, convention/);
    await assert.rejects(writeReport(join(dir, 'r.txt'), RESULTS, { title: 'Run' }), (e: unknown) => e instanceof InvalidArgumentError && e.argument === 'path');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('report inputs are validated with the offending field named', () => {
  const named = (argument: string) => (e: unknown) => e instanceof InvalidArgumentError && e.argument === argument;
  assert.throws(() => markdownReport([], { title: 't' }), named('results'));
  assert.throws(() => markdownReport([{ name: '', metrics: {} }], { title: 't' }), named('results[0].name'));
  assert.throws(() => markdownReport([{ name: 'a', metrics: { ece: Infinity } }], { title: 't' }), named('results[0].metrics.ece'));
  assert.throws(() => markdownReport([{ name: 'a', metrics: {}, reliability: { ...CE, total: 1 } }], { title: 't' }), named('results[0].reliability.total'));
  assert.throws(() => markdownReport(RESULTS, { title: '' }), named('options.title'));
  assert.throws(() => markdownReport(RESULTS, { title: 't', figureDir: '../out' }), named('options.figureDir'));
});

test('escapeMarkdown and uniqueSlug make names safe for tables and file names', () => {
  assert.equal(escapeMarkdown('a|b*c_d`e[f]\\g <h> & #1\nx'), 'a\\|b\\*c\\_d\\`e\\[f\\]\\\\g &lt;h&gt; &amp; \\#1 x');
  const taken = new Set<string>();
  assert.deepEqual(
    ['CE', 'ce', 'Ünïcode ✓', '!!!'].map((n) => uniqueSlug(n, taken)),
    ['ce', 'ce-2', 'unicode', 'method'],
  );
});
