import type { ReliabilityData } from '../metrics/binned/reliability-types.js';
import { describe, invalidArgument } from '../util/errors.js';
import { checkReliabilityData } from './check-reliability-data.js';
import { confidenceHistogramPanel, histogramLegendHeight } from './confidence-histogram.js';
import { optionalText, requireIdPrefix, requireSize, wrappedTitle } from './panel-box.js';
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
 * Rendered to PNG, the default size is drawn at twice its CSS pixels (960 × 1440 for the stacked figure).
 */
export interface CalibrationFigureOptions {
  /** Figure title; the ECE is appended. Default 'Calibration'; '' draws no title (the ECE leads the subtitle). Long titles wrap. */
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
  if (layout !== 'stacked' && layout !== 'side-by-side') invalidArgument('layout', "'stacked' or 'side-by-side'", describe(layout));
  const stacked = layout === 'stacked';
  const width = requireSize('width', options.width ?? (stacked ? 480 : 900), 200);
  const height = requireSize('height', options.height ?? (stacked ? 720 : 470), 200);
  const title = optionalText('title', options.title, 'Calibration') ?? 'Calibration';
  const idPrefix = requireIdPrefix(options.idPrefix);
  // An empty title draws no title row; the ECE then leads the subtitle.
  const heading = title === '' ? null : reliabilityTitle(title, data.ece, data.total);
  const subtitle = heading === null ? `${reliabilityTitle('', data.ece, data.total)} · ${calibrationSubtitle(data)}` : calibrationSubtitle(data);
  const titleBlock = heading === null ? null : wrappedTitle(heading, width / 2, 8, width - 16, FONT_SIZES.figureTitle, 'figure-title');
  const subtitleSize = fittedFontSize(subtitle, FONT_SIZES.subtitle, width - 16);
  const subtitleTop = titleBlock === null ? 8 : 8 + titleBlock.height - 2;
  const headerHeight = subtitleTop + subtitleSize + 6;
  const body = height - headerHeight;
  // Side by side, both plot areas share top and bottom: the panel with less above its plot (the histogram's legend
  // row vs the diagram's count strip) moves down by the difference.
  const shift = stacked ? 0 : countStripHeight(data, width / 2, options.showCounts !== false) - (4 + histogramLegendHeight(data));
  const histogramBox = stacked
    ? { x: 0, y: headerHeight, width, height: Math.round(body * 0.34) }
    : { x: 0, y: headerHeight + Math.max(0, shift), width: width / 2, height: body - Math.max(0, shift) };
  const diagramBox = stacked
    ? { x: 0, y: histogramBox.y + histogramBox.height, width, height: body - histogramBox.height }
    : { x: width / 2, y: headerHeight + Math.max(0, -shift), width: width / 2, height: body - Math.max(0, -shift) };
  return svgDocument(
    width,
    height,
    { title: heading === null ? subtitle : `${heading}. ${subtitle}`, fontFamily: FONT_FAMILY, background: COLORS.background },
    titleBlock?.element,
    el(
      'text',
      {
        class: 'figure-subtitle',
        x: width / 2,
        y: subtitleTop + subtitleSize,
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
