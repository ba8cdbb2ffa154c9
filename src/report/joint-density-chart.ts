/**
 * A grid of joint density panels (Thulasidasan et al. 2019, Fig. 1): one row per series (e.g. CE, mixup), one
 * column per epoch; each panel a 2-D histogram of (mean confidence, accuracy) points over [lo, 1]², darker where
 * more points fall, with the diagonal accuracy = confidence that a calibrated model's density lies on.
 */
import { describe, invalidArgument } from '../util/errors.js';
import { el, formatNumber, svgDocument, type SvgElement } from './svg.js';
import { COLORS, FONT_FAMILY, FONT_SIZES } from './theme.js';

/** One panel's points and title. */
export interface DensityPanel {
  readonly title: string;
  readonly points: readonly { readonly confidence: number; readonly accuracy: number }[];
}

/** Options of `jointDensitySvg`. */
export interface JointDensityOptions {
  readonly title: string;
  /** Row labels (series names), one per row of `panels`. */
  readonly rowLabels: readonly string[];
  /** Histogram cells per axis (default 20). */
  readonly cells?: number;
  /** Lower end of both axes (default 0; the upper end is 1). */
  readonly lo?: number;
  /** Panel side in px (default 150). */
  readonly size?: number;
}

/** Count of points per cell of a cells × cells grid over [lo, 1]² (row-major, row 0 = lowest accuracy). */
export function densityGrid(points: DensityPanel['points'], cells: number, lo: number): Float64Array {
  const grid = new Float64Array(cells * cells);
  const w = (1 - lo) / cells;
  const cell = (v: number): number => Math.min(cells - 1, Math.max(0, Math.floor((v - lo) / w)));
  for (const p of points) {
    if (!(p.confidence >= lo) || !(p.accuracy >= lo)) continue;
    grid[cell(p.accuracy) * cells + cell(p.confidence)]! += 1;
  }
  return grid;
}

function panel(p: DensityPanel, x: number, y: number, size: number, cells: number, lo: number, showX: boolean, showY: boolean): SvgElement {
  const grid = densityGrid(p.points, cells, lo);
  let max = 0;
  for (const v of grid) max = Math.max(max, v);
  const c = size / cells;
  const rects: SvgElement[] = [];
  for (let r = 0; r < cells; r++) {
    for (let k = 0; k < cells; k++) {
      const v = grid[r * cells + k]!;
      if (v === 0) continue;
      rects.push(
        el('rect', {
          x: formatNumber(x + k * c),
          y: formatNumber(y + size - (r + 1) * c),
          width: formatNumber(c),
          height: formatNumber(c),
          fill: COLORS.outputsEdge,
          'fill-opacity': formatNumber(0.15 + 0.85 * (v / max)),
        }),
      );
    }
  }
  const ticks = [lo, (lo + 1) / 2, 1];
  const tick = (v: number): string => formatNumber(v, 2);
  return el(
    'g',
    { class: 'density-panel' },
    el('rect', { x, y, width: size, height: size, fill: '#ffffff', stroke: COLORS.axis, 'stroke-width': 1 }),
    ...rects,
    el('line', { x1: x, y1: y + size, x2: x + size, y2: y, stroke: COLORS.diagonal, 'stroke-dasharray': '4 3', 'stroke-width': 1 }),
    el('text', { x: x + size / 2, y: y - 6, 'text-anchor': 'middle', 'font-size': FONT_SIZES.subtitle, fill: COLORS.text }, p.title),
    showX &&
      el(
        'g',
        {},
        ...ticks.map((t) => el('text', { x: formatNumber(x + ((t - lo) / (1 - lo)) * size), y: y + size + 13, 'text-anchor': 'middle', 'font-size': FONT_SIZES.count, fill: COLORS.muted }, tick(t))),
      ),
    showY &&
      el(
        'g',
        {},
        ...ticks.map((t) => el('text', { x: x - 4, y: formatNumber(y + size - ((t - lo) / (1 - lo)) * size + 3), 'text-anchor': 'end', 'font-size': FONT_SIZES.count, fill: COLORS.muted }, tick(t))),
      ),
  );
}

/** The grid of panels as a standalone SVG document; `panels[row][column]`. */
export function jointDensitySvg(panels: readonly (readonly DensityPanel[])[], options: JointDensityOptions): string {
  const rows = panels.length;
  const cols = Math.max(0, ...panels.map((r) => r.length));
  if (rows === 0 || cols === 0) invalidArgument('panels', 'at least one panel', describe(panels));
  if (options.rowLabels.length !== rows) invalidArgument('options.rowLabels', `${rows} labels (one per row)`, `${options.rowLabels.length}`);
  const size = options.size ?? 150;
  const cells = options.cells ?? 20;
  const lo = options.lo ?? 0;
  if (!(lo >= 0 && lo < 1)) invalidArgument('options.lo', 'a number in [0, 1)', describe(lo));
  const left = 178;
  const top = 50;
  const gap = 34;
  const width = left + cols * (size + gap) + 10;
  const height = top + rows * (size + gap) + 30;
  const children: SvgElement[] = [
    el('text', { x: width / 2, y: 20, 'text-anchor': 'middle', 'font-size': FONT_SIZES.figureTitle, 'font-weight': 'bold', fill: COLORS.text }, options.title),
    el(
      'text',
      { x: left + (cols * (size + gap) - gap) / 2, y: height - 6, 'text-anchor': 'middle', 'font-size': FONT_SIZES.axisLabel, fill: COLORS.text },
      'mean confidence of a group (x) · accuracy of the group (y)',
    ),
  ];
  panels.forEach((row, i) => {
    const y = top + i * (size + gap);
    children.push(el('text', { x: 8, y: y + size / 2, 'font-size': FONT_SIZES.subtitle, 'font-weight': 'bold', fill: COLORS.text }, options.rowLabels[i]!));
    row.forEach((p, j) => children.push(panel(p, left + j * (size + gap), y, size, cells, lo, i === rows - 1, j === 0)));
  });
  return svgDocument(width, height, { title: options.title, fontFamily: FONT_FAMILY, background: COLORS.background }, ...children);
}
