import type { Block, ReportDocument } from './document.js';

/**
 * The JSON renderer of a report document: the blocks as they are, except that a figure carries its path (its SVG is
 * written beside the report, as for Markdown) instead of its markup. `jsonText` is the one JSON writer of the
 * reports: 2-space indentation, a final newline, NaN and ±Infinity as null (JSON has no such numbers).
 */

/** JSON text of any report data: NaN and ±Infinity become null. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`;
}

function blockJson(b: Block): unknown {
  if (b.kind === 'figure') {
    const { svg: _svg, ...rest } = b;
    return rest;
  }
  if (b.kind === 'figure-group') return { ...b, figures: b.figures.map(blockJson) };
  return b;
}

/** The document as a JSON value: `{ title, blocks }` (figures without their SVG markup). */
export function documentJson(doc: ReportDocument): { title: string; blocks: unknown[] } {
  return { title: doc.title, blocks: doc.blocks.map(blockJson) };
}

/** The document as JSON text. */
export function renderJson(doc: ReportDocument): string {
  return jsonText(documentJson(doc));
}
