import { extname } from 'node:path';
import { writeNpy } from '../../io/npy.js';
import { runClassifier } from '../../deploy/run-classifier.js';
import { softmaxNote } from '../../deploy/model-signature.js';
import { invalidArgument, requireNumber } from '../../util/errors.js';
import { defineCommand, type Writer } from '../command.js';
import { MODEL_INPUT_FLAGS, resolveModelInputs } from '../model-inputs.js';
import { requireOutputPath, writingOutput } from '../output-path.js';
import { flag } from '../flag.js';
import { boolean, described, optional, string } from '../../util/schema.js';

/** A one-line progress bar on stderr, redrawn in place ("\r"), ended by a newline. */
export function progressBar(stderr: Writer, label: string): (done: number, total: number) => void {
  return (done, total) => {
    const width = 30;
    const filled = Math.round((done / total) * width);
    stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}${done === total ? '\n' : ''}`);
  };
}

/**
 * `calib predict`: run any ONNX classifier (onnxruntime-node) on a batch of samples and write its [N, C] outputs
 * (and the labels, where the samples have them) as .npy, ready for calib eval / fit / apply.
 */
export const predictCommand = defineCommand({
  name: 'predict',
  summary: 'Run an ONNX classifier on samples (.npy, a dataset, or a folder of images) and write its logits.',
  usage: '(--model FILE | --run DIR) (--inputs X.npy | --dataset NAME | --images DIR) --out logits.npy [options]',
  description: [
    "The model's input and [N, C] output are read from the model (--input-name / --output-name when it has several);",
    "a dynamic batch runs in batches of --batch, a fixed batch in the model's own. Images from --dataset and --images are",
    'in [0, 1], normalised by --mean/--std and laid out as the model expects (--layout, default read from its shape).',
    'A model ending in Softmax gives probabilities, not logits: the file then holds probabilities (use --probs later).',
  ].join('\n'),
  examples: [
    'calib predict --model model.onnx --images photos/ --size 224x224 --mean 0.485,0.456,0.406 --std 0.229,0.224,0.225 --out val-logits.npy --labels-out val-labels.npy',
    'calib predict --model model.onnx --inputs X.npy --out logits.npy',
    'calib predict --model model.onnx --dataset fashion-mnist --split val --out val-logits.npy --labels-out val-labels.npy',
    'calib predict --run runs/mnist-mlp --checkpoint last --split test --out last-test-logits.npy',
  ],
  flags: {
    ...MODEL_INPUT_FLAGS,
    out: flag(described(string(), 'output .npy (float32 [N, C])'), { valueName: 'FILE' }),
    'labels-out': flag(described(optional(string()), 'also write the labels (.npy int32) of --dataset / --images / --run'), { valueName: 'FILE' }),
    quiet: flag(optional(boolean(), false, 'no progress bar')),
  },
  async run(flags, io) {
    if (extname(flags.out).toLowerCase() !== '.npy') invalidArgument('--out', 'a file ending in .npy', JSON.stringify(flags.out));
    if (flags['labels-out'] !== undefined && extname(flags['labels-out']).toLowerCase() !== '.npy') invalidArgument('--labels-out', 'a file ending in .npy', JSON.stringify(flags['labels-out']));
    requireNumber('--batch', flags.batch, { integer: true, min: 1 });
    requireNumber('--threads', flags.threads, { integer: true, min: 1, max: 64 });
    const inputs = [
      { argName: '--model', path: flags.model },
      { argName: '--inputs', path: flags.inputs },
    ];
    await requireOutputPath(flags.out, '--out', inputs);
    if (flags['labels-out'] !== undefined) await requireOutputPath(flags['labels-out'], '--labels-out', [...inputs, { argName: '--out', path: flags.out }]);
    const resolved = await resolveModelInputs(flags);
    if (flags['labels-out'] !== undefined && !resolved.labels) invalidArgument('--labels-out', 'samples with labels (--dataset, --run, or --images with one subfolder per class)', resolved.samplesArg);
    const result = await runClassifier(resolved.bytes, resolved.model, resolved.samples, {
      inputName: flags['input-name'],
      outputName: flags['output-name'],
      batch: flags.batch,
      threads: flags.threads,
      samplesArg: resolved.samplesArg,
      modelArg: flags.model !== undefined ? '--model' : '--run',
      ...(flags.quiet ? {} : { onProgress: progressBar(io.stderr, 'predict') }),
    });
    if (result.kind === 'probabilities') io.stderr.write(softmaxNote(result.output.name));
    await writingOutput(flags.out, '--out', () => writeNpy(flags.out, result.values, [result.rows, result.cols]));
    if (flags['labels-out'] !== undefined) await writingOutput(flags['labels-out'], '--labels-out', () => writeNpy(flags['labels-out']!, resolved.labels!, [resolved.labels!.length]));
    io.stdout.write(
      `predicted ${result.rows.toLocaleString('en-US')} × ${result.cols} ${result.kind === 'probabilities' ? 'probabilities' : 'logits'} ` +
        `(input ${JSON.stringify(result.input.name)}, output ${JSON.stringify(result.output.name)}, batch ${result.batch}) -> ${flags.out}` +
        (flags['labels-out'] !== undefined ? `, labels -> ${flags['labels-out']}` : '') +
        '\n',
    );
  },
});
