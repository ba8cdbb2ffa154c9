import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readNpy } from '../../src/io/npy.js';
import { calibratorFromJSON } from '../../src/posthoc/index.js';
import { run } from '../cli/capture.js';
import { tempDir } from '../io/temp-dir.js';
import { runModel } from './runtimes.js';

const dir = tempDir('deploy-train');

test("calib train --calibrate temperature ends with model-calibrated.onnx; calib predict --run reproduces the run's validation logits", async () => {
  const out = join(dir, 'run');
  const tiny = ['--dataset', 'mnist', '--subset', '300', '--test-subset', '100', '--model-opt', 'hidden=[16]', '--batch', '64', '--progress', 'none'];
  const r = await run(['train', ...tiny, '--epochs', '1', '--calibrate', 'temperature', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /calibrated: temperature T = \S+ on \d+ validation logits -> .*model-calibrated\.onnx \(outputs logits, calibrated_probabilities, calibrated_logits\)/);
  const calibrator = calibratorFromJSON(JSON.parse(readFileSync(join(out, 'calibrator.json'), 'utf8')));

  const p = await run(['predict', '--run', out, '--checkpoint', 'best', '--split', 'val', '--out', join(dir, 'val-z.npy'), '--labels-out', join(dir, 'val-y.npy'), '--quiet']);
  assert.equal(p.code, 0, p.stderr);
  const mine = await readNpy(join(dir, 'val-z.npy'));
  const theirs = await readNpy(join(out, 'val-logits.npy'));
  assert.deepEqual(mine.shape, theirs.shape);
  let d = 0;
  for (let i = 0; i < mine.data.length; i++) d = Math.max(d, Math.abs(mine.data[i]! - theirs.data[i]!));
  assert.ok(d < 1e-4, `max |Δ logit| ${d}`);
  assert.deepEqual(Array.from((await readNpy(join(dir, 'val-y.npy'))).data), Array.from((await readNpy(join(out, 'val-labels.npy'))).data));

  // The calibrated export, run on the test images, equals calib apply on its own raw logits.
  const { loadDataset } = await import('../../src/data/load-dataset.js');
  const test10 = (await loadDataset('mnist')).test!;
  if (test10.kind !== 'image') throw new Error('mnist is an image dataset');
  const n = 50;
  const x = test10.images.slice(0, n * 784);
  const result = await runModel('onnxruntime-node', new Uint8Array(readFileSync(join(out, 'model-calibrated.onnx'))), 'input', x, [n, 1, 28, 28]);
  const expected = calibrator.apply({ logits: { rows: n, cols: 10, data: result['logits']!.data } }).data;
  let dp = 0;
  for (let i = 0; i < expected.length; i++) dp = Math.max(dp, Math.abs(result['calibrated_probabilities']!.data[i]! - expected[i]!));
  assert.ok(dp <= 1e-6, `max |Δp| ${dp}`);
});
