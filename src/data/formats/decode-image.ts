/**
 * PNG/JPEG images as model inputs: decoded with pngjs and jpeg-js (pure JavaScript), converted to the model's
 * channels (1: luminance 0.299 R + 0.587 G + 0.114 B, ITU-R BT.601; 3: RGB; alpha dropped), resized to H × W by
 * bilinear interpolation with half-pixel centres (as PIL/torchvision's bilinear without antialiasing), scaled to
 * [0, 1]. Used by the Tiny ImageNet loader and deploy's image folders.
 */
import { inflateSync } from 'node:zlib';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { invalidArgument } from '../../util/errors.js';
import { imageHeader, pngHeader, pngImageData, pngInflatedLength } from './image-header.js';

/** A decoded image: width × height RGBA bytes. */
export interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * The largest image decoded by default, in pixels (width × height read from the header before decoding): 50
 * megapixels, 200 MB as RGBA — above any camera photo a classifier is fed, far below what a hostile header can
 * claim (a 4 KB PNG can claim 20000 × 20000). `calib predict` / `calib eval --max-image-pixels` raise it.
 */
export const DEFAULT_MAX_IMAGE_PIXELS = 50_000_000;

export interface DecodeImageOptions {
  /** Refuse images whose header gives more than this many pixels (default DEFAULT_MAX_IMAGE_PIXELS). */
  readonly maxPixels?: number;
  /** The flag that sets `maxPixels`, named in the refusal (default "--max-image-pixels"). */
  readonly maxPixelsArg?: string;
}

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * Decode one PNG or JPEG file to RGBA. The header's width × height is checked against `maxPixels` before any pixel is
 * decoded; a PNG whose image data inflates to fewer (or more) bytes than its header implies is refused as truncated
 * (pngjs would fill the missing rows with zeros), as is a JPEG whose data ends before its end marker.
 */
export function decodeImage(bytes: Uint8Array, file: string, argName: string, options: DecodeImageOptions = {}): Rgba {
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_IMAGE_PIXELS;
  const unreadable = (why: string): never => invalidArgument(argName, 'readable PNG or JPEG images', `${JSON.stringify(file)} (${why})`);
  let header;
  try {
    header = imageHeader(bytes);
  } catch (error) {
    return unreadable(`malformed header: ${(error as Error).message}`);
  }
  if (header === null) invalidArgument(argName, 'PNG or JPEG images', `${JSON.stringify(file)} (neither PNG nor JPEG signature)`);
  const pixels = header.width * header.height;
  if (pixels > maxPixels) {
    invalidArgument(
      argName,
      `images of at most ${count(maxPixels)} pixels (${options.maxPixelsArg ?? '--max-image-pixels'} raises the limit)`,
      `${JSON.stringify(file)} (its header gives ${count(header.width)} × ${count(header.height)} = ${count(pixels)} pixels; nothing was decoded)`,
    );
  }
  if (header.format === 'png') {
    const expected = pngInflatedLength(pngHeader(bytes));
    const { data, ended } = pngImageData(bytes);
    let inflated: number;
    try {
      inflated = inflateSync(data, { maxOutputLength: expected + 1 }).length;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return unreadable(
        code === 'ERR_BUFFER_TOO_LARGE' ? `more image data than its ${header.width} × ${header.height} header implies` : `truncated or corrupt image data: ${(error as Error).message}`,
      );
    }
    if (inflated !== expected) {
      unreadable(`truncated image data: ${count(inflated)} of the ${count(expected)} bytes its ${header.width} × ${header.height} header implies${ended ? '' : ', and no IEND chunk'}`);
    }
  }
  try {
    if (header.format === 'png') {
      const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      return { width: png.width, height: png.height, data: png.data };
    }
    const img = jpeg.decode(bytes, {
      useTArray: true,
      formatAsRGBA: true,
      maxResolutionInMP: Math.ceil(maxPixels / 1e6),
      maxMemoryUsageInMB: Math.max(1024, Math.ceil((maxPixels * 12) / 2 ** 20)),
    });
    return { width: img.width, height: img.height, data: img.data };
  } catch (error) {
    const message = (error as Error).message;
    return unreadable(/marker was not found|unknown JPEG marker|waitng on finished stream|unexpected end/i.test(message) ? `truncated or corrupt image data: ${message}` : message);
  }
}

/** Bilinear resize of channel plane(s) with half-pixel centres, writing `channels` planes of H × W into `out`. */
export function toPlanes(img: Rgba, channels: number, height: number, width: number, out: Float32Array, offset: number): void {
  const { width: w0, height: h0, data } = img;
  const value = (x: number, y: number, c: number): number => {
    const p = (y * w0 + x) * 4;
    if (channels === 1) return (0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!) / 255;
    return data[p + c]! / 255;
  };
  const sy = h0 / height;
  const sx = w0 / width;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(Math.max((y + 0.5) * sy - 0.5, 0), h0 - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, h0 - 1);
    const dy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(Math.max((x + 0.5) * sx - 0.5, 0), w0 - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(x0 + 1, w0 - 1);
      const dx = fx - x0;
      for (let c = 0; c < channels; c++) {
        const top = value(x0, y0, c) * (1 - dx) + value(x1, y0, c) * dx;
        const bottom = value(x0, y1, c) * (1 - dx) + value(x1, y1, c) * dx;
        out[offset + (c * height + y) * width + x] = top * (1 - dy) + bottom * dy;
      }
    }
  }
}
