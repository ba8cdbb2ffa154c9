/**
 * Hardness catalogue, issue 26 item 2: bad multi-label inputs and calibrator files through the CLI in-process:
 * exit 2, nothing on stdout, one stderr line naming the argument and the position.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('hardness-multilabel');
const p = (name: string): string => join(dir, name);

async function refused(argv: string[], pattern: RegExp): Promise<void> {
  const r = await run(argv);
  assert.equal(r.code, 2, `${argv.join(' ')} -> ${r.code}: ${r.stderr}`);
  assert.equal(r.stdout, '', argv.join(' '));
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
  assert.match(r.stderr, pattern);
}

writeFileSync(p('z.csv'), '1.5,-2\n-0.5,3\n2,0.25\n-1,-1\n');
writeFileSync(p('y.csv'), '1,0\n0,1\n1,1\n0,0\n');

test('labels that are not 0/1, of another shape; predictions out of range or not finite', async () => {
  writeFileSync(p('y2.csv'), '1,0\n0,2\n1,1\n0,0\n');
  await refused(['eval', '--multilabel', '--logits', p('z.csv'), '--labels', p('y2.csv')], /--labels: expected 0\/1 labels, got 2 at row 1, label 1/);
  writeFileSync(p('y3.csv'), '1,0,1\n0,1,0\n1,1,0\n0,0,1\n');
  await refused(['eval', '--multilabel', '--logits', p('z.csv'), '--labels', p('y3.csv')], /--labels: expected an N × L matrix of 0\/1 of the predictions' shape 4 × 2, got 4 × 3/);
  writeFileSync(p('p.csv'), '0.5,0.2\n0.1,1.5\n0.2,0.2\n0.9,0.9\n');
  await refused(['eval', '--multilabel', '--probs', p('p.csv'), '--labels', p('y.csv')], /--probs: expected probabilities in \[0, 1\].*1\.5 at row 1, label 1/);
  writeFileSync(p('zn.csv'), '1.5,-2\n-0.5,nan\n2,0.25\n-1,-1\n');
  await refused(['eval', '--multilabel', '--logits', p('zn.csv'), '--labels', p('y.csv')], /--logits/);
  await refused(['eval', '--multilabel', '--labels', p('y.csv')], /--multilabel: give the predictions with --logits FILE or --probs FILE/);
  await refused(['eval', '--multilabel', '--logits', p('z.csv')], /--multilabel: give --labels FILE/);
  await refused(['eval', '--multilabel', '--logits', p('z.csv'), '--labels', p('y.csv'), '--bootstrap', '10'], /--bootstrap cannot be combined with --multilabel/);
});

test('fit: a binary-only method works per label, a fit failure names the label; apply checks the columns and kind', async () => {
  writeFileSync(p('yall.csv'), '1,0\n1,1\n1,0\n1,0\n');
  writeFileSync(p('zpos.csv'), '1.5,-2\n0.5,3\n2,0.25\n1,-1\n');
  // Label 0: every logit positive and every outcome 1, so the NLL keeps falling as T → 0.
  const r = await run(['fit', '--multilabel', '--method', 'temperature', '--logits', p('zpos.csv'), '--labels', p('yall.csv'), '--out', p('t.json')]);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /label 0/);
  const ok = await run(['fit', '--multilabel', '--method', 'platt', '--logits', p('z.csv'), '--labels', p('y.csv'), '--out', p('platt.json')]);
  assert.equal(ok.code, 0, ok.stderr);
  writeFileSync(p('z3.csv'), '1,2,3\n');
  await refused(['apply', '--calibrator', p('platt.json'), '--logits', p('z3.csv'), '--out', p('o.npy')], /--logits: expected 2 labels \(columns\), got 3/);
  await refused(['apply', '--calibrator', p('platt.json'), '--probs', p('y.csv'), '--out', p('o.npy')], /--probs: expected logits \(the calibrators were fitted on logits\)/);
  await refused(['apply', '--calibrator', p('platt.json'), '--logits', p('z.csv'), '--out', p('o.npy'), '--output', 'logits'], /--output: expected 'probs' for a multi-label calibrator/);
  writeFileSync(p('bad.json'), JSON.stringify({ kind: 'multilabel', labels: 3, method: 'platt', input: 'logits', calibrators: [] }));
  await refused(['apply', '--calibrator', p('bad.json'), '--logits', p('z.csv'), '--out', p('o.npy')], /--calibrator: expected a multi-label calibrator JSON file.*calibrator.calibrators/);
});
