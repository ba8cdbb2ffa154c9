import { test } from 'node:test';
import { binaryCalibrationError } from '../../src/metrics/binned/binary-calibration-error.js';
import { close } from './helpers.js';

test("binary ECE (torchmetrics' definition) on a hand-worked case: [l,u) bins over p, p = 1 in its own bin", () => {
  // M = 2: bins [0, .5), [.5, 1), {1}. p = 0.2, 0.5, 0.7, 1.0; y = 0, 1, 0, 1.
  // bin 0: mean p 0.2, mean y 0 → 0.2 · 1/4; bin 1: p 0.5, 0.7 (mean 0.6), y 1, 0 (0.5) → 0.1 · 2/4; bin {1}: 0.
  const p = Float64Array.from([0.2, 0.5, 0.7, 1.0]);
  const y = Uint8Array.from([0, 1, 0, 1]);
  close(binaryCalibrationError(p, y, 2), 0.05 + 0.05, 1e-15, 'ece');
  // p = 1.0 with outcome 0 counts fully in the extra bin: |0 − 1| · 1/4 more.
  close(binaryCalibrationError(p, Uint8Array.from([0, 1, 0, 0]), 2), 0.1 + 0.25, 1e-15, 'ece with a wrong p = 1');
});
