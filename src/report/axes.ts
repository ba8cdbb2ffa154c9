import { describe, invalidArgument } from '../util/errors.js';
import { el, type SvgElement } from './svg.js';
import { COLORS, FONT_SIZES } from './theme.js';

/** Pixel rectangle of a plot's data region (y grows downwards, as in SVG). */
export interface PlotArea {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Linear map from data values [d0, d1] to pixels [r0, r1]. */
export interface LinearScale {
  readonly d0: number;
  readonly d1: number;
  readonly r0: number;
  readonly r1: number;
  (value: number): number;
}

/** pixel = r0 + (value − d0) · (r1 − r0) / (d1 − d0). */
export function linearScale(d0: number, d1: number, r0: number, r1: number): LinearScale {
  if (!(d1 > d0)) invalidArgument('domain', 'd1 > d0', `[${describe(d0)}, ${describe(d1)}]`);
  const k = (r1 - r0) / (d1 - d0);
  const f = ((value: number) => r0 + (value - d0) * k) as LinearScale;
  return Object.assign(f, { d0, d1, r0, r1 });
}

/**
 * "Nice" upper limit and tick step for an axis starting at 0 that must show `max` (> 0): the step is
 * 1, 2, 2.5 or 5 × 10^k giving at most `maxTicks` intervals, and the limit is the first multiple of the step
 * ≥ max, capped at `cap` when given. Returns the tick values 0, step, …, limit.
 */
export function niceTicks(max: number, maxTicks = 5, cap?: number): number[] {
  if (!Number.isFinite(max) || max <= 0) invalidArgument('max', 'a positive finite number', describe(max));
  const raw = max / maxTicks;
  const power = 10 ** Math.floor(Math.log10(raw));
  let step = 10 * power;
  for (const m of [1, 2, 2.5, 5, 10]) {
    if (m * power >= raw * (1 - 1e-9)) {
      step = m * power;
      break;
    }
  }
  let limit = Math.ceil(max / step - 1e-9) * step;
  if (cap !== undefined && limit > cap) limit = cap;
  const ticks: number[] = [];
  const n = Math.round(limit / step);
  for (let i = 0; i <= n; i++) ticks.push(Number((i * step).toPrecision(12)));
  if (Math.abs(ticks[ticks.length - 1]! - limit) > 1e-12) ticks.push(limit);
  return ticks;
}

/** Evenly spaced ticks 0, 1/k, …, 1. */
export function unitTicks(k = 5): number[] {
  const out: number[] = [];
  for (let i = 0; i <= k; i++) out.push(i / k);
  return out;
}

export interface AxesOptions {
  readonly xTicks: readonly number[];
  readonly yTicks: readonly number[];
  readonly xFormat: (v: number) => string;
  readonly yFormat: (v: number) => string;
  readonly xLabel: string;
  readonly yLabel: string;
  /** Light grid lines at the ticks (drawn by `axesBackground`). */
  readonly grid?: boolean;
}

/** Grid lines behind the data (draw before the bars). */
export function axesBackground(area: PlotArea, x: LinearScale, y: LinearScale, options: AxesOptions): SvgElement {
  const lines: SvgElement[] = [];
  if (options.grid !== false) {
    for (const t of options.xTicks) {
      const px = x(t);
      lines.push(el('line', { x1: px, y1: area.y, x2: px, y2: area.y + area.height }));
    }
    for (const t of options.yTicks) {
      const py = y(t);
      lines.push(el('line', { x1: area.x, y1: py, x2: area.x + area.width, y2: py }));
    }
  }
  return el('g', { class: 'grid', stroke: COLORS.grid, 'stroke-width': 1 }, ...lines);
}

/** Frame, outward ticks, tick labels and axis labels (draw after the data, so the frame stays on top). */
export function axesForeground(area: PlotArea, x: LinearScale, y: LinearScale, options: AxesOptions): SvgElement {
  const tickLength = 4;
  const bottom = area.y + area.height;
  const ticks: SvgElement[] = [];
  const labels: SvgElement[] = [];
  for (const t of options.xTicks) {
    const px = x(t);
    ticks.push(el('line', { x1: px, y1: bottom, x2: px, y2: bottom + tickLength }));
    labels.push(el('text', { x: px, y: bottom + tickLength + FONT_SIZES.tick + 1, 'text-anchor': 'middle' }, options.xFormat(t)));
  }
  for (const t of options.yTicks) {
    const py = y(t);
    ticks.push(el('line', { x1: area.x - tickLength, y1: py, x2: area.x, y2: py }));
    labels.push(el('text', { x: area.x - tickLength - 3, y: py + FONT_SIZES.tick * 0.36, 'text-anchor': 'end' }, options.yFormat(t)));
  }
  const yLabelX = area.x - tickLength - 3 - 3.2 * FONT_SIZES.tick * 0.636 - 10;
  const yMid = area.y + area.height / 2;
  return el(
    'g',
    { class: 'axes' },
    el('rect', {
      class: 'frame',
      x: area.x,
      y: area.y,
      width: area.width,
      height: area.height,
      fill: 'none',
      stroke: COLORS.axis,
      'stroke-width': 1,
    }),
    el('g', { class: 'ticks', stroke: COLORS.axis, 'stroke-width': 1 }, ...ticks),
    el('g', { class: 'tick-labels', fill: COLORS.text, 'font-size': FONT_SIZES.tick }, ...labels),
    el(
      'text',
      {
        class: 'x-label',
        x: area.x + area.width / 2,
        y: bottom + tickLength + FONT_SIZES.tick + 6 + FONT_SIZES.axisLabel,
        'text-anchor': 'middle',
        'font-size': FONT_SIZES.axisLabel,
        fill: COLORS.text,
      },
      options.xLabel,
    ),
    el(
      'text',
      {
        class: 'y-label',
        x: yLabelX,
        y: yMid,
        'text-anchor': 'middle',
        'font-size': FONT_SIZES.axisLabel,
        fill: COLORS.text,
        transform: `rotate(-90 ${yLabelX.toFixed(3)} ${yMid.toFixed(3)})`,
      },
      options.yLabel,
    ),
  );
}

/** Space needed left of the plot area for y tick labels (up to ~4 digits) and the rotated y label. */
export const AXIS_LEFT_MARGIN = 4 + 3 + 3.2 * FONT_SIZES.tick * 0.636 + 10 + FONT_SIZES.axisLabel * 0.8 + 6;
/** Space needed below the plot area for x tick labels and the x label. */
export const AXIS_BOTTOM_MARGIN = 4 + FONT_SIZES.tick + 6 + FONT_SIZES.axisLabel + 6;
