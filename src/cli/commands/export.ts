import { extname } from 'node:path';
import { appendCalibrator } from '../../deploy/append-calibrator.js';
import { appendMultilabelCalibrator } from '../../deploy/append-multilabel-calibrator.js';
import { encodeOnnx, readOnnxFile } from '../../deploy/onnx-file.js';
import { softmaxNote } from '../../deploy/model-signature.js';
import { atomicWriteFile } from '../../util/atomic-write.js';
import { invalidArgument } from '../../util/errors.js';
import { readCalibratorFile } from '../calibrator-file.js';
import { defineCommand } from '../command.js';
import { readMultilabelCalibrator } from '../eval/multilabel-eval.js';
import { requireOutputPath, writingOutput } from '../output-path.js';
import { flag } from '../flag.js';
import { boolean, described, optional, string } from '../../util/schema.js';

/**
 * `calib export`: append a calibrator (calib fit's JSON) to an ONNX classifier so that the exported model outputs
 * calibrated probabilities (src/deploy/append-calibrator.ts).
 */
export const exportCommand = defineCommand({
  name: 'export',
  summary: 'Append a fitted calibrator to an ONNX classifier: one model file that outputs calibrated probabilities.',
  usage: '--model FILE --calibrator FILE --out calibrated.onnx [--keep-outputs] [--output-name NAME]',
  description: [
    'The exported model has the outputs "calibrated_probabilities" (float32 [N, C]) and, for calibrators that map',
    'logits to logits (temperature family, vector, matrix, Dirichlet, Platt, beta), "calibrated_logits"; with',
    '--keep-outputs the original outputs stay beside them. The calibrator is computed in float64 inside the graph and',
    "gives the same probabilities as calib apply on the model's output (within 1e-6, in onnxruntime-node and -web).",
    'Fit the calibrator on what the model outputs: logits, or probabilities (--probs) for a model ending in Softmax.',
    '',
    'A multi-label calibrator (calib fit --multilabel) goes on a model whose [N, L] output is L independent sigmoid',
    'scores: "calibrated_probabilities" is then float32 [N, L], label l calibrated by its own calibrator (every kind',
    'ONNX can express, isotonic included). One fitted on --logits reads the logits (before a final Sigmoid, if the',
    'model has one); one fitted on --probs needs a model ending in Sigmoid. A Softmax head is refused.',
  ].join('\n'),
  examples: [
    'calib export --model model.onnx --calibrator ts.json --out model-calibrated.onnx',
    'calib export --model model.onnx --calibrator dir.json --out out.onnx --keep-outputs',
    'calib export --model tagger.onnx --calibrator tags-platt.json --out tagger-calibrated.onnx',
  ],
  flags: {
    model: flag(described(string(), 'ONNX classifier'), { valueName: 'FILE' }),
    calibrator: flag(described(string(), 'calibrator JSON written by calib fit (a --multilabel one goes on an [N, L] sigmoid head)'), { valueName: 'FILE' }),
    out: flag(described(string(), 'calibrated model (.onnx)'), { valueName: 'FILE' }),
    'keep-outputs': flag(optional(boolean(), false, "keep the model's original outputs")),
    'output-name': flag(described(optional(string()), 'the [N, C] output to calibrate (when there are several)'), { valueName: 'NAME' }),
  },
  async run(flags, io) {
    if (extname(flags.out).toLowerCase() !== '.onnx') invalidArgument('--out', 'a file ending in .onnx', JSON.stringify(flags.out));
    await requireOutputPath(flags.out, '--out', [
      { argName: '--model', path: flags.model },
      { argName: '--calibrator', path: flags.calibrator },
    ]);
    const { model } = await readOnnxFile(flags.model, '--model');
    const multilabel = await readMultilabelCalibrator(flags.calibrator);
    if (multilabel) {
      const result = appendMultilabelCalibrator(model, multilabel, { keepOutputs: flags['keep-outputs'], outputName: flags['output-name'] });
      await writingOutput(flags.out, '--out', () => atomicWriteFile(flags.out, encodeOnnx(result.model)));
      const reads =
        result.reads === result.source
          ? `${JSON.stringify(result.source)} (${result.sourceKind})`
          : `${JSON.stringify(result.reads)} (the logits before the Sigmoid of ${JSON.stringify(result.source)})`;
      io.stdout.write(`exported multilabel ${multilabel.method} (${multilabel.labels} labels) on ${reads} -> ${flags.out} (outputs ${result.outputs.map((o) => JSON.stringify(o)).join(', ')})\n`);
      return;
    }
    const calibrator = await readCalibratorFile(
      flags.calibrator,
      '--calibrator',
      "group ids are not an input of the ONNX model, so the graph cannot choose the group's calibrator (export a calibrator fitted without --groups)",
    );
    const result = appendCalibrator(model, calibrator, { keepOutputs: flags['keep-outputs'], outputName: flags['output-name'] });
    if (result.sourceKind === 'probabilities') io.stderr.write(softmaxNote(result.source));
    await writingOutput(flags.out, '--out', () => atomicWriteFile(flags.out, encodeOnnx(result.model)));
    io.stdout.write(`exported ${calibrator.kind} on ${JSON.stringify(result.source)} (${result.sourceKind}) -> ${flags.out} (outputs ${result.outputs.map((o) => JSON.stringify(o)).join(', ')})\n`);
  },
});
