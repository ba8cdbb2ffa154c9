import { describe, invalidArgument } from '../util/errors.js';
import { calibrationFigureSvg } from './calibration-figure.js';
import type { Block, DataDocument, Figure } from './document/document.js';
import { heading, paragraph } from './document/document.js';
import { binningNote, metricTable, uniqueSlug, type MethodResult, type MetricColumn } from './metric-table.js';
import { COLORS, FONT_FAMILY } from './theme.js';

/**
 * The single-run comparison report as a document (document/document.ts): a title, an optional description, the
 * table of metrics per method (best value per column marked) with the binning convention under it, and one
 * calibration figure (confidence histogram + reliability diagram) per method that has reliability data, at
 * `<figureDir>/<slug>.svg`. Its data (the JSON form) holds the numbers: per method every metric value, the columns
 * it was marked best in, and its reliability data. markdown.ts, html.ts and write-report.ts render it.
 */
export interface ReportOptions {
  readonly title: string;
  readonly description?: string;
  /** Metric columns (names or full specs); default every metric present, in first-seen order. */
  readonly columns?: readonly (string | MetricColumn)[];
  /** Folder of the figures, relative to the report (default 'figures'). Markdown only (HTML inlines them; JSON holds the data). */
  readonly figureDir?: string;
}

export function checkReportOptions(options: ReportOptions): void {
  if (options === null || typeof options !== 'object') invalidArgument('options', 'an object', describe(options));
  if (typeof options.title !== 'string' || options.title.trim() === '') invalidArgument('options.title', 'a non-empty string', describe(options.title));
  if (options.description !== undefined && typeof options.description !== 'string') invalidArgument('options.description', 'a string', describe(options.description));
  const dir = options.figureDir;
  if (dir !== undefined && (typeof dir !== 'string' || dir === '' || /(^|[\\/])\.\.([\\/]|$)|^[\\/]|[<>"|?*\s]/.test(dir)))
    invalidArgument('options.figureDir', 'a relative folder name without "..", spaces or special characters', describe(dir));
}

const STYLES = [
  `body{font-family:${FONT_FAMILY};color:${COLORS.text};max-width:1000px;margin:2em auto;padding:0 1em}`,
  'table{border-collapse:collapse;margin:1em 0}th,td{padding:4px 10px;border-bottom:1px solid #ddd;text-align:right}',
  'thead th{border-bottom:2px solid #333}tbody th{text-align:left;font-weight:normal}.table-wrap{overflow-x:auto}',
  '.note{color:#666;font-size:90%}figure{display:inline-block;margin:0 1em 1em 0}',
];

/** The comparison report of `results` as a document. */
export function comparisonDocument(results: readonly MethodResult[], options: ReportOptions): DataDocument {
  checkReportOptions(options);
  const table = metricTable(results, options.columns);
  const figureDir = (options.figureDir ?? 'figures').replace(/[\\/]+$/, '');
  const blocks: Block[] = [heading(1, options.title)];
  if (options.description) blocks.push(paragraph(options.description));
  blocks.push({
    kind: 'table',
    className: 'results',
    columns: ['Method', ...table.columns.map((c) => c.label)],
    rows: table.rows.map((row) => ({ header: row.name, cells: row.cells.map((c) => ({ text: c.text, ...(c.best ? { best: true } : {}) })) })),
  });
  const note = binningNote(results);
  const marks = table.columns.some((c) => c.better !== undefined) && results.length > 1 ? 'Best value per column in bold. ' : '';
  if (marks || note) blocks.push(paragraph(`${marks}${note ? `Reliability data: ${note}.` : ''}`.trim(), 'note'));
  const taken = new Set<string>();
  const figures: Figure[] = results
    .filter((r) => r.reliability !== undefined)
    .map((r) => {
      const slug = uniqueSlug(r.name, taken);
      return {
        kind: 'figure',
        id: `fig-${slug}`,
        path: `${figureDir}/${slug}.svg`,
        svg: calibrationFigureSvg(r.reliability!, { title: r.name, idPrefix: `ck-${slug}` }),
        alt: `${r.name}: confidence histogram and reliability diagram`,
      };
    });
  if (figures.length > 0) blocks.push(heading(2, 'Reliability'), { kind: 'figure-group', figures });
  const data = {
    title: options.title,
    description: options.description ?? null,
    binning: note,
    columns: table.columns,
    methods: results.map((r, i) => ({
      name: r.name,
      metrics: r.metrics,
      best: table.columns.filter((_, j) => table.rows[i]!.cells[j]!.best).map((c) => c.key),
      reliability: r.reliability ?? null,
    })),
  };
  return { title: options.title, styles: STYLES, blocks, data };
}
