import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseXml } from '../report/xml-check.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

/**
 * `calib plot --logit-scale`: each non-empty bin is a point at (logit mean predicted, logit observed frequency) on
 * axes of the same logit range, with the identity line; 0/1 frequencies are clipped to [0.5/n, 1 − 0.5/n] as the
 * caption says; probabilities of exactly 0 and 1 put no NaN/Infinity in the file; bad combinations are refused in
 * one line with nothing written.
 */

const dir = tempDir('cli-plot-logit-scale');
const p = (name: string): string => join(dir, name);
const logit = (q: number): number => Math.log(q / (1 - q));

async function ok(argv: string[]): Promise<{ stdout: string; svg: string }> {
  const r = await run(argv);
  assert.equal(r.code, 0, r.stderr);
  const out = argv[argv.indexOf('--out') + 1]!;
  return { stdout: r.stdout, svg: readFileSync(out, 'utf8') };
}

const attr = (tag: string, name: string): number => Number(new RegExp(`\\s${name}="([^"]+)"`).exec(tag)![1]);

/** The points of a logit-scale diagram mapped back from pixels to logit units through the frame and the tick range. */
function pointsInLogits(svg: string): { bin: number; x: number; y: number; clipped: boolean }[] {
  parseXml(svg);
  const frame = /<rect class="frame"[^>]*>/.exec(svg)![0];
  const [fx, fy, fw, fh] = ['x', 'y', 'width', 'height'].map((n) => attr(frame, n)) as [number, number, number, number];
  const tickGroup = /<g class="tick-labels"[^>]*>(.*?)<\/g>/s.exec(svg)![1]!;
  const ticks = [...tickGroup.matchAll(/>(-?[\d.]+)</g)].map((m) => Number(m[1]));
  const limit = Math.max(...ticks);
  assert.equal(Math.min(...ticks), -limit, 'symmetric axes');
  return [...svg.matchAll(/<circle class="(bin-point[^"]*)"[^>]*>/g)].map((m) => ({
    bin: attr(m[0], 'data-bin'),
    x: -limit + ((attr(m[0], 'cx') - fx) / fw) * 2 * limit,
    y: limit - ((attr(m[0], 'cy') - fy) / fh) * 2 * limit,
    clipped: m[1]!.includes('clipped'),
  }));
}

// Two bins (l,u] of 0.5: bin 0 holds p = 0, 0.2, 0.3, 0.5 with y = 0, 1, 0, 0 (mean p 0.25, frequency 1/4);
// bin 1 holds p = 0.6, 0.8, 1 with y = 1, 1, 1 (mean p 0.8, frequency 1 → clipped to 1 − 0.5/3 = 5/6).
const probs = [0, 0.2, 0.3, 0.5, 0.6, 0.8, 1];
const labels = [0, 1, 0, 0, 1, 1, 1];
writeFileSync(p('p.csv'), `p\n${probs.join('\n')}\n`);
writeFileSync(p('y.csv'), `y\n${labels.join('\n')}\n`);

test('calib plot --logit-scale: points at the logits of the bin means computed by hand; an all-positive bin clipped to 1 − 0.5/n', async () => {
  const { stdout, svg } = await ok(['plot', '--logit-scale', '--positive-probs', p('p.csv'), '--labels', p('y.csv'), '--bins', '2', '--out', p('binary.svg')]);
  assert.match(stdout, /wrote logit-scale calibration plot of p \(--positive-probs\), 7 samples .*2 non-empty of 2 bins \(l,u\], 1 clipped to \[0\.5\/n, 1 − 0\.5\/n\]\)/);
  const points = pointsInLogits(svg);
  assert.equal(points.length, 2);
  const expected = [
    { bin: 0, x: logit(0.25), y: logit(0.25), clipped: false },
    { bin: 1, x: logit(0.8), y: logit(5 / 6), clipped: true },
  ];
  points.forEach((point, i) => {
    const want = expected[i]!;
    assert.equal(point.bin, want.bin);
    assert.equal(point.clipped, want.clipped);
    assert.ok(Math.abs(point.x - want.x) < 2e-3, `bin ${want.bin} x ${point.x} vs ${want.x}`);
    assert.ok(Math.abs(point.y - want.y) < 2e-3, `bin ${want.bin} y ${point.y} vs ${want.y}`);
  });
  assert.match(svg, /<text class="caption"[^>]*>0 and 1 clipped to \[0\.5\/n, 1 − 0\.5\/n\], n = bin size: 1 of 2 bins \(hollow\)<\/text>/);
  assert.match(svg, /logit\(predicted probability\)/);
  assert.match(svg, /logit\(observed frequency\)/);
  // The identity line runs corner to corner of the (equal-range) axes.
  const frame = /<rect class="frame"[^>]*>/.exec(svg)![0];
  const diagonal = /<line class="diagonal"[^>]*>/.exec(svg)![0];
  assert.equal(attr(diagonal, 'x1'), attr(frame, 'x'));
  assert.equal(attr(diagonal, 'y1'), attr(frame, 'y') + attr(frame, 'height'));
  assert.equal(attr(diagonal, 'x2'), attr(frame, 'x') + attr(frame, 'width'));
  assert.equal(attr(diagonal, 'y2'), attr(frame, 'y'));
});

test('calib plot --logit-scale: two-column --probs use the class-1 probability, as calib eval --clinical does', async () => {
  writeFileSync(p('two.json'), JSON.stringify(probs.map((q) => [1 - q, q])));
  writeFileSync(p('y.json'), JSON.stringify(labels));
  const { stdout, svg } = await ok(['plot', '--logit-scale', '--probs', p('two.json'), '--labels', p('y.json'), '--bins', '2', '--out', p('two.svg')]);
  assert.match(stdout, /of the class-1 probability, 7 samples/);
  const points = pointsInLogits(svg);
  assert.ok(Math.abs(points[0]!.x - logit(0.25)) < 2e-3 && Math.abs(points[1]!.y - logit(5 / 6)) < 2e-3, JSON.stringify(points));
});

test('calib plot --logit-scale: probabilities of exactly 0 and 1 give finite coordinates (binary and top-label, SVG and PNG)', async () => {
  writeFileSync(p('extreme.csv'), 'p\n0\n0\n0\n1\n1\n1\n');
  writeFileSync(p('extreme-y.csv'), 'y\n0\n0\n0\n1\n1\n1\n');
  const { svg } = await ok(['plot', '--logit-scale', '--positive-probs', p('extreme.csv'), '--labels', p('extreme-y.csv'), '--out', p('extreme.svg')]);
  assert.doesNotMatch(svg, /NaN|Infinity/);
  const points = pointsInLogits(svg);
  // Both bins hold n = 3 rows at p = 0 (y = 0) and p = 1 (y = 1): every coordinate clipped to logit(0.5/3) = −ln 5 or ln 5.
  assert.deepEqual(
    points.map((q) => q.clipped),
    [true, true],
  );
  for (const [q, sign] of [
    [points[0]!, -1],
    [points[1]!, 1],
  ] as const) {
    assert.ok(Math.abs(q.x - sign * Math.log(5)) < 2e-3 && Math.abs(q.y - sign * Math.log(5)) < 2e-3, JSON.stringify(q));
  }
  // Top label of three one-hot rows (confidence exactly 1), one of them wrong.
  writeFileSync(
    p('onehot.json'),
    JSON.stringify([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]),
  );
  writeFileSync(p('onehot-y.json'), JSON.stringify([0, 1, 0]));
  const top = await ok(['plot', '--logit-scale', '--probs', p('onehot.json'), '--labels', p('onehot-y.json'), '--out', p('onehot.svg')]);
  assert.match(top.stdout, /of the top-label confidence, 3 samples/);
  assert.doesNotMatch(top.svg, /NaN|Infinity/);
  assert.match(top.svg, /logit\(accuracy\)/);
  const r = await run(['plot', '--logit-scale', '--positive-probs', p('extreme.csv'), '--labels', p('extreme-y.csv'), '--out', p('extreme.png')]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(p('extreme.png')));
});

test('calib plot --logit-scale: combinations without a logit form refused in one line, nothing written', async () => {
  writeFileSync(p('cal.json'), '{}');
  const binary = ['plot', '--logit-scale', '--positive-probs', p('p.csv'), '--labels', p('y.csv')];
  const cases: [string[], string, RegExp][] = [
    [[...binary, '--figure', 'histogram'], '--figure', /only the reliability diagram has a logit-scale form/],
    [[...binary, '--figure', 'combined'], '--figure', /'diagram' \(or none\) with --logit-scale/],
    [[...binary, '--calibrator', p('cal.json')], '--calibrator', /cannot be combined with --calibrator/],
    [[...binary, '--multilabel'], '--multilabel', /cannot be combined with --multilabel/],
    [[...binary, '--probs', p('two.json')], '--positive-probs', /give one of --logits, --probs or --positive-probs/],
    [['plot', '--positive-probs', p('p.csv'), '--labels', p('y.csv')], '--positive-probs', /--logit-scale as well/],
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
