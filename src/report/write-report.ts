import { mkdir } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { atomicWriteFile } from '../util/atomic-write.js';
import { describe, invalidArgument } from '../util/errors.js';
import { comparisonDocument, type ReportOptions } from './comparison-document.js';
import { documentFigures } from './document/document.js';
import { renderHtml } from './document/render-html.js';
import { renderJson } from './document/render-json.js';
import { renderMarkdown } from './document/render-markdown.js';
import type { MethodResult } from './metric-table.js';

/**
 * Write a comparison report (comparison-document.ts); the extension decides: `.html` writes one self-contained file;
 * `.json` its data (document/render-json.ts: every method's metrics, best marks and reliability data); `.md` the
 * Markdown with its SVG figures in `<figureDir>` beside it (default `<name>-figures/`). All writes are atomic.
 * Returns the paths written.
 */
export async function writeReport(path: string, results: readonly MethodResult[], options: ReportOptions): Promise<string[]> {
  if (typeof path !== 'string' || path === '') invalidArgument('path', 'a file path', describe(path));
  const ext = extname(path).toLowerCase();
  if (ext === '.html' || ext === '.htm') {
    await atomicWriteFile(path, renderHtml(comparisonDocument(results, options)));
    return [path];
  }
  if (ext === '.json') {
    await atomicWriteFile(path, renderJson(comparisonDocument(results, options)));
    return [path];
  }
  if (ext !== '.md') invalidArgument('path', 'a file name ending in .md, .json or .html', describe(path));
  const figureDir = options.figureDir ?? `${basename(path, extname(path)).replace(/[^A-Za-z0-9._-]+/g, '-')}-figures`;
  const doc = comparisonDocument(results, { ...options, figureDir });
  const figures = documentFigures(doc);
  const written: string[] = [];
  if (figures.length > 0) await mkdir(join(dirname(path), figureDir), { recursive: true });
  for (const f of figures) {
    const target = join(dirname(path), f.path);
    await atomicWriteFile(target, f.svg);
    written.push(target);
  }
  await atomicWriteFile(path, renderMarkdown(doc) + '\n');
  written.push(path);
  return written;
}
