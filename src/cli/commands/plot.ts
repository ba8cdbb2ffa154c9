import { extname } from 'node:path';
import { CalibrationAccumulator, requireBins, riskCoverageCurve, selectivePredictionMetrics, smoothedReliability } from '../../metrics/index.js';
import { beforeAfterFigureSvg, calibrationFigureSvg, confidenceHistogramSvg, reliabilityDiagramSvg } from '../../report/index.js';
import { riskCoverageSvg, smoothedReliabilitySvg } from '../../report/curve-plot.js';
import { readLabelsFile, readMatrixFile } from '../../io/read-predictions.js';
import { readCalibratorFile } from '../calibrator-file.js';
import { invalidArgument } from '../../util/errors.js';
import { defineCommand } from '../command.js';
import { percent } from '../format-table.js';
import { logitsWarning, openPredictionsAndLabels, validatedChunks } from '../inputs.js';
import { requireOutputPath } from '../output-path.js';
import { plotMultilabel } from '../multilabel-plot.js';
import { LOGIT_SCALE_DESCRIPTION, plotLogitScale, requireLogitScaleFlags } from '../logit-plot.js';
import { PLOT_FLAGS, writePlot } from '../plot-flags.js';

/**
 * `calib plot`: the reliability diagram and confidence histogram (src/report) of predictions, as SVG or PNG
 * (by the extension of --out). The bin statistics are streamed from the inputs (src/metrics).
 */
export const plotCommand = defineCommand({
  name: 'plot',
  summary: 'Draw the reliability diagram and confidence histogram of predictions (SVG or PNG).',
  usage:
    '(--logits FILE | --probs FILE) --labels FILE --out FILE [--multilabel [--label-names FILE] | --logit-scale] [options]\n' +
    '  calib plot --logit-scale --positive-probs FILE --labels FILE --out FILE [options]',
  description: [
    '--multilabel: N × L independent sigmoid logits/probabilities with N × L 0/1 --labels; one reliability diagram per',
    "label (predicted probability against the observed frequency of the label, per equal-width bin; the column's ECE",
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
  flags: PLOT_FLAGS,
  async run(flags, io) {
    const ext = extname(flags.out).toLowerCase();
    if (ext !== '.svg' && ext !== '.png') invalidArgument('--out', 'a file ending in .svg or .png', JSON.stringify(flags.out));
    requireBins(flags.bins, '--bins');
    await requireOutputPath(flags.out, '--out', [
      { argName: '--logits', path: flags.logits },
      { argName: '--probs', path: flags.probs },
      { argName: '--labels', path: flags.labels },
    ]);
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
      convention: flags.convention,
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
        const smooth = smoothedReliability(confidence, correct, { resamples: flags.resamples, seed: flags.seed });
        curveSvg = smoothedReliabilitySvg(smooth, title);
        summary = `smoothed reliability diagram (smECE ${percent(smooth.smoothEce)}%, σ ${smooth.bandwidth.toFixed(4)}, ${smooth.resamples} resamples)`;
      }
      await writePlot(flags, curveSvg);
      io.stdout.write(`wrote ${summary} of ${accumulator.top.count.toLocaleString('en-US')} samples -> ${flags.out}\n`);
      return;
    }
    const data = accumulator.reliability();
    if (flags.calibrator !== undefined) {
      const calibrator = await readCalibratorFile(flags.calibrator, '--calibrator');
      const m = flags.logits !== undefined ? await readMatrixFile(flags.logits, '--logits') : await readMatrixFile(flags.probs!, '--probs');
      const y = await readLabelsFile(flags.labels, '--labels');
      const calibrated = calibrator.apply(flags.logits !== undefined ? { logits: m } : { probabilities: m });
      const after = new CalibrationAccumulator({ input: 'probabilities', bins: flags.bins, convention: flags.convention, classes: m.cols }).update(calibrated, y).reliability();
      const t = calibrator.toJSON()['temperature'];
      const afterLabel = `After ${calibrator.kind}${typeof t === 'number' ? ` (T = ${t.toFixed(2)})` : ''}`;
      const svg = beforeAfterFigureSvg(data, after, { layout: flags['before-after'], labels: ['Before', afterLabel], ...(flags.title ? { title: flags.title } : {}) });
      await writePlot(flags, svg);
      io.stdout.write(
        `wrote before/after ${calibrator.kind} (${flags['before-after']}) of ${data.total.toLocaleString('en-US')} samples (ECE ${percent(data.ece)}% -> ${percent(after.ece)}%, ${data.bins.length} bins ${data.convention}) -> ${flags.out}\n`,
      );
      return;
    }
    const figure = flags.figure ?? 'combined';
    const svg =
      figure === 'diagram' ? reliabilityDiagramSvg(data, title) : figure === 'histogram' ? confidenceHistogramSvg(data, title) : calibrationFigureSvg(data, { ...title, layout: flags.layout });
    await writePlot(flags, svg);
    io.stdout.write(
      `wrote ${figure === 'combined' ? 'reliability diagram + confidence histogram' : figure === 'diagram' ? 'reliability diagram' : 'confidence histogram'} ` +
        `of ${data.total.toLocaleString('en-US')} samples (ECE ${percent(data.ece)}%, ${data.bins.length} bins ${data.convention}) -> ${flags.out}\n`,
    );
  },
});
