import type { ReliabilityData } from '../metrics/reliability-types.js';
import { describe, invalidArgument } from '../util/errors.js';
import { checkReliabilityData } from './check-reliability-data.js';
import { confidenceHistogramPanel } from './confidence-histogram.js';
import { optionalText, requireIdPrefix, requireSize } from './panel-box.js';
import { countStripHeight, reliabilityDiagramPanel, reliabilityTitle } from './reliability-diagram.js';
import { el, svgDocument } from './svg.js';
import { COLORS, FONT_FAMILY, FONT_SIZES, fittedFontSize, formatCount, percentLabel } from './theme.js';

/**
 * The papers' calibration figure (Guo et al. 2017, Fig. 1, one column): the confidence histogram with accuracy
 * and average-confidence lines, and the reliability diagram with gap bars, both from one `ReliabilityData`, under
 * a header giving the title with the ECE (%) and a subtitle with n, accuracy, average confidence, the number of
 * bins and the bin convention. Layout 'stacked' (histogram above, default 480 × 720, sized for a README or a
 * paper column) or 'side-by-side' (histogram left, default 900 × 470). The two panels share their x axis
 * geometry so bins line up.
 */
export interface CalibrationFigureOptions {
  /** Figure title; the ECE is appended. Default 'Calibration'. */
  readonly title?: string;
  readonly layout?: 'stacked' | 'side-by-side';
  readonly width?: number;
  readonly height?: number;
  /** Print bin counts above the reliability diagram (default true). */
  readonly showCounts?: boolean;
  /** Prefix of element ids, for several figures inlined in one HTML page (default 'calibkit'). */
  readonly idPrefix?: string;
}

/** Subtitle line: "n = 10,000 · accuracy 85.0% · avg. confidence 93.1% · 15 bins (l,u]". */
export function calibrationSubtitle(data: ReliabilityData): string {
  return (
    `n = ${formatCount(data.total)} · accuracy ${percentLabel(data.accuracy, 1)} · ` +
    `avg. confidence ${percentLabel(data.meanConfidence, 1)} · ${data.bins.length} bin${data.bins.length === 1 ? '' : 's'} ${data.convention}`
  );
}

/** Combined confidence histogram + reliability diagram as one SVG document. */
export function calibrationFigureSvg(data: ReliabilityData, options: CalibrationFigureOptions = {}): string {
  checkReliabilityData(data);
  const layout = options.layout ?? 'stacked';
  if (layout !== 'stacked' && layout !== 'side-by-side')
    invalidArgument('layout', "'stacked' or 'side-by-side'", describe(layout));
  const stacked = layout === 'stacked';
  const width = requireSize('width', options.width ?? (stacked ? 480 : 900), 200);
  const height = requireSize('height', options.height ?? (stacked ? 720 : 470), 200);
  const title = optionalText('title', options.title, 'Calibration') ?? 'Calibration';
  const idPrefix = requireIdPrefix(options.idPrefix);
  const heading = reliabilityTitle(title, data.ece, data.total);
  const subtitle = calibrationSubtitle(data);
  const titleSize = fittedFontSize(heading, FONT_SIZES.figureTitle, width - 16, true);
  const subtitleSize = fittedFontSize(subtitle, FONT_SIZES.subtitle, width - 16);
  const headerHeight = 8 + titleSize + 6 + subtitleSize + 6;
  const body = height - headerHeight;
  const histogramBox = stacked
    ? { x: 0, y: headerHeight, width, height: Math.round(body * 0.34) }
    : (() => {
        // Shift the histogram down by the diagram's count strip so both plot areas share top and bottom.
        const shift = countStripHeight(data, width / 2, options.showCounts !== false) - 4;
        return { x: 0, y: headerHeight + shift, width: width / 2, height: body - shift };
      })();
  const diagramBox = stacked
    ? { x: 0, y: histogramBox.y + histogramBox.height, width, height: body - histogramBox.height }
    : { x: width / 2, y: headerHeight, width: width / 2, height: body };
  return svgDocument(
    width,
    height,
    { title: `${heading}. ${subtitle}`, fontFamily: FONT_FAMILY, background: COLORS.background },
    el(
      'text',
      {
        class: 'figure-title',
        x: width / 2,
        y: 8 + titleSize,
        'text-anchor': 'middle',
        'font-size': titleSize,
        'font-weight': 'bold',
        fill: COLORS.text,
      },
      heading,
    ),
    el(
      'text',
      {
        class: 'figure-subtitle',
        x: width / 2,
        y: 8 + titleSize + 6 + subtitleSize,
        'text-anchor': 'middle',
        'font-size': subtitleSize,
        fill: COLORS.muted,
      },
      subtitle,
    ),
    confidenceHistogramPanel(data, histogramBox, { title: null }),
    reliabilityDiagramPanel(data, diagramBox, {
      title: null,
      idPrefix,
      ...(options.showCounts !== undefined ? { showCounts: options.showCounts } : {}),
    }),
  );
}
