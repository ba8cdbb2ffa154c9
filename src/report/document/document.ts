/**
 * The report document model: what a report says, built once and rendered to Markdown (render-markdown.ts), HTML
 * (render-html.ts) and JSON (render-json.ts) by small pure functions. The single-run comparison report
 * (report/comparison-document.ts) and the suite report (suite/report/suite-document.ts) both build one.
 *
 * Text is plain text everywhere: each renderer escapes it by its format's rules (one escaper per format). The only
 * markup a document carries is an inline SVG figure, which the builder drew itself (report/svg.ts escapes its text),
 * and a prose block: hand-written Markdown a generated page keeps as its author wrote it. HTML-only details — a heading's anchor id, a paragraph's or table's class, a row's `data-*` attributes — are hints
 * the Markdown renderer ignores; everything a reader needs is in the node types themselves.
 */

/**
 * A run of inline text: plain, strong (**bold** / <b>), emphasised (*italic* / <i>), code, or a link (`[text](href)`
 * / `<a href>`; `href` is a URL or a path relative to the page, written as given).
 */
export type Inline = string | { readonly strong: string } | { readonly emphasis: string } | { readonly code: string } | { readonly link: string; readonly href: string };

/** Text of a heading or a table cell: plain text, or runs of inline text (a suite name as code, links). */
export type Text = string | readonly Inline[];

/** A heading of level 1–4 (`#`…`####`, `<h1>`…`<h4>`); `id` is the HTML anchor. */
export interface Heading {
  readonly kind: 'heading';
  readonly level: 1 | 2 | 3 | 4;
  readonly text: Text;
  readonly id?: string;
}

/**
 * A paragraph of inline runs. `className` is its role in HTML: 'note' (a caption under a table), 'warning' (what the
 * reader must know before trusting the numbers), 'settings'; Markdown prints every paragraph alike.
 */
export interface Paragraph {
  readonly kind: 'paragraph';
  readonly content: readonly Inline[];
  readonly className?: string;
}

/** A bulleted list; each item is a run of inline text. */
export interface List {
  readonly kind: 'list';
  readonly items: readonly (readonly Inline[])[];
  readonly className?: string;
}

/** A block of preformatted text (a command, a configuration). */
export interface CodeBlock {
  readonly kind: 'code';
  readonly text: string;
  readonly language?: string;
}

/**
 * A table cell. `best` marks it bold in both formats: the best value of its column, or whatever the table's note
 * says bold means (a difference whose interval excludes 0). `highlight` names a status (e.g. 'verdict-holds'): HTML
 * sets it as the cell's class and the page's stylesheet shows it; Markdown, which has no classes, prints the cell
 * bold. `attributes` are HTML-only hooks (`data-outcome`).
 */
export interface TableCell {
  readonly text: Text;
  readonly best?: boolean;
  readonly highlight?: string;
  readonly attributes?: Readonly<Record<string, string>>;
}

/** A table row: its header cell (the method, the claim), its data cells, HTML-only attributes (`data-method`, `class`). */
export interface TableRow {
  readonly header: Text;
  readonly cells: readonly TableCell[];
  readonly attributes?: Readonly<Record<string, string>>;
}

/**
 * A table whose first column holds the row headers. `columns` are the headers of every column, the row-header column
 * first; `align` is per column (default: the first left, the others right, as numbers are).
 */
export interface Table {
  readonly kind: 'table';
  readonly columns: readonly string[];
  readonly align?: readonly ('left' | 'right')[];
  readonly rows: readonly TableRow[];
  readonly className?: string;
}

/**
 * A figure: an SVG drawing (the markup, as report/svg.ts writes it), written beside a Markdown report at `path` and
 * inlined into HTML. `alt` describes it for a reader who cannot see it; `caption`, when given, is printed under it.
 */
export interface Figure {
  readonly kind: 'figure';
  readonly id: string;
  readonly path: string;
  readonly svg: string;
  readonly alt: string;
  readonly caption?: string;
}

/** Figures shown side by side in HTML (a wrapping flex row with `className`), one after the other in Markdown. */
export interface FigureGroup {
  readonly kind: 'figure-group';
  readonly figures: readonly Figure[];
  readonly className?: string;
}

/** A comment for whoever edits the file (`<!-- text -->` in both formats; a reader of the page never sees it). */
export interface Comment {
  readonly kind: 'comment';
  readonly text: string;
}

/**
 * Hand-written Markdown that a generated page keeps as written, between the markers `<!-- prose:NAME -->` and
 * `<!-- /prose:NAME -->` so that the next generation finds it again (the reproductions README). The Markdown
 * renderer writes it verbatim; the HTML renderer, which parses no Markdown, shows it as preformatted text.
 */
export interface Prose {
  readonly kind: 'prose';
  readonly name: string;
  readonly markdown: string;
}

export type Block = Heading | Paragraph | List | CodeBlock | Table | Figure | FigureGroup | Comment | Prose;

/**
 * A whole report: `title` is the page's title (HTML `<title>`); the visible level-1 heading is a block of its own.
 * `styles` are the HTML page's CSS rules, one string per line of the stylesheet. `data` is what the page shows, as
 * numbers and names for programs rather than text for readers (a suite's report.json: every run's metrics, the
 * tables, the verdicts); the JSON renderer writes it, the page renderers do not read it.
 */
export interface ReportDocument {
  readonly title: string;
  readonly styles: readonly string[];
  readonly blocks: readonly Block[];
  readonly data?: ReportData;
}

/** The data of a report (JSON-serialisable; NaN and ±Infinity are written as null). */
export type ReportData = Readonly<Record<string, unknown>>;

/** A document that carries its data: what the JSON renderer takes. */
export type DataDocument = ReportDocument & { readonly data: ReportData };

/** Text as inline runs (plain text is one run). */
export function inlineRuns(text: Text): readonly Inline[] {
  return typeof text === 'string' ? [text] : text;
}

/** A paragraph of plain text (with an optional HTML class). */
export function paragraph(text: string, className?: string): Paragraph {
  return { kind: 'paragraph', content: [text], ...(className === undefined ? {} : { className }) };
}

/** A heading (with an optional HTML anchor id). */
export function heading(level: Heading['level'], text: Text, id?: string): Heading {
  return { kind: 'heading', level, text, ...(id === undefined ? {} : { id }) };
}

/** Every figure of a document, in order (the Markdown writer saves them beside the report). */
export function documentFigures(doc: ReportDocument): Figure[] {
  return doc.blocks.flatMap((b) => (b.kind === 'figure' ? [b] : b.kind === 'figure-group' ? [...b.figures] : []));
}
