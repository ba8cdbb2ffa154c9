import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readLmEvalLog } from '../../src/io/lm-eval-samples.js';
import { writeNpy } from '../../src/io/npy.js';
import { lmEvalScores } from '../../src/cli/eval/lm-eval-input.js';
import { auarc } from '../../src/metrics/selective/rejection-curve.js';
import { Random } from '../../src/util/random.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

/**
 * `calib eval --lm-eval FILE --bootstrap B`: questions resampled with replacement. With a fixed number of choices the
 * intervals of every metric equal `calib eval --logits` on the N × C score matrix with the same seed; the AUARC and
 * (varying choices) NLL intervals equal a percentile bootstrap written out here (index stream Random(seed).int(N)
 * per row, linear-interpolation quantiles); bad B refused.
 */

const fixture = (name: string): string => fileURLToPath(new URL(`../../../test/fixtures/lm-eval/${name}`, import.meta.url));
const dir = tempDir('cli-lm-eval-bootstrap');
const p = (name: string): string => join(dir, name);
const B = 40;
const SEED = 7;

async function json(argv: string[]): Promise<Record<string, any>> {
  const r = await run(argv);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, any>;
}

/** numpy.quantile(values, q) (linear interpolation) of sorted values. */
function quantile(sorted: number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return sorted[lo]! + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? sorted[lo]!) - sorted[lo]!);
}

/** A 95% percentile-bootstrap interval of `statistic` over B draws of N indices. */
function bootstrap(n: number, statistic: (drawn: Int32Array) => number): [number, number] {
  const rng = new Random(SEED);
  const drawn = new Int32Array(n);
  const values: number[] = [];
  for (let b = 0; b < B; b++) {
    for (let i = 0; i < n; i++) drawn[i] = rng.int(n);
    const v = statistic(drawn);
    if (!Number.isNaN(v)) values.push(v);
  }
  values.sort((a, b) => a - b);
  return [quantile(values, 0.025), quantile(values, 0.975)];
}

/** Top-choice confidence (softmax), correctness (first maximum) and −log p_gold per question, computed here. */
function perQuestion(scores: Float64Array[], gold: Int32Array) {
  const confidence = scores.map((s) => {
    const max = Math.max(...s);
    return 1 / s.reduce((acc, v) => acc + Math.exp(v - max), 0);
  });
  const correct = scores.map((s, i) => (s.indexOf(Math.max(...s)) === gold[i] ? 1 : 0));
  const nll = scores.map((s, i) => {
    const max = Math.max(...s);
    return -(s[gold[i]!]! - max - Math.log(s.reduce((acc, v) => acc + Math.exp(v - max), 0)));
  });
  return { confidence, correct, nll };
}

const closeInterval = (got: number[], want: number[], what: string) => got.forEach((v, k) => assert.ok(Math.abs(v - want[k]!) <= 1e-12, `${what}: [${got}] vs [${want}]`));

test('calib eval --lm-eval --bootstrap (4 choices each): every interval equals calib eval --logits on the score matrix; AUARC by hand', async () => {
  const { scores, gold } = lmEvalScores(await readLmEvalLog(fixture('harness-hellaswag.jsonl')), 'acc');
  const n = scores.length;
  await writeNpy(p('scores.npy'), Float64Array.from(scores.flatMap((s) => [...s])), [n, 4]);
  await writeNpy(p('gold.npy'), Int32Array.from(gold), [n]);
  const out = await json(['eval', '--lm-eval', fixture('harness-hellaswag.jsonl'), '--bootstrap', String(B), '--seed', String(SEED), '--json']);
  // --lm-eval leaves the calibration–refinement split out (as evaluate() does by default): so does the comparison.
  const plain = await json(['eval', '--logits', p('scores.npy'), '--labels', p('gold.npy'), '--refinement-calibrator', 'none', '--bootstrap', String(B), '--seed', String(SEED), '--json']);
  assert.equal(out.bootstrap.resamples, B);
  assert.deepEqual(out.bootstrap.intervals, plain.bootstrap.intervals);
  const q = perQuestion(scores, gold);
  const want = bootstrap(n, (drawn) =>
    auarc(
      Array.from(drawn, (j) => q.confidence[j]!),
      Array.from(drawn, (j) => q.correct[j]!),
    ),
  );
  closeInterval(out.question_bootstrap.intervals.auarc, want, 'auarc');
  assert.deepEqual(Object.keys(out.question_bootstrap.intervals).sort(), ['auarc', 'prr']);
  const [lo, hi] = out.question_bootstrap.intervals.prr;
  assert.ok(lo <= out.prr && out.prr <= hi, `prr ${out.prr} in [${lo}, ${hi}]`);
});

test('calib eval --lm-eval --bootstrap (varying choices): top-label, NLL and Brier intervals; NLL by hand; table shows the intervals', async () => {
  const file = fixture('harness-arc-ragged.jsonl');
  const { scores, gold } = lmEvalScores(await readLmEvalLog(file), 'acc');
  const out = await json(['eval', '--lm-eval', file, '--bootstrap', String(B), '--seed', String(SEED), '--json']);
  const q = perQuestion(scores, gold);
  closeInterval(
    out.question_bootstrap.intervals.nll,
    bootstrap(scores.length, (drawn) => Array.from(drawn, (j) => q.nll[j]!).reduce((a, b) => a + b, 0) / drawn.length),
    'nll',
  );
  for (const key of ['nll', 'brier']) {
    const [lo, hi] = out.question_bootstrap.intervals[key];
    assert.ok(lo <= out[key] && out[key] <= hi, `${key} ${out[key]} in [${lo}, ${hi}]`);
  }
  const [lo, hi] = out.bootstrap.intervals.ece;
  assert.ok(lo < hi && lo >= 0, `ece interval [${lo}, ${hi}]`);
  const again = await json(['eval', '--lm-eval', file, '--bootstrap', String(B), '--seed', String(SEED + 1), '--json']);
  assert.notDeepEqual(again.bootstrap.intervals.ece, out.bootstrap.intervals.ece, 'another seed, other draws');
  const table = await run(['eval', '--lm-eval', file, '--bootstrap', '50']);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /NLL\s+│?\s*[\d.]+ \[[\d.]+, [\d.]+\] \(95% CI\)/);
  assert.match(table.stdout, /50 bootstrap resamples of the questions, seed 0/);
  const bad = await run(['eval', '--lm-eval', file, '--bootstrap', '0']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--bootstrap/);
  assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
});
