/**
 * Hardness catalogue, issue 26 item 1: bad multiple-choice LLM logs and flag combinations of `--lm-eval` through the
 * CLI in-process: exit 2, nothing on stdout, one stderr line naming the argument (and the line of the file).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('hardness-lm-eval');
const p = (name: string): string => join(dir, name);

async function refused(argv: string[], pattern: RegExp): Promise<void> {
  const r = await run(argv);
  assert.equal(r.code, 2, `${argv.join(' ')} -> ${r.code}: ${r.stderr}`);
  assert.equal(r.stdout, '', argv.join(' '));
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
  assert.match(r.stderr, pattern);
}

const good = {
  target: '0',
  filtered_resps: [
    ['-1.5', 'False'],
    ['-2.5', 'False'],
  ],
  arguments: { gen_args_0: { arg_0: 'Q', arg_1: ' a' }, gen_args_1: { arg_0: 'Q', arg_1: ' bb' } },
};
function file(name: string, records: unknown[]): string {
  writeFileSync(p(name), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return p(name);
}

test('a question with one choice, NaN log-likelihoods, a missing target: refused with the line', async () => {
  await refused(['eval', '--lm-eval', file('one.jsonl', [good, good, { ...good, filtered_resps: [['-1', 'False']] }])], /--lm-eval: expected at least 2 choices on line 3/);
  await refused(
    [
      'eval',
      '--lm-eval',
      file('nan.jsonl', [
        good,
        {
          ...good,
          filtered_resps: [
            ['nan', 'False'],
            ['-1', 'False'],
          ],
        },
      ]),
    ],
    /--lm-eval: expected finite log-likelihoods on line 2/,
  );
  await refused(
    [
      'eval',
      '--lm-eval',
      file('inf.jsonl', [
        {
          ...good,
          filtered_resps: [
            ['-inf', 'False'],
            ['-1', 'False'],
          ],
        },
      ]),
    ],
    /finite log-likelihoods on line 1.*-Infinity/,
  );
  const { target: _t, ...noTarget } = good;
  await refused(['eval', '--lm-eval', file('notarget.jsonl', [good, noTarget])], /--lm-eval: expected a 'target'.* on line 2/);
  await refused(['fit', '--method', 'temperature', '--lm-eval', p('nan.jsonl'), '--out', p('t.json')], /--lm-eval: expected finite log-likelihoods on line 2/);
});

test('acc_norm without choice texts, a missing file, wrong method and flag combinations', async () => {
  const { arguments: _a, ...bare } = good;
  await refused(['eval', '--lm-eval', file('bare.jsonl', [bare]), '--lm-eval-score', 'acc_norm'], /--lm-eval-score: expected acc_norm only for records that give the choices' texts \(line 1/);
  await refused(['eval', '--lm-eval', p('missing.jsonl')], /--lm-eval/);
  await refused(['eval', '--lm-eval', file('ok.jsonl', [good, { ...good, target: 1 }]), '--logits', 'x.npy'], /--logits cannot be combined with --lm-eval/);
  await refused(['eval', '--lm-eval', p('ok.jsonl'), '--weights', 'w.npy'], /--weights cannot be combined with --lm-eval/);
  await refused(['fit', '--method', 'platt', '--lm-eval', p('ok.jsonl'), '--out', p('t.json')], /--method: expected 'temperature' with --lm-eval/);
  await refused(['fit', '--method', 'temperature', '--lm-eval', p('ok.jsonl'), '--labels', 'y.npy', '--out', p('t.json')], /leave out --logits, --probs, --labels/);
  await refused(['eval', '--logits', 'x.npy', '--labels', 'y.npy', '--calibrator', 'c.json'], /--calibrator applies to --lm-eval inputs/);
});

test('a calibrator that is not a temperature is refused by eval --lm-eval', async () => {
  writeFileSync(p('hist.json'), JSON.stringify({ kind: 'histogram', version: { format: 1, calibkit: '0.1.0' }, classes: 2, settings: { bins: 2 }, edges: [0, 0.5, 1], values: [0.2, 0.8] }));
  const r = await run(['eval', '--lm-eval', p('ok.jsonl'), '--calibrator', p('hist.json')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--calibrator/);
});
