/**
 * `calib plot --multilabel`: one reliability diagram per label of N × L independent sigmoid outputs, as small
 * multiples in rows of at most six (report/small-multiples.ts, the suite reports' layout). Label l's panel bins its
 * positive-class probabilities p_il (σ(z_il) from logits) into M equal-width bins and draws, per bin, the observed
 * frequency of y_il = 1 against the mean p — the binary reliability diagram of the column — with that column's
 * equal-width ECE over the drawn bins in the panel title. With `--convention '[l,u)'` the bins are torchmetrics'
 * and the ECE equals `calib eval --multilabel`'s per-label ECE, except that torchmetrics puts p = 1.0 in a bin of
 * its own. `--calibrator` (a `calib fit --multilabel` file) draws the calibrated probabilities instead.
 */
import { reliabilityDiagram } from '../metrics/index.js';
import { sigmoid } from '../metrics/multilabel.js';
import { readInputText } from '../io/input-file.js';
import { smallMultiplesSvg } from '../report/small-multiples.js';
import { invalidArgument } from '../util/errors.js';
import type { Matrix } from '../util/matrix.js';
import type { CliIO } from './command.js';
import { percent } from './format-table.js';
import { readMultilabelCalibrator, readMultilabelInputs } from './eval/multilabel-eval.js';
import { type PlotFlags, writePlot } from './plot-flags.js';

/** Label names from a text file, one per line (a final newline allowed), exactly one per label column. */
export async function readLabelNames(path: string, labels: number, argName = '--label-names'): Promise<string[]> {
  const text = await readInputText({ argName, path });
  const lines = text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
  const blank = lines.findIndex((l) => l.trim() === '');
  if (blank >= 0 && text.trim() !== '') invalidArgument(argName, 'one non-empty name per line', `an empty line ${blank + 1} in ${JSON.stringify(path)}`);
  const names = text.trim() === '' ? [] : lines.map((l) => l.trim());
  if (names.length !== labels) invalidArgument(argName, `${labels} names, one per line (one per label column)`, `${names.length} in ${JSON.stringify(path)}`);
  return names;
}

/** Column l of N × L probabilities (σ of logits) and of the 0/1 targets. */
function labelColumn(p: Matrix, kind: 'logits' | 'probabilities', targets: Uint8Array, l: number): { p: Float64Array; y: Uint8Array } {
  const { rows, cols, data } = p;
  const out = new Float64Array(rows);
  const y = new Uint8Array(rows);
  for (let i = 0; i < rows; i++) {
    const v = data[i * cols + l]!;
    out[i] = kind === 'logits' ? sigmoid(v) : v;
    y[i] = targets[i * cols + l]!;
  }
  return { p: out, y };
}

/** Draw the per-label small multiples to flags.out (.svg or .png, checked by the caller). */
export async function plotMultilabel(flags: PlotFlags, io: CliIO): Promise<void> {
  if (flags.figure !== undefined && flags.figure !== 'combined' && flags.figure !== 'diagram') {
    invalidArgument('--figure', "'diagram' (or the default) with --multilabel: one reliability diagram per label", `'${flags.figure}'`);
  }
  const inputs = await readMultilabelInputs(flags);
  const L = inputs.predictions.cols;
  const names = flags['label-names'] !== undefined ? await readLabelNames(flags['label-names'], L) : Array.from({ length: L }, (_, l) => `label ${l}`);
  let predictions: Matrix = inputs.predictions;
  let kind = inputs.kind;
  let after = '';
  if (flags.calibrator !== undefined) {
    const calibrator = await readMultilabelCalibrator(flags.calibrator);
    if (!calibrator) invalidArgument('--calibrator', 'a multi-label calibrator JSON (calib fit --multilabel) with --multilabel', JSON.stringify(flags.calibrator));
    predictions = calibrator.apply(inputs.predictions, inputs.kind, inputs.argName);
    kind = 'probabilities';
    after = ` after ${calibrator.method}`;
  }
  const panels = names.map((name, l) => {
    const { p, y } = labelColumn(predictions, kind, inputs.targets, l);
    const support = y.reduce((s, v) => s + v, 0);
    return { title: `${name} (${support} pos.)`, data: reliabilityDiagram(p, y, { bins: flags.bins, convention: flags.convention }) };
  });
  const n = inputs.predictions.rows;
  const title = `${flags.title ?? 'Per-label reliability'}${after} — ${n.toLocaleString('en-US')} samples × ${L} labels`;
  const svg = smallMultiplesSvg(panels, title, 'label', {
    axisLabels: { x: 'Predicted probability', y: 'Observed frequency' },
    legendLabels: { outputs: 'Observed frequency of the label per bin', gap: 'Gap to mean predicted probability' },
  });
  await writePlot(flags, svg);
  const eces = panels.map((p) => p.data.ece);
  const macro = eces.reduce((a, b) => a + b, 0) / L;
  io.stdout.write(
    `wrote ${L} per-label reliability diagrams${after} of ${n.toLocaleString('en-US')} samples ` +
      `(ECE per label ${percent(Math.min(...eces))}–${percent(Math.max(...eces))}%, macro ${percent(macro)}%, ${flags.bins} bins ${flags.convention}) -> ${flags.out}\n`,
  );
}
