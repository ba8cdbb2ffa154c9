import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSuite } from '../../src/suite/suite-schema.js';
import type { SuiteRun } from '../../src/suite/expand-suite.js';
import type { TrainConfig } from '../../src/train/train-config.js';
import { suiteVerdicts } from '../../src/suite/report/verdicts.js';
import { suiteTables } from '../../src/suite/report/suite-table.js';
import { findings, sweepChoice, temperatureReading } from '../../src/suite/report/write-suite-report.js';
import { suiteDocument } from '../../src/suite/report/suite-document.js';
import type { ReportFigure } from '../../src/suite/report/suite-figures.js';
import type { MethodResults, RunResult, SuiteResults } from '../../src/suite/report/suite-results.js';
import { renderMarkdown } from '../../src/report/document/render-markdown.js';
import { renderHtml } from '../../src/report/document/render-html.js';
import { renderJson } from '../../src/report/document/render-json.js';
import { markdownReport } from '../../src/report/markdown.js';
import { htmlReport } from '../../src/report/html.js';
import { findAll, parseXml, textOf, type XmlElement } from '../report/xml-check.js';

/**
 * Golden tests of the two reports built on the document model (report/document/): the suite report and the single-run
 * comparison report render to Markdown and HTML from one document, so both formats show the same sections, in the
 * same order, with the same tables, best marks and warnings.
 */

function run(method: string, seed: number, ece: number, failures?: Record<string, string>): RunResult {
  const r: SuiteRun = { id: `${method}-seed${seed}`, method, seed, config: { dataset: 'mnist', model: 'mlp' } as unknown as TrainConfig };
  return {
    run: r,
    dir: '/nonexistent',
    summary: {},
    posthoc: {
      bins: 15,
      convention: '(l,u]',
      validation: { ece },
      test: { ece, accuracy: 0.9, nll: 0.3, adaece: ece, mean_confidence: 0.9 + ece },
      calibrators: { temperature: { calibrator: { kind: 'temperature', temperature: 1.2 }, test: { ece: ece / 2, accuracy: 0.9, nll: 0.29 } } },
      ...(failures ? { failures } : {}),
    },
    log: [],
  } as unknown as RunResult;
}

function results(): SuiteResults {
  const suite = parseSuite({
    name: 'golden-suite',
    description: 'A <small> | suite',
    base: { dataset: 'mnist', subset: 300, epochs: 1 },
    posthoc: ['temperature'],
    seeds: [0, 1],
    methods: [
      { name: 'ce', label: 'CE' },
      { name: 'ls', label: 'LS | ε', loss: 'ls' },
    ],
    compare: ['ls < ce on ece'],
  });
  const methods: MethodResults[] = [
    { name: 'ce', label: 'CE', group: 'mnist · mlp', runs: [run('ce', 0, 0.05), run('ce', 1, 0.06, { 'ts-hb-ece': 'too few samples' })] },
    { name: 'ls', label: 'LS | ε', group: 'mnist · mlp', runs: [run('ls', 0, 0.03), run('ls', 1, 0.04)] },
  ];
  return {
    dir: '/nonexistent',
    record: { format: 1, scale: 'quick', suite, runs: methods.flatMap((m) => m.runs.map((r) => r.run)) },
    runs: methods.flatMap((m) => m.runs),
    missing: [],
    diverged: [],
    methods,
    notes: ['epochs 2 in suite.json, 1 in the runs'],
  } as unknown as SuiteResults;
}

const SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>\n';
const FIGURES: ReportFigure[] = [
  { name: 'reliability-1', caption: 'Reliability <before>', svg: SVG, section: 'reliability' },
  { name: 'epochs-val_ece', caption: 'Validation ECE per epoch', svg: SVG, section: 'epochs' },
];

/** The headings of a Markdown text, as [level, text] (escapes undone for comparison with the HTML). */
function markdownHeadings(md: string): [number, string][] {
  return md
    .split('\n')
    .filter((l) => /^#{1,4} /.test(l))
    .map((l) => [
      l.indexOf(' '),
      l
        .slice(l.indexOf(' ') + 1)
        .replace(/\\(.)/g, '$1')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    ]);
}

function htmlRoot(html: string): XmlElement {
  return parseXml(html.replace('<!DOCTYPE html>\n', '').replace(/<meta ([^>]*[^/])>/g, '<meta $1/>'));
}

function htmlHeadings(root: XmlElement): [number, string][] {
  return findAll(root, (e) => /^h[1-4]$/.test(e.tag)).map((e) => [Number(e.tag[1]), textOf(e)]);
}

test('the suite report: Markdown and HTML from one document — same sections in the same order, same warnings and marks', async () => {
  const r = results();
  const verdicts = await suiteVerdicts(r);
  const tables = suiteTables(r);
  const doc = suiteDocument({
    results: r,
    tables,
    verdicts,
    figures: FIGURES,
    findings: findings(r, verdicts),
    ensembles: [],
    shift: { ood: [], severity: [], differences: [] },
    data: { suite: 'golden-suite' },
  });
  const md = renderMarkdown(doc);
  const html = renderHtml(doc);
  const root = htmlRoot(html);
  // report.json is the same document's JSON rendering: its data, not its blocks.
  assert.equal(renderJson(doc), '{\n  "suite": "golden-suite"\n}\n');
  // Golden: the head of the Markdown, escaped once by the Markdown rules.
  assert.deepEqual(md.split('\n').slice(0, 8), [
    '# Suite golden-suite',
    '',
    'A &lt;small&gt; \\| suite',
    '',
    md.split('\n')[4],
    '',
    '**Settings as the runs recorded them:** epochs 2 in suite.json, 1 in the runs.',
    '',
  ]);
  assert.ok(md.split('\n')[4]!.startsWith('scale quick; 4 runs (4 finished); seeds 0, 1;'));
  assert.ok(
    md.includes('\n| Method | Acc. (%) | ECE (%) | AdaECE (%) | NLL | Mean conf. (%) | ECE after TS (%) | NLL after TS | T |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'),
    md,
  );
  assert.ok(md.includes('\n| CE | **90.00 ± 0.00** | 5.50 ± 0.71 | 5.50 ± 0.71 | **0.300 ± 0.000** | 95.50 ± 0.71 | 2.75 ± 0.35 |'), 'ties are all marked');
  assert.ok(md.includes('\n| LS \\| ε | **90.00 ± 0.00** | **3.50 ± 0.71** |'), 'the best mean in bold, the row label escaped');
  assert.ok(md.includes('ECE and AdaECE: 15 bins (ECE: equal-width, convention (l,u\\]; AdaECE: equal-mass).'));
  assert.ok(md.includes('![Reliability &lt;before&gt;](report-figures/reliability-1.svg)\n\n*Reliability &lt;before&gt;*\n'));
  // One structure: the same headings in both formats, in the same order.
  assert.deepEqual(markdownHeadings(md), htmlHeadings(root));
  assert.deepEqual(
    htmlHeadings(root)
      .map(([, t]) => t)
      .slice(0, 3),
    ['Suite golden-suite', 'What this suite found', 'Results: mnist · mlp'],
  );
  // The warnings in the same order and with the same bold labels in both formats (the post-hoc failure after the findings).
  const mdWarnings = md
    .split('\n')
    .filter((l) => /^\*\*[^*]+\*\*/.test(l))
    .map((l) => /^\*\*([^*]+)\*\*/.exec(l)![1]);
  const htmlWarnings = findAll(root, (e) => e.tag === 'p' && e.attributes['class'] === 'warning').map((p) => textOf(findAll(p, (e) => e.tag === 'b')[0]!));
  assert.deepEqual(mdWarnings, ['Settings as the runs recorded them:', 'Post-hoc fits without a result']);
  assert.deepEqual(htmlWarnings, mdWarnings);
  assert.ok(html.indexOf('id="findings"') < html.indexOf('Post-hoc fits without a result'));
  // The same best cells in both formats.
  const mdBest = [...md.matchAll(/\*\*([0-9.]+ ± [0-9.]+)\*\*/g)].map((m) => m[1]);
  const htmlBest = findAll(root, (e) => e.tag === 'td').flatMap((td) => findAll(td, (e) => e.tag === 'b').map(textOf));
  assert.ok(mdBest.length >= 3);
  assert.deepEqual(htmlBest, mdBest);
  // Figures: a file per figure in Markdown, inline SVG with its caption in HTML; the side-by-side charts wrapped.
  assert.equal(findAll(root, (e) => e.tag === 'figcaption').length, 2);
  assert.match(html, /<div class="charts">\n<figure id="fig-epochs-val_ece"><svg/);
  assert.ok(html.endsWith('</body></html>\n'));
});

test('the single-run report: golden Markdown, and the HTML shows the same headings, rows and best marks', () => {
  const results = [
    { name: 'CE', metrics: { accuracy: 0.9, ece: 0.05 } },
    { name: 'LS <0.1>', metrics: { accuracy: 0.91, ece: 0.02 } },
  ];
  const { markdown, figures } = markdownReport(results, { title: 'Run & co', description: 'two | methods' });
  assert.equal(figures.length, 0);
  assert.equal(
    markdown,
    [
      '# Run &amp; co',
      '',
      'two \\| methods',
      '',
      '| Method | Acc. (%) | ECE (%) |',
      '| --- | ---: | ---: |',
      '| CE | 90.00 | 5.00 |',
      '| LS &lt;0.1&gt; | **91.00** | **2.00** |',
      '',
      'Best value per column in bold.',
      '',
    ].join('\n'),
  );
  const html = htmlReport(results, { title: 'Run & co', description: 'two | methods' });
  const root = htmlRoot(html);
  assert.deepEqual(htmlHeadings(root), markdownHeadings(markdown));
  assert.deepEqual(findAll(root, (e) => e.tag === 'th' && e.attributes['scope'] === 'row').map(textOf), ['CE', 'LS <0.1>']);
  assert.deepEqual(findAll(root, (e) => e.tag === 'b').map(textOf), ['91.00', '2.00']);
  assert.equal(textOf(findAll(root, (e) => e.tag === 'p' && e.attributes['class'] === 'note')[0]!), 'Best value per column in bold.');
  // No column with a better direction: neither format claims bold marks (the HTML did before the model).
  const plain = [
    { name: 'a', metrics: { foo: 1 } },
    { name: 'b', metrics: { foo: 2 } },
  ];
  assert.ok(!markdownReport(plain, { title: 't' }).markdown.includes('in bold'));
  assert.ok(!htmlReport(plain, { title: 't' }).includes('in bold'));
});

test('a fitted temperature that prints as 1.00 is not called softening or sharpening', () => {
  assert.equal(temperatureReading(1.003), 'T ≈ 1: temperature scaling leaves the model almost unchanged');
  assert.equal(temperatureReading(0.996), 'T ≈ 1: temperature scaling leaves the model almost unchanged');
  assert.equal(temperatureReading(1.006), 'softening: the model was overconfident');
  assert.equal(temperatureReading(0.994), 'sharpening: the model was underconfident');
  assert.equal(temperatureReading(2.37), 'softening: the model was overconfident');
});

test('a sweep trimmed to one value is reported as the only value run, not as chosen', () => {
  const one = { key: 'weight', label: 'β', values: [{ value: 1, runs: [], validation: 0.02 }], chosen: 1, diverged: [] };
  assert.equal(sweepChoice({ sweep: one }, 'nll'), ' at β = 1 (the only value run)');
  const three = { ...one, values: [0.3, 1, 3].map((value) => ({ value, runs: [], validation: 0.02 })) };
  assert.match(sweepChoice({ sweep: three }, 'nll'), /^ at β = 1 \(chosen from 0\.3, 1, 3 by /);
  const survivor = { ...one, diverged: [{ value: 3, diverged: 1, planned: 5 }] };
  assert.match(sweepChoice({ sweep: survivor }, 'nll'), /chosen from 1 by /);
});
