import { test } from 'node:test';
import assert from 'node:assert/strict';
import { queueFailureReason, readQueueFailureReason } from '../../src/suite/queue/queue-failure.js';

test("a queue job's failure reason carries the trainer's failure kind and reads back unchanged", () => {
  const reason = queueFailureReason('diverged', 'the training loss became NaN at epoch 3');
  assert.equal(reason, 'diverged: the training loss became NaN at epoch 3');
  assert.deepEqual(readQueueFailureReason(reason), { kind: 'diverged', message: 'the training loss became NaN at epoch 3' });
  assert.deepEqual(readQueueFailureReason(queueFailureReason('error', 'line 1\nline 2: x')), { kind: 'error', message: 'line 1\nline 2: x' });
});

test("a reason that names no known kind (BullMQ's own, a stalled job) is an error, whole", () => {
  assert.deepEqual(readQueueFailureReason('job stalled more than allowable limit'), { kind: 'error', message: 'job stalled more than allowable limit' });
  assert.deepEqual(readQueueFailureReason('exploded: something'), { kind: 'error', message: 'exploded: something' });
  assert.deepEqual(readQueueFailureReason(undefined), { kind: 'error', message: 'no reason recorded' });
});
