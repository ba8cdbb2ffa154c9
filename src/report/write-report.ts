import { mkdir } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { atomicWriteFile } from '../util/atomic-write.js';
import { describe, invalidArgument } from '../util/errors.js';
import { htmlReport } from './html.js';
import { markdownReport, type ReportOptions } from './markdown.js';
import type { MethodResult } from './metric-table.js';

/**
 * Write a comparison report; the extension decides: `.html` writes one self-contained file; `.md` writes the
 * Markdown and its SVG figures into `<figureDir>` beside it (default `<name>-figures/`). All writes are atomic.
 * Returns the paths written.
 */
export async function writeReport(path: string, results: readonly MethodResult[], options: ReportOptions): Promise<string[]> {
  if (typeof path !== 'string' || path === '') invalidArgument('path', 'a file path', describe(path));
  const ext = extname(path).toLowerCase();
  if (ext === '.html' || ext === '.htm') {
    await atomicWriteFile(path, htmlReport(results, options));
    return [path];
  }
  if (ext !== '.md') invalidArgument('path', 'a file name ending in .md or .html', describe(path));
  const figureDir = options.figureDir ?? `${basename(path, extname(path)).replace(/[^A-Za-z0-9._-]+/g, '-')}-figures`;
  const report = markdownReport(results, { ...options, figureDir });
  const written: string[] = [];
  if (report.figures.length > 0) await mkdir(join(dirname(path), figureDir), { recursive: true });
  for (const f of report.figures) {
    const target = join(dirname(path), f.path);
    await atomicWriteFile(target, f.svg);
    written.push(target);
  }
  await atomicWriteFile(path, report.markdown + '\n');
  written.push(path);
  return written;
}
