import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitScalingBinning } from '../../src/posthoc/nonparametric/scaling-binning.js';
import { calibratorFromJSON } from '../../src/posthoc/registry.js';
import { assertClose, assertProbabilityRows, loadCalibrators12Reference, rowsToMatrix } from './helpers.js';

// The reference fits Platt with sklearn LogisticRegression(C=1e10, lbfgs, default tol 1e-4); we solve the
// unregularised problem to 1e-12, so the scaled values differ in the ~5th digit.
const PLATT_TOL = 2e-4;

test('scaling-binning marginal matches PlattBinnerMarginalCalibrator after row normalisation', () => {
  const ref = loadCalibrators12Reference().kumar_platt_binner;
  const cal = fitScalingBinning({ probabilities: rowsToMatrix(ref.val_probs) }, Int32Array.from(ref.val_labels), { bins: ref.bins });
  const out = cal.apply({ probabilities: rowsToMatrix(ref.test_probs) });
  assertProbabilityRows(out);
  const expected = (ref.marginal_unnormalised as number[][]).flatMap((row) => {
    const s = row.reduce((a, b) => a + b, 0);
    return row.map((v) => v / s);
  });
  assertClose(out.data, expected, PLATT_TOL, 0, 'marginal');
});

test('scaling-binning top-label: the confidence equals PlattBinnerTopCalibrator, the output is discrete', () => {
  const ref = loadCalibrators12Reference().kumar_platt_binner;
  const test = rowsToMatrix(ref.test_probs);
  const cal = fitScalingBinning({ probabilities: rowsToMatrix(ref.val_probs) }, Int32Array.from(ref.val_labels), { bins: ref.bins, mode: 'top-label' });
  const out = cal.apply({ probabilities: test });
  const conf: number[] = [];
  for (let i = 0; i < test.rows; i++) {
    let best = 0;
    for (let k = 1; k < 3; k++) if (test.data[i * 3 + k]! > test.data[i * 3 + best]!) best = k;
    conf.push(out.data[i * 3 + best]!);
  }
  assertClose(conf, ref.top, PLATT_TOL, 0, 'top');
  assert.ok(new Set(conf).size <= ref.bins, 'at most B distinct confidences');
  const back = calibratorFromJSON(JSON.parse(JSON.stringify(cal.toJSON())));
  assert.deepEqual(back.apply({ probabilities: test }).data, out.data);
});
