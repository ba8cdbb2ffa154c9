import type { ReliabilityData } from '../metrics/binned/reliability-types.js';
import { AXIS_BOTTOM_MARGIN, AXIS_LEFT_MARGIN, axesBackground, axesForeground, linearScale, unitTicks, type AxesOptions, type LinearScale, type PlotArea } from './axes.js';
import { binBar, confidenceAxis, PANEL_RIGHT_MARGIN, panelHeading, panelPlotArea, standalonePanelSvg } from './bin-panel.js';
import { checkReliabilityData } from './check-reliability-data.js';
import { LOGIT_CLIP_RULE, logitDomain, logitPoints, type LogitPoint } from './logit-axis.js';
import { binInterval, compactCount, optionalText, requireIdPrefix, type PanelBox } from './panel-box.js';
import { el, formatNumber, type SvgElement } from './svg.js';
import { COLORS, FONT_SIZES, percent, textWidth } from './theme.js';

/**
 * Reliability diagram (Guo et al. 2017, Fig. 1 bottom row; DeGroot & Fienberg 1983; METHODS.md "Metrics"):
 * for every non-empty confidence bin B_m, a bar of height acc(B_m) ("Outputs") spanning the bin, and a hatched
 * "Gap" bar between acc(B_m) and conf(B_m) — its height is the bin's calibration gap |acc − conf|, so the ECE is
 * the count-weighted mean of the gap heights. The dashed diagonal acc = conf is perfect calibration. Bin counts
 * |B_m| are printed in a strip above the plot (rotated when bins are narrow, shaded cells when even that does not
 * fit). The ECE (in %) is in the title. Everything drawn comes from `ReliabilityData`; nothing is recomputed.
 */
export interface ReliabilityDiagramOptions {
  /** Title; the ECE is appended ("<title> — ECE 4.21%"). Default 'Reliability diagram'; null or '': no title row. */
  readonly title?: string | null;
  /** Size of the standalone SVG in pixels (default 420 × 470). */
  readonly width?: number;
  readonly height?: number;
  /** Print per-bin sample counts above the plot (default true). */
  readonly showCounts?: boolean;
  /** Draw the legend (default true). */
  readonly legend?: boolean;
  /** Prefix of element ids (the hatch pattern), for several figures inlined in one HTML page (default 'calibkit'). */
  readonly idPrefix?: string;
  /** Axis labels (default Confidence / Accuracy; a binary forecast's are predicted probability / observed frequency). */
  readonly axisLabels?: { readonly x: string; readonly y: string };
  /**
   * 'linear' (default): bars on probability axes. 'logit': both axes in logit units (src/report/logit-axis.ts), one
   * point per non-empty bin at (logit mean predicted, logit observed) — hollow where clipped —, the identity line,
   * no count strip (bins are not intervals of equal width there; each point's tooltip has its n), and a caption
   * stating the clipping rule under the axes.
   */
  readonly scale?: 'linear' | 'logit';
}

/** Title text of a reliability diagram: "<title> — ECE 12.34%" (or just "ECE 12.34%" for an empty title). */
export function reliabilityTitle(title: string, ece: number, total: number): string {
  const e = total > 0 ? `ECE ${percent(ece)}%` : 'ECE n/a (no samples)';
  return title === '' ? e : `${title} — ${e}`;
}

type CountMode = 'horizontal' | 'rotated' | 'strip';

interface CountLayout {
  readonly mode: CountMode;
  readonly fontSize: number;
  readonly height: number;
}

/** Narrowest non-empty bin in pixels for a plot `plotWidth` pixels wide (Infinity when all bins are empty). */
function minBinWidth(data: ReliabilityData, plotWidth: number): number {
  let min = Infinity;
  for (const bin of data.bins) if (bin.count > 0) min = Math.min(min, (bin.upper - bin.lower) * plotWidth);
  return min;
}

/**
 * How bin counts fit above the bins: horizontal text at 9 px, else at 8 px, else rotated 9 px text, else (bins
 * narrower than a line of text) a strip of cells shaded by log count.
 */
function countLayout(data: ReliabilityData, plotWidth: number): CountLayout {
  const minWidth = minBinWidth(data, plotWidth);
  const widest = (fs: number): number => {
    let w = 0;
    for (const bin of data.bins) if (bin.count > 0) w = Math.max(w, textWidth(compactCount(bin.count), fs));
    return w;
  };
  const fs = FONT_SIZES.count;
  if (minWidth === Infinity || widest(fs) <= minWidth - 2) return { mode: 'horizontal', fontSize: fs, height: fs + 5 };
  if (widest(fs - 1) <= minWidth - 2) return { mode: 'horizontal', fontSize: fs - 1, height: fs + 4 };
  if (fs * 1.1 <= minWidth) return { mode: 'rotated', fontSize: fs, height: widest(fs) + 6 };
  return { mode: 'strip', fontSize: fs, height: 10 };
}

/**
 * Height of the count strip a reliability diagram draws above its plot when it fills a box `boxWidth` wide
 * (0 with `showCounts: false`); lets a figure align a neighbouring panel's plot area with the diagram's.
 */
export function countStripHeight(data: ReliabilityData, boxWidth: number, showCounts = true): number {
  return showCounts ? countLayout(data, boxWidth - AXIS_LEFT_MARGIN - PANEL_RIGHT_MARGIN).height + 3 : 4;
}

function countStrip(data: ReliabilityData, x: LinearScale, area: PlotArea, layout: CountLayout, top: number): SvgElement {
  const bottom = top + layout.height;
  const items: SvgElement[] = [];
  let maxCount = 0;
  for (const bin of data.bins) maxCount = Math.max(maxCount, bin.count);
  const logMax = Math.log1p(maxCount);
  data.bins.forEach((bin, b) => {
    if (bin.count === 0) return;
    const x0 = x(bin.lower);
    const x1 = x(bin.upper);
    const cx = (x0 + x1) / 2;
    const label = compactCount(bin.count);
    if (layout.mode === 'horizontal') {
      items.push(el('text', { class: 'count', 'data-bin': b, x: cx, y: bottom - 3, 'text-anchor': 'middle' }, label));
    } else if (layout.mode === 'rotated') {
      const tx = cx + layout.fontSize * 0.36;
      const ty = bottom - 3;
      items.push(el('text', { class: 'count', 'data-bin': b, x: tx, y: ty, transform: `rotate(-90 ${formatNumber(tx)} ${formatNumber(ty)})` }, label));
    } else {
      items.push(
        el(
          'rect',
          {
            class: 'count-cell',
            'data-bin': b,
            x: x0,
            y: top + 1,
            width: x1 - x0,
            height: layout.height - 2,
            fill: COLORS.countStrip,
            'fill-opacity': 0.1 + (0.9 * Math.log1p(bin.count)) / logMax,
          },
          el('title', {}, `${binInterval(data, b)}: n = ${bin.count}`),
        ),
      );
    }
  });
  return el('g', { class: 'counts', fill: COLORS.muted, 'font-size': layout.fontSize }, el('text', { class: 'counts-label', x: area.x - 7, y: bottom - 3, 'text-anchor': 'end' }, 'n'), ...items);
}

/** Gap fill: red hatching, or flat translucent red when bins are too narrow (< 6 px) for hatching to read. */
function gapPattern(id: string, hatched: boolean): SvgElement {
  if (!hatched) return el('pattern', { id, patternUnits: 'userSpaceOnUse', width: 4, height: 4 }, el('rect', { x: 0, y: 0, width: 4, height: 4, fill: COLORS.gap, 'fill-opacity': 0.4 }));
  return hatchPattern(id);
}

function hatchPattern(id: string): SvgElement {
  return el(
    'pattern',
    { id, patternUnits: 'userSpaceOnUse', width: 5, height: 5, patternTransform: 'rotate(45)' },
    el('rect', { x: 0, y: 0, width: 5, height: 5, fill: COLORS.gap, 'fill-opacity': 0.28 }),
    el('line', { x1: 0, y1: 0, x2: 0, y2: 5, stroke: COLORS.gapEdge, 'stroke-width': 1.4 }),
  );
}

/** Where a legend box `width` × `height` may sit, 8 px inside the plot: top-left, bottom-right, top-right, bottom-left. */
function legendCorners(area: PlotArea, width: number, height: number): { x: number; y: number }[] {
  const pad = 8;
  return [
    { x: area.x + pad, y: area.y + pad },
    { x: area.x + area.width - pad - width, y: area.y + area.height - pad - height },
    { x: area.x + area.width - pad - width, y: area.y + pad },
    { x: area.x + pad, y: area.y + area.height - pad - height },
  ];
}

/**
 * Legend corner: the first of top-left, bottom-right, top-right, bottom-left whose box covers the least bar
 * area (bars reach up to max(acc, conf) in their bin), so the legend hides as little data as possible.
 */
function legendCorner(data: ReliabilityData, area: PlotArea, width: number, height: number): { x: number; y: number } {
  const corners = legendCorners(area, width, height);
  let best = corners[0]!;
  let bestOverlap = Infinity;
  for (const c of corners) {
    let overlap = 0;
    for (const bin of data.bins) {
      if (bin.count === 0) continue;
      const x0 = area.x + bin.lower * area.width;
      const x1 = area.x + bin.upper * area.width;
      const top = area.y + (1 - Math.max(bin.accuracy, bin.meanConfidence)) * area.height;
      const w = Math.min(x1, c.x + width) - Math.max(x0, c.x);
      const h = Math.min(area.y + area.height, c.y + height) - Math.max(top, c.y);
      if (w > 0 && h > 0) overlap += w * h;
    }
    if (overlap < bestOverlap - 1e-6) {
      best = c;
      bestOverlap = overlap;
    }
  }
  return best;
}

function legend(data: ReliabilityData, area: PlotArea, hatchId: string): SvgElement {
  const fs = FONT_SIZES.legend;
  const rows = ['Outputs', 'Gap', 'Perfect calibration'];
  const rowHeight = fs + 6;
  const swatch = 16;
  const width = 8 + swatch + 6 + Math.max(...rows.map((r) => textWidth(r, fs))) + 8;
  const height = rows.length * rowHeight + 8;
  const { x, y } = legendCorner(data, area, width, height);
  const rowY = (i: number): number => y + 4 + i * rowHeight;
  const sx = x + 8;
  return el(
    'g',
    { class: 'legend', 'font-size': fs, fill: COLORS.text },
    el('rect', { x, y, width, height, fill: '#ffffff', 'fill-opacity': 0.9, stroke: '#cccccc', rx: 3 }),
    el('rect', {
      x: sx,
      y: rowY(0) + 3,
      width: swatch,
      height: rowHeight - 6,
      fill: COLORS.outputs,
      stroke: COLORS.outputsEdge,
    }),
    el('text', { x: sx + swatch + 6, y: rowY(0) + rowHeight / 2 + fs * 0.36 }, rows[0]!),
    el('rect', {
      x: sx,
      y: rowY(1) + 3,
      width: swatch,
      height: rowHeight - 6,
      fill: `url(#${hatchId})`,
      stroke: COLORS.gapEdge,
    }),
    el('text', { x: sx + swatch + 6, y: rowY(1) + rowHeight / 2 + fs * 0.36 }, rows[1]!),
    el('line', {
      x1: sx,
      y1: rowY(2) + rowHeight / 2,
      x2: sx + swatch,
      y2: rowY(2) + rowHeight / 2,
      stroke: COLORS.diagonal,
      'stroke-width': 1.5,
      'stroke-dasharray': '4 3',
    }),
    el('text', { x: sx + swatch + 6, y: rowY(2) + rowHeight / 2 + fs * 0.36 }, rows[2]!),
  );
}

/**
 * Draw a reliability diagram into `box` (for composing figures). `options.title` null draws no title row.
 * Bars carry `class="bar-accuracy"` / `class="bar-gap"` and `data-bin="<index>"`, with a `<title>` tooltip
 * giving the bin's interval, count, accuracy and confidence.
 */
export function reliabilityDiagramPanel(data: ReliabilityData, box: PanelBox, options: ReliabilityDiagramOptions = {}): SvgElement {
  checkReliabilityData(data);
  const title = optionalText('title', options.title, 'Reliability diagram');
  const idPrefix = requireIdPrefix(options.idPrefix);
  const hatchId = `${idPrefix}-gap-hatch`;
  const heading = panelHeading(title === null || title === '' ? null : reliabilityTitle(title, data.ece, data.total), box);
  const children: SvgElement[] = [...heading.elements];
  const logit = options.scale === 'logit';
  const showCounts = options.showCounts !== false && !logit;
  const counts = showCounts ? countLayout(data, box.width - AXIS_LEFT_MARGIN - PANEL_RIGHT_MARGIN) : null;
  const stripTop = heading.top;
  const area = panelPlotArea(box, stripTop + (counts !== null ? counts.height + 3 : 4), 40, logit ? CAPTION_HEIGHT : 0);
  if (logit) {
    children.push(...logitPanelContent(data, area, options));
    return el('g', { class: 'reliability-diagram logit-scale' }, ...children);
  }
  const x = linearScale(0, 1, area.x, area.x + area.width);
  const y = linearScale(0, 1, area.y + area.height, area.y);
  const axes: AxesOptions = { ...confidenceAxis(options.axisLabels?.x), yTicks: unitTicks(5), yFormat: (v) => v.toFixed(1), yLabel: options.axisLabels?.y ?? 'Accuracy' };
  children.push(el('defs', {}, gapPattern(hatchId, minBinWidth(data, area.width) >= 6)));
  children.push(axesBackground(area, x, y, axes));

  const bars: SvgElement[] = [];
  const gaps: SvgElement[] = [];
  data.bins.forEach((bin, b) => {
    if (bin.count === 0) return;
    const { x: x0, width, strokeWidth: edge } = binBar(bin, x);
    const tooltip = `${binInterval(data, b)}: n = ${bin.count}, accuracy ${percent(bin.accuracy, 1)}%, ` + `confidence ${percent(bin.meanConfidence, 1)}%`;
    const yAcc = y(bin.accuracy);
    bars.push(
      el(
        'rect',
        {
          class: 'bar-accuracy',
          'data-bin': b,
          x: x0,
          y: yAcc,
          width,
          height: y(0) - yAcc,
          'stroke-width': edge,
        },
        el('title', {}, tooltip),
      ),
    );
    if (bin.accuracy !== bin.meanConfidence) {
      const yTop = y(Math.max(bin.accuracy, bin.meanConfidence));
      const yBottom = y(Math.min(bin.accuracy, bin.meanConfidence));
      gaps.push(
        el(
          'rect',
          {
            class: 'bar-gap',
            'data-bin': b,
            x: x0,
            y: yTop,
            width,
            height: yBottom - yTop,
            'stroke-width': edge,
          },
          el('title', {}, `gap ${percent(bin.accuracy - bin.meanConfidence, 1)} points — ${tooltip}`),
        ),
      );
    }
  });
  children.push(el('g', { class: 'outputs', fill: COLORS.outputs, stroke: COLORS.outputsEdge }, ...bars));
  children.push(el('g', { class: 'gaps', fill: `url(#${hatchId})`, stroke: COLORS.gapEdge }, ...gaps));
  children.push(
    el('line', {
      class: 'diagonal',
      x1: x(0),
      y1: y(0),
      x2: x(1),
      y2: y(1),
      stroke: COLORS.diagonal,
      'stroke-width': 1.5,
      'stroke-dasharray': '6 4',
    }),
  );
  if (data.total === 0) {
    children.push(
      el(
        'text',
        {
          class: 'empty-note',
          x: area.x + area.width / 2,
          y: area.y + area.height / 2,
          'text-anchor': 'middle',
          'font-size': FONT_SIZES.annotation,
          fill: COLORS.muted,
          stroke: '#ffffff',
          'stroke-width': 4,
          'stroke-linejoin': 'round',
          'paint-order': 'stroke',
        },
        'no samples',
      ),
    );
  }
  if (counts !== null) children.push(countStrip(data, x, area, counts, stripTop));
  if (options.legend !== false) children.push(legend(data, area, hatchId));
  children.push(axesForeground(area, x, y, axes));
  return el('g', { class: 'reliability-diagram' }, ...children);
}

/** Height reserved under the x label for the caption of a logit-scale panel. */
const CAPTION_HEIGHT = FONT_SIZES.legend + 6;

/** The caption under a logit-scale diagram: how 0/1 frequencies were clipped, and how many bins were. */
export function logitCaption(points: readonly LogitPoint[]): string {
  const clipped = points.filter((p) => p.clipped).length;
  return `0 and 1 clipped to [0.5/n, 1 − 0.5/n], n = bin size: ${clipped} of ${points.length} bins (hollow)`;
}

/** Points, identity line, legend, axes and caption of a logit-scale diagram in `area` (see `options.scale`). */
function logitPanelContent(data: ReliabilityData, area: PlotArea, options: ReliabilityDiagramOptions): SvgElement[] {
  const points = logitPoints(data);
  const { limit, ticks } = logitDomain(points);
  const x = linearScale(-limit, limit, area.x, area.x + area.width);
  const y = linearScale(-limit, limit, area.y + area.height, area.y);
  const format = (v: number): string => String(Number(v.toPrecision(4)));
  const axes: AxesOptions = {
    xTicks: ticks,
    yTicks: ticks,
    xFormat: format,
    yFormat: format,
    xLabel: `logit(${options.axisLabels?.x ?? 'Confidence'})`,
    yLabel: `logit(${options.axisLabels?.y ?? 'Accuracy'})`,
  };
  const marks = points.map((p) => {
    const bin = data.bins[p.bin]!;
    const tooltip =
      `${binInterval(data, p.bin)}: n = ${bin.count}, observed ${percent(bin.accuracy, 1)}%, predicted ${percent(bin.meanConfidence, 1)}%` +
      `${p.clipped ? ' (clipped to [0.5/n, 1 − 0.5/n])' : ''}; logit (${formatNumber(p.x)}, ${formatNumber(p.y)})`;
    return el(
      'circle',
      { class: p.clipped ? 'bin-point clipped' : 'bin-point', 'data-bin': p.bin, cx: x(p.x), cy: y(p.y), r: 4, fill: p.clipped ? '#ffffff' : COLORS.outputsEdge },
      el('title', {}, tooltip),
    );
  });
  const fs = FONT_SIZES.legend;
  const bottom = area.y + area.height;
  return [
    axesBackground(area, x, y, axes),
    el('line', { class: 'diagonal', x1: x(-limit), y1: y(-limit), x2: x(limit), y2: y(limit), stroke: COLORS.diagonal, 'stroke-width': 1.5, 'stroke-dasharray': '6 4' }),
    el('g', { class: 'points', stroke: COLORS.outputsEdge, 'stroke-width': 1.5 }, ...marks),
    ...(data.total === 0
      ? [el('text', { class: 'empty-note', x: area.x + area.width / 2, y: area.y + area.height / 2, 'text-anchor': 'middle', 'font-size': FONT_SIZES.annotation, fill: COLORS.muted }, 'no samples')]
      : []),
    ...(options.legend !== false ? [logitLegend(points, area, x, y)] : []),
    axesForeground(area, x, y, axes),
    el('text', { class: 'caption', x: area.x + area.width / 2, y: bottom + AXIS_BOTTOM_MARGIN + fs, 'text-anchor': 'middle', 'font-size': fs - 1, fill: COLORS.muted }, logitCaption(points)),
  ];
}

/** Legend of a logit-scale diagram, in the corner of the plot holding the fewest points. */
function logitLegend(points: readonly LogitPoint[], area: PlotArea, x: LinearScale, y: LinearScale): SvgElement {
  const fs = FONT_SIZES.legend;
  const rows = ['Bin (mean predicted, observed)', 'Clipped bin', 'Perfect calibration'];
  const rowHeight = fs + 6;
  const width = 8 + 16 + 6 + Math.max(...rows.map((r) => textWidth(r, fs))) + 8;
  const height = rows.length * rowHeight + 8;
  const corners = legendCorners(area, width, height);
  const inside = (c: { x: number; y: number }): number => points.filter((p) => x(p.x) >= c.x - 4 && x(p.x) <= c.x + width + 4 && y(p.y) >= c.y - 4 && y(p.y) <= c.y + height + 4).length;
  let best = corners[0]!;
  for (const c of corners) if (inside(c) < inside(best)) best = c;
  const rowY = (i: number): number => best.y + 4 + i * rowHeight + rowHeight / 2;
  const sx = best.x + 8;
  return el(
    'g',
    { class: 'legend', 'font-size': fs, fill: COLORS.text },
    el('rect', { x: best.x, y: best.y, width, height, fill: '#ffffff', 'fill-opacity': 0.9, stroke: '#cccccc', rx: 3 }),
    el('circle', { cx: sx + 8, cy: rowY(0), r: 4, fill: COLORS.outputsEdge, stroke: COLORS.outputsEdge }),
    el('circle', { cx: sx + 8, cy: rowY(1), r: 4, fill: '#ffffff', stroke: COLORS.outputsEdge, 'stroke-width': 1.5 }),
    el('line', { x1: sx, y1: rowY(2), x2: sx + 16, y2: rowY(2), stroke: COLORS.diagonal, 'stroke-width': 1.5, 'stroke-dasharray': '4 3' }),
    ...rows.map((r, i) => el('text', { x: sx + 22, y: rowY(i) + fs * 0.36 }, r)),
  );
}

/** Standalone reliability diagram as an SVG document (default 420 × 470 px). See `reliabilityDiagramPanel`. */
export function reliabilityDiagramSvg(data: ReliabilityData, options: ReliabilityDiagramOptions = {}): string {
  return standalonePanelSvg(data, options, {
    height: 470,
    minHeight: 160,
    defaultTitle: 'Reliability diagram',
    documentTitle: (title) => reliabilityTitle(title ?? '', data.ece, data.total),
    descriptionSuffix: () => (options.scale === 'logit' ? `; logit axes, ${LOGIT_CLIP_RULE}; ${logitCaption(logitPoints(data))}` : ''),
    panel: (box) => reliabilityDiagramPanel(data, box, options),
  });
}
