import { describe, invalidArgument } from '../util/errors.js';
import { calibrationFigureSvg } from './calibration-figure.js';
import { binningNote, metricTable, uniqueSlug, type MethodResult, type MetricColumn } from './metric-table.js';

/**
 * Markdown comparison report: a title, an optional description, a GitHub-flavoured table of metrics per method
 * (best value per column in bold) with the binning convention recorded under it, and one calibration figure
 * (confidence histogram + reliability diagram) per method that has reliability data. Figures are returned as
 * SVG documents with their relative paths (`<figureDir>/<slug>.svg`) for the caller to write (`writeReport` does).
 */
export interface ReportOptions {
  readonly title: string;
  readonly description?: string;
  /** Metric columns (names or full specs); default every metric present, in first-seen order. */
  readonly columns?: readonly (string | MetricColumn)[];
  /** Folder of the figures, relative to the report (default 'figures'). Markdown only. */
  readonly figureDir?: string;
}

export interface MarkdownReport {
  readonly markdown: string;
  readonly figures: readonly { readonly path: string; readonly svg: string }[];
}

/** Escape text for a Markdown table cell or paragraph: HTML-significant characters and Markdown punctuation. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#])/g, '\\$1')
    .replace(/\r?\n/g, ' ');
}

export function checkReportOptions(options: ReportOptions): void {
  if (options === null || typeof options !== 'object') invalidArgument('options', 'an object', describe(options));
  if (typeof options.title !== 'string' || options.title.trim() === '')
    invalidArgument('options.title', 'a non-empty string', describe(options.title));
  if (options.description !== undefined && typeof options.description !== 'string')
    invalidArgument('options.description', 'a string', describe(options.description));
  const dir = options.figureDir;
  if (dir !== undefined && (typeof dir !== 'string' || dir === '' || /(^|[\\/])\.\.([\\/]|$)|^[\\/]|[<>"|?*\s]/.test(dir)))
    invalidArgument('options.figureDir', 'a relative folder name without "..", spaces or special characters', describe(dir));
}

export function markdownReport(results: readonly MethodResult[], options: ReportOptions): MarkdownReport {
  checkReportOptions(options);
  const table = metricTable(results, options.columns);
  const figureDir = (options.figureDir ?? 'figures').replace(/[\\/]+$/, '');
  const lines: string[] = [`# ${escapeMarkdown(options.title)}`, ''];
  if (options.description) lines.push(escapeMarkdown(options.description), '');
  lines.push(`| Method | ${table.columns.map((c) => escapeMarkdown(c.label)).join(' | ')} |`);
  lines.push(`| --- | ${table.columns.map(() => '---:').join(' | ')} |`);
  for (const row of table.rows) {
    const cells = row.cells.map((c) => (c.best ? `**${c.text}**` : c.text));
    lines.push(`| ${escapeMarkdown(row.name)} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  const note = binningNote(results);
  const marks = table.columns.some((c) => c.better !== undefined) && results.length > 1 ? 'Best value per column in bold. ' : '';
  if (marks || note) lines.push(`${marks}${note ? `Reliability data: ${note}.` : ''}`.trim(), '');
  const figures: { path: string; svg: string }[] = [];
  const taken = new Set<string>();
  const withPlots = results.filter((r) => r.reliability !== undefined);
  if (withPlots.length > 0) {
    lines.push('## Reliability', '');
    for (const r of withPlots) {
      const slug = uniqueSlug(r.name, taken);
      const path = `${figureDir}/${slug}.svg`;
      figures.push({ path, svg: calibrationFigureSvg(r.reliability!, { title: r.name, idPrefix: `ck-${slug}` }) });
      lines.push(`![${escapeMarkdown(r.name)}: confidence histogram and reliability diagram](${path})`, '');
    }
  }
  return { markdown: lines.join('\n'), figures };
}
