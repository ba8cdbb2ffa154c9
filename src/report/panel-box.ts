import { describe, invalidArgument } from '../util/errors.js';
import type { ReliabilityBin, ReliabilityData } from '../metrics/binned/reliability-types.js';
import { el, formatNumber, type SvgElement } from './svg.js';
import { COLORS, FONT_SIZES, textWidth, wrapText } from './theme.js';

/** Where a panel is drawn inside a larger figure: its outer box in SVG pixels. */
export interface PanelBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Check a positive finite size option (`width`, `height`) with a lower bound that keeps the plot legible. */
export function requireSize(argument: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) invalidArgument(argument, `a number ≥ ${min} (pixels)`, describe(value));
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
  if (typeof value !== 'string' || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(value)) invalidArgument('idPrefix', 'an XML name (letters, digits, _ and -)', describe(value));
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
 * A bold title centred at `cx`, its first baseline a font size below `top`, never wider than `maxWidth`: at the
 * preferred size on one line when it fits, else wrapped onto up to three lines (at no less than 11 px), shrinking
 * only when even that does not fit — so long titles are never clipped. One `<text>` with a `<tspan>` per line.
 */
export function wrappedTitle(text: string, cx: number, top: number, maxWidth: number, preferred: number, cls: string): { element: SvgElement; height: number } {
  let fs = preferred;
  let lines = [text];
  if (textWidth(text, fs) * 1.15 > maxWidth) {
    fs = Math.max(11, preferred * 0.9);
    lines = wrapText(text, fs, maxWidth, true);
    // More than three lines: wrap to three (wider) lines and let the font shrink to fit them.
    for (let w = maxWidth; lines.length > 3; w *= 1.1) lines = wrapText(text, fs, w, true);
    const widest = Math.max(...lines.map((l) => textWidth(l, fs) * 1.15));
    if (widest > maxWidth) fs = Math.max(6, (fs * maxWidth) / widest);
  }
  const lineHeight = fs * 1.2;
  const element = el(
    'text',
    { class: cls, x: cx, y: top + fs, 'text-anchor': 'middle', 'font-size': Math.round(fs * 10) / 10, 'font-weight': 'bold', fill: COLORS.text },
    ...(lines.length === 1 ? [lines[0]!] : lines.map((l, i) => el('tspan', { x: cx, dy: i === 0 ? 0 : lineHeight }, l))),
  );
  return { element, height: fs + (lines.length - 1) * lineHeight + 8 };
}

/**
 * A panel's bold title, centred over the plot area (between `left` and `right` margins of `box`), its baseline a
 * font size below `top`; wrapped (or shrunk) so that it stays inside the box. Returns the element and its height.
 */
export function panelTitle(text: string, box: PanelBox, left: number, right: number, top: number): { element: SvgElement; height: number } {
  const cx = box.x + left + (box.width - left - right) / 2;
  const room = 2 * Math.min(cx - box.x, box.x + box.width - cx) - 8;
  return wrappedTitle(text, cx, top, room, FONT_SIZES.title, 'title');
}
