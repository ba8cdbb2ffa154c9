import type { ReliabilityBin, ReliabilityData } from '../metrics/binned/reliability-types.js';
import { AXIS_BOTTOM_MARGIN, AXIS_LEFT_MARGIN, unitTicks, type AxesOptions, type LinearScale, type PlotArea } from './axes.js';
import { checkReliabilityData } from './check-reliability-data.js';
import { optionalText, panelTitle, requireSize, type PanelBox } from './panel-box.js';
import { el, svgDocument, type SvgElement } from './svg.js';
import { COLORS, FONT_FAMILY, percentLabel } from './theme.js';

/**
 * What the two panels drawn over the confidence bins of a `ReliabilityData` share — the confidence histogram
 * (confidence-histogram.ts) and the reliability diagram (reliability-diagram.ts): the panel's margins, title row and
 * plot area, the confidence x-axis, a bin's bar, the figure's description and the standalone SVG document around a
 * panel. One definition each, so that the two panels of a calibration figure line up.
 */

/** Right margin of every panel (the left one is AXIS_LEFT_MARGIN). */
export const PANEL_RIGHT_MARGIN = 14;

/** The panel's title row (none for a null or empty title) and the y where what follows it starts. */
export function panelHeading(text: string | null, box: PanelBox): { readonly elements: SvgElement[]; readonly top: number } {
  const top = box.y + 6;
  if (text === null || text === '') return { elements: [], top };
  const heading = panelTitle(text, box, AXIS_LEFT_MARGIN, PANEL_RIGHT_MARGIN, top);
  return { elements: [heading.element], top: top + heading.height };
}

/**
 * The plot area of a panel in `box` whose plot starts at `top`, above the x-axis margin and `below` pixels more
 * (a caption); at least 40 px wide and `minHeight` high.
 */
export function panelPlotArea(box: PanelBox, top: number, minHeight: number, below = 0): PlotArea {
  const area: PlotArea = {
    x: box.x + AXIS_LEFT_MARGIN,
    y: top,
    width: box.width - AXIS_LEFT_MARGIN - PANEL_RIGHT_MARGIN,
    height: box.y + box.height - AXIS_BOTTOM_MARGIN - below - top,
  };
  requireSize('width (plot area)', area.width, 40);
  requireSize('height (plot area)', area.height, minHeight);
  return area;
}

/** The x-axis of both panels: confidence from 0 to 1, ticks every 0.2, labelled `label` (default "Confidence"). */
export function confidenceAxis(label = 'Confidence'): Pick<AxesOptions, 'xTicks' | 'xFormat' | 'xLabel'> {
  return { xTicks: unitTicks(5), xFormat: (v) => v.toFixed(1), xLabel: label };
}

/**
 * A bin's bar: it spans the bin, [x(lower), x(upper)]; its edge is 1 px, 0.5 px on bars narrower than 5 px and
 * none under 2 px (where an edge would hide the fill).
 */
export function binBar(bin: ReliabilityBin, x: LinearScale): { readonly x: number; readonly width: number; readonly strokeWidth: number } {
  const x0 = x(bin.lower);
  const width = x(bin.upper) - x0;
  return { x: x0, width, strokeWidth: width >= 5 ? 1 : width >= 2 ? 0.5 : 0 };
}

/** "15 bins, convention (l,u], n = 10000, accuracy 85.7%, mean confidence 89.9%": the figure's `<desc>`. */
export function binsDescription(data: ReliabilityData): string {
  return `${data.bins.length} bins, convention ${data.convention}, n = ${data.total}, accuracy ${percentLabel(data.accuracy)}, mean confidence ${percentLabel(data.meanConfidence)}`;
}

/** How a panel becomes a standalone SVG document. */
export interface StandalonePanel {
  /** Default and least height (the width defaults to 420 px, at least 160). */
  readonly height: number;
  readonly minHeight: number;
  /** The option `title`'s default. */
  readonly defaultTitle: string;
  /** The document's `<title>` from the title option (null: none asked for). */
  readonly documentTitle: (title: string | null) => string;
  /** Appended to the description (binsDescription), computed once the data are checked. */
  readonly descriptionSuffix?: () => string;
  readonly panel: (box: PanelBox) => SvgElement;
}

/** A panel alone as an SVG document of the options' size: the data checked, the sizes checked, a title and a description. */
export function standalonePanelSvg(data: ReliabilityData, options: { readonly width?: number; readonly height?: number; readonly title?: string | null }, spec: StandalonePanel): string {
  checkReliabilityData(data);
  const width = requireSize('width', options.width ?? 420, 160);
  const height = requireSize('height', options.height ?? spec.height, spec.minHeight);
  const title = optionalText('title', options.title, spec.defaultTitle);
  return svgDocument(
    width,
    height,
    { title: spec.documentTitle(title), fontFamily: FONT_FAMILY, background: COLORS.background },
    el('desc', {}, binsDescription(data) + (spec.descriptionSuffix?.() ?? '')),
    spec.panel({ x: 0, y: 0, width, height }),
  );
}
