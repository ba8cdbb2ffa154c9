import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assignEqualWidthBins, auroc, CalibrationAccumulator, evaluate, expectedCalibrationError, labelBinnedCalibrationError, marginalCalibrationError, topLabel } from '../../src/metrics/index.js';
import { caseMatrix, close, loadFixture } from './helpers.js';

// Values from NumPy / scikit-learn / PyTorch and Python re-implementations of the reference code:
// test/fixtures/scripts/make-metrics-fixtures.py → test/fixtures/metrics/reference.json.
const fixture = loadFixture();
const TOL = 1e-12;

function num(v: number | number[] | undefined): number {
  assert.equal(typeof v, 'number');
  return v as number;
}

for (const c of fixture.cases) {
  const matrix = caseMatrix(c);
  const labels = Int32Array.from(c.labels);
  const e = c.expected;
  const tol = (x: number): number => TOL * Math.max(1, Math.abs(x));

  test(`${c.name}: every metric of evaluate matches the reference values under both conventions`, () => {
    for (const [convention, tag] of [
      ['(l,u]', 'upper'],
      ['[l,u)', 'lower'],
    ] as const) {
      const r = evaluate(matrix, labels, { input: c.input, bins: c.bins, convention });
      assert.equal(r.convention, convention);
      assert.equal(r.bins, c.bins);
      for (const key of ['ece', 'ece_l2', 'mce', 'oe'] as const) close(r[key], num(e[`${key}_${tag}`]), tol(r[key]), `${key} ${tag}`);
      close(r.ece_lb, num(e[`ece_lb2_${tag}`]), TOL, `ece_lb ${tag}`);
      close(r.classwise_ece, num(e[`classwise_${tag}`]), TOL, `classwise ${tag}`);
      close(r.marginal_ece, num(e[`marginal_ew_debiased_${tag}`]), TOL, `marginal (equal-width, debiased) ${tag}`);
      const plugin = new CalibrationAccumulator({ input: c.input, bins: c.bins, convention, marginalDebias: false });
      close(plugin.update(matrix, labels).compute().marginal_ece, num(e[`marginal_ew_plugin_${tag}`]), TOL, `marginal plug-in ${tag}`);
      const top = topLabel(matrix, labels, c.input);
      assert.deepEqual(Array.from(assignEqualWidthBins(top.confidence, c.bins, convention)), e[`bin_index_${tag}`], `bin indices ${tag}`);
      close(expectedCalibrationError(top.confidence, top.correct, { bins: c.bins, convention, p: 3 }), num(e[`ece_l3_${tag}`]), TOL, 'ECE_3');
      close(labelBinnedCalibrationError(top.confidence, top.correct, { bins: c.bins, convention, p: 1 }), num(e[`ece_lb1_${tag}`]), TOL, 'ECE_lb,1');
    }
    const r = evaluate(matrix, labels, { input: c.input, bins: c.bins });
    for (const key of ['adaece', 'adaece_l2', 'ks', 'debiased_ece', 'sweep_ece', 'accuracy', 'mean_confidence', 'brier', 'mean_entropy'] as const) close(r[key], num(e[key]), tol(r[key]), key);
    close(r.nll, num(e.nll), tol(r.nll), 'nll');
    assert.equal(r.sweep_bins, e.sweep_bins);
    if (e.error_auroc === undefined) assert.ok(Number.isNaN(r.error_auroc));
    else close(r.error_auroc, num(e.error_auroc), TOL, 'error_auroc');
  });

  test(`${c.name}: the interp AdaECE reproduces the MbLS/ACLS AdaptiveECELoss`, () => {
    const r = evaluate(matrix, labels, { input: c.input, bins: c.bins, adaptive: 'interp' });
    assert.equal(r.adaptive_binning, 'interp');
    close(r.adaece, num(e.adaece_interp), TOL, 'interp (float64 arithmetic)');
    // PyTorch's own run averages in float32.
    if (e.adaece_interp_torch !== undefined) close(r.adaece, num(e.adaece_interp_torch), 2e-6, 'interp vs torch');
  });

  test(`${c.name}: the marginal error reproduces uncertainty-calibration's get_calibration_error(mode='marginal')`, () => {
    close(marginalCalibrationError(matrix, labels, { input: c.input, bins: c.bins }), num(e.marginal_em_debiased), TOL, 'equal-mass debiased');
    close(marginalCalibrationError(matrix, labels, { input: c.input, bins: c.bins, debias: false }), num(e.marginal_em_plugin), TOL, 'plug-in');
    close(marginalCalibrationError(matrix, labels, { input: c.input, bins: c.bins, binning: 'equal-width' }), num(e.marginal_kumar_equal_prob_debiased), TOL, 'get_equal_prob_bins');
    const state = new CalibrationAccumulator({ input: c.input, bins: c.bins, marginalBinning: 'equal-mass' });
    const half = Math.floor(matrix.rows / 2);
    const cols = matrix.cols;
    state.update({ rows: half, cols, data: matrix.data.subarray(0, half * cols) }, labels.subarray(0, half));
    state.update({ rows: matrix.rows - half, cols, data: matrix.data.subarray(half * cols) }, labels.subarray(half));
    const r = state.compute();
    assert.equal(r.marginal_binning, 'equal-mass');
    close(r.marginal_ece, num(e.marginal_em_debiased), TOL, 'accumulator, equal-mass, two chunks');
  });
}

test('AUROC matches scikit-learn roc_auc_score, ties included', () => {
  for (const a of fixture.auroc) close(auroc(Float64Array.from(a.positive), Float64Array.from(a.negative)), a.expected, 1e-14);
});
