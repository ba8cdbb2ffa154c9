import { extname } from 'node:path';
import { CalibrationAccumulator, requireBins, riskCoverageCurve, selectivePredictionMetrics, smoothedReliability } from '../../metrics/index.js';
import type { BinConvention } from '../../metrics/index.js';
import { beforeAfterFigureSvg, calibrationFigureSvg, confidenceHistogramSvg, reliabilityDiagramSvg, writeFigure } from '../../report/index.js';
import { riskCoverageSvg, smoothedReliabilitySvg } from '../../report/curve-plot.js';
import { readLabelsFile, readMatrixFile } from '../../io/read-predictions.js';
import { readCalibratorFile } from '../calibrator-file.js';
import { invalidArgument, requireNumber } from '../../util/errors.js';
import { defineCommand } from '../command.js';
import { percent } from '../format-table.js';
import { LABEL_FLAGS, logitsWarning, openPredictionsAndLabels, PREDICTION_FLAGS, validatedChunks } from '../inputs.js';
import { requireOutputPath, writingOutput } from '../output-path.js';
import { MULTILABEL_FLAG } from '../multilabel-eval.js';
import { plotMultilabel } from '../multilabel-plot.js';
import { LOGIT_SCALE_DESCRIPTION, plotLogitScale, requireLogitScaleFlags } from '../logit-plot.js';

/**
 * `calib plot`: the reliability diagram and confidence histogram (src/report) of predictions, as SVG or PNG
 * (by the extension of --out). The bin statistics are streamed from the inputs (src/metrics).
 */
export const plotCommand = defineCommand({
  name: 'plot',
  summary: 'Draw the reliability diagram and confidence histogram of predictions (SVG or PNG).',
  usage: '(--logits FILE | --probs FILE) --labels FILE --out FILE [--multilabel [--label-names FILE] | --logit-scale] [options]\n' +
    '  calib plot --logit-scale --positive-probs FILE --labels FILE --out FILE [options]',
  description: [
    '--multilabel: N × L independent sigmoid logits/probabilities with N × L 0/1 --labels; one reliability diagram per',
    'label (predicted probability against the observed frequency of the label, per equal-width bin; the column\'s ECE',
    "over the drawn bins in each title) as small multiples in rows of at most six. With --convention '[l,u)' the bins",
    "and ECE are calib eval --multilabel's (torchmetrics'), except that p = 1.0 gets no bin of its own. --calibrator",
    'takes a calib fit --multilabel file and draws the calibrated probabilities.',
    '',
    ...LOGIT_SCALE_DESCRIPTION,
  ].join('\n'),
  examples: [
    'calib plot --logits test-logits.npy --labels test-labels.npy --out reliability.svg',
    'calib plot --probs p.npy --labels y.npy --out diagram.png --figure diagram --title "ResNet-50, CIFAR-10"',
    'calib plot --logits test-logits.npy --labels test-labels.npy --calibrator ts.json --before-after overlay --out ts.svg',
    'calib plot --logits z.npy --labels y.npy --out smooth.svg --figure smooth-reliability --resamples 200',
    'calib plot --logits z.npy --labels y.npy --out rc.svg --figure risk-coverage',
    'calib plot --logit-scale --positive-probs risk.csv --labels outcome.csv --out calibration-logit.svg',
    'calib plot --multilabel --logits tag-logits.npy --labels tags.npy --label-names tags.txt --out tags.svg',
  ],
  flags: {
    ...PREDICTION_FLAGS,
    ...LABEL_FLAGS,
    out: { type: 'string', required: true, valueName: 'FILE', description: 'output image, .svg or .png' },
    bins: { type: 'integer', default: 15, description: 'number of confidence bins M' },
    convention: { type: 'string', choices: ['(l,u]', '[l,u)'], default: '(l,u]', description: 'which side of each bin is closed' },
    title: { type: 'string', valueName: 'TEXT', description: "figure title (the ECE is appended; default 'Calibration')" },
    figure: {
      type: 'string',
      choices: ['combined', 'diagram', 'histogram', 'smooth-reliability', 'risk-coverage'],
      description: "histogram above the reliability diagram (combined, the default), either alone, the smoothed reliability diagram with its bootstrap band (Błasiok & Nakkiran 2023), or the risk–coverage curve (with --logit-scale: diagram only)",
    },
    resamples: { type: 'integer', default: 200, valueName: 'B', description: 'bootstrap resamples of the smooth-reliability band (0: none)' },
    seed: { type: 'integer', default: 0, description: 'seed of the band resamples' },
    layout: { type: 'string', choices: ['stacked', 'side-by-side'], default: 'stacked', description: 'layout of the combined figure' },
    width: { type: 'integer', valueName: 'PX', description: 'PNG width in pixels (default: twice the SVG size)' },
    calibrator: { type: 'string', valueName: 'FILE', description: 'also draw the predictions after this calibrator (calib fit JSON): before and after in one figure' },
    'before-after': { type: 'string', choices: ['panels', 'overlay'], default: 'panels', description: 'with --calibrator: two diagrams side by side, or both curves on one plot' },
    'positive-probs': { type: 'string', valueName: 'FILE', description: 'with --logit-scale: N probabilities of class 1 of a binary problem (labels 0/1), instead of --logits/--probs' },
    'logit-scale': { type: 'boolean', description: 'the calibration plot on logit axes (see above); 0/1 bin frequencies clipped to [0.5/n, 1 − 0.5/n]' },
    ...MULTILABEL_FLAG,
    'label-names': { type: 'string', valueName: 'FILE', description: "with --multilabel: one name per line for the L label columns (default 'label 0', 'label 1', …)" },
  },
  async run(flags, io) {
    const ext = extname(flags.out).toLowerCase();
    if (ext !== '.svg' && ext !== '.png') invalidArgument('--out', 'a file ending in .svg or .png', JSON.stringify(flags.out));
    requireBins(flags.bins, '--bins');
    await requireOutputPath(flags.out, '--out', [
      { argName: '--logits', path: flags.logits },
      { argName: '--probs', path: flags.probs },
      { argName: '--labels', path: flags.labels },
    ]);
    if (flags.width !== undefined) requireNumber('--width', flags.width, { integer: true, min: 16, max: 16384 });
    if (flags['logit-scale']) {
      requireLogitScaleFlags(flags);
      return plotLogitScale(flags, io);
    }
    if (flags['positive-probs'] !== undefined) invalidArgument('--positive-probs', '--logit-scale as well (the other figures take --logits or --probs)', JSON.stringify(flags['positive-probs']));
    if (flags.multilabel) return plotMultilabel(flags, io);
    if (flags['label-names'] !== undefined) invalidArgument('--label-names', '--multilabel as well (names of the N × L label columns)', JSON.stringify(flags['label-names']));
    const { predictions, labels } = await openPredictionsAndLabels(flags);
    const accumulator = new CalibrationAccumulator({
      input: predictions.kind,
      bins: flags.bins,
      convention: flags.convention as BinConvention,
      classes: predictions.source.cols,
    });
    for await (const chunk of validatedChunks(predictions, labels)) accumulator.update(chunk.matrix, chunk.labels);
    const warning = logitsWarning(predictions);
    if (warning) io.stderr.write(warning);
    const title = flags.title !== undefined ? { title: flags.title } : {};
    if (flags.figure === 'smooth-reliability' || flags.figure === 'risk-coverage') {
      const { confidence, correct } = accumulator.top.views();
      let summary: string;
      let curveSvg: string;
      if (flags.figure === 'risk-coverage') {
        const aurc = selectivePredictionMetrics(confidence, correct).aurc;
        curveSvg = riskCoverageSvg(riskCoverageCurve(confidence, correct), aurc, title);
        summary = `risk–coverage curve (AURC ${percent(aurc)}%)`;
      } else {
        requireNumber('--resamples', flags.resamples, { integer: true, min: 0 });
        const smooth = smoothedReliability(confidence, correct, { resamples: flags.resamples, seed: flags.seed });
        curveSvg = smoothedReliabilitySvg(smooth, title);
        summary = `smoothed reliability diagram (smECE ${percent(smooth.smoothEce)}%, σ ${smooth.bandwidth.toFixed(4)}, ${smooth.resamples} resamples)`;
      }
      await writingOutput(flags.out, '--out', () => writeFigure(flags.out, curveSvg, flags.width !== undefined ? { width: flags.width } : {}));
      io.stdout.write(`wrote ${summary} of ${accumulator.top.count.toLocaleString('en-US')} samples -> ${flags.out}\n`);
      return;
    }
    const data = accumulator.reliability();
    if (flags.calibrator !== undefined) {
      const calibrator = await readCalibratorFile(flags.calibrator, '--calibrator');
      const m = flags.logits !== undefined ? await readMatrixFile(flags.logits, '--logits') : await readMatrixFile(flags.probs!, '--probs');
      const y = await readLabelsFile(flags.labels, '--labels');
      const calibrated = calibrator.apply(flags.logits !== undefined ? { logits: m } : { probabilities: m });
      const after = new CalibrationAccumulator({ input: 'probabilities', bins: flags.bins, convention: flags.convention as BinConvention, classes: m.cols }).update(calibrated, y).reliability();
      const t = calibrator.toJSON()['temperature'];
      const afterLabel = `After ${calibrator.kind}${typeof t === 'number' ? ` (T = ${t.toFixed(2)})` : ''}`;
      const svg = beforeAfterFigureSvg(data, after, { layout: flags['before-after'] as 'panels' | 'overlay', labels: ['Before', afterLabel], ...(flags.title ? { title: flags.title } : {}) });
      await writingOutput(flags.out, '--out', () => writeFigure(flags.out, svg, flags.width !== undefined ? { width: flags.width } : {}));
      io.stdout.write(`wrote before/after ${calibrator.kind} (${flags['before-after']}) of ${data.total.toLocaleString('en-US')} samples (ECE ${percent(data.ece)}% -> ${percent(after.ece)}%, ${data.bins.length} bins ${data.convention}) -> ${flags.out}\n`);
      return;
    }
    const figure = flags.figure ?? 'combined';
    const svg =
      figure === 'diagram' ? reliabilityDiagramSvg(data, title)
      : figure === 'histogram' ? confidenceHistogramSvg(data, title)
      : calibrationFigureSvg(data, { ...title, layout: flags.layout as 'stacked' | 'side-by-side' });
    await writingOutput(flags.out, '--out', () => writeFigure(flags.out, svg, flags.width !== undefined ? { width: flags.width } : {}));
    io.stdout.write(
      `wrote ${figure === 'combined' ? 'reliability diagram + confidence histogram' : figure === 'diagram' ? 'reliability diagram' : 'confidence histogram'} ` +
        `of ${data.total.toLocaleString('en-US')} samples (ECE ${percent(data.ece)}%, ${data.bins.length} bins ${data.convention}) -> ${flags.out}\n`,
    );
  },
});
