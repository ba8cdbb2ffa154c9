import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { calibrationRefinement, evaluate } from '../../src/metrics/index.js';
import { nllTemperature } from '../../src/posthoc/temperature/temperature.js';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { writeNpy } from '../../src/io/npy.js';
import { matrix } from '../../src/util/matrix.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';
import { close } from './helpers.js';

// Three rows of p = [0.9, 0.1] with labels 0, 0, 1. Every recalibration in either family maps the rows to one
// q = [q0, 1 − q0]; the NLL and the Brier score are both minimised at the empirical frequency q0 = 2/3, which
// temperature scaling reaches (β = log 2 / log 9) and one-vs-rest isotonic regression gives directly.
const p3 = Float64Array.from([0.9, 0.1, 0.9, 0.1, 0.9, 0.1]);
const y3 = Int32Array.from([0, 0, 1]);
const byHand = {
  nll: -(2 * Math.log(0.9) + Math.log(0.1)) / 3,
  refinementNll: -(2 / 3) * Math.log(2 / 3) - (1 / 3) * Math.log(1 / 3),
  brier: (2 * 0.01 * 2 + 2 * 0.81) / 3,
  refinementBrier: (2 * (2 * (1 / 3) ** 2) + 2 * (2 / 3) ** 2) / 3,
};

test('calibration–refinement split by hand: three rows of p = [0.9, 0.1], labels 0, 0, 1 (TS and isotonic)', () => {
  for (const calibrator of ['temperature', 'isotonic'] as const) {
    const s = calibrationRefinement({ probabilities: matrix(3, 2, p3) }, y3, { calibrator });
    close(s.nll.loss, byHand.nll, 1e-12, calibrator);
    close(s.nll.refinement, byHand.refinementNll, 1e-9, calibrator);
    close(s.nll.calibration, byHand.nll - byHand.refinementNll, 1e-9, calibrator);
    close(s.brier.loss, byHand.brier, 1e-12, calibrator);
    close(s.brier.refinement, byHand.refinementBrier, 1e-9, calibrator);
    close(s.brier.calibration, byHand.brier - byHand.refinementBrier, 1e-9, calibrator);
    // Recalibration lowers the top-label confidence 0.9 → 2/3: all of it is over-confidence.
    close(s.nll.over, s.nll.calibration, 1e-15, calibrator);
    assert.equal(s.nll.under, 0);
    close(s.brier.over, s.brier.calibration, 1e-15, calibrator);
  }
  const ts = calibrationRefinement({ probabilities: matrix(3, 2, p3) }, y3);
  close(ts.nll.temperature, Math.log(9) / Math.log(2), 1e-7);
  // The same through `evaluate` (the registry's metrics, `calib eval --json` keys).
  const m = evaluate(matrix(3, 2, p3), y3, { input: 'probabilities', refinementCalibrator: 'temperature' });
  close(m.refinement_nll, byHand.refinementNll, 1e-9);
  close(m.calibration_nll, byHand.nll - byHand.refinementNll, 1e-9);
  close(m.refinement_brier, byHand.refinementBrier, 1e-9);
  close(m.calibration_brier, byHand.brier - byHand.refinementBrier, 1e-9);
  close(m.calibration_nll_over, m.calibration_nll, 1e-15);
  assert.equal(m.calibration_nll_under, 0);
  assert.equal(m.refinement_calibrator, 'temperature');
  const iso = evaluate(matrix(3, 2, p3), y3, { input: 'probabilities', refinementCalibrator: 'isotonic' });
  close(iso.refinement_nll, byHand.refinementNll, 1e-12);
  assert.equal(iso.refinement_calibrator, 'isotonic');
});

test('refinement ≤ loss and over + under = calibration, at every scale of the logits', () => {
  for (const seed of [1, 2, 3]) {
    const set = syntheticOverconfident({ n: 400, classes: 4, seed });
    for (const scale of [0.2, 1, 5]) {
      const z = Float64Array.from(set.logits, (v) => v * scale);
      const m = evaluate(matrix(400, 4, z), set.labels, { input: 'logits', refinementCalibrator: 'temperature' });
      assert.ok(m.refinement_nll <= m.nll + 1e-12, `seed ${seed}, scale ${scale}: ${m.refinement_nll} > ${m.nll}`);
      assert.ok(m.refinement_brier <= m.brier + 1e-12, `seed ${seed}, scale ${scale}`);
      assert.ok(m.calibration_nll >= 0 && m.calibration_brier >= 0);
      close(m.calibration_nll_over + m.calibration_nll_under, m.calibration_nll, 1e-12);
      close(m.calibration_brier_over + m.calibration_brier_under, m.calibration_brier, 1e-12);
      close(m.calibration_nll + m.refinement_nll, m.nll, 1e-12);
    }
  }
});

test('calibration_nll is 0 when T = 1 already minimises the NLL; refinement is invariant to a temperature change', () => {
  const set = syntheticOverconfident({ n: 2000, classes: 5, seed: 7 });
  const t = nllTemperature(set.logits, 2000, 5, set.labels);
  assert.ok(Math.abs(t - 1) > 0.1, `the synthetic set should be miscalibrated (T = ${t})`);
  const optimal = Float64Array.from(set.logits, (v) => v / t);
  const at = evaluate(matrix(2000, 5, optimal), set.labels, { input: 'logits', refinementCalibrator: 'temperature' });
  assert.ok(Math.abs(at.calibration_nll) <= 1e-9, `calibration_nll = ${at.calibration_nll}`);
  const reference = evaluate(matrix(2000, 5, set.logits), set.labels, { input: 'logits', refinementCalibrator: 'temperature' });
  for (const a of [0.25, 3]) {
    const scaled = evaluate(
      matrix(
        2000,
        5,
        Float64Array.from(set.logits, (v) => v * a),
      ),
      set.labels,
      { input: 'logits', refinementCalibrator: 'temperature' },
    );
    close(scaled.refinement_nll, reference.refinement_nll, 1e-9, `×${a}`);
    close(scaled.refinement_brier, reference.refinement_brier, 1e-7, `×${a}`);
  }
  close(at.refinement_nll, reference.refinement_nll, 1e-9);
  // Over-confident logits (T > 1): the calibration term is all over-confidence; under-confident ones: all under.
  assert.ok(t > 1);
  assert.equal(reference.calibration_nll_under, 0);
  const soft = evaluate(
    matrix(
      2000,
      5,
      Float64Array.from(set.logits, (v) => v / (3 * t)),
    ),
    set.labels,
    { input: 'logits', refinementCalibrator: 'temperature' },
  );
  assert.equal(soft.calibration_nll_over, 0);
  assert.ok(soft.calibration_nll_under > 0);
});

test('logits of magnitude 1e3 and probabilities of exactly 0 and 1 give finite parts with refinement ≤ loss', () => {
  const z = Float64Array.from([1000, 0, 0, 0, 1000, 0, 0, 0, 1000, -1000, 1000, 0]);
  const y = Int32Array.from([0, 0, 2, 1]);
  for (const calibrator of ['temperature', 'isotonic'] as const) {
    const m = evaluate(matrix(4, 3, z), y, { input: 'logits', refinementCalibrator: calibrator });
    for (const k of ['refinement_nll', 'calibration_nll', 'refinement_brier', 'calibration_brier', 'calibration_nll_over', 'calibration_nll_under'] as const)
      assert.ok(Number.isFinite(m[k]), `${calibrator} ${k} = ${m[k]}`);
    if (calibrator === 'temperature') assert.ok(m.refinement_nll <= m.nll && m.refinement_brier <= m.brier);
  }
  const p = Float64Array.from([1, 0, 0, 1, 1, 0]);
  const labels = Int32Array.from([0, 0, 0]);
  const m = evaluate(matrix(3, 2, p), labels, { input: 'probabilities', refinementCalibrator: 'temperature' });
  assert.ok(Number.isFinite(m.refinement_nll) && m.refinement_nll <= m.nll, String(m.refinement_nll));
  assert.ok(m.refinement_brier <= m.brier);
  // Every prediction right with p = 1: nothing to recalibrate.
  const right = evaluate(matrix(2, 2, Float64Array.from([1, 0, 0, 1])), Int32Array.from([0, 1]), { input: 'probabilities', refinementCalibrator: 'temperature' });
  assert.equal(right.refinement_nll, 0);
  assert.equal(right.calibration_nll, 0);
});

test('bad recalibrator names are refused, naming the argument', () => {
  assert.throws(() => calibrationRefinement({ probabilities: matrix(3, 2, p3) }, y3, { calibrator: 'platt' as never }), /calibrator: expected one of temperature, isotonic/);
  assert.throws(() => evaluate(matrix(3, 2, p3), y3, { input: 'probabilities', refinementCalibrator: 'x' as never }), /refinementCalibrator/);
});

test('calib eval --json has the split keys; --refinement-calibrator isotonic switches the recalibrator', async () => {
  const dir = tempDir('refinement-cli');
  await writeNpy(join(dir, 'p.npy'), p3, [3, 2]);
  await writeNpy(join(dir, 'y.npy'), y3, [3]);
  const out = await run(['eval', '--probs', join(dir, 'p.npy'), '--labels', join(dir, 'y.npy'), '--json']);
  assert.equal(out.code, 0, out.stderr);
  const json = JSON.parse(out.stdout) as Record<string, number>;
  close(json['refinement_nll']!, byHand.refinementNll, 1e-9);
  close(json['calibration_nll']!, byHand.nll - byHand.refinementNll, 1e-9);
  close(json['refinement_brier']!, byHand.refinementBrier, 1e-9);
  close(json['calibration_brier']!, byHand.brier - byHand.refinementBrier, 1e-9);
  const iso = await run(['eval', '--probs', join(dir, 'p.npy'), '--labels', join(dir, 'y.npy'), '--json', '--refinement-calibrator', 'isotonic']);
  assert.equal(iso.code, 0, iso.stderr);
  assert.equal((JSON.parse(iso.stdout) as Record<string, unknown>)['refinement_calibrator'], 'isotonic');
  const bad = await run(['eval', '--probs', join(dir, 'p.npy'), '--labels', join(dir, 'y.npy'), '--refinement-calibrator', 'platt']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--refinement-calibrator/);
  const table = await run(['eval', '--probs', join(dir, 'p.npy'), '--labels', join(dir, 'y.npy')]);
  assert.match(table.stdout, /refinement NLL/);
});
