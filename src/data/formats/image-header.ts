/**
 * An image's dimensions read from its header, before any pixel is decoded, so that a file whose header claims
 * 20000 × 20000 pixels can be refused against a pixel limit without allocating them (a 4 KB PNG can claim 1.6 GB of
 * RGBA). PNG: the IHDR chunk (PNG spec §11.2.2). JPEG: the first start-of-frame marker SOF0–SOF15 except DHT (C4),
 * JPG (C8) and DAC (CC) (ITU-T T.81 §B.2.2). Also the exact length of a PNG's inflated image data (§7, §8 Adam7),
 * against which truncated data is detected.
 */

export interface ImageHeader {
  readonly format: 'png' | 'jpeg';
  readonly width: number;
  readonly height: number;
}

/** PNG header fields that fix the size of the inflated image data. */
export interface PngHeader extends ImageHeader {
  readonly format: 'png';
  readonly bitDepth: number;
  readonly colorType: number;
  readonly interlaced: boolean;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Samples per pixel for each PNG colour type (0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA). */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Is `bytes` a PNG (by its signature)? */
export const isPng = (bytes: Uint8Array): boolean => PNG_SIGNATURE.every((b, i) => bytes[i] === b);
/** Is `bytes` a JPEG (by its SOI marker)? */
export const isJpeg = (bytes: Uint8Array): boolean => bytes[0] === 0xff && bytes[1] === 0xd8;

const u16 = (b: Uint8Array, i: number): number => (b[i]! << 8) | b[i + 1]!;
const u32 = (b: Uint8Array, i: number): number => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;

/** The header of a PNG: signature, then IHDR (length 13) as the first chunk. Throws a description when malformed. */
export function pngHeader(bytes: Uint8Array): PngHeader {
  if (bytes.length < 33) throw new Error(`a ${bytes.length}-byte file cannot hold a PNG header (33 bytes)`);
  if (u32(bytes, 8) !== 13 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') throw new Error('the first chunk is not IHDR');
  const width = u32(bytes, 16);
  const height = u32(bytes, 20);
  const bitDepth = bytes[24]!;
  const colorType = bytes[25]!;
  if (width === 0 || height === 0) throw new Error(`the header gives ${width} × ${height} pixels`);
  if (PNG_CHANNELS[colorType] === undefined) throw new Error(`unknown colour type ${colorType}`);
  if (![1, 2, 4, 8, 16].includes(bitDepth)) throw new Error(`unknown bit depth ${bitDepth}`);
  return { format: 'png', width, height, bitDepth, colorType, interlaced: bytes[28] === 1 };
}

/** The width and height of a JPEG from its first SOFn segment. Throws a description when none is found. */
export function jpegHeader(bytes: Uint8Array): ImageHeader {
  let i = 2;
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff) throw new Error(`expected a marker at byte ${i}`);
    const marker = bytes[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    const length = u16(bytes, i + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (i + 9 > bytes.length) break;
      const height = u16(bytes, i + 5);
      const width = u16(bytes, i + 7);
      if (width === 0) throw new Error('the frame header gives width 0');
      // Height 0 means "defined by a later DNL marker" (T.81 §B.2.5); jpeg-js does not support it.
      if (height === 0) throw new Error('the frame header gives height 0 (a DNL marker, not supported)');
      return { format: 'jpeg', width, height };
    }
    if (marker === 0xda || marker === 0xd9) break; // scan data or end before any frame header
    i += 2 + length;
  }
  throw new Error('no frame header (SOF marker) before the image data');
}

/** The dimensions of a PNG or JPEG, or null when `bytes` has neither signature. Throws when the header is malformed. */
export function imageHeader(bytes: Uint8Array): ImageHeader | null {
  if (isPng(bytes)) return pngHeader(bytes);
  if (isJpeg(bytes)) return jpegHeader(bytes);
  return null;
}

/**
 * Bytes of a PNG's image data once inflated: per scanline one filter byte plus ⌈width · bits per pixel / 8⌉, over
 * the rows of each of the 7 Adam7 passes when interlaced (passes with no pixel have no scanlines; PNG spec §8.2).
 */
export function pngInflatedLength(h: PngHeader): number {
  const bitsPerPixel = h.bitDepth * PNG_CHANNELS[h.colorType]!;
  const scanlines = (rows: number, cols: number): number => (rows === 0 || cols === 0 ? 0 : rows * (1 + Math.ceil((cols * bitsPerPixel) / 8)));
  if (!h.interlaced) return scanlines(h.height, h.width);
  const passes = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ] as const;
  let total = 0;
  for (const [x0, y0, dx, dy] of passes) total += scanlines(Math.ceil(Math.max(h.height - y0, 0) / dy), Math.ceil(Math.max(h.width - x0, 0) / dx));
  return total;
}

/** The concatenated IDAT chunk data of a PNG, and whether the file ends with an IEND chunk. */
export function pngImageData(bytes: Uint8Array): { data: Uint8Array; ended: boolean } {
  const parts: Uint8Array[] = [];
  let i = 8;
  let ended = false;
  while (i + 8 <= bytes.length) {
    const length = u32(bytes, i);
    const type = String.fromCharCode(...bytes.subarray(i + 4, i + 8));
    if (i + 12 + length > bytes.length) break; // a chunk cut short
    if (type === 'IDAT') parts.push(bytes.subarray(i + 8, i + 8 + length));
    if (type === 'IEND') {
      ended = true;
      break;
    }
    i += 12 + length;
  }
  const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    data.set(p, at);
    at += p.length;
  }
  return { data, ended };
}
