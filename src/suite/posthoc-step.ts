/**
 * The post-hoc step of a suite run: fit each of the suite's calibrators on the run's validation logits (the epoch
 * the trainer selected), apply it to the test logits, and record the test metrics before and after, under the
 * keys of `calib eval --json`, in the run's posthoc.json:
 *
 *   { bins, convention, validation: {…metrics}, test: {…metrics},
 *     calibrators: { "<kind>": { calibrator: <toJSON()>, test: {…metrics of the calibrated probabilities},
 *                                shift?: {…ood.json's shape, of the calibrated probabilities} } } }
 *
 * (the same numbers `calib fit` + `calib apply` + `calib eval` give on the run directory's files). A run with
 * shift logits (shift/, written with `ood`) gets each calibrator — still fitted on the clean validation split —
 * applied to every OOD and corrupted set too, evaluated by the same `shiftReport` as ood.json (same bins, same
 * seed), so raw (ood.json) and calibrated (`shift`) numbers read alike. Runs without shift/ get no `shift` key.
 */
import { join } from 'node:path';
import { readLabelsFile, readMatrixFile } from '../io/read-predictions.js';
import { evaluate } from '../metrics/evaluate.js';
import type { BinConvention } from '../metrics/binning.js';
import { CalibrationFitError } from '../posthoc/fit-error.js';
import { fitCalibrator } from '../posthoc/registry.js';
import type { CalibratorKind } from '../posthoc/calibrators.js';
import { metricsJson } from '../report/metrics-json.js';
import { runPaths, writeJson } from '../train/run-directory.js';
import { readShiftLogits } from '../train/shift-logits.js';
import { mapShiftSets, shiftReport, type ShiftReport } from '../train/shift-metrics.js';
import type { Matrix } from '../util/matrix.js';
import { POSTHOC_FILE } from './suite-directory.js';

export interface PosthocResult {
  readonly bins: number;
  readonly convention: BinConvention;
  readonly validation: Record<string, unknown>;
  readonly test: Record<string, unknown>;
  readonly calibrators: Record<string, { readonly calibrator: Record<string, unknown>; readonly test: Record<string, unknown>; readonly shift?: ShiftReport }>;
  /**
   * Calibrators whose fit found no trustworthy result on this run's validation logits (a CalibrationFitError, e.g.
   * an ECE-fitted temperature at the end of its range on a collapsed model), with the reason. The run itself is
   * done; the report shows n/a for these and lists the reasons.
   */
  readonly failures?: Record<string, string>;
}

/** The validation and test logits and labels of a finished run. */
export async function readRunPredictions(dir: string): Promise<{ val: Matrix; valLabels: Int32Array; test: Matrix; testLabels: Int32Array }> {
  const p = runPaths(dir);
  return {
    val: await readMatrixFile(p.valLogits, 'val-logits.npy'),
    valLabels: await readLabelsFile(p.valLabels, 'val-labels.npy'),
    test: await readMatrixFile(p.testLogits, 'test-logits.npy'),
    testLabels: await readLabelsFile(p.testLabels, 'test-labels.npy'),
  };
}

/** Fit `calibrators` on run `dir`'s validation split, evaluate on its test split, write posthoc.json. */
export async function runPosthoc(dir: string, calibrators: readonly CalibratorKind[], bins: number): Promise<PosthocResult> {
  const { val, valLabels, test, testLabels } = await readRunPredictions(dir);
  const convention: BinConvention = '(l,u]';
  const settings = { bins, convention, classes: test.cols };
  const json = (m: Matrix, y: Int32Array, input: 'logits' | 'probabilities'): Record<string, unknown> =>
    metricsJson(evaluate(m, y, { ...settings, input }), { ...settings, input });
  const out: PosthocResult = {
    bins,
    convention,
    validation: json(val, valLabels, 'logits'),
    test: json(test, testLabels, 'logits'),
    calibrators: {},
  };
  const shift = await readShiftLogits(dir);
  const failures: Record<string, string> = {};
  for (const kind of calibrators) {
    let c;
    try {
      c = fitCalibrator(kind, { logits: val }, valLabels);
    } catch (error) {
      if (!(error instanceof CalibrationFitError)) throw error;
      failures[kind] = error.message;
      continue;
    }
    out.calibrators[kind] = {
      calibrator: c.toJSON() as unknown as Record<string, unknown>,
      test: json(c.apply({ logits: test }), testLabels, 'probabilities'),
      ...(shift ? { shift: shiftReport(mapShiftSets(shift.sets, 'probabilities', (m) => c.apply({ logits: m })), shift) } : {}),
    };
  }
  const result = Object.keys(failures).length ? { ...out, failures } : out;
  await writeJson(join(dir, POSTHOC_FILE), result);
  return result;
}
