import { extname } from 'node:path';
import { createNpyWriter } from '../../io/npy.js';
import { requirePredictionShape } from '../../io/validate.js';
import { writeMatrixFile } from '../../io/write-predictions.js';
import type { Predictions } from '../../posthoc/index.js';
import { invalidArgument } from '../../util/errors.js';
import { matrix, type Matrix } from '../../util/matrix.js';
import { readCalibratorFile } from '../calibrator-file.js';
import { defineCommand } from '../command.js';
import { logitsWarning, openPredictions, PREDICTION_FLAGS, readAll, validatedPredictionChunks } from '../inputs.js';
import { requireOutputPath, writingOutput } from '../output-path.js';
import { applyMultilabel, readMultilabelCalibrator } from '../eval/multilabel-eval.js';
import { applyGroupwise, GROUP_APPLY_FLAG, readGroupwiseCalibrator } from '../group-calibrate.js';
import { flag } from '../flag.js';
import { described, optional, string } from '../../util/schema.js';

/**
 * `calib apply`: calibrated probabilities (or logits) from a saved calibrator. A .npy output is written chunk by
 * chunk as the input streams (atomically: nothing appears at --out until the last row is written); CSV/JSON
 * outputs are assembled in memory.
 */
export const applyCommand = defineCommand({
  name: 'apply',
  summary: 'Apply a saved calibrator to predictions and write calibrated probabilities.',
  usage: '--calibrator FILE (--logits FILE | --probs FILE) --out FILE [options]',
  examples: [
    'calib apply --calibrator calibrator.json --logits test-logits.npy --out test-probs.npy',
    'calib apply --calibrator calibrator.json --logits z.npy --out z-calibrated.npy --output logits --dtype float64',
    'calib apply --calibrator tags-platt.json --logits test-tag-logits.npy --out test-tag-probs.npy',
    'calib apply --calibrator per-site-ts.json --groups test-sites.csv --logits test-logits.npy --out test-probs.npy',
    'calib apply --calibrator site-device-ts.json --groups test-site.csv --groups test-device.csv --logits test-logits.npy --out test-probs.npy',
  ],
  flags: {
    calibrator: flag(described(string(), 'calibrator JSON written by calib fit (a --multilabel one calibrates N × L sigmoid outputs per label)'), { valueName: 'FILE' }),
    ...PREDICTION_FLAGS,
    ...GROUP_APPLY_FLAG,
    out: flag(described(string(), 'output file (.npy, .csv or .json)'), { valueName: 'FILE' }),
    dtype: flag(optional(string(['float32', 'float64']), 'float32', 'precision of the output')),
    output: flag(optional(string(['probs', 'logits']), 'probs', 'calibrated probabilities, or calibrated logits (not for histogram/isotonic)')),
  },
  async run(flags, io) {
    const ext = extname(flags.out).toLowerCase();
    if (ext !== '.npy' && ext !== '.csv' && ext !== '.json') invalidArgument('--out', 'a file ending in .npy, .csv or .json', JSON.stringify(flags.out));
    await requireOutputPath(flags.out, '--out', [
      { argName: '--calibrator', path: flags.calibrator },
      { argName: '--logits', path: flags.logits },
      { argName: '--probs', path: flags.probs },
    ]);
    const groupwise = await readGroupwiseCalibrator(flags.calibrator);
    if (groupwise) return applyGroupwise(groupwise, flags, io);
    const multilabel = await readMultilabelCalibrator(flags.calibrator);
    const refuseGroups = (what: string): void => {
      if (flags.groups.length > 0)
        invalidArgument('--groups', `no --groups for ${what} fitted without them (calib fit --groups writes a group-wise one)`, `--groups with ${JSON.stringify(flags.calibrator)}`);
    };
    if (multilabel) {
      refuseGroups('a multi-label calibrator');
      return applyMultilabel(multilabel, flags, io);
    }
    // Read (and so validate: a missing or malformed file is reported as such) before refusing --groups.
    const calibrator = await readCalibratorFile(flags.calibrator, '--calibrator');
    refuseGroups(`a ${calibrator.kind} calibrator`);
    const wantLogits = flags.output === 'logits';
    if (wantLogits && !calibrator.applyLogits) {
      invalidArgument('--output', `'probs' for a ${calibrator.kind} calibrator (it has no calibrated logits)`, "'logits'");
    }
    const predictions = await openPredictions(flags);
    const { rows, cols } = predictions.source;
    requirePredictionShape(predictions.argName, rows, cols);
    if (cols !== calibrator.classes) {
      invalidArgument(predictions.argName, `${calibrator.classes} columns (the calibrator was fitted for ${calibrator.classes} classes)`, `${cols}`);
    }
    const dtype = flags.dtype as 'float32' | 'float64';
    const transform = (m: Matrix, offset: number): Matrix<Float64Array> => {
      const input: Predictions = predictions.kind === 'logits' ? { logits: m } : { probabilities: m };
      const out = wantLogits ? calibrator.applyLogits!(input) : calibrator.apply(input);
      requireRepresentable(out, dtype, offset);
      return out;
    };
    if (ext === '.npy') {
      const writer = await writingOutput(flags.out, '--out', () => createNpyWriter(flags.out, [rows, cols], dtype));
      try {
        for await (const chunk of validatedPredictionChunks(predictions)) {
          const data = transform(chunk.matrix, chunk.offset).data;
          await writingOutput(flags.out, '--out', () => writer.write(data));
        }
      } catch (error) {
        await writer.abort();
        throw error;
      }
      await writingOutput(flags.out, '--out', () => writer.close());
    } else {
      const all = await readAll(validatedPredictionChunks(predictions), rows, cols);
      const out = transform(all.matrix, 0);
      await writingOutput(flags.out, '--out', () => writeMatrixFile(flags.out, matrix(rows, cols, out.data), { dtype, key: wantLogits ? 'logits' : 'probs', argName: '--out' }));
    }
    const warning = logitsWarning(predictions);
    if (warning) io.stderr.write(warning);
    io.stdout.write(
      `applied ${calibrator.kind} to ${rows.toLocaleString('en-US')} × ${cols} ${predictions.kind} -> ${flags.out} ` + `(calibrated ${wantLogits ? 'logits' : 'probabilities'}, ${dtype})\n`,
    );
  },
});

/**
 * Every output value must be finite and, for a float32 output, within float32's range (±3.4e38): calibrated
 * logits of huge inputs are computed in float64 and would otherwise be written as ±Infinity.
 */
function requireRepresentable(out: Matrix<Float64Array>, dtype: 'float32' | 'float64', offset: number): void {
  const { cols, data } = out;
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    const where = `row ${offset + Math.floor(i / cols)}, column ${i % cols}`;
    if (!Number.isFinite(v)) invalidArgument('--calibrator', 'a calibrator that gives finite outputs on these inputs', `${v} at ${where}`);
    if (dtype === 'float32' && !Number.isFinite(Math.fround(v))) {
      invalidArgument('--dtype', "float64 for values beyond float32's range (±3.4e38)", `float32 and the value ${v} at ${where}`);
    }
  }
}
