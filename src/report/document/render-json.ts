import type { DataDocument } from './document.js';

/**
 * The JSON renderer of a report document: its data (`doc.data`, the numbers and names behind the page — a suite's
 * report.json), not its blocks. The blocks are text laid out for a reader (a cell reads "4.21 ± 0.30"); a program
 * reads the numbers they were formatted from, so the JSON form of a report is its data, and this is the one place
 * that serialises it: 2-space indentation, a final newline, NaN and ±Infinity as null (JSON has no such numbers).
 */

/** JSON text of any value: NaN and ±Infinity become null. */
function jsonText(value: unknown): string {
  return `${JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`;
}

/** The document's data as JSON text. */
export function renderJson(doc: DataDocument): string {
  return jsonText(doc.data);
}
