import type { ReliabilityData } from '../metrics/binned/reliability-types.js';
import { describe, invalidArgument } from '../util/errors.js';
import { AXIS_BOTTOM_MARGIN, AXIS_LEFT_MARGIN, axesBackground, axesForeground, linearScale, unitTicks, type PlotArea } from './axes.js';
import { checkReliabilityData } from './check-reliability-data.js';
import { optionalText, requireIdPrefix, requireSize, wrappedTitle } from './panel-box.js';
import { reliabilityDiagramPanel, reliabilityTitle } from './reliability-diagram.js';
import { el, svgDocument, type SvgElement } from './svg.js';
import { COLORS, FONT_FAMILY, FONT_SIZES, SERIES_COLORS, percentLabel, textWidth } from './theme.js';

/**
 * Before and after recalibration in one figure, from two `ReliabilityData` of the same samples:
 *   'panels'  — two reliability diagrams side by side (same axes and bins), each titled with its label and ECE
 *               (default 840 × 470);
 *   'overlay' — one reliability plot: for each, the per-bin accuracy against the per-bin mean confidence as a line
 *               with markers whose area grows with the bin's count, over the diagonal (default 500 × 520); the
 *               legend gives each label with its ECE.
 */
export interface BeforeAfterOptions {
  readonly layout?: 'panels' | 'overlay';
  /** Labels of the two (default 'Before', 'After'). */
  readonly labels?: readonly [string, string];
  /** Figure title (default none). */
  readonly title?: string;
  readonly width?: number;
  readonly height?: number;
  readonly idPrefix?: string;
}

export function beforeAfterFigureSvg(before: ReliabilityData, after: ReliabilityData, options: BeforeAfterOptions = {}): string {
  checkReliabilityData(before);
  checkReliabilityData(after);
  if (before.total !== after.total) invalidArgument('after', `reliability data of the same ${before.total} samples`, describe(after.total));
  const layout = options.layout ?? 'panels';
  if (layout !== 'panels' && layout !== 'overlay') invalidArgument('layout', "'panels' or 'overlay'", describe(layout));
  const labels = options.labels ?? ['Before', 'After'];
  if (!Array.isArray(labels) || labels.length !== 2 || labels.some((l) => typeof l !== 'string')) invalidArgument('labels', 'two strings', describe(labels));
  const width = requireSize('width', options.width ?? (layout === 'panels' ? 840 : 500), 200);
  const height = requireSize('height', options.height ?? (layout === 'panels' ? 470 : 520), 200);
  const title = optionalText('title', options.title, '') ?? '';
  const idPrefix = requireIdPrefix(options.idPrefix);
  const heading = title === '' ? null : wrappedTitle(title, width / 2, 6, width - 16, FONT_SIZES.figureTitle, 'figure-title');
  const top = heading === null ? 0 : heading.height + 2;
  const children: SvgElement[] = [];
  if (heading) children.push(heading.element);
  if (layout === 'panels') {
    const w = width / 2;
    children.push(
      reliabilityDiagramPanel(before, { x: 0, y: top, width: w, height: height - top }, { title: labels[0], idPrefix: `${idPrefix}-before` }),
      reliabilityDiagramPanel(after, { x: w, y: top, width: w, height: height - top }, { title: labels[1], idPrefix: `${idPrefix}-after`, legend: false }),
    );
  } else {
    children.push(overlayPanel([before, after], labels, { x: 0, y: top, width, height: height - top }));
  }
  return svgDocument(width, height, { title: title || `${labels[0]} and ${labels[1]}: reliability`, fontFamily: FONT_FAMILY, background: COLORS.background }, ...children);
}

function overlayPanel(data: readonly ReliabilityData[], labels: readonly string[], box: PlotArea): SvgElement {
  const area: PlotArea = { x: box.x + AXIS_LEFT_MARGIN, y: box.y + 10, width: box.width - AXIS_LEFT_MARGIN - 16, height: box.height - AXIS_BOTTOM_MARGIN - 10 };
  requireSize('width (plot area)', area.width, 40);
  requireSize('height (plot area)', area.height, 40);
  const x = linearScale(0, 1, area.x, area.x + area.width);
  const y = linearScale(0, 1, area.y + area.height, area.y);
  const axes = { xTicks: unitTicks(5), yTicks: unitTicks(5), xFormat: (v: number) => v.toFixed(1), yFormat: (v: number) => v.toFixed(1), xLabel: 'Confidence (bin mean)', yLabel: 'Accuracy' };
  const children: SvgElement[] = [axesBackground(area, x, y, axes)];
  children.push(el('line', { class: 'diagonal', x1: x(0), y1: y(0), x2: x(1), y2: y(1), stroke: COLORS.diagonal, 'stroke-width': 1.5, 'stroke-dasharray': '6 4' }));
  const maxCount = Math.max(1, ...data.flatMap((d) => d.bins.map((b) => b.count)));
  data.forEach((d, i) => {
    const color = SERIES_COLORS[i === 0 ? 1 : 0]!;
    const bins = d.bins.filter((b) => b.count > 0);
    const g: SvgElement[] = [];
    if (bins.length > 1)
      g.push(el('polyline', { points: bins.map((b) => `${x(b.meanConfidence).toFixed(2)},${y(b.accuracy).toFixed(2)}`).join(' '), fill: 'none', stroke: color, 'stroke-width': 1.8 }));
    for (const b of bins) {
      const r = 2.5 + 5 * Math.sqrt(b.count / maxCount);
      g.push(
        el(
          'circle',
          { cx: x(b.meanConfidence), cy: y(b.accuracy), r, fill: color, 'fill-opacity': 0.55, stroke: color, 'stroke-width': 1 },
          el('title', {}, `${labels[i]}: n = ${b.count}, confidence ${percentLabel(b.meanConfidence, 1)}, accuracy ${percentLabel(b.accuracy, 1)}`),
        ),
      );
    }
    children.push(el('g', { class: i === 0 ? 'series-before' : 'series-after' }, ...g));
  });
  // Legend in the upper-left corner (above the diagonal, where an overconfident curve does not go).
  const fs = FONT_SIZES.legend;
  const rows = [
    ...data.map((d, i) => ({ text: reliabilityTitle(labels[i]!, d.ece, d.total), color: SERIES_COLORS[i === 0 ? 1 : 0]!, dash: undefined as string | undefined })),
    { text: 'Perfect calibration', color: COLORS.diagonal, dash: '6 4' },
  ];
  const w = 8 + 22 + 6 + Math.max(...rows.map((r) => textWidth(r.text, fs))) + 8;
  const lx = area.x + 8;
  const ly = area.y + 8;
  const items: SvgElement[] = [el('rect', { x: lx, y: ly, width: Math.min(w, area.width - 16), height: rows.length * (fs + 8) + 6, fill: '#ffffff', 'fill-opacity': 0.9, stroke: '#cccccc', rx: 3 })];
  rows.forEach((r, i) => {
    const cy = ly + 4 + i * (fs + 8) + (fs + 8) / 2;
    items.push(el('line', { x1: lx + 8, y1: cy, x2: lx + 30, y2: cy, stroke: r.color, 'stroke-width': 1.8, 'stroke-dasharray': r.dash }));
    if (!r.dash) items.push(el('circle', { cx: lx + 19, cy, r: 4, fill: r.color, 'fill-opacity': 0.55, stroke: r.color }));
    items.push(el('text', { x: lx + 36, y: cy + fs * 0.36 }, r.text));
  });
  children.push(el('g', { class: 'legend', 'font-size': fs, fill: COLORS.text }, ...items));
  children.push(axesForeground(area, x, y, axes));
  return el('g', { class: 'before-after-overlay' }, ...children);
}
