import { inlineRuns, type Block, type Figure, type Inline, type ReportDocument, type Table, type TableCell } from './document.js';

/**
 * The Markdown renderer of a report document (GitHub-flavoured: pipe tables, `![alt](path)` figures whose SVG files
 * the caller writes at `path`). Every block is followed by one blank line. Pure: same document, same text.
 */

/**
 * Escape plain text for Markdown (a paragraph, a heading, a table cell): the HTML-significant characters as entities,
 * Markdown punctuation (\ ` * _ [ ] | #) with a backslash, and a line break as a space (a cell cannot hold one).
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#])/g, '\\$1')
    .replace(/\r?\n/g, ' ');
}

/** Inline code: backticks around the text, more of them than the longest run inside it. */
function inlineCode(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\r?\n/g, ' ')}${pad}${fence}`;
}

export function markdownInline(content: readonly Inline[]): string {
  return content
    .map((run) => {
      if (typeof run === 'string') return escapeMarkdown(run);
      if ('strong' in run) return `**${escapeMarkdown(run.strong)}**`;
      if ('emphasis' in run) return `*${escapeMarkdown(run.emphasis)}*`;
      if ('link' in run) return `[${escapeMarkdown(run.link)}](${run.href})`;
      return inlineCode(run.code);
    })
    .join('');
}

/** A cell: escaped; bold when it is its column's best or carries a highlight (Markdown has no classes). */
function cell(c: TableCell): string {
  const text = markdownInline(inlineRuns(c.text));
  return c.best || c.highlight !== undefined ? `**${text}**` : text;
}

function tableLines(t: Table): string[] {
  const align = t.columns.map((_, j) => t.align?.[j] ?? (j === 0 ? 'left' : 'right'));
  return [
    `| ${t.columns.map(escapeMarkdown).join(' | ')} |`,
    `| ${align.map((a) => (a === 'right' ? '---:' : '---')).join(' | ')} |`,
    ...t.rows.map((r) => `| ${[markdownInline(inlineRuns(r.header)), ...r.cells.map(cell)].join(' | ')} |`),
  ];
}

function figureLines(f: Figure): string[] {
  const image = `![${escapeMarkdown(f.alt)}](${f.path})`;
  return f.caption === undefined ? [image] : [image, '', `*${escapeMarkdown(f.caption)}*`];
}

/** `<!-- text -->` (a "-->" inside the text would end the comment early: its dashes are spaced). */
export function commentLine(text: string): string {
  return `<!-- ${text.replace(/--+>/g, (m) => `${m.slice(0, -1).split('').join(' ')} >`)} -->`;
}

function blockLines(b: Block): string[] {
  switch (b.kind) {
    case 'heading':
      return [`${'#'.repeat(b.level)} ${markdownInline(inlineRuns(b.text))}`];
    case 'paragraph':
      return [markdownInline(b.content)];
    case 'list':
      return b.items.map((item) => `- ${markdownInline(item)}`);
    case 'code': {
      const fence = '`'.repeat(Math.max(3, ...(b.text.match(/`{3,}/g) ?? []).map((r) => r.length + 1)));
      return [`${fence}${b.language ?? ''}`, ...b.text.split(/\r?\n/), fence];
    }
    case 'table':
      return tableLines(b);
    case 'figure':
      return figureLines(b);
    case 'figure-group':
      return b.figures.flatMap((f, i) => (i === 0 ? figureLines(f) : ['', ...figureLines(f)]));
    case 'comment':
      return [commentLine(b.text)];
    case 'prose':
      return [`<!-- prose:${b.name} -->`, ...(b.markdown === '' ? [] : [b.markdown]), `<!-- /prose:${b.name} -->`];
  }
}

/** Blocks as Markdown: each followed by a blank line (a block with nothing to show, e.g. an empty figure group, is left out). */
export function renderMarkdownBlocks(blocks: readonly Block[]): string {
  return blocks
    .map(blockLines)
    .filter((lines) => lines.length > 0)
    .flatMap((lines) => [...lines, ''])
    .join('\n');
}

/** The document as Markdown. */
export function renderMarkdown(doc: ReportDocument): string {
  return renderMarkdownBlocks(doc.blocks);
}
