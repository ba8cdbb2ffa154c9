import { describe, invalidArgument } from '../util/errors.js';
import type { ReliabilityBin, ReliabilityData } from '../metrics/reliability-types.js';
import { el, formatNumber, type SvgElement } from './svg.js';
import { COLORS, FONT_SIZES, fittedFontSize } from './theme.js';

/** Where a panel is drawn inside a larger figure: its outer box in SVG pixels. */
export interface PanelBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Check a positive finite size option (`width`, `height`) with a lower bound that keeps the plot legible. */
export function requireSize(argument: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min)
    invalidArgument(argument, `a number ≥ ${min} (pixels)`, describe(value));
  return value;
}

/** Optional string option (`title`): undefined → fallback, null → none, string → itself. */
export function optionalText(argument: string, value: unknown, fallback: string | null): string | null {
  if (value === undefined) return fallback;
  if (value === null) return null;
  if (typeof value !== 'string') invalidArgument(argument, 'a string or null', describe(value));
  return value;
}

/** Prefix for ids (hatch pattern) so several figures can be inlined in one HTML page: an XML name. */
export function requireIdPrefix(value: unknown): string {
  if (value === undefined) return 'calibkit';
  if (typeof value !== 'string' || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(value))
    invalidArgument('idPrefix', 'an XML name (letters, digits, _ and -)', describe(value));
  return value;
}

/**
 * The interval a bin covers, written with the data's convention: '(l,u]' bins are (l, u] except the first,
 * which also holds confidence 0 ([0, u]); '[l,u)' bins are [l, u) except the last, which also holds 1 ([l, 1]).
 */
export function binInterval(data: ReliabilityData, index: number): string {
  const bin: ReliabilityBin = data.bins[index]!;
  const l = formatNumber(bin.lower, 3);
  const u = formatNumber(bin.upper, 3);
  if (data.convention === '(l,u]') return `${index === 0 ? '[' : '('}${l}, ${u}]`;
  return `[${l}, ${u}${index === data.bins.length - 1 ? ']' : ')'}`;
}

/** Short count label: 1234 stays, 12345 → "12.3k", 1234567 → "1.23M". */
export function compactCount(n: number): string {
  if (n < 10_000) return String(n);
  if (n < 999_500) return `${formatNumber(n / 1000, n < 99_950 ? 1 : 0)}k`;
  return `${formatNumber(n / 1_000_000, n < 10_000_000 ? 2 : 1)}M`;
}

/**
 * A panel's bold title, centred over the plot area (between `left` and `right` margins of `box`), its baseline a
 * font size below `top`; the font shrinks to fit. Returns the element and the vertical space it takes.
 */
export function panelTitle(text: string, box: PanelBox, left: number, right: number, top: number): { element: SvgElement; height: number } {
  const fs = fittedFontSize(text, FONT_SIZES.title, box.width - 12, true);
  const element = el(
    'text',
    {
      class: 'title',
      x: box.x + left + (box.width - left - right) / 2,
      y: top + fs,
      'text-anchor': 'middle',
      'font-size': fs,
      'font-weight': 'bold',
      fill: COLORS.text,
    },
    text,
  );
  return { element, height: fs + 8 };
}
