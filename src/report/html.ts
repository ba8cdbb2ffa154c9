import { comparisonDocument, type ReportOptions } from './comparison-document.js';
import { renderHtml } from './document/render-html.js';
import type { MethodResult } from './metric-table.js';

/**
 * The comparison report (comparison-document.ts) as one self-contained HTML page: no external files, no scripts;
 * each method's calibration figure inlined as SVG with its own id prefix (so the hatch patterns of several figures
 * do not collide).
 */
export function htmlReport(results: readonly MethodResult[], options: ReportOptions): string {
  return renderHtml(comparisonDocument(results, options));
}
