import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CalibrationAccumulator, classwiseCalibrationError, evaluate, expectedCalibrationError, marginalCalibrationError } from '../../src/metrics/index.js';
import { InvalidArgumentError } from '../../src/util/errors.js';

const probs = (rows: number[][]): { rows: number; cols: number; data: Float64Array } => ({
  rows: rows.length,
  cols: rows[0]?.length ?? 2,
  data: Float64Array.from(rows.flat()),
});

/** Rows of a big chunk (≥ 256 rows: validated inside the one-pass kernel) with one bad value. */
function bigChunk(bad: number, value: number, kind: 'probabilities' | 'logits'): { rows: number; cols: number; data: Float32Array } {
  const data = new Float32Array(600 * 3);
  for (let i = 0; i < 600; i++) data.set(kind === 'logits' ? [1, 2, 3] : [0.5, 0.25, 0.25], i * 3);
  data[bad * 3 + 2] = value;
  return { rows: 600, cols: 3, data };
}

function throwsNaming(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof InvalidArgumentError && pattern.test(e.message));
}

test('NaN and ±Infinity are rejected with their row and column, for probabilities and logits, small and large chunks', () => {
  throwsNaming(
    () =>
      evaluate(
        probs([
          [0.5, 0.5],
          [NaN, 1],
        ]),
        [0, 1],
        { input: 'probabilities' },
      ),
    /^predictions: expected finite values, got NaN at row 1, column 0$/,
  );
  throwsNaming(() => evaluate(probs([[1, Infinity]]), [0], { input: 'logits' }), /got Infinity at row 0, column 1/);
  throwsNaming(() => evaluate(probs([[-Infinity, 0]]), [0], { input: 'logits' }), /got -Infinity at row 0, column 0/);
  throwsNaming(() => evaluate(bigChunk(417, NaN, 'probabilities'), new Int32Array(600), { input: 'probabilities' }), /got NaN at row 417, column 2/);
  throwsNaming(() => evaluate(bigChunk(599, -Infinity, 'probabilities'), new Int32Array(600), { input: 'probabilities' }), /got -Infinity at row 599, column 2/);
  throwsNaming(() => evaluate(bigChunk(3, NaN, 'logits'), new Int32Array(600), { input: 'logits' }), /got NaN at row 3, column 2/);
});

test('negative probabilities and rows not summing to 1 (tolerance 1e-3) are rejected; sums within 1e-3 pass', () => {
  throwsNaming(() => evaluate(probs([[1.2, -0.2]]), [0], { input: 'probabilities' }), /expected non-negative probabilities, got -0.2 at row 0, column 1/);
  throwsNaming(() => evaluate(bigChunk(10, -0.25, 'probabilities'), new Int32Array(600), { input: 'probabilities' }), /non-negative probabilities, got -0.25 at row 10, column 2/);
  throwsNaming(() => evaluate(probs([[0.6, 0.6]]), [0], { input: 'probabilities' }), /expected probability rows summing to 1 \(within 0.001\).*got a sum of 1.2 in row 0/);
  throwsNaming(() => evaluate(bigChunk(20, 0.3, 'probabilities'), new Int32Array(600), { input: 'probabilities' }), /sum of 1.05\d* in row 20/);
  assert.doesNotThrow(() => evaluate(probs([[0.5004, 0.5004]]), [0], { input: 'probabilities' }));
  throwsNaming(() => evaluate(probs([[0.5006, 0.5006]]), [0], { input: 'probabilities' }), /sum of 1.0012/);
  // Logits need not sum to anything.
  assert.doesNotThrow(() => evaluate(probs([[3, -7]]), [0], { input: 'logits' }));
});

test('labels must be integers in [0, C), one per row', () => {
  throwsNaming(() => evaluate(probs([[0.5, 0.5]]), [2], { input: 'probabilities' }), /^labels: expected integer class labels in \[0, 2\), got 2 at index 0$/);
  throwsNaming(() => evaluate(probs([[0.5, 0.5]]), [-1], { input: 'probabilities' }), /got -1 at index 0/);
  throwsNaming(() => evaluate(probs([[0.5, 0.5]]), [0.5], { input: 'probabilities' }), /got 0.5 at index 0/);
  throwsNaming(() => evaluate(probs([[0.5, 0.5]]), [NaN], { input: 'probabilities' }), /got NaN at index 0/);
  throwsNaming(
    () =>
      evaluate(
        probs([
          [0.5, 0.5],
          [1, 0],
        ]),
        [0],
        { input: 'probabilities' },
      ),
    /^labels: expected 2 labels, one per row of predictions, got 1$/,
  );
  const acc = new CalibrationAccumulator({ input: 'probabilities' });
  acc.update(probs([[0.5, 0.5]]), [1]);
  throwsNaming(
    () =>
      acc.update(
        probs([
          [0.5, 0.5],
          [0.5, 0.5],
        ]),
        [0, 5],
      ),
    /got 5 at index 2/,
  );
});

test('empty input, a single class, a wrong column count and malformed matrices are rejected', () => {
  throwsNaming(() => evaluate({ rows: 0, cols: 3, data: new Float64Array(0) }, [], { input: 'probabilities' }), /predictions: expected at least one sample, got 0 samples/);
  throwsNaming(() => evaluate({ rows: 2, cols: 1, data: Float64Array.from([1, 1]) }, [0, 0], { input: 'probabilities' }), /predictions.cols: expected at least 2 classes \(columns\), got 1/);
  throwsNaming(() => evaluate({ rows: 2, cols: 2, data: new Float64Array(3) }, [0, 0], { input: 'probabilities' }), /predictions.data: expected 2 × 2 = 4 values/);
  throwsNaming(() => evaluate({ rows: 1, cols: 2, data: [0.5, 0.5] as unknown as Float64Array }, [0], { input: 'probabilities' }), /predictions.data: expected a Float32Array or Float64Array/);
  throwsNaming(() => new CalibrationAccumulator({ input: 'probabilities', classes: 1 }), /classes: expected an integer ≥ 2, got 1/);
  const acc = new CalibrationAccumulator({ input: 'probabilities' });
  acc.update(probs([[0.5, 0.5]]), [0]);
  throwsNaming(() => acc.update(probs([[0.2, 0.3, 0.5]]), [0]), /predictions.cols: expected 2 classes, got 3/);
  throwsNaming(() => new CalibrationAccumulator({ input: 'probabilities' }).compute(), /predictions: expected at least one sample, got 0 samples/);
  throwsNaming(() => expectedCalibrationError(new Float64Array(0), new Uint8Array(0)), /confidence: expected at least one sample/);
  throwsNaming(() => expectedCalibrationError(Float64Array.from([0.5]), Uint8Array.from([1, 0])), /correct: expected 1 values, one per confidence, got 2/);
  throwsNaming(() => classwiseCalibrationError({ rows: 0, cols: 2, data: new Float64Array(0) }, []), /at least one sample/);
});

test('bins must be integers ≥ 1 and options must be known values', () => {
  const m = probs([[0.5, 0.5]]);
  throwsNaming(() => evaluate(m, [0], { input: 'probabilities', bins: 0 }), /^bins: expected an integer ≥ 1, got 0$/);
  throwsNaming(() => evaluate(m, [0], { input: 'probabilities', bins: 7.5 }), /^bins: expected an integer, got 7.5$/);
  throwsNaming(() => evaluate(m, [0], { input: 'probabilities', bins: NaN }), /^bins: expected an integer, got NaN$/);
  throwsNaming(() => expectedCalibrationError(Float64Array.from([0.5]), Uint8Array.from([1]), { bins: -3 }), /bins: expected an integer ≥ 1, got -3/);
  throwsNaming(() => marginalCalibrationError(m, [0], { bins: 0 }), /bins: expected an integer ≥ 1/);
  throwsNaming(() => evaluate(m, [0], { input: 'probs' as never }), /input: expected 'logits' or 'probabilities', got "probs"/);
  throwsNaming(() => evaluate(m, [0], { input: 'probabilities', convention: '(l,u)' as never }), /convention: expected/);
  throwsNaming(() => evaluate(m, [0], { input: 'probabilities', adaptive: 'quantile' as never }), /adaptive: expected 'equal-mass' or 'interp'/);
  throwsNaming(() => evaluate(m, [0], { input: 'probabilities', marginalBinning: 'uniform' as never }), /marginalBinning: expected 'equal-mass' or 'equal-width'/);
  throwsNaming(() => evaluate(m, [0], { input: 'probabilities', labelBinnedP: 0.5 }), /labelBinnedP: expected a finite number ≥ 1, got 0.5/);
  throwsNaming(() => expectedCalibrationError(Float64Array.from([0.5]), Uint8Array.from([1]), { p: 0 }), /p: expected a finite number ≥ 1, got 0/);
});
