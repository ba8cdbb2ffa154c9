/**
 * Report layer: SVG plots drawn from `ReliabilityData` (reliability diagram, confidence histogram, the combined
 * figure), PNG rendering through resvg, atomic figure writing, the report document model with its Markdown, HTML
 * and JSON renderers (document/), and the comparison report built on it.
 */
export { reliabilityDiagramSvg, reliabilityDiagramPanel, reliabilityTitle, type ReliabilityDiagramOptions } from './reliability-diagram.js';
export { confidenceHistogramSvg, confidenceHistogramPanel, type ConfidenceHistogramOptions } from './confidence-histogram.js';
export { calibrationFigureSvg, calibrationSubtitle, type CalibrationFigureOptions } from './calibration-figure.js';
export { lineChartSvg, lineChartPanel, barChartSvg, rangeTicks, type LineSeries, type LineChartOptions } from './line-chart.js';
export { beforeAfterFigureSvg, type BeforeAfterOptions } from './before-after-figure.js';
export { svgToPng, type PngOptions } from './png.js';
export { writeFigure, type WriteFigureOptions } from './write-figure.js';
export { checkReliabilityData } from './check-reliability-data.js';
export { markdownReport, escapeMarkdown, type ReportOptions, type MarkdownReport } from './markdown.js';
export { comparisonDocument } from './comparison-document.js';
export type {
  ReportDocument,
  DataDocument,
  ReportData,
  Block,
  Inline,
  Text,
  Heading,
  Paragraph,
  List,
  CodeBlock,
  Table,
  TableRow,
  TableCell,
  Figure,
  FigureGroup,
  Comment,
  Prose,
} from './document/document.js';
export { renderMarkdown } from './document/render-markdown.js';
export { renderHtml, escapeHtml } from './document/render-html.js';
export { renderJson } from './document/render-json.js';
export { htmlReport } from './html.js';
export { writeReport } from './write-report.js';
export { metricTable, KNOWN_COLUMNS, type MethodResult, type MetricColumn, type MetricTable } from './metric-table.js';
export type { PanelBox } from './panel-box.js';
export { el, renderSvg, svgDocument, escapeXml, formatNumber, type SvgElement, type SvgAttributes, type SvgChild } from './svg.js';
