import { inflateSync } from 'node:zlib';

/**
 * Test-only: a minimal PNG reader for what resvg writes (8-bit RGBA or RGB, non-interlaced): signature and IHDR
 * checks, IDAT inflate and un-filtering (filter types 0–4, PNG spec §9). Returns RGBA pixels.
 */
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace: number;
}

/** Read the IHDR chunk (must be the first chunk, right after the signature). */
export function readIhdr(png: Uint8Array): PngHeader {
  const b = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (!b.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG: bad signature');
  if (b.toString('latin1', 12, 16) !== 'IHDR') throw new Error('first chunk is not IHDR');
  return {
    width: b.readUInt32BE(16),
    height: b.readUInt32BE(20),
    bitDepth: b[24]!,
    colorType: b[25]!,
    interlace: b[28]!,
  };
}

/** Decode to RGBA (4 bytes per pixel, row-major). */
export function decodePng(png: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  const header = readIhdr(png);
  if (header.bitDepth !== 8 || (header.colorType !== 6 && header.colorType !== 2) || header.interlace !== 0) throw new Error(`unsupported PNG format ${JSON.stringify(header)}`);
  const b = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  const parts: Buffer[] = [];
  let offset = 8;
  while (offset < b.length) {
    const length = b.readUInt32BE(offset);
    const type = b.toString('latin1', offset + 4, offset + 8);
    if (type === 'IDAT') parts.push(b.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(parts));
  const channels = header.colorType === 6 ? 4 : 3;
  const stride = header.width * channels;
  const out = new Uint8Array(header.width * header.height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < header.height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? cur[x - channels]! : 0;
      const up = prev[x]!;
      const c = x >= channels ? prev[x - channels]! : 0;
      let predictor = 0;
      if (filter === 1) predictor = a;
      else if (filter === 2) predictor = up;
      else if (filter === 3) predictor = (a + up) >> 1;
      else if (filter === 4) {
        const p = a + up - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - c);
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? up : c;
      } else if (filter !== 0) throw new Error(`bad filter ${filter}`);
      cur[x] = (line[x]! + predictor) & 0xff;
    }
    for (let x = 0; x < header.width; x++) {
      for (let k = 0; k < channels; k++) out[(y * header.width + x) * 4 + k] = cur[x * channels + k]!;
      if (channels === 3) out[(y * header.width + x) * 4 + 3] = 255;
    }
    prev = cur;
  }
  return { width: header.width, height: header.height, rgba: out };
}
