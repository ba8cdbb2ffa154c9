import { createRequire } from 'node:module';
import { describe, invalidArgument } from '../util/errors.js';
import { COLORS } from './theme.js';

/**
 * Rasterise an SVG document to PNG with resvg (@resvg/resvg-js, a native renderer; no browser). System fonts
 * are loaded and 'DejaVu Sans' is the default and sans-serif family, matching the plots' font-family list
 * `DejaVu Sans, Arial, Helvetica, sans-serif`, so text renders the same on any machine that has DejaVu.
 */
export interface PngOptions {
  /**
   * Output width in pixels (height follows the SVG's aspect ratio). Default: twice the SVG's own width (a 480 × 720
   * figure becomes a 960 × 1440 PNG, sharp on high-density screens and in print).
   */
  readonly width?: number;
  /** Background colour painted under the drawing (default white; the plots paint their own too). */
  readonly background?: string;
}

interface ResvgModule {
  Resvg: new (
    svg: string,
    options: {
      font: { loadSystemFonts: boolean; defaultFontFamily: string; sansSerifFamily: string };
      fitTo: { mode: 'zoom'; value: number } | { mode: 'width'; value: number };
      background: string;
      logLevel: 'off';
    },
  ) => { render(): { asPng(): Buffer; width: number; height: number } };
}

/** The native module is loaded on first use only, so importing the report layer costs nothing. */
function loadResvg(): ResvgModule {
  const require = createRequire(import.meta.url);
  return require('@resvg/resvg-js') as ResvgModule;
}

/** Scale of a PNG rendered without an explicit width. */
export const PNG_DEFAULT_SCALE = 2;

/** Render `svg` (a complete SVG document) to PNG bytes. Throws `InvalidArgumentError` for bad input. */
export function svgToPng(svg: string, options: PngOptions = {}): Buffer {
  if (typeof svg !== 'string' || !/<svg[\s>]/.test(svg)) invalidArgument('svg', 'an SVG document string', describe(svg));
  const width = options.width;
  if (width !== undefined && (typeof width !== 'number' || !Number.isInteger(width) || width < 1 || width > 16384)) invalidArgument('width', 'an integer in [1, 16384]', describe(width));
  const background = options.background ?? COLORS.background;
  if (typeof background !== 'string') invalidArgument('background', 'a CSS colour string', describe(background));
  const { Resvg } = loadResvg();
  let image;
  try {
    const renderer = new Resvg(svg, {
      font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
      fitTo: width === undefined ? { mode: 'zoom', value: PNG_DEFAULT_SCALE } : { mode: 'width', value: width },
      background,
      logLevel: 'off',
    });
    image = renderer.render();
  } catch (error) {
    invalidArgument('svg', 'an SVG document resvg can parse', (error as Error).message ?? String(error));
  }
  return image.asPng();
}
