/**
 * `calib eval --model …` / `--run …`: run the classifier on the samples (as calib predict), then compute every
 * metric on its outputs and the samples' labels (from --dataset / --images / --run, or --labels for --inputs).
 */
import { runClassifier } from '../../deploy/run-classifier.js';
import { softmaxNote } from '../../deploy/model-signature.js';
import { readLabelsFile } from '../../io/read-predictions.js';
import { requirePredictionValues } from '../../metrics/validation.js';
import { invalidArgument } from '../../util/errors.js';
import { UsageError } from '../args.js';
import type { CliIO } from '../command.js';
import { formatMetricsTable, evaluateChunks, metricsJson, type EvalSettings } from './metrics-report.js';
import { resolveModelInputs, type ModelInputFlags } from '../model-inputs.js';
import { progressBar } from '../commands/predict.js';

export interface EvalModelFlags extends ModelInputFlags {
  labels?: string | undefined;
  'label-column'?: string | undefined;
  'output-name'?: string | undefined;
  batch: number;
  'ort-threads': number;
  bins: number;
  convention: string;
  json: boolean;
  logits?: string | undefined;
  probs?: string | undefined;
  bootstrap?: number | undefined;
}

export async function evalModel(flags: EvalModelFlags, io: CliIO): Promise<void> {
  if (flags.logits !== undefined || flags.probs !== undefined) throw new UsageError('give either --logits/--probs or --model/--run, not both');
  if (flags.bootstrap !== undefined) throw new UsageError('--bootstrap works on --logits/--probs: write them with calib predict first');
  const resolved = await resolveModelInputs(flags);
  let labels = resolved.labels;
  if (flags.labels !== undefined) {
    labels = await readLabelsFile(flags.labels, '--labels', flags['label-column'] === undefined ? {} : { column: flags['label-column'] });
  }
  if (!labels) invalidArgument('--labels', `labels for ${resolved.samplesArg} (a file of N class indices)`, 'nothing');
  if (labels.length !== resolved.samples.count) invalidArgument('--labels', `${resolved.samples.count} labels (one per sample)`, `${labels.length}`);
  const result = await runClassifier(resolved.bytes, resolved.model, resolved.samples, {
    inputName: flags['input-name'],
    outputName: flags['output-name'],
    batch: flags.batch,
    threads: flags['ort-threads'],
    samplesArg: resolved.samplesArg,
    modelArg: flags.model !== undefined ? '--model' : '--run',
    ...(flags.json ? {} : { onProgress: progressBar(io.stderr, 'predict') }),
  });
  if (result.kind === 'probabilities') io.stderr.write(softmaxNote(result.output.name));
  const input = result.kind === 'probabilities' ? 'probabilities' : 'logits';
  const matrix = { rows: result.rows, cols: result.cols, data: result.values };
  requirePredictionValues(matrix, input, `${resolved.modelSource} output`);
  for (let i = 0; i < labels.length; i++) {
    if (labels[i]! < 0 || labels[i]! >= result.cols) invalidArgument(`--labels[${i}]`, `a class index in [0, ${result.cols})`, String(labels[i]));
  }
  const settings: EvalSettings = { input, bins: flags.bins, convention: flags.convention as EvalSettings['convention'], classes: result.cols };
  const { metrics } = await evaluateChunks([{ offset: 0, matrix, labels }], settings);
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(metricsJson(metrics, settings))}\n`);
    return;
  }
  io.stdout.write(
    `${result.rows.toLocaleString('en-US')} samples, ${result.cols} classes, ${input} of ${resolved.modelSource} on ${resolved.samplesArg}; ` + `${metrics.bins} bins ${metrics.convention}\n\n`,
  );
  io.stdout.write(formatMetricsTable(metrics));
}
