import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLmEvalLog } from '../../src/io/lm-eval-samples.js';
import { InvalidArgumentError } from '../../src/util/errors.js';

const record = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    doc_id: 0,
    target: '1',
    arguments: { gen_args_0: { arg_0: 'Q:', arg_1: ' yes' }, gen_args_1: { arg_0: 'Q:', arg_1: ' no way' } },
    resps: [[['-2.5', 'False']], [['-1.0', 'True']]],
    filtered_resps: [
      ['-2.5', 'False'],
      ['-1.0', 'True'],
    ],
    acc: 1.0,
    acc_norm: 1.0,
    ...over,
  });

test('harness records: string log-likelihoods, string target, choice lengths without the delimiter', () => {
  const log = parseLmEvalLog(
    `${record()}\n\n${record({
      target: 0,
      filtered_resps: [
        [-3, false],
        [-4, false],
        [-0.5, true],
      ],
      arguments: undefined,
    })}\n`,
  );
  assert.equal(log.format, 'lm-eval-harness');
  assert.equal(log.questions.length, 2);
  assert.deepEqual(Array.from(log.questions[0]!.logLikelihoods), [-2.5, -1]);
  assert.equal(log.questions[0]!.gold, 1);
  assert.deepEqual(Array.from(log.questions[0]!.choiceLengths!), [3, 6]);
  assert.equal(log.questions[0]!.acc, 1);
  assert.deepEqual(Array.from(log.questions[1]!.logLikelihoods), [-3, -4, -0.5]);
  assert.equal(log.questions[1]!.choiceLengths, undefined);
  assert.equal(log.questions[1]!.line, 3);
});

test('resps without filtered_resps (one more list level) and a JSON array file', () => {
  const log = parseLmEvalLog(`[${record({ filtered_resps: undefined })}]`);
  assert.deepEqual(Array.from(log.questions[0]!.logLikelihoods), [-2.5, -1]);
});

test('lighteval details: flat and nested forms; code points, not UTF-16 units, for lengths', () => {
  const flat = parseLmEvalLog(
    JSON.stringify({
      predictions: [
        [-1, false],
        [-2, true],
      ],
      gold_index: [1],
      choices: [' é', ' 🙂🙂'],
    }),
  );
  assert.equal(flat.format, 'lighteval');
  assert.equal(flat.questions[0]!.gold, 1);
  assert.deepEqual(Array.from(flat.questions[0]!.choiceLengths!), [1, 2]);
  const nested = parseLmEvalLog(JSON.stringify({ doc: { gold_index: 0, choices: ['a', 'b', 'c'] }, model_response: { logprobs: [-1, -2, -3] } }));
  assert.deepEqual(Array.from(nested.questions[0]!.logLikelihoods), [-1, -2, -3]);
});

function refused(text: string, pattern: RegExp): void {
  assert.throws(
    () => parseLmEvalLog(text),
    (e: unknown) => e instanceof InvalidArgumentError && pattern.test(e.message) && /^--lm-eval/.test(e.message),
  );
}

test('bad files are refused with the line number', () => {
  refused(`${record()}\n${record({ filtered_resps: [['-1', 'False']] })}`, /at least 2 choices on line 2/);
  refused(
    `${record()}\n${record()}\n${record({
      filtered_resps: [
        ['nan', 'False'],
        ['-1', 'False'],
      ],
    })}`,
    /finite log-likelihoods on line 3.*NaN for choice 0/,
  );
  refused(`${record({ target: undefined })}`, /'target'.*line 1/);
  refused(`${record({ target: '7' })}`, /gold choice index in \[0, 2\) on line 1/);
  refused(`${record()}\n{not json`, /invalid JSON on line 2/);
  refused(`{"doc_id": 1}`, /line 1.*fields doc_id/);
  refused(
    `${record({
      filtered_resps: [
        ['0.5', 'False'],
        ['-1', 'False'],
      ],
    })}`,
    /log-likelihoods ≤ 0 on line 1/,
  );
  refused('', /at least one sample record/);
  refused(`${record()}\n${JSON.stringify({ predictions: [-1, -2], gold_index: 0 })}`, /one format.*line 2/);
  refused(JSON.stringify({ predictions: [-1, -2] }), /gold_index.*line 1/);
});
