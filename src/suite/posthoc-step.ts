/**
 * The post-hoc step of a suite run: fit each of the suite's calibrators on the run's validation logits (the epoch
 * the trainer selected), apply it to the test logits, and record the test metrics before and after, under the
 * keys of `calib eval --json`, in the run's posthoc.json:
 *
 *   { bins, convention, validation: {…metrics}, test: {…metrics},
 *     calibrators: { "<kind>": { calibrator: <toJSON()>, test: {…metrics of the calibrated probabilities},
 *                                shift?: {…ood.json's shape, of the calibrated probabilities} } },
 *     identity: { training, calibrators, bins, convention, calibkit } }
 *
 * `identity` (run-identity.ts) records what the numbers were computed from — the hash of the run's config.json, the
 * calibrators asked for, the bins and the calibkit version — so a rerun refits exactly when one of them changed.
 *
 * (the same numbers `calib fit` + `calib apply` + `calib eval` give on the run directory's files). A run with
 * shift logits (shift/, written with `ood`) gets each calibrator — still fitted on the clean validation split —
 * applied to every OOD and corrupted set too, evaluated by the same `shiftReport` as ood.json (same bins, same
 * seed), so raw (ood.json) and calibrated (`shift`) numbers read alike. Runs without shift/ get no `shift` key.
 *
 * Segmentation runs (summary.json `"task": "segmentation"`, train/tasks/segmentation-task.ts): the logits files are dense
 * [n, C, H, W] and are read as pixel rows; pixels labelled `ignore_index` are dropped everywhere (fit, metrics,
 * figures, verdicts), as `calib eval --ignore-index` does, and `foreground` repeats the test metrics (before and
 * after each calibrator) without the background pixels (MbLS Table 5's "w/o background" columns).
 */
import { join } from 'node:path';
import { readNpy } from '../io/npy.js';
import { invalidArgument } from '../util/errors.js';
import { readLabelsFile, readMatrixFile } from '../io/read-predictions.js';
import { evaluate } from '../metrics/accumulators/evaluate.js';
import type { BinConvention } from '../metrics/binned/binning.js';
import { CalibrationFitError } from '../posthoc/fit-error.js';
import { fitCalibrator } from '../posthoc/registry.js';
import type { CalibratorKind } from '../posthoc/calibrators.js';
import { jsonNumber, metricsJson } from '../report/metrics-json.js';
import { evaluateOptIn } from '../metrics/record/evaluate-opt-in.js';
import type { OptInMetricName } from '../metrics/record/opt-in-metrics.js';
import { topLabel } from '../metrics/top-label.js';
import { readJson, runPaths, writeJson } from '../train/artefacts/run-directory.js';
import { readShiftLogits } from '../train/evaluation/shift-logits.js';
import { mapShiftSets, shiftReport, type ShiftReport } from '../train/evaluation/shift-metrics.js';
import { pixelRows, selectRows } from '../metrics/segmentation.js';
import { pathExists } from '../util/path-exists.js';
import type { Matrix } from '../util/matrix.js';
import { POSTHOC_FILE } from './suite-directory.js';
import { posthocIdentity, evaluationHash, type PosthocIdentity } from './identity/run-identity.js';

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
  /** What the file was computed from (absent in files written before identities were recorded). */
  readonly identity?: PosthocIdentity;
  /** Segmentation runs: the test metrics without background pixels, before (`test`) and after each calibrator. */
  readonly foreground?: { readonly test: Record<string, unknown>; readonly calibrators: Record<string, Record<string, unknown>> };
}

/** The pixel labels of a segmentation run: the ignored label and the background class. */
export interface SegmentationLabels {
  readonly ignoreIndex: number;
  readonly background: number;
}

/** The pixel labels of a segmentation run (from its summary.json), or null for a classifier run. */
export async function segmentationLabels(dir: string): Promise<SegmentationLabels | null> {
  const p = runPaths(dir);
  if (!(await pathExists(p.summary))) return null;
  const s = (await readJson(p.summary, `${dir}/summary.json`)) as Record<string, unknown>;
  if (s['task'] !== 'segmentation') return null;
  const test = s['test'] as Record<string, unknown> | undefined;
  return { ignoreIndex: Number(s['ignore_index']), background: Number(test?.['background'] ?? 0) };
}

type RunPredictions = { val: Matrix; valLabels: Int32Array; test: Matrix; testLabels: Int32Array };

/** The validation and test logits and labels of a finished run. */
export async function readRunPredictions(dir: string): Promise<RunPredictions> {
  return readPredictions(dir, await segmentationLabels(dir));
}

/** readRunPredictions, given the run's segmentationLabels (read once by a caller that needs them too). */
async function readPredictions(dir: string, seg: SegmentationLabels | null): Promise<RunPredictions> {
  const p = runPaths(dir);
  if (seg === null) {
    return {
      val: await readMatrixFile(p.valLogits, p.valLogits),
      valLabels: await readLabelsFile(p.valLabels, p.valLabels),
      test: await readMatrixFile(p.testLogits, p.testLogits),
      testLabels: await readLabelsFile(p.testLabels, p.testLabels),
    };
  }
  const val = await readPixelRows(p.valLogits, p.valLabels, seg.ignoreIndex);
  const test = await readPixelRows(p.testLogits, p.testLabels, seg.ignoreIndex);
  return { val: val.predictions, valLabels: val.labels, test: test.predictions, testLabels: test.labels };
}

/**
 * The pixel rows [n·H·W, C] of dense logits (N, C, H, W) and their masks (N, H, W) in .npy files, without the pixels
 * labelled `ignoreIndex` (what `calib eval --ignore-index` reads; also `calib train --calibrate` on a segmentation run).
 */
export async function readPixelRows(logitsPath: string, labelsPath: string, ignoreIndex: number): Promise<{ predictions: Matrix; labels: Int32Array }> {
  const z = await readNpy(logitsPath, logitsPath);
  const y = await readNpy(labelsPath, labelsPath);
  if (!(z.data instanceof Float32Array || z.data instanceof Float64Array) || z.shape.length < 3) invalidArgument(logitsPath, 'dense float logits (N, C, H, W)', `${z.dtype} (${z.shape.join(', ')})`);
  return pixelRows(z.data, Int32Array.from(y.data as ArrayLike<number>), z.shape[0]!, z.shape[1]!, (label) => label !== ignoreIndex);
}

/**
 * Fit `calibrators` on run `dir`'s validation split, evaluate on its test split, write posthoc.json; `metrics` (the
 * suite's `metrics:` outside the default list) adds those opt-in entries of the record, of the top label, to every
 * set of metrics (metrics/record/opt-in-metrics.ts).
 */
export async function runPosthoc(dir: string, calibrators: readonly CalibratorKind[], bins: number, metrics: readonly OptInMetricName[] = []): Promise<PosthocResult> {
  const seg = await segmentationLabels(dir);
  const { val, valLabels, test, testLabels } = await readPredictions(dir, seg);
  const convention: BinConvention = '(l,u]';
  // The calibration–refinement split is asked for (evaluate leaves it out by default), so suite tables and claims can
  // name refinement_nll / calibration_nll / ….
  const settings = { bins, convention, classes: test.cols, refinementCalibrator: 'temperature' as const };
  const json = (m: Matrix, y: Int32Array, input: 'logits' | 'probabilities'): Record<string, unknown> => {
    const values = metricsJson(evaluate(m, y, { ...settings, input }), { ...settings, input });
    if (metrics.length === 0) return values;
    const top = topLabel(m, y, input);
    const optIn = evaluateOptIn(top.confidence, top.correct, metrics, { bins, convention });
    return { ...values, ...Object.fromEntries(metrics.map((k) => [k, jsonNumber(optIn[k])])) };
  };
  const out: PosthocResult = {
    bins,
    convention,
    validation: json(val, valLabels, 'logits'),
    test: json(test, testLabels, 'logits'),
    calibrators: {},
  };
  const shift = await readShiftLogits(dir);
  const failures: Record<string, string> = {};
  const fitted = new Map<string, ReturnType<typeof fitCalibrator>>();
  for (const kind of calibrators) {
    let c;
    try {
      c = fitCalibrator(kind, { logits: val }, valLabels);
    } catch (error) {
      if (!(error instanceof CalibrationFitError)) throw error;
      failures[kind] = error.message;
      continue;
    }
    fitted.set(kind, c);
    out.calibrators[kind] = {
      calibrator: c.toJSON() as unknown as Record<string, unknown>,
      test: json(c.apply({ logits: test }), testLabels, 'probabilities'),
      ...(shift
        ? {
            shift: shiftReport(
              mapShiftSets(shift.sets, 'probabilities', (m) => c.apply({ logits: m })),
              shift,
            ),
          }
        : {}),
    };
  }
  let foreground: PosthocResult['foreground'];
  if (seg !== null) {
    const fg = selectRows(test, testLabels, (y) => y !== seg.background);
    if (fg.labels.length > 0) {
      const after: Record<string, Record<string, unknown>> = {};
      for (const [kind, c] of fitted) after[kind] = json(c.apply({ logits: fg.predictions }), fg.labels, 'probabilities');
      foreground = { test: json(fg.predictions, fg.labels, 'logits'), calibrators: after };
    }
  }
  const withForeground = foreground ? { ...out, foreground } : out;
  const withFailures = Object.keys(failures).length ? { ...withForeground, failures } : withForeground;
  const config = runPaths(dir).config;
  const result = (await pathExists(config))
    ? { ...withFailures, identity: posthocIdentity(evaluationHash((await readJson(config, config)) as Record<string, unknown>), calibrators, bins, metrics) }
    : withFailures;
  await writeJson(join(dir, POSTHOC_FILE), result);
  return result;
}
