import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readNpy } from '../../src/io/index.js';
import { ACLS_SUITE } from '../../src/suite/papers/acls.js';
import { histogramCounts } from '../../src/suite/report/regulariser-histogram.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';
import { tinySuite } from './tiny-suite.js';

const dir = tempDir('regulariser-histogram');

test('histogram counts: equal-width bins over [min, max], (l,u] with min in the first bin, outside values in the end bins', () => {
  const h = histogramCounts(Float64Array.from([0, 0, 0.01, 0.025, 0.05, 0.2, -1]), 4, 0, 0.1);
  assert.deepEqual(h.counts, [5, 1, 0, 1]); // 0, 0, 0.01, 0.025 (upper edge of bin 1) and −1 (clipped); 0.05; 0.2 (clipped)
  assert.equal(h.below, 1);
  assert.equal(h.above, 1);
});

test('a quick ACLS report draws the per-sample ACLS regulariser of every method and report.json carries the counts', async () => {
  const spec = ACLS_SUITE.suite.regulariserHistogram;
  const methods = ACLS_SUITE.suite.methods.filter((m) => ['ce', 'ls', 'mbls', 'acls'].includes(m.name));
  const file = join(dir, 'acls-tiny.json');
  writeFileSync(file, JSON.stringify(tinySuite({ name: 'acls-tiny', methods, compare: [], regulariserHistogram: spec })));
  const out = join(dir, 'out');
  const r = await run(['suite', 'run', file, '--out', out, '--jobs', '2', '--threads', '1', '--progress', 'none']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
    regulariser_histogram: {
      loss: string;
      quantity: string;
      bins: number;
      min: number;
      max: number;
      pooled: string;
      methods: { method: string; runs: string[]; samples: number; counts: number[]; inactive: number; mean: number; below: number; above: number }[];
    };
  };
  const h = report.regulariser_histogram;
  assert.deepEqual(
    { loss: h.loss, quantity: h.quantity, bins: h.bins, min: h.min, max: h.max, pooled: h.pooled },
    { loss: 'acls', quantity: 'regulariser', bins: 20, min: 0, max: 0.1, pooled: 'seeds' },
  );
  assert.deepEqual(
    h.methods.map((m) => m.method),
    ['ce', 'ls', 'mbls', 'acls'],
  );
  for (const m of h.methods) {
    assert.equal(m.samples, 200, `${m.method}: the 200 test samples of its one seed`);
    assert.equal(m.counts.length, 20);
    assert.equal(
      m.counts.reduce((a, b) => a + b, 0),
      200,
    );
    assert.ok(m.inactive >= 0 && m.inactive <= 1);
    assert.ok(m.counts[0]! >= m.inactive * 200, 'the inactive samples sit in the first bin');
  }
  // The same values as `calib loss acls --per-sample … --per-sample-of regulariser` on the run's files.
  const acls = h.methods.find((m) => m.method === 'acls')!;
  const runDir = join(out, 'runs', acls.runs[0]!);
  const values = join(dir, 'acls-reg.npy');
  const opts = Object.entries(spec.options).flatMap(([k, v]) => ['--opt', `${k}=${v}`]); // the suite's M = 6
  assert.deepEqual(opts, ['--opt', 'margin=6']);
  const cli = await run([
    'loss',
    'acls',
    '--logits',
    join(runDir, 'test-logits.npy'),
    '--labels',
    join(runDir, 'test-labels.npy'),
    '--dtype',
    'float64',
    '--per-sample',
    values,
    '--per-sample-of',
    'regulariser',
    ...opts,
  ]);
  assert.equal(cli.code, 0, cli.stderr);
  const v = (await readNpy(values, 'values')).data as Float64Array;
  assert.deepEqual(histogramCounts(v, 20, 0, 0.1).counts, acls.counts);
  assert.equal(v.filter((x) => x === 0).length / v.length, acls.inactive);
  assert.ok(Math.abs(v.reduce((a, b) => a + b, 0) / v.length - acls.mean) < 1e-12);
  // The figure: in the HTML page (its own section), as an SVG file linked from report.md.
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.match(html, /<h2 id="regulariser">Per-sample regulariser<\/h2>/);
  const fig = /<figure id="fig-regulariser-histogram">[\s\S]*?<\/figure>/.exec(html)?.[0] ?? '';
  for (const label of ['CE', 'LS ε=0.05', 'MbLS m=6', 'ACLS M=6']) assert.match(fig, new RegExp(`>${label} \\(\\d+\\.\\d% at 0\\)<`), label);
  assert.match(fig, /ACLS paper Fig\. 3/);
  assert.ok(existsSync(join(out, 'report-figures', 'regulariser-histogram.svg')));
  assert.match(readFileSync(join(out, 'report.md'), 'utf8'), /## Per-sample regulariser[\s\S]*report-figures\/regulariser-histogram\.svg/);
});
