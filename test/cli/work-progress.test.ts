import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkProgress } from '../../src/cli/work-progress.js';

test('WorkProgress percent format: the time left is extrapolated from the rate since the first update, not from the start', () => {
  let clock = 0;
  let text = '';
  const sink = { write: (s: string) => (text += s) };
  const progress = new WorkProgress(sink, 'fitting isotonic', 1, { format: 'percent', tty: false, lineIntervalMs: 1000, now: () => clock });
  // 3 s of set-up before the first class (1%) is done, then 1 % per 40 ms.
  clock = 3000;
  progress.update(0.01);
  clock = 3000 + 49 * 40;
  progress.update(0.5);
  clock = 3000 + 89 * 40;
  progress.update(0.9);
  clock = 3000 + 99 * 40;
  progress.update(1);
  progress.finish();
  // At 50 %: 1.96 s for 49 %, 50 % left -> 2 s (from the start it would be 4.96 s / 0.5 · 0.5 = 5 s).
  assert.deepEqual(text.trim().split('\n'), [
    'calib: fitting isotonic: 1% (3 s elapsed)',
    'calib: fitting isotonic: 50% (5 s elapsed, ~2 s left)',
    'calib: fitting isotonic: 90% (7 s elapsed, ~0 s left)', // 3.56 s for 89 %: 0.4 s for the last 10 %
  ]);
});

test('WorkProgress: nothing before the delay, nothing at completion', () => {
  let clock = 0;
  let text = '';
  const progress = new WorkProgress({ write: (s: string) => (text += s) }, 'fitting matrix', 1, { format: 'percent', tty: false, now: () => clock });
  clock = 1999;
  progress.update(0.9);
  clock = 5000;
  progress.update(1);
  progress.finish();
  assert.equal(text, '');
});
