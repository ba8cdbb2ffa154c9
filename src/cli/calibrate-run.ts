/**
 * `calib train --calibrate METHOD`: end a finished run with its calibrated export — fit METHOD on the run's
 * validation logits (the selected epoch's), save it as calibrator.json, and append it to model.onnx as
 * model-calibrated.onnx (src/deploy/append-calibrator.ts), whose "calibrated_probabilities" output is what
 * `calib apply` gives on the model's logits.
 *
 * A segmentation run (summary.json `"task": "segmentation"`) is calibrated per pixel as the suite's post-hoc step does
 * (suite/posthoc-step.ts, the same reader): METHOD is fitted on the labelled pixels of val-logits.npy (the run's
 * sample of validation images, N×C×H×W, pixels labelled ignore_index dropped), and the export applies it at every
 * pixel of the dense output (src/deploy/append-dense-calibrator.ts).
 */
import { join } from 'node:path';
import { appendCalibrator } from '../deploy/append-calibrator.js';
import { appendDenseCalibrator } from '../deploy/append-dense-calibrator.js';
import { encodeOnnx, readOnnxFile } from '../deploy/onnx-file.js';
import { readNpy, toLabelData, toMatrixData } from '../io/npy.js';
import { fitCalibrator, type CalibratorKind } from '../posthoc/index.js';
import { readPixelRows, segmentationLabels } from '../suite/posthoc-step.js';
import { atomicWriteFile } from '../util/atomic-write.js';
import { writeCalibratorFile } from './calibrator-file.js';
import type { CliIO } from './command.js';
import { fitWithProgress } from './work-progress.js';

export async function calibrateRun(dir: string, method: CalibratorKind, io: CliIO): Promise<void> {
  const seg = await segmentationLabels(dir);
  let input: { logits: { rows: number; cols: number; data: Float32Array | Float64Array } };
  let labelData: Int32Array;
  if (seg) {
    const pixels = await readPixelRows(join(dir, 'val-logits.npy'), join(dir, 'val-labels.npy'), seg.ignoreIndex);
    input = { logits: pixels.predictions };
    labelData = pixels.labels;
  } else {
    const logits = await readNpy(join(dir, 'val-logits.npy'), '--calibrate');
    const labels = await readNpy(join(dir, 'val-labels.npy'), '--calibrate');
    const [rows, cols] = logits.shape as [number, number];
    input = { logits: { rows, cols, data: toMatrixData(logits.data) } };
    labelData = toLabelData(labels.data, { argName: '--calibrate', path: join(dir, 'val-labels.npy') });
  }
  const rows = input.logits.rows;
  const calibrator = fitWithProgress(io, `fitting ${method}`, (onProgress) => fitCalibrator(method, input, labelData, undefined, { onProgress }));
  await writeCalibratorFile(join(dir, 'calibrator.json'), calibrator);
  const { model } = await readOnnxFile(join(dir, 'model.onnx'), '--calibrate');
  const result = seg ? appendDenseCalibrator(model, calibrator, { keepOutputs: true, modelArg: '--calibrate' }) : appendCalibrator(model, calibrator, { keepOutputs: true, modelArg: '--calibrate' });
  await atomicWriteFile(join(dir, 'model-calibrated.onnx'), encodeOnnx(result.model));
  const t = calibrator.toJSON().temperature;
  io.stdout.write(
    `calibrated: ${method}${typeof t === 'number' ? ` T = ${t.toPrecision(4)}` : ''} on ${rows} validation ${seg ? 'pixels' : 'logits'} -> ${dir}/calibrator.json, ${dir}/model-calibrated.onnx (outputs ${result.outputs.join(', ')})\n`,
  );
}
