import { describe, invalidArgument } from '../util/errors.js';
import { AXIS_BOTTOM_MARGIN, AXIS_LEFT_MARGIN, axesBackground, axesForeground, linearScale, type PlotArea } from './axes.js';
import { el, svgDocument, type SvgElement } from './svg.js';
import { COLORS, FONT_FAMILY, FONT_SIZES, SERIES_COLORS, fittedFontSize, textWidth } from './theme.js';

/**
 * Line chart of one or more series with optional error bars (± err, e.g. the standard deviation over seeds): a
 * metric against a swept hyper-parameter, or a validation metric against the epoch. Each series has its own
 * colour and marker; the legend sits in a column right of the plot (never over the data). The y range covers
 * every point ± its error bar (padded by 5 %); `yFormat` formats ticks (e.g. percentages).
 */
export interface LineSeries {
  readonly name: string;
  readonly points: readonly { readonly x: number; readonly y: number; readonly err?: number }[];
}

export interface LineChartOptions {
  /** Title above the plot; '' or absent: none. */
  readonly title?: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly width?: number;
  readonly height?: number;
  readonly yFormat?: (v: number) => string;
  readonly xFormat?: (v: number) => string;
  /** Ticks on the x axis (default: the distinct x values when ≤ 12, else 6 even ticks). */
  readonly xTicks?: readonly number[];
}

const MARKERS = ['circle', 'square', 'triangle', 'diamond', 'circle-open', 'square-open'] as const;

function marker(kind: (typeof MARKERS)[number], x: number, y: number, color: string): SvgElement {
  const r = 3.6;
  const open = kind.endsWith('-open');
  const paint = { fill: open ? '#ffffff' : color, stroke: color, 'stroke-width': 1.4 };
  if (kind.startsWith('circle')) return el('circle', { cx: x, cy: y, r, ...paint });
  if (kind.startsWith('square')) return el('rect', { x: x - r, y: y - r, width: 2 * r, height: 2 * r, ...paint });
  if (kind === 'triangle') return el('path', { d: `M${x} ${y - r * 1.2}L${x + r * 1.1} ${y + r * 0.8}L${x - r * 1.1} ${y + r * 0.8}Z`, ...paint });
  return el('path', { d: `M${x} ${y - r * 1.3}L${x + r * 1.1} ${y}L${x} ${y + r * 1.3}L${x - r * 1.1} ${y}Z`, ...paint });
}

/** Even "nice" ticks covering [lo, hi]. */
export function rangeTicks(lo: number, hi: number, maxTicks = 5): number[] {
  if (!(hi > lo)) {
    const pad = Math.abs(lo) * 0.05 || 0.5;
    return rangeTicks(lo - pad, hi + pad, maxTicks);
  }
  const raw = (hi - lo) / maxTicks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw * (1 - 1e-9)) ?? 10 * power;
  const start = Math.floor(lo / step + 1e-9) * step;
  const ticks: number[] = [];
  for (let t = start; t <= hi + step * 0.999; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

/** Draw a line chart into `box` (for composing figures). */
export function lineChartPanel(series: readonly LineSeries[], box: PlotArea, options: LineChartOptions): SvgElement {
  if (!Array.isArray(series) || series.length === 0) invalidArgument('series', 'at least one series', describe(series));
  const points = series.flatMap((s) => s.points);
  if (points.length === 0) invalidArgument('series', 'at least one point', 'none');
  for (const p of points) if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) invalidArgument('series points', 'finite x and y', `(${p.x}, ${p.y})`);
  const yFormat = options.yFormat ?? ((v: number) => String(Number(v.toPrecision(3))));
  const xFormat = options.xFormat ?? ((v: number) => String(Number(v.toPrecision(4))));
  const children: SvgElement[] = [];
  let top = box.y + 6;
  if (options.title) {
    const fs = fittedFontSize(options.title, FONT_SIZES.title, box.width - 12, true);
    children.push(el('text', { class: 'chart-title', x: box.x + box.width / 2, y: top + fs, 'text-anchor': 'middle', 'font-size': fs, 'font-weight': 'bold', fill: COLORS.text }, options.title));
    top += fs + 8;
  }
  const legendWidth = Math.min(box.width * 0.38, 14 + 22 + Math.max(...series.map((s) => textWidth(s.name, FONT_SIZES.legend))) + 8);
  const area: PlotArea = { x: box.x + AXIS_LEFT_MARGIN, y: top + 4, width: box.width - AXIS_LEFT_MARGIN - legendWidth - 10, height: box.y + box.height - AXIS_BOTTOM_MARGIN - top - 4 };
  if (area.width < 40 || area.height < 40) invalidArgument('width/height', 'room for a plot area of at least 40 × 40 px', `${area.width.toFixed(0)} × ${area.height.toFixed(0)}`);
  const xs = [...new Set(points.map((p) => p.x))].sort((a, b) => a - b);
  const xTicks = options.xTicks ?? (xs.length <= 12 ? xs : rangeTicks(xs[0]!, xs[xs.length - 1]!, 6));
  const xLo = Math.min(xs[0]!, xTicks[0]!);
  const xHi = Math.max(xs[xs.length - 1]!, xTicks[xTicks.length - 1]!);
  const xPad = xHi > xLo ? (xHi - xLo) * 0.04 : 0.5;
  const x = linearScale(xLo - xPad, xHi + xPad, area.x, area.x + area.width);
  let yLo = Infinity;
  let yHi = -Infinity;
  for (const p of points) {
    yLo = Math.min(yLo, p.y - (p.err ?? 0));
    yHi = Math.max(yHi, p.y + (p.err ?? 0));
  }
  const yTicks = rangeTicks(yLo, yHi, 5);
  const y = linearScale(yTicks[0]!, yTicks[yTicks.length - 1]!, area.y + area.height, area.y);
  const axes = { xTicks, yTicks, xFormat, yFormat, xLabel: options.xLabel, yLabel: options.yLabel };
  children.push(axesBackground(area, x, y, axes));
  const legendItems: SvgElement[] = [];
  series.forEach((s, i) => {
    const color = SERIES_COLORS[i % SERIES_COLORS.length]!;
    const kind = MARKERS[i % MARKERS.length]!;
    const pts = [...s.points].sort((a, b) => a.x - b.x);
    const g: SvgElement[] = [];
    if (pts.length > 1) g.push(el('polyline', { points: pts.map((p) => `${x(p.x).toFixed(2)},${y(p.y).toFixed(2)}`).join(' '), fill: 'none', stroke: color, 'stroke-width': 1.8 }));
    for (const p of pts) {
      if (p.err !== undefined && p.err > 0) {
        const x0 = x(p.x);
        g.push(
          el('path', {
            class: 'error-bar',
            d: `M${x0 - 3} ${y(p.y - p.err)}H${x0 + 3}M${x0} ${y(p.y - p.err)}V${y(p.y + p.err)}M${x0 - 3} ${y(p.y + p.err)}H${x0 + 3}`,
            stroke: color,
            'stroke-width': 1.2,
            fill: 'none',
          }),
        );
      }
      // Long series (per-epoch curves) are read as lines: their points get a tooltip but no marker.
      const mark = pts.length <= 20 ? marker(kind, x(p.x), y(p.y), color) : el('circle', { cx: x(p.x), cy: y(p.y), r: 2.5, fill: color, 'fill-opacity': 0 });
      g.push(el('g', {}, mark, el('title', {}, `${s.name}: ${xFormat(p.x)} → ${yFormat(p.y)}${p.err ? ` ± ${yFormat(p.err)}` : ''}`)));
    }
    children.push(el('g', { class: 'series', 'data-series': s.name }, ...g));
    const ly = area.y + 8 + i * (FONT_SIZES.legend + 8);
    const lx = area.x + area.width + 12;
    legendItems.push(
      el('line', { x1: lx, y1: ly, x2: lx + 20, y2: ly, stroke: color, 'stroke-width': 1.8 }),
      marker(kind, lx + 10, ly, color),
      el('text', { x: lx + 26, y: ly + FONT_SIZES.legend * 0.36 }, s.name),
    );
  });
  children.push(el('g', { class: 'legend', 'font-size': FONT_SIZES.legend, fill: COLORS.text }, ...legendItems));
  children.push(axesForeground(area, x, y, axes));
  return el('g', { class: 'line-chart' }, ...children);
}

/** A standalone line chart (default 520 × 320 px). */
export function lineChartSvg(series: readonly LineSeries[], options: LineChartOptions): string {
  const width = options.width ?? 520;
  const height = options.height ?? 320;
  return svgDocument(
    width,
    height,
    { title: options.title || `${options.yLabel} vs ${options.xLabel}`, fontFamily: FONT_FAMILY, background: COLORS.background },
    lineChartPanel(series, { x: 0, y: 0, width, height }, options),
  );
}

/** A horizontal bar chart of labelled values in [0, max] (e.g. OOD AUROC per method), default 520 px wide. */
export function barChartSvg(
  bars: readonly { readonly label: string; readonly value: number; readonly group?: string }[],
  options: { readonly title?: string; readonly xLabel: string; readonly max?: number; readonly width?: number; readonly format?: (v: number) => string },
): string {
  if (bars.length === 0) invalidArgument('bars', 'at least one bar', 'none');
  const width = options.width ?? 520;
  const fs = FONT_SIZES.tick;
  const labelWidth = Math.min(width * 0.45, Math.max(...bars.map((b) => textWidth(b.label, fs))) + 12);
  const rowH = 20;
  const titleH = options.title ? FONT_SIZES.title + 14 : 6;
  const height = titleH + bars.length * rowH + AXIS_BOTTOM_MARGIN + 6;
  const max = options.max ?? Math.max(...bars.map((b) => b.value));
  const area: PlotArea = { x: labelWidth, y: titleH, width: width - labelWidth - 60, height: bars.length * rowH };
  const x = linearScale(0, max > 0 ? max : 1, area.x, area.x + area.width);
  const format = options.format ?? ((v: number) => v.toFixed(3));
  const ticks = rangeTicks(0, max > 0 ? max : 1, 5).filter((t) => t <= (max > 0 ? max : 1) + 1e-12);
  const groups = [...new Set(bars.map((b) => b.group ?? ''))];
  const children: SvgElement[] = [];
  if (options.title)
    children.push(
      el('text', { class: 'chart-title', x: width / 2, y: FONT_SIZES.title + 4, 'text-anchor': 'middle', 'font-size': FONT_SIZES.title, 'font-weight': 'bold', fill: COLORS.text }, options.title),
    );
  for (const t of ticks)
    children.push(
      el('line', { x1: x(t), y1: area.y, x2: x(t), y2: area.y + area.height, stroke: COLORS.grid }),
      el('text', { x: x(t), y: area.y + area.height + fs + 4, 'text-anchor': 'middle', 'font-size': fs, fill: COLORS.text }, format(t)),
    );
  bars.forEach((b, i) => {
    const y0 = area.y + i * rowH + 3;
    const color = SERIES_COLORS[groups.indexOf(b.group ?? '') % SERIES_COLORS.length]!;
    children.push(el('text', { x: labelWidth - 6, y: y0 + rowH / 2 + fs * 0.2, 'text-anchor': 'end', 'font-size': fs, fill: COLORS.text }, b.label));
    children.push(el('rect', { class: 'bar', x: area.x, y: y0, width: Math.max(0, x(b.value) - area.x), height: rowH - 6, fill: color }, el('title', {}, `${b.label}: ${format(b.value)}`)));
    children.push(el('text', { x: x(b.value) + 4, y: y0 + rowH / 2 + fs * 0.2, 'font-size': fs, fill: COLORS.text }, format(b.value)));
  });
  children.push(el('line', { x1: area.x, y1: area.y, x2: area.x, y2: area.y + area.height, stroke: COLORS.axis }));
  children.push(
    el(
      'text',
      { x: area.x + area.width / 2, y: area.y + area.height + fs + 6 + FONT_SIZES.axisLabel + 4, 'text-anchor': 'middle', 'font-size': FONT_SIZES.axisLabel, fill: COLORS.text },
      options.xLabel,
    ),
  );
  return svgDocument(width, height, { title: options.title || options.xLabel, fontFamily: FONT_FAMILY, background: COLORS.background }, el('g', { class: 'bar-chart' }, ...children));
}
