/**
 * PNG/JPEG images as model inputs: decoded with pngjs and jpeg-js (pure JavaScript), converted to the model's
 * channels (1: luminance 0.299 R + 0.587 G + 0.114 B, ITU-R BT.601; 3: RGB; alpha dropped), resized to H × W by
 * bilinear interpolation with half-pixel centres (as PIL/torchvision's bilinear without antialiasing), scaled to
 * [0, 1]. Used by the Tiny ImageNet loader and deploy's image folders.
 */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { invalidArgument } from '../util/errors.js';

/** A decoded image: width × height RGBA bytes. */
export interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Decode one PNG or JPEG file to RGBA. */
export function decodeImage(bytes: Uint8Array, file: string, argName: string): Rgba {
  try {
    if (bytes[0] === 0x89 && bytes[1] === 0x50) {
      const png = PNG.sync.read(Buffer.from(bytes));
      return { width: png.width, height: png.height, data: png.data };
    }
    if (bytes[0] === 0xff && bytes[1] === 0xd8) {
      const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 1024 });
      return { width: img.width, height: img.height, data: img.data };
    }
  } catch (error) {
    invalidArgument(argName, 'readable PNG or JPEG images', `${JSON.stringify(file)} (${(error as Error).message})`);
  }
  invalidArgument(argName, 'PNG or JPEG images', `${JSON.stringify(file)} (neither PNG nor JPEG signature)`);
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
