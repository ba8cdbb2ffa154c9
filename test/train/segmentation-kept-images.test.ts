import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keptImages, SEGMENTATION_LOGIT_IMAGES } from '../../src/train/tasks/segmentation-task.js';

test('segmentation runs keep the logits of every image of a small split, and of a seeded spread-out sample of a large one', () => {
  assert.deepEqual([...keptImages(5)], [0, 1, 2, 3, 4]);
  const n = 2000;
  const pick = keptImages(n);
  assert.equal(pick.length, SEGMENTATION_LOGIT_IMAGES);
  assert.deepEqual([...pick], [...keptImages(n)], 'the same sample every time');
  for (let i = 1; i < pick.length; i++) assert.ok(pick[i]! > pick[i - 1]!, 'distinct, in split order');
  assert.ok(pick[0]! >= 0 && pick[pick.length - 1]! < n);
  // A split grouped by digit (200 images per digit, as the stratified splits keep them): every digit is represented,
  // none by more than twice its share (the first 300 images would have been digits 0 and 1 only).
  const perDigit = new Array<number>(10).fill(0);
  for (const i of pick) perDigit[Math.floor(i / 200)]!++;
  for (const [d, c] of perDigit.entries()) assert.ok(c > 0 && c < 60, `digit ${d}: ${c} of ${pick.length}`);
});
