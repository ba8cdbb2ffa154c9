import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareScales, scaleComparisonMarkdown, type ScaleReport } from '../../src/suite/report/scale-comparison.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';

const v = (id: string, outcome: string, difference: number | null, lower: number | null, upper: number | null, extra: Record<string, unknown> = {}) => ({
  id,
  statement: `claim ${id}`,
  source: 'Table 1',
  origin: 'paper',
  headline: false,
  claim: `a < b on ece`,
  metric: 'ece',
  outcome,
  reason: null,
  difference,
  lower,
  upper,
  ...extra,
});

const MACHINE: ScaleReport = {
  suite: 'p',
  scale: 'machine',
  verdicts: [
    v('flips', 'holds', -0.02, -0.03, -0.01, { headline: true }),
    v('stays', 'inconclusive', 0.001, -0.004, 0.006),
    v('nll-claim', 'contradicted', 0.05, 0.01, 0.09, { metric: 'nll', claim: 'a < b on nll' }),
    v('trimmed', 'holds', -0.01, -0.02, -0.005),
    v('never', 'not tested', null, null, null),
  ],
};
const DEEP: ScaleReport = {
  suite: 'p',
  scale: 'deep',
  verdicts: [
    v('flips', 'contradicted', 0.015, 0.005, 0.025, { headline: true }),
    v('stays', 'inconclusive', -0.002, -0.01, 0.006),
    v('nll-claim', 'holds', -0.07, -0.1, -0.04, { metric: 'nll', claim: 'a < b on nll' }),
    v('trimmed', 'not tested', null, null, null),
    v('never', 'not tested', null, null, null),
  ],
};

test('compare-scales pairs claims by id and says which verdicts flipped, with both differences and intervals', () => {
  const rows = compareScales(MACHINE, DEEP);
  assert.deepEqual(
    rows.map((r) => [r.id, r.state]),
    [
      ['flips', 'flipped'],
      ['stays', 'same'],
      ['nll-claim', 'flipped'],
      ['trimmed', 'decided at one scale'],
      ['never', 'untested at both'],
    ],
  );
  const md = scaleComparisonMarkdown(MACHINE, DEEP, 'deep');
  assert.match(md, /^## p: verdicts at machine vs deep scale$/m);
  assert.match(md, /^2 flipped, 1 unchanged, 1 decided at one scale only, 1 untested at both/m);
  assert.match(md, /^\| \*\*flips\*\* \| Table 1 \| holds -2\.00 \\\[-3\.00, -1\.00\\\] \| contradicted 1\.50 \\\[0\.50, 2\.50\\\] \| flipped \|$/m);
  // NLL differences are not fractions: shown as they are.
  assert.match(md, /^\| nll-claim \| Table 1 \| contradicted 0\.05 \\\[0\.01, 0\.09\\\] \| holds -0\.07 \\\[-0\.10, -0\.04\\\] \| flipped \|$/m);
  assert.match(md, /^\| trimmed \| Table 1 \| holds -1\.00 \\\[-2\.00, -0\.50\\\] \| not tested \| decided at one scale \|$/m);
  const lines = md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| claim') && !l.startsWith('| ---'));
  assert.deepEqual(
    lines.map((l) => l.split(' | ').at(-1)),
    ['flipped |', 'flipped |', 'decided at one scale |', 'same |', 'untested at both |'],
    'flips first',
  );
});

test('calib suite compare-scales reads two report.json files; a missing deep report is said as such', async () => {
  const dir = tempDir('scale-comparison');
  mkdirSync(join(dir, 'machine'));
  writeFileSync(join(dir, 'machine', 'report.json'), JSON.stringify(MACHINE));
  writeFileSync(join(dir, 'deep.json'), JSON.stringify(DEEP));
  const r = await run(['suite', 'compare-scales', join(dir, 'machine'), join(dir, 'deep.json'), '--markdown', join(dir, 'flips.md')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /2 flipped/);
  assert.equal(readFileSync(join(dir, 'flips.md'), 'utf8'), r.stdout);
  const missing = await run(['suite', 'compare-scales', join(dir, 'machine'), join(dir, 'nowhere')]);
  assert.equal(missing.code, 0, missing.stderr);
  assert.equal(missing.stdout, '## p: verdicts at machine vs deep scale\n\ndeep-scale report not yet produced.\n');
  const bad = await run(['suite', 'compare-scales', join(dir, 'nowhere'), join(dir, 'deep.json')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^calib: error: first directory: expected a suite report\.json \(or a directory holding one\), got ".*nowhere"$/m);
  // A report that is not JSON is named as the argument the user gave: the second directory.
  writeFileSync(join(dir, 'broken.json'), '{');
  const broken = await run(['suite', 'compare-scales', join(dir, 'machine'), join(dir, 'broken.json')]);
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, /^calib: error: second directory: expected a suite report\.json \(JSON\)/m);
  // A --markdown path that cannot be written is refused before anything is printed.
  const toDir = await run(['suite', 'compare-scales', join(dir, 'machine'), join(dir, 'deep.json'), '--markdown', dir]);
  assert.equal(toDir.code, 2);
  assert.equal(toDir.stdout, '');
  assert.match(toDir.stderr, /^calib: error: --markdown: expected a file path, got ".*" \(a directory\)$/m);
});

test('calib suite budget --markdown DIR refuses the path before printing the plan', async () => {
  const dir = tempDir('budget-markdown');
  const r = await run(['suite', 'budget', 'mbls', '--scale', 'deep', '--markdown', dir]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '', 'nothing printed');
  assert.equal(r.stderr.split('\n').length, 2, 'one line');
  assert.match(r.stderr, /^calib: error: --markdown: expected a file path, got ".*budget-markdown[^"]*" \(a directory\)$/m);
});
