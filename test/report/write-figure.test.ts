import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFigure } from '../../src/report/write-figure.js';
import { confidenceHistogramSvg } from '../../src/report/confidence-histogram.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { makeData } from './make-data.js';
import { PNG_SIGNATURE, readIhdr } from './png-decode.js';

const SVG = confidenceHistogramSvg(
  makeData([
    [3, 0.5, 0.6],
    [7, 0.9, 0.8],
  ]),
);

test('writeFigure picks the format from the extension and leaves no temporary files', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'calibkit-report-'));
  try {
    await writeFigure(join(dir, 'a.svg'), SVG);
    assert.equal(readFileSync(join(dir, 'a.svg'), 'utf8'), SVG);
    await writeFigure(join(dir, 'b.png'), SVG);
    const png = readFileSync(join(dir, 'b.png'));
    assert.deepEqual(png.subarray(0, 8), PNG_SIGNATURE);
    assert.equal(readIhdr(png).width, 840, 'twice the SVG width by default');
    await writeFigure(join(dir, 'C.PNG'), SVG, { width: 210 });
    assert.deepEqual([readIhdr(readFileSync(join(dir, 'C.PNG'))).width, readIhdr(readFileSync(join(dir, 'C.PNG'))).height], [210, 130]);
    assert.deepEqual(readdirSync(dir).sort(), ['C.PNG', 'a.svg', 'b.png']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('writeFigure rejects unknown extensions and non-SVG content before touching the disk', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'calibkit-report-'));
  try {
    const named = (argument: string) => (e: unknown) => e instanceof InvalidArgumentError && e.argument === argument;
    await assert.rejects(writeFigure(join(dir, 'plot.pdf'), SVG), named('path'));
    await assert.rejects(writeFigure(join(dir, 'plot'), SVG), named('path'));
    await assert.rejects(writeFigure(join(dir, 'plot.svg'), 'not svg'), named('svg'));
    await assert.rejects(writeFigure(join(dir, 'plot.png'), 'not svg'), named('svg'));
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
