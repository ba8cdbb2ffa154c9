import { AXIS_BOTTOM_MARGIN, AXIS_LEFT_MARGIN, axesBackground, axesForeground, linearScale, niceTicks, unitTicks } from './axes.js';
import { el, formatNumber, svgDocument, type SvgElement } from './svg.js';
import { COLORS, FONT_FAMILY, FONT_SIZES, percentLabel } from './theme.js';
import type { RiskCoverageCurve, SmoothedReliability } from '../metrics/index.js';
import { invalidArgument } from '../util/errors.js';

/**
 * Line plots on x ∈ [0, 1]: the risk–coverage curve of selective prediction (Geifman & El-Yaniv 2017: selective
 * risk against coverage, the AURC is the area under it) and the smoothed reliability diagram of Błasiok &
 * Nakkiran 2023 (relplot's figure: the kernel regression μ(t) with its bootstrap band, the diagonal, and the
 * density of the forecasts as a shaded profile along the bottom). Everything drawn comes from the metrics
 * layer's data; nothing is recomputed.
 */
export interface CurvePlotOptions {
  readonly title?: string;
  readonly width?: number;
  readonly height?: number;
}

interface Series {
  readonly x: ArrayLike<number>;
  readonly y: ArrayLike<number>;
}

function path(points: Series, sx: (v: number) => number, sy: (v: number) => number): string {
  let d = '';
  for (let i = 0; i < points.x.length; i++) {
    const y = points.y[i]!;
    if (!Number.isFinite(y)) continue;
    d += `${d === '' ? 'M' : 'L'}${formatNumber(sx(points.x[i]!))} ${formatNumber(sy(y))}`;
  }
  return d;
}

/** At most `limit` points of a long curve (every k-th, keeping the last). */
function thin(series: Series, limit = 1000): Series {
  const n = series.x.length;
  if (n <= limit) return series;
  const step = Math.ceil(n / limit);
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i += step) (x.push(series.x[i]!), y.push(series.y[i]!));
  x.push(series.x[n - 1]!);
  y.push(series.y[n - 1]!);
  return { x, y };
}

function frame(
  options: CurvePlotOptions,
  title: string,
  axes: { xLabel: string; yLabel: string; yMax: number },
  draw: (sx: (v: number) => number, sy: (v: number) => number, area: { x: number; y: number; width: number; height: number }) => SvgElement[],
): string {
  const width = options.width ?? 440;
  const height = options.height ?? 420;
  if (!(width >= 200 && height >= 200)) invalidArgument('width/height', 'at least 200 pixels', `${width} × ${height}`);
  const top = FONT_SIZES.title + 16;
  const area = { x: AXIS_LEFT_MARGIN, y: top, width: width - AXIS_LEFT_MARGIN - 14, height: height - top - AXIS_BOTTOM_MARGIN };
  const sx = linearScale(0, 1, area.x, area.x + area.width);
  const sy = linearScale(0, axes.yMax, area.y + area.height, area.y);
  const yTicks = axes.yMax === 1 ? unitTicks() : niceTicks(axes.yMax, 5, axes.yMax);
  const axesOptions = {
    xTicks: unitTicks(),
    yTicks,
    xFormat: (v: number) => percentLabel(v, 0),
    yFormat: (v: number) => percentLabel(v, axes.yMax < 0.05 ? 1 : 0),
    xLabel: axes.xLabel,
    yLabel: axes.yLabel,
  };
  return svgDocument(
    width,
    height,
    { title, fontFamily: FONT_FAMILY, background: COLORS.background },
    el('text', { x: width / 2, y: FONT_SIZES.title + 4, 'text-anchor': 'middle', 'font-size': FONT_SIZES.title, 'font-weight': 'bold', fill: COLORS.text }, title),
    axesBackground(area, sx, sy, axesOptions),
    ...draw(sx, sy, area),
    axesForeground(area, sx, sy, axesOptions),
  );
}

/** Risk–coverage curve with the AURC in the title. */
export function riskCoverageSvg(curve: RiskCoverageCurve, aurc: number, options: CurvePlotOptions = {}): string {
  let maxRisk = 0;
  for (const r of curve.risk) if (r > maxRisk) maxRisk = r;
  const yMax = Math.min(1, Math.max(0.01, Math.ceil(maxRisk * 20) / 20));
  const title = `${options.title ?? 'Risk–coverage curve'} — AURC ${percentLabel(aurc, 2)}`;
  return frame(options, title, { xLabel: 'coverage', yLabel: 'selective risk (error rate)', yMax }, (sx, sy) => [
    el('path', { class: 'risk-coverage', d: path(thin({ x: curve.coverage, y: curve.risk }), sx, sy), fill: 'none', stroke: COLORS.confidenceLine, 'stroke-width': 2 }),
  ]);
}

/** Smoothed reliability diagram with its bootstrap band, the diagonal and the forecast density. */
export function smoothedReliabilitySvg(data: SmoothedReliability, options: CurvePlotOptions = {}): string {
  const title = `${options.title ?? 'Smoothed reliability'} — smECE ${percentLabel(data.smoothEce, 2)} (σ ${formatNumber(data.bandwidth, 3)})`;
  return frame(options, title, { xLabel: 'confidence', yLabel: 'E[correct | confidence]', yMax: 1 }, (sx, sy, area) => {
    const parts: SvgElement[] = [];
    let maxDensity = 0;
    for (const d of data.density) if (d > maxDensity) maxDensity = d;
    if (maxDensity > 0) {
      const h = area.height * 0.18;
      let d = `M${formatNumber(sx(0))} ${formatNumber(area.y + area.height)}`;
      for (let j = 0; j < data.mesh.length; j++) d += `L${formatNumber(sx(data.mesh[j]!))} ${formatNumber(area.y + area.height - (h * data.density[j]!) / maxDensity)}`;
      d += `L${formatNumber(sx(1))} ${formatNumber(area.y + area.height)}Z`;
      parts.push(el('path', { class: 'density', d, fill: COLORS.histogram, 'fill-opacity': 0.25, stroke: 'none' }));
    }
    if (data.resamples > 0) {
      let band = '';
      for (let j = 0; j < data.mesh.length; j++) band += `${j === 0 ? 'M' : 'L'}${formatNumber(sx(data.mesh[j]!))} ${formatNumber(sy(Math.min(1, Math.max(0, data.upper[j]!))))}`;
      for (let j = data.mesh.length - 1; j >= 0; j--) band += `L${formatNumber(sx(data.mesh[j]!))} ${formatNumber(sy(Math.min(1, Math.max(0, data.lower[j]!))))}`;
      parts.push(el('path', { class: 'band', d: `${band}Z`, fill: COLORS.gap, 'fill-opacity': 0.2, stroke: 'none' }));
    }
    parts.push(el('line', { class: 'diagonal', x1: sx(0), y1: sy(0), x2: sx(1), y2: sy(1), stroke: COLORS.diagonal, 'stroke-dasharray': '4 3' }));
    parts.push(el('path', { class: 'mu', d: path({ x: data.mesh, y: data.mu.map((v) => Math.min(1, Math.max(0, v))) }, sx, sy), fill: 'none', stroke: COLORS.confidenceLine, 'stroke-width': 2 }));
    return parts;
  });
}
