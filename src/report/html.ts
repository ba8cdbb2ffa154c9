import { calibrationFigureSvg } from './calibration-figure.js';
import { checkReportOptions, type ReportOptions } from './markdown.js';
import { binningNote, metricTable, uniqueSlug, type MethodResult } from './metric-table.js';
import { escapeXml } from './svg.js';
import { COLORS, FONT_FAMILY } from './theme.js';

/**
 * Self-contained HTML comparison report (no external files, no scripts): the metrics table with the best value
 * per column in bold, the binning convention, and each method's calibration figure inlined as SVG (each with
 * its own id prefix, so the hatch patterns of several figures do not collide).
 */
export function htmlReport(results: readonly MethodResult[], options: ReportOptions): string {
  checkReportOptions(options);
  const table = metricTable(results, options.columns);
  const head = table.columns.map((c) => `<th>${escapeXml(c.label)}</th>`).join('');
  const body = table.rows
    .map(
      (row) =>
        `<tr><th scope="row">${escapeXml(row.name)}</th>${row.cells
          .map((c) => `<td>${c.best ? `<b>${escapeXml(c.text)}</b>` : escapeXml(c.text)}</td>`)
          .join('')}</tr>`,
    )
    .join('\n');
  const note = binningNote(results);
  const taken = new Set<string>();
  const figures = results
    .filter((r) => r.reliability !== undefined)
    .map((r) => {
      const slug = uniqueSlug(r.name, taken);
      const svg = calibrationFigureSvg(r.reliability!, { title: r.name, idPrefix: `ck-${slug}` }).replace(/^<\?xml[^>]*>\s*/, '');
      return `<figure id="fig-${slug}">${svg}</figure>`;
    });
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeXml(options.title)}</title>`,
    '<style>',
    `body{font-family:${FONT_FAMILY};color:${COLORS.text};max-width:1000px;margin:2em auto;padding:0 1em}`,
    'table{border-collapse:collapse;margin:1em 0}th,td{padding:4px 10px;border-bottom:1px solid #ddd;text-align:right}',
    'thead th{border-bottom:2px solid #333}tbody th{text-align:left;font-weight:normal}',
    '.note{color:#666;font-size:90%}figure{display:inline-block;margin:0 1em 1em 0}',
    '</style></head><body>',
    `<h1>${escapeXml(options.title)}</h1>`,
    options.description ? `<p>${escapeXml(options.description)}</p>` : '',
    `<table><thead><tr><th>Method</th>${head}</tr></thead><tbody>`,
    body,
    '</tbody></table>',
    note || results.length > 1
      ? `<p class="note">${results.length > 1 ? 'Best value per column in bold. ' : ''}${note ? `Reliability data: ${escapeXml(note)}.` : ''}</p>`
      : '',
    figures.length > 0 ? `<h2>Reliability</h2>\n${figures.join('\n')}` : '',
    '</body></html>',
    '',
  ]
    .filter((l) => l !== '')
    .join('\n');
}
