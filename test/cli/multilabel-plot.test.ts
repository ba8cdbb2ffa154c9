import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeNpy } from '../../src/io/npy.js';
import { Random } from '../../src/util/random.js';
import { parseXml } from '../report/xml-check.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

/**
 * `calib plot --multilabel`: one reliability diagram per label in rows of at most six; panel titles carry the label
 * names and the column's ECE, which with --convention '[l,u)' is calib eval --multilabel's per-label ECE; bad inputs
 * refused in one line with nothing written.
 */

const fixture = (name: string): string => fileURLToPath(new URL(`../../../test/fixtures/multilabel/${name}`, import.meta.url));
const dir = tempDir('cli-multilabel-plot');
const p = (name: string): string => join(dir, name);

async function ok(argv: string[]): Promise<string> {
  const r = await run(argv);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

/** The text of every panel title (class "title", wrapped lines joined), in document order. */
function panelTitles(svg: string): string[] {
  parseXml(svg);
  const titles = [...svg.matchAll(/<text class="title"[^>]*>(.*?)<\/text>/gs)].map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  return titles;
}
const svgWidth = (svg: string) => Number(/<svg[^>]* width="(\d+)"/.exec(svg)![1]);

test('calib plot --multilabel: one panel per label with its name, support and the per-label ECE of calib eval --multilabel', async () => {
  writeFileSync(p('names.txt'), 'cat\ndog\nbird & fish\ncar\ntree\n');
  const out = await ok([
    'plot',
    '--multilabel',
    '--logits',
    fixture('logits.npy'),
    '--labels',
    fixture('labels.npy'),
    '--label-names',
    p('names.txt'),
    '--convention',
    '[l,u)',
    '--out',
    p('five.svg'),
  ]);
  assert.match(out, /wrote 5 per-label reliability diagrams of 300 samples \(ECE per label [\d.]+–[\d.]+%, macro [\d.]+%, 15 bins \[l,u\)\) -> /);
  const svg = readFileSync(p('five.svg'), 'utf8');
  const titles = panelTitles(svg);
  assert.equal(titles.length, 5, titles.join(' | '));
  assert.equal(svgWidth(svg), 5 * 250, 'five panels in one row');
  assert.match(svg, /Per-label reliability — 300 samples × 5 labels/);
  assert.match(svg, /Predicted probability/);
  assert.match(svg, /Observed frequency/);
  const evaluated = JSON.parse(await ok(['eval', '--multilabel', '--logits', fixture('logits.npy'), '--labels', fixture('labels.npy'), '--json']));
  ['cat', 'dog', 'bird &amp; fish', 'car', 'tree'].forEach((name, l) => {
    const label = evaluated.labels[l];
    assert.equal(titles[l], `${name} (${label.support} pos.) — ECE ${(label.ece * 100).toFixed(2)}%`);
  });
});

test('calib plot --multilabel wraps 8 labels into 2 rows of 4, writes PNG, and draws calibrated probabilities with a multi-label --calibrator', async () => {
  const rng = new Random(3);
  const n = 400;
  const L = 8;
  const z = Float64Array.from({ length: n * L }, () => 3 * rng.normal());
  const y = Float64Array.from(z, (v) => (rng.uniform() < 1 / (1 + Math.exp(-v / 2)) ? 1 : 0));
  await writeNpy(p('z8.npy'), z, [n, L]);
  await writeNpy(p('y8.npy'), y, [n, L]);
  await ok(['plot', '--multilabel', '--logits', p('z8.npy'), '--labels', p('y8.npy'), '--out', p('eight.svg'), '--figure', 'diagram']);
  const svg = readFileSync(p('eight.svg'), 'utf8');
  const titles = panelTitles(svg);
  assert.equal(titles.length, 8);
  assert.match(titles[7]!, /^label 7 \(\d+ pos\.\) — ECE /);
  assert.equal(svgWidth(svg), 4 * 250, '8 panels: rows of 4');
  const ys = new Set([...svg.matchAll(/<text class="title" x="[\d.]+" y="([\d.]+)"/g)].map((m) => m[1]));
  assert.ok(ys.size >= 2, 'two rows of titles');
  await ok(['plot', '--multilabel', '--logits', p('z8.npy'), '--labels', p('y8.npy'), '--out', p('eight.png')]);
  assert.deepEqual([...readFileSync(p('eight.png')).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  await ok(['fit', '--multilabel', '--method', 'temperature', '--logits', p('z8.npy'), '--labels', p('y8.npy'), '--out', p('ts8.json')]);
  const after = await ok(['plot', '--multilabel', '--logits', p('z8.npy'), '--labels', p('y8.npy'), '--calibrator', p('ts8.json'), '--out', p('after.svg')]);
  assert.match(after, /after temperature/);
  const macro = (s: string) => Number(/macro ([\d.]+)%/.exec(s)![1]);
  const before = await ok(['plot', '--multilabel', '--logits', p('z8.npy'), '--labels', p('y8.npy'), '--out', p('before.svg')]);
  assert.ok(macro(after) < macro(before), `temperature lowers the macro ECE of overconfident logits: ${macro(before)} -> ${macro(after)}`);
  assert.match(readFileSync(p('after.svg'), 'utf8'), /Per-label reliability after temperature/);
});

test('calib plot --multilabel refuses bad input in one line and writes nothing', async () => {
  writeFileSync(p('four-names.txt'), 'a\nb\nc\nd\n');
  writeFileSync(p('blank-names.txt'), 'a\n\nc\nd\ne\n');
  const base = ['plot', '--multilabel', '--logits', fixture('logits.npy'), '--labels', fixture('labels.npy')];
  const cases: [string[], string, RegExp][] = [
    [[...base, '--label-names', p('four-names.txt')], '--label-names', /expected 5 names, one per line .*got 4/],
    [[...base, '--label-names', p('blank-names.txt')], '--label-names', /an empty line 2/],
    [[...base, '--figure', 'risk-coverage'], '--figure', /one reliability diagram per label/],
    [['plot', '--logits', fixture('logits.npy'), '--labels', fixture('labels.npy'), '--label-names', p('four-names.txt')], '--label-names', /--multilabel as well/],
    [['plot', '--multilabel', '--logits', fixture('logits.npy'), '--labels', p('y8.npy')], '--labels', /shape 300 × 5/],
    [[...base, '--calibrator', p('names.txt')], '--calibrator', /multi-label calibrator JSON/],
  ];
  for (const [argv, arg, message] of cases) {
    const r = await run([...argv, '--out', p('refused.svg')]);
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(r.stderr.includes(arg), r.stderr);
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.equal(existsSync(p('refused.svg')), false);
  }
});
