import type { ReliabilityData } from '../metrics/binned/reliability-types.js';
import { axesBackground, axesForeground, linearScale, niceTicks, type AxesOptions, type PlotArea } from './axes.js';
import { binBar, confidenceAxis, panelHeading, panelPlotArea, standalonePanelSvg } from './bin-panel.js';
import { checkReliabilityData } from './check-reliability-data.js';
import { binInterval, optionalText, type PanelBox } from './panel-box.js';
import { el, formatNumber, type SvgElement } from './svg.js';
import { COLORS, FONT_SIZES, percent, percentLabel, textWidth } from './theme.js';

/**
 * Confidence histogram (Guo et al. 2017, Fig. 1 top row): for each bin B_m the fraction of samples |B_m| / N
 * whose confidence falls in it, with vertical dashed lines at the overall accuracy and the average confidence
 * (their distance is the overall over/under-confidence), named in a legend row above the plot. Drawn from the same `ReliabilityData` as the diagram.
 */
export interface ConfidenceHistogramOptions {
  /** Title (default 'Confidence histogram'; null: no title row). */
  readonly title?: string | null;
  /** Size of the standalone SVG (default 420 × 260). */
  readonly width?: number;
  readonly height?: number;
}

interface LineLabel {
  readonly value: number;
  readonly text: string;
  readonly color: string;
  readonly dash: string;
  readonly cls: string;
}

/** Draw a confidence histogram into `box`. Bars carry `class="bar-fraction"` and `data-bin`. */
export function confidenceHistogramPanel(data: ReliabilityData, box: PanelBox, options: ConfidenceHistogramOptions = {}): SvgElement {
  checkReliabilityData(data);
  const heading = panelHeading(optionalText('title', options.title, 'Confidence histogram'), box);
  const children: SvgElement[] = [...heading.elements];
  // The accuracy and average-confidence lines are named in a legend row above the plot (never over the bars).
  const legendTop = heading.top;
  const area = panelPlotArea(box, legendTop + 4 + histogramLegendHeight(data), 30);

  let maxFraction = 0;
  if (data.total > 0) for (const bin of data.bins) maxFraction = Math.max(maxFraction, bin.count / data.total);
  const yTicks = niceTicks(maxFraction > 0 ? maxFraction : 1, area.height < 140 ? 4 : 5, 1);
  const yMax = yTicks[yTicks.length - 1]!;
  const x = linearScale(0, 1, area.x, area.x + area.width);
  const y = linearScale(0, yMax, area.y + area.height, area.y);
  const step = yTicks.length > 1 ? yTicks[1]! - yTicks[0]! : yMax;
  let decimals = 0;
  while (decimals < 4 && Math.abs(Math.round(step * 100 * 10 ** decimals) - step * 100 * 10 ** decimals) > 1e-6) decimals++;
  const axes: AxesOptions = { ...confidenceAxis(), yTicks, yFormat: (v) => formatNumber(v * 100, decimals), yLabel: '% of samples' };
  children.push(axesBackground(area, x, y, axes));

  const bars: SvgElement[] = [];
  data.bins.forEach((bin, b) => {
    if (bin.count === 0 || data.total === 0) return;
    const fraction = bin.count / data.total;
    const bar = binBar(bin, x);
    const yTop = y(fraction);
    bars.push(
      el(
        'rect',
        { class: 'bar-fraction', 'data-bin': b, x: bar.x, y: yTop, width: bar.width, height: y(0) - yTop, 'stroke-width': bar.strokeWidth },
        el('title', {}, `${binInterval(data, b)}: n = ${bin.count} (${percent(fraction, 1)}%)`),
      ),
    );
  });
  children.push(el('g', { class: 'fractions', fill: COLORS.histogram, stroke: COLORS.histogramEdge }, ...bars));

  if (data.total > 0) {
    const lines: LineLabel[] = [
      {
        value: data.accuracy,
        text: `Accuracy ${percentLabel(data.accuracy, 1)}`,
        color: COLORS.accuracyLine,
        dash: '6 4',
        cls: 'line-accuracy',
      },
      {
        value: data.meanConfidence,
        text: `Avg. confidence ${percentLabel(data.meanConfidence, 1)}`,
        color: COLORS.confidenceLine,
        dash: '3 3',
        cls: 'line-confidence',
      },
    ];
    children.push(...referenceLines(lines, area, (v) => x(v)), referenceLegend(lines, area, legendTop));
  }
  children.push(axesForeground(area, x, y, axes));
  return el('g', { class: 'confidence-histogram' }, ...children);
}

/** Height of the legend row a histogram draws above its plot (0 without samples). */
export function histogramLegendHeight(data: ReliabilityData): number {
  return data.total > 0 ? FONT_SIZES.annotation + 8 : 0;
}

/** Vertical dashed lines at the reference values (accuracy, average confidence), across the plot. */
function referenceLines(lines: readonly LineLabel[], area: PlotArea, x: (v: number) => number): SvgElement[] {
  return lines.map((line) =>
    el('line', { class: line.cls, x1: x(line.value), y1: area.y, x2: x(line.value), y2: area.y + area.height, stroke: line.color, 'stroke-width': 1.6, 'stroke-dasharray': line.dash }),
  );
}

/**
 * The lines' legend: one row above the plot, each entry a short dashed swatch and its label ("Accuracy 93.1%"),
 * centred over the plot area; the font shrinks (to no less than 9 px) if the row would be wider than the plot.
 */
function referenceLegend(lines: readonly LineLabel[], area: PlotArea, top: number): SvgElement {
  const swatch = 22;
  const gap = 16;
  let fs: number = FONT_SIZES.annotation;
  const widthAt = (size: number): number => lines.reduce((w, l) => w + swatch + 5 + textWidth(l.text, size), 0) + gap * (lines.length - 1);
  if (widthAt(fs) > area.width) fs = Math.max(9, (fs * area.width) / widthAt(fs));
  let cx = area.x + Math.max(0, (area.width - widthAt(fs)) / 2);
  const cy = top + 4 + fs * 0.5;
  const items: SvgElement[] = [];
  for (const line of lines) {
    items.push(
      el('line', { x1: cx, y1: cy, x2: cx + swatch, y2: cy, stroke: line.color, 'stroke-width': 1.8, 'stroke-dasharray': line.dash }),
      el('text', { class: `${line.cls}-label`, x: cx + swatch + 5, y: cy + fs * 0.36, 'font-size': formatNumber(fs, 1), fill: line.color }, line.text),
    );
    cx += swatch + 5 + textWidth(line.text, fs) + gap;
  }
  return el('g', { class: 'reference-legend' }, ...items);
}

/** Standalone confidence histogram as an SVG document (default 420 × 260 px). */
export function confidenceHistogramSvg(data: ReliabilityData, options: ConfidenceHistogramOptions = {}): string {
  return standalonePanelSvg(data, options, {
    height: 260,
    minHeight: 120,
    defaultTitle: 'Confidence histogram',
    documentTitle: (title) => title ?? 'Confidence histogram',
    panel: (box) => confidenceHistogramPanel(data, box, options),
  });
}
