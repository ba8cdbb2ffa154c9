/**
 * The flags of `calib plot` (commands/plot.ts), in one place so that its figure modules — the logit-scale plot
 * (logit-plot.ts) and the per-label small multiples (multilabel-plot.ts) — take the parsed flags' own type.
 */
import type { BinConvention } from '../metrics/index.js';
import { writeFigure } from '../report/index.js';
import { boolean, described, number, optional, string } from '../util/schema.js';
import { flag, type ParsedFlags } from './flag.js';
import { LABEL_FLAGS, PREDICTION_FLAGS } from './inputs.js';
import { MULTILABEL_FLAG } from './eval/multilabel-eval.js';
import { writingOutput } from './output-path.js';

/** The bin conventions of `--convention` (the metrics' `BinConvention`). */
const CONVENTIONS = ['(l,u]', '[l,u)'] as const satisfies readonly BinConvention[];

export const PLOT_FLAGS = {
  ...PREDICTION_FLAGS,
  ...LABEL_FLAGS,
  out: flag(described(string(), 'output image, .svg or .png'), { valueName: 'FILE' }),
  bins: flag(optional(number({ integer: true }), 15, 'number of confidence bins M')),
  convention: flag(optional(string(CONVENTIONS), '(l,u]', 'which side of each bin is closed')),
  title: flag(described(optional(string()), "figure title (the ECE is appended; default 'Calibration')"), { valueName: 'TEXT' }),
  figure: flag(
    described(
      optional(string(['combined', 'diagram', 'histogram', 'smooth-reliability', 'risk-coverage'])),
      'histogram above the reliability diagram (combined, the default), either alone, the smoothed reliability diagram with its bootstrap band (Błasiok & Nakkiran 2023), or the risk–coverage curve (with --logit-scale: diagram only)',
    ),
  ),
  resamples: flag(optional(number({ integer: true, min: 0 }), 200, 'bootstrap resamples of the smooth-reliability band (0: none)'), { valueName: 'B' }),
  seed: flag(optional(number({ integer: true }), 0, 'seed of the band resamples')),
  layout: flag(optional(string(['stacked', 'side-by-side']), 'stacked', 'layout of the combined figure')),
  width: flag(described(optional(number({ integer: true, min: 16, max: 16384 })), 'PNG width in pixels (default: twice the SVG size)'), { valueName: 'PX' }),
  calibrator: flag(described(optional(string()), 'also draw the predictions after this calibrator (calib fit JSON): before and after in one figure'), { valueName: 'FILE' }),
  'before-after': flag(optional(string(['panels', 'overlay']), 'panels', 'with --calibrator: two diagrams side by side, or both curves on one plot')),
  'positive-probs': flag(described(optional(string()), 'with --logit-scale: N probabilities of class 1 of a binary problem (labels 0/1), instead of --logits/--probs'), { valueName: 'FILE' }),
  'logit-scale': flag(optional(boolean(), false, 'the calibration plot on logit axes (see above); 0/1 bin frequencies clipped to [0.5/n, 1 − 0.5/n]')),
  ...MULTILABEL_FLAG,
  'label-names': flag(described(optional(string()), "with --multilabel: one name per line for the L label columns (default 'label 0', 'label 1', …)"), { valueName: 'FILE' }),
} as const;

/** The parsed flags of `calib plot`. */
export type PlotFlags = ParsedFlags<typeof PLOT_FLAGS>;

/** Write `svg` to --out (.svg, or .png at --width pixels), as every figure of `calib plot` ends. */
export async function writePlot(flags: Pick<PlotFlags, 'out' | 'width'>, svg: string): Promise<void> {
  await writingOutput(flags.out, '--out', () => writeFigure(flags.out, svg, flags.width !== undefined ? { width: flags.width } : {}));
}
