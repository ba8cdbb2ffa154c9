import { escapeXml } from '../svg.js';
import { inlineRuns, type Block, type Figure, type Inline, type ReportDocument, type Table, type TableCell } from './document.js';
import { commentLine } from './render-markdown.js';

/**
 * The HTML renderer of a report document: one self-contained page (inline CSS, figures as inline SVG, no scripts,
 * nothing fetched), XHTML-compatible apart from the doctype and void meta tags. Pure: same document, same text.
 */

/**
 * Escape plain text for HTML text and attribute values: the XML rules (report/svg.ts escapeXml: & < > " ' as
 * entities, characters XML forbids dropped), so that the page's text and its inline SVG escape alike.
 */
export const escapeHtml: (text: string) => string = escapeXml;

/** ` name="value"` for each attribute, in order. */
function attributes(attrs: Readonly<Record<string, string>> | undefined): string {
  return Object.entries(attrs ?? {})
    .map(([k, v]) => ` ${k}="${escapeHtml(v)}"`)
    .join('');
}

const classAttribute = (className: string | undefined): string => (className === undefined ? '' : ` class="${escapeHtml(className)}"`);

export function htmlInline(content: readonly Inline[]): string {
  return content
    .map((run) => {
      if (typeof run === 'string') return escapeHtml(run);
      if ('strong' in run) return `<b>${escapeHtml(run.strong)}</b>`;
      if ('emphasis' in run) return `<i>${escapeHtml(run.emphasis)}</i>`;
      if ('link' in run) return `<a href="${escapeHtml(run.href)}">${escapeHtml(run.link)}</a>`;
      return `<code>${escapeHtml(run.code)}</code>`;
    })
    .join('');
}

/** A cell: the highlight as its class (the stylesheet shows it), the best value of its column in bold. */
function cell(c: TableCell): string {
  const text = c.best ? `<b>${htmlInline(inlineRuns(c.text))}</b>` : htmlInline(inlineRuns(c.text));
  return `<td${classAttribute(c.highlight)}${attributes(c.attributes)}>${text}</td>`;
}

/** A table in a horizontally scrolling wrapper, the first column as row headers. */
function tableLines(t: Table): string[] {
  return [
    `<div class="table-wrap"><table${classAttribute(t.className)}>`,
    `<thead><tr>${t.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr></thead><tbody>`,
    ...t.rows.map((r) => `<tr${attributes(r.attributes)}><th scope="row">${htmlInline(inlineRuns(r.header))}</th>${r.cells.map(cell).join('')}</tr>`),
    '</tbody></table></div>',
  ];
}

/** A figure with its SVG inlined (without the XML declaration); captioned, or named by its alt text. */
function figureLine(f: Figure): string {
  const svg = f.svg.replace(/^<\?xml[^>]*>\s*/, '').trim();
  const label = f.caption === undefined ? ` aria-label="${escapeHtml(f.alt)}"` : '';
  const caption = f.caption === undefined ? '' : `<figcaption>${escapeHtml(f.caption)}</figcaption>`;
  return `<figure id="${escapeHtml(f.id)}"${label}>${svg}${caption}</figure>`;
}

function blockLines(b: Block): string[] {
  switch (b.kind) {
    case 'heading':
      return [`<h${b.level}${b.id === undefined ? '' : ` id="${escapeHtml(b.id)}"`}>${htmlInline(inlineRuns(b.text))}</h${b.level}>`];
    case 'paragraph':
      return [`<p${classAttribute(b.className)}>${htmlInline(b.content)}</p>`];
    case 'list':
      return [`<ul${classAttribute(b.className)}>${b.items.map((item) => `<li>${htmlInline(item)}</li>`).join('')}</ul>`];
    case 'code':
      return [`<pre><code${b.language === undefined ? '' : ` class="language-${escapeHtml(b.language)}"`}>${escapeHtml(b.text)}</code></pre>`];
    case 'table':
      return tableLines(b);
    case 'figure':
      return [figureLine(b)];
    case 'figure-group':
      return b.className === undefined ? b.figures.map(figureLine) : [`<div class="${escapeHtml(b.className)}">`, ...b.figures.map(figureLine), '</div>'];
    case 'comment':
      return [commentLine(b.text)];
    case 'prose':
      // No Markdown parser here: the hand-written Markdown is shown as written.
      return [`<pre class="prose" data-prose="${escapeHtml(b.name)}">${escapeHtml(b.markdown)}</pre>`];
  }
}

/** Blocks as HTML lines (a fragment of a page's body). */
export function renderHtmlBlocks(blocks: readonly Block[]): string[] {
  return blocks.flatMap(blockLines);
}

/** The document as one HTML page, ending in a newline. */
export function renderHtml(doc: ReportDocument): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(doc.title)}</title>`,
    '<style>',
    ...doc.styles,
    '</style></head><body>',
    ...renderHtmlBlocks(doc.blocks),
    '</body></html>',
    '',
  ].join('\n');
}
