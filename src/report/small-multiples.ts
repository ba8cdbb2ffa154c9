/**
 * Reliability diagrams as small multiples: one panel per method (suite reports) or per label (`calib plot
 * --multilabel`) under a figure title and one shared legend row, in rows of at most six.
 */
import type { ReliabilityData } from '../metrics/binned/reliability-types.js';
import { reliabilityDiagramPanel, type ReliabilityDiagramOptions } from './reliability-diagram.js';
import { el, svgDocument, type SvgElement } from './svg.js';
import { COLORS, FONT_FAMILY, FONT_SIZES, fittedFontSize, textWidth } from './theme.js';

/**
 * Most reliability panels side by side: a wider figure is scaled down to the page, and at 18 panels in one row
 * (Karandikar et al.'s suite) each was ≈ 69 px wide and unreadable; 6 panels of 250 px fill a 1,500 px row.
 */
export const MAX_PANELS_PER_ROW = 6;

export interface SmallMultiplesOptions {
  /** Axis labels of every panel (default Confidence / Accuracy). */
  readonly axisLabels?: ReliabilityDiagramOptions['axisLabels'];
  /** Legend text of the bars and of the gap (default 'Outputs (accuracy per bin)' / 'Gap to mean confidence'). */
  readonly legendLabels?: { readonly outputs: string; readonly gap: string };
}

/**
 * Reliability diagrams (one panel per method or label) under a row title and one shared legend row, so no legend
 * covers a panel's bars; the panels wrap into rows of at most MAX_PANELS_PER_ROW, balanced (18 → 3 × 6, 7 → 4 + 3).
 */
export function smallMultiplesSvg(panels: readonly { readonly title: string; readonly data: ReliabilityData }[], rowTitle: string, idPrefix: string, options: SmallMultiplesOptions = {}): string {
  const panelW = 250;
  const panelH = 290;
  const rows = Math.max(1, Math.ceil(panels.length / MAX_PANELS_PER_ROW));
  const columns = Math.max(1, Math.ceil(panels.length / rows));
  const width = panelW * columns;
  const titleSize = fittedFontSize(rowTitle, FONT_SIZES.figureTitle, width - 16, true);
  const legendY = titleSize + 14;
  const top = legendY + FONT_SIZES.legend + 10;
  const fs = FONT_SIZES.legend;
  const hatch = `url(#${idPrefix}-0-gap-hatch)`;
  const items = [
    {
      label: options.legendLabels?.outputs ?? 'Outputs (accuracy per bin)',
      swatch: (x: number) => el('rect', { x, y: legendY, width: 16, height: fs, fill: COLORS.outputs, stroke: COLORS.outputsEdge }),
    },
    { label: options.legendLabels?.gap ?? 'Gap to mean confidence', swatch: (x: number) => el('rect', { x, y: legendY, width: 16, height: fs, fill: hatch, stroke: COLORS.gapEdge }) },
    {
      label: 'Perfect calibration',
      swatch: (x: number) => el('line', { x1: x, y1: legendY + fs / 2, x2: x + 16, y2: legendY + fs / 2, stroke: COLORS.diagonal, 'stroke-width': 1.5, 'stroke-dasharray': '4 3' }),
    },
  ];
  const total = items.reduce((w, it) => w + 16 + 6 + textWidth(it.label, fs) + 18, -18);
  let x = Math.max(8, (width - total) / 2);
  const legend: SvgElement[] = [];
  for (const it of items) {
    legend.push(it.swatch(x), el('text', { x: x + 22, y: legendY + fs * 0.85 }, it.label));
    x += 16 + 6 + textWidth(it.label, fs) + 18;
  }
  return svgDocument(
    width,
    top + rows * panelH,
    { title: rowTitle, fontFamily: FONT_FAMILY, background: COLORS.background },
    el('text', { class: 'figure-title', x: width / 2, y: titleSize + 6, 'text-anchor': 'middle', 'font-size': titleSize, 'font-weight': 'bold', fill: COLORS.text }, rowTitle),
    ...panels.map((p, i) => {
      const box = { x: (i % columns) * panelW, y: top + Math.floor(i / columns) * panelH, width: panelW, height: panelH };
      return reliabilityDiagramPanel(p.data, box, { title: p.title, idPrefix: `${idPrefix}-${i}`, legend: false, ...(options.axisLabels ? { axisLabels: options.axisLabels } : {}) });
    }),
    el('g', { class: 'legend', 'font-size': fs, fill: COLORS.text }, ...legend),
  );
}
