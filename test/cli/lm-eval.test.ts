import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

// Fixtures and reference values: /usr/bin/python3 test/fixtures/scripts/make-lm-eval-fixtures.py
// (NumPy/SciPy; AUARC and PRR as LM-Polygraph's pred_rej_area.py defines them).
const fixture = (name: string): string => fileURLToPath(new URL(`../../../test/fixtures/lm-eval/${name}`, import.meta.url));
type Ref = { accuracy: number; nll: number; brier: number; ece: number; auarc: number; prr: number; temperature: number };
const reference = JSON.parse(readFileSync(fixture('reference.json'), 'utf8')) as Record<string, Record<string, Ref>>;
const dir = tempDir('cli-lm-eval');

async function json(argv: string[]): Promise<Record<string, any>> {
  const r = await run(argv);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '', 'the computed acc / acc_norm agree with the logged ones');
  return JSON.parse(r.stdout) as Record<string, any>;
}

const close = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

for (const [file, scores] of [
  ['harness-hellaswag.jsonl', ['acc', 'acc_norm']],
  ['harness-arc-ragged.jsonl', ['acc', 'acc_norm']],
  ['lighteval-details.jsonl', ['acc']],
] as const) {
  for (const score of scores) {
    test(`calib eval --lm-eval ${file} --lm-eval-score ${score} matches the NumPy reference`, async () => {
      const ref = reference[file]![score]!;
      const out = await json(['eval', '--lm-eval', fixture(file), '--lm-eval-score', score, '--json']);
      close(out.accuracy, ref.accuracy, 1e-12, 'accuracy');
      close(out.nll, ref.nll, 1e-9, 'nll');
      close(out.brier, ref.brier, 1e-9, 'brier');
      close(out.ece, ref.ece, 1e-9, 'ece');
      close(out.auarc, ref.auarc, 1e-12, 'auarc');
      close(out.prr, ref.prr, 1e-12, 'prr');
      assert.equal(out.lm_eval.score, score);
      if (file.includes('ragged')) {
        assert.equal(out.lm_eval.choices, 'varying');
        assert.ok((out.not_computable as string[]).includes('classwise_ece'));
      } else {
        assert.equal(out.lm_eval.choices, 4);
        assert.equal(typeof out.classwise_ece, 'number');
      }
    });
  }
}

test('calib fit --lm-eval fits the NLL temperature of the reference; calib eval --calibrator applies it', async () => {
  for (const file of ['harness-hellaswag.jsonl', 'harness-arc-ragged.jsonl']) {
    const out = join(dir, `${file}.ts.json`);
    const r = await run(['fit', '--method', 'temperature', '--lm-eval', fixture(file), '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /fitted temperature \(T = [\d.]+\) on 60 questions|fitted temperature \(T = [\d.]+\) on 50 questions/);
    const t = JSON.parse(readFileSync(out, 'utf8')).temperature as number;
    close(t, reference[file]!['acc']!.temperature, 1e-5 * t, `${file} temperature`);
    const before = await json(['eval', '--lm-eval', fixture(file), '--json']);
    const after = await json(['eval', '--lm-eval', fixture(file), '--calibrator', out, '--json']);
    assert.equal(after.lm_eval.temperature, t);
    assert.ok(after.nll < before.nll, `NLL ${before.nll} -> ${after.nll}`);
    assert.equal(after.accuracy, before.accuracy);
  }
});

test('table output, reliability bins and acc_norm disagreement warning', async () => {
  const r = await run(['eval', '--lm-eval', fixture('harness-arc-ragged.jsonl'), '--reliability', join(dir, 'bins.csv')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /50 questions .* 3–5 choices/);
  assert.match(r.stdout, /PRR \(prediction–rejection ratio\): /);
  assert.match(r.stdout, /not computable with a varying number of choices/);
  assert.match(readFileSync(join(dir, 'bins.csv'), 'utf8'), /^lower,upper,count,mean_predicted,fraction_positive\n/);
  // A record whose logged acc contradicts its log-likelihoods is counted in a warning.
  const lines = readFileSync(fixture('harness-hellaswag.jsonl'), 'utf8').trim().split('\n');
  const first = JSON.parse(lines[0]!);
  first.acc = 1 - first.acc;
  writeFileSync(join(dir, 'flipped.jsonl'), [JSON.stringify(first), ...lines.slice(1)].join('\n'));
  const w = await run(['eval', '--lm-eval', join(dir, 'flipped.jsonl'), '--json']);
  assert.equal(w.code, 0);
  assert.match(w.stderr, /on 1 of 60 questions the top choice by acc scores disagrees with the logged 'acc'/);
});
