import { extname } from 'node:path';
import { atomicWriteFile } from '../util/atomic-write.js';
import { describe, invalidArgument } from '../util/errors.js';
import { svgToPng } from './png.js';

/** Options for `writeFigure`: `width` applies to PNG output only (pixels; default the SVG's own width; SVG is scalable and ignores it). */
export interface WriteFigureOptions {
  readonly width?: number;
}

/**
 * Write a figure; the extension of `path` decides the format: `.svg` writes the SVG text (UTF-8), `.png` renders
 * it with resvg (`svgToPng`). The write is atomic (temporary file + rename). Any other extension is an error.
 */
export async function writeFigure(path: string, svg: string, options: WriteFigureOptions = {}): Promise<void> {
  if (typeof path !== 'string' || path === '') invalidArgument('path', 'a file path', describe(path));
  const ext = extname(path).toLowerCase();
  if (ext === '.svg') {
    if (typeof svg !== 'string' || !/<svg[\s>]/.test(svg)) invalidArgument('svg', 'an SVG document string', describe(svg));
    await atomicWriteFile(path, svg);
  } else if (ext === '.png') {
    await atomicWriteFile(path, svgToPng(svg, options.width === undefined ? {} : { width: options.width }));
  } else {
    invalidArgument('path', 'a file name ending in .svg or .png', describe(path));
  }
}
