/**
 * JPEG compression and the elastic transform of Hendrycks & Dietterich (ICLR 2019), make_cifar_c.py's CIFAR
 * constants (severity s picks entry s − 1), for images [N, C, H, W] in [0, 1]; results clipped by the caller.
 *
 * jpeg-compression q: round to 8-bit levels, encode as a JPEG of quality q and decode (jpeg-js, baseline, no chroma
 *   subsampling; make_cifar_c.py uses PIL/libjpeg, which subsamples chroma 4:2:0, so the artefacts differ in
 *   detail). C = 1 is encoded as gray replicated to RGB and read back from the decoded R plane; C must be 1 or 3.
 *   q = 80, 65, 58, 50, 40.
 * elastic (α, σ, a), each a fraction of S = min(H, W) (the CIFAR code's IMSIZE = 32): a random affine map moves
 *   the points c + (s, s), c + (s, −s), c − (s, s) (c = ⌊(H, W)/2⌋ as (row, column) pairs as written, s = ⌊S/3⌋) by
 *   U(−aS, aS) each coordinate (OpenCV getAffineTransform + warpAffine, bilinear, borders reflect-101); then
 *   displacement fields dx, dy = αS · gaussian(U(−1, 1) per pixel, σS, mode 'reflect', truncate 3), and each pixel
 *   samples the warped image at (y + dy, x + dx) (scipy map_coordinates, order 1, mode 'reflect').
 *   (α, σ, a) = (0, 0, 0.08), (0.05, 0.2, 0.07), (0.08, 0.06, 0.06), (0.1, 0.04, 0.05), (0.1, 0.03, 0.03).
 *   A zero σ leaves the field at zero (α = 0 there). OpenCV's fixed-point interpolation (1/32 pixel) is replaced by exact bilinear.
 */
import jpeg from 'jpeg-js';
import { invalidArgument } from '../../util/errors.js';
import type { Random } from '../../util/random.js';
import { borderIndex, gaussianFilter } from './image-filters.js';

export const JPEG_QUALITY: readonly number[] = [80, 65, 58, 50, 40];
export const ELASTIC_PARAMETERS: readonly (readonly [number, number, number])[] = [
  [0, 0, 0.08],
  [0.05, 0.2, 0.07],
  [0.08, 0.06, 0.06],
  [0.1, 0.04, 0.05],
  [0.1, 0.03, 0.03],
];

type Shape4 = readonly [number, number, number, number];
const byte = (v: number): number => Math.round(Math.min(Math.max(v, 0), 1) * 255);

/** Images per JPEG canvas (see `jpegCompression`). */
const TILES_PER_CANVAS = 256;

/**
 * JPEG round trip (see the module comment). Encoding one small image at a time is dominated by jpeg-js's per-call
 * set-up (≈ 60 ms), so up to 256 images are tiled into one canvas, each tile padded to whole 8 × 8 blocks by
 * repeating its last row and column — the padding jpeg-js applies at an image's edge — so that every block, and
 * hence the result, is the same as encoding the images one by one (without chroma subsampling, blocks are coded
 * independently; the DC prediction between neighbouring blocks is lossless).
 */
export function jpegCompression(images: Float32Array, out: Float32Array, [n, c, h, w]: Shape4, severity: number): void {
  if (c !== 1 && c !== 3) invalidArgument('images', 'images of 1 or 3 channels for jpeg-compression', `${c} channels`);
  const quality = JPEG_QUALITY[severity - 1]!;
  const plane = h * w;
  const th = Math.ceil(h / 8) * 8;
  const tw = Math.ceil(w / 8) * 8;
  const across = Math.max(1, Math.min(TILES_PER_CANVAS, Math.floor(4096 / tw)));
  for (let first = 0; first < n; first += TILES_PER_CANVAS) {
    const count = Math.min(TILES_PER_CANVAS, n - first);
    const cols = Math.min(across, count);
    const rows = Math.ceil(count / cols);
    const width = cols * tw;
    const rgba = Buffer.alloc(width * rows * th * 4, 255);
    for (let t = 0; t < count; t++) {
      const base = (first + t) * c * plane;
      const oy = Math.floor(t / cols) * th;
      const ox = (t % cols) * tw;
      for (let y = 0; y < th; y++) {
        for (let x = 0; x < tw; x++) {
          const j = Math.min(y, h - 1) * w + Math.min(x, w - 1);
          const at = ((oy + y) * width + ox + x) * 4;
          for (let k = 0; k < 3; k++) rgba[at + k] = byte(images[base + (c === 3 ? k : 0) * plane + j]!);
        }
      }
    }
    const decoded = jpeg.decode(jpeg.encode({ data: rgba, width, height: rows * th }, quality).data, { useTArray: true, formatAsRGBA: true });
    for (let t = 0; t < count; t++) {
      const base = (first + t) * c * plane;
      const oy = Math.floor(t / cols) * th;
      const ox = (t % cols) * tw;
      for (let k = 0; k < c; k++) for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[base + k * plane + y * w + x] = decoded.data[((oy + y) * width + ox + x) * 4 + k]! / 255;
    }
  }
}

/** Bilinear sample of an h×w plane at (y, x) with a border mode applied to the integer neighbours. */
function sample(src: Float32Array, base: number, h: number, w: number, y: number, x: number, mode: 'reflect' | 'reflect101'): number {
  const y0 = Math.floor(y);
  const x0 = Math.floor(x);
  const dy = y - y0;
  const dx = x - x0;
  const r0 = base + borderIndex(y0, h, mode) * w;
  const r1 = base + borderIndex(y0 + 1, h, mode) * w;
  const c0 = borderIndex(x0, w, mode);
  const c1 = borderIndex(x0 + 1, w, mode);
  return (src[r0 + c0]! * (1 - dx) + src[r0 + c1]! * dx) * (1 - dy) + (src[r1 + c0]! * (1 - dx) + src[r1 + c1]! * dx) * dy;
}

const det3 = (m: readonly number[]): number => m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) - m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) + m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!);

/**
 * The affine map A (2 × 3, acting on (x, y, 1)) with A·p_i = q_i for three point pairs (OpenCV getAffineTransform),
 * by Cramer's rule on the rows [x_i, y_i, 1].
 */
export function affineFrom(p: readonly (readonly [number, number])[], q: readonly (readonly [number, number])[]): number[] {
  const rows = p.flatMap(([x, y]) => [x, y, 1]);
  const d = det3(rows);
  const solve = (v: readonly number[]): number[] => [0, 1, 2].map((col) => det3(rows.map((entry, i) => (i % 3 === col ? v[Math.floor(i / 3)]! : entry))) / d);
  return [...solve(q.map((t) => t[0])), ...solve(q.map((t) => t[1]))];
}

/** Elastic transform (see the module comment). */
export function elasticTransform(images: Float32Array, out: Float32Array, [n, c, h, w]: Shape4, severity: number, rng: Random): void {
  const size = Math.min(h, w);
  const [alpha, sigma, affine] = ELASTIC_PARAMETERS[severity - 1]!.map((v) => v * size) as [number, number, number];
  const plane = h * w;
  // make_cifar_c.py builds the points from shape[:2] = (H, W) and hands them to OpenCV as (x, y) pairs
  const cy = Math.floor(h / 2);
  const cx = Math.floor(w / 2);
  const sq = Math.floor(size / 3);
  const pts: [number, number][] = [
    [cy + sq, cx + sq],
    [cy + sq, cx - sq],
    [cy - sq, cx - sq],
  ];
  const warped = new Float32Array(c * plane);
  const noise = new Float32Array(plane);
  const dx = new Float32Array(plane);
  const dy = new Float32Array(plane);
  for (let i = 0; i < n; i++) {
    const base = i * c * plane;
    const moved = pts.map(([a, b]) => [a + affine * (2 * rng.uniform() - 1), b + affine * (2 * rng.uniform() - 1)] as [number, number]);
    const m = affineFrom(pts, moved);
    // warpAffine: dst(x, y) = src(M⁻¹ (x, y))
    const det = m[0]! * m[4]! - m[1]! * m[3]!;
    const inv = [m[4]! / det, -m[1]! / det, 0, -m[3]! / det, m[0]! / det, 0];
    inv[2] = -(inv[0]! * m[2]! + inv[1]! * m[5]!);
    inv[5] = -(inv[3]! * m[2]! + inv[4]! * m[5]!);
    for (let k = 0; k < c; k++) {
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          warped[k * plane + y * w + x] = sample(images, base + k * plane, h, w, inv[3]! * x + inv[4]! * y + inv[5]!, inv[0]! * x + inv[1]! * y + inv[2]!, 'reflect101');
        }
      }
    }
    for (const field of [dx, dy]) {
      for (let j = 0; j < plane; j++) noise[j] = 2 * rng.uniform() - 1;
      if (sigma > 0) gaussianFilter(noise, field, 1, h, w, sigma, 'reflect', 3);
      else field.set(noise);
      for (let j = 0; j < plane; j++) field[j]! *= alpha;
    }
    for (let k = 0; k < c; k++) {
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const j = y * w + x;
          out[base + k * plane + j] = sample(warped, k * plane, h, w, y + dy[j]!, x + dx[j]!, 'reflect');
        }
      }
    }
  }
}
