import { comparisonDocument, type ReportOptions } from './comparison-document.js';
import { documentFigures } from './document/document.js';
import { renderMarkdown } from './document/render-markdown.js';
import type { MethodResult } from './metric-table.js';

export { escapeMarkdown } from './document/render-markdown.js';
export { checkReportOptions, type ReportOptions } from './comparison-document.js';

/** The Markdown comparison report and its SVG figures, with their paths relative to the report (`writeReport` writes them). */
export interface MarkdownReport {
  readonly markdown: string;
  readonly figures: readonly { readonly path: string; readonly svg: string }[];
}

/** The comparison report (comparison-document.ts) rendered as Markdown. */
export function markdownReport(results: readonly MethodResult[], options: ReportOptions): MarkdownReport {
  const doc = comparisonDocument(results, options);
  return { markdown: renderMarkdown(doc), figures: documentFigures(doc).map((f) => ({ path: f.path, svg: f.svg })) };
}
