import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readNpy } from '../../io/npy.js';
import { describe, invalidArgument } from '../../util/errors.js';
import { CIFAR10_CLASS_NAMES } from './cifar.js';
import { DatasetNotFoundError } from '../dataset-not-found.js';
import { imageDataset, type ImageDataset } from '../dataset.js';
import { cacheRoot } from '../download.js';

/**
 * CIFAR-10-C and CIFAR-100-C (Hendrycks & Dietterich, ICLR 2019; Zenodo records 2535967 and 3555552), the official
 * .npy release: a folder CIFAR-10-C/ (CIFAR-100-C/) with one `<corruption>.npy` per corruption — uint8
 * [50000, 32, 32, 3] (H, W, C), the 10,000 test images at severity 1, then severity 2, …, 5 — and `labels.npy`
 * ([50000], the test labels repeated five times). Loaded as [3, 32, 32] images, byte/255, one severity at a time:
 * severity s is rows (s − 1)·N/5 … s·N/5 − 1 (N = 50,000: blocks of 10,000).
 * Karandikar et al. evaluate TS, TS-SB-ECE and TS-HB-ECE on severities 1–5 of these files.
 */
export const CIFAR_C_CORRUPTIONS: readonly string[] = [
  'gaussian_noise',
  'shot_noise',
  'impulse_noise',
  'defocus_blur',
  'glass_blur',
  'motion_blur',
  'zoom_blur',
  'snow',
  'frost',
  'fog',
  'brightness',
  'contrast',
  'elastic_transform',
  'pixelate',
  'jpeg_compression',
  // the four extra corruptions of the release
  'speckle_noise',
  'gaussian_blur',
  'spatter',
  'saturate',
];

/** Where the release is published (the .tar files are 2.7-2.9 GB; download and extract them by hand). */
export const CIFAR_C_URLS = { 10: 'https://zenodo.org/record/2535967/files/CIFAR-10-C.tar', 100: 'https://zenodo.org/record/3555552/files/CIFAR-100-C.tar' } as const;

/** Options of `loadCifarCorrupted`. */
export interface CifarCorruptedOptions {
  /** 10 (CIFAR-10-C, default) or 100 (CIFAR-100-C). */
  variant?: 10 | 100;
  /** The extracted CIFAR-10-C / CIFAR-100-C folder (default <cacheRoot()>/CIFAR-10-C or CIFAR-100-C). */
  path?: string;
  /** One of CIFAR_C_CORRUPTIONS. */
  corruption: string;
  /** 1–5. */
  severity: number;
}

/** Convert uint8 images [N, 32, 32, 3] (HWC) to float CHW in [0, 1]. */
function hwcToChw(data: Uint8Array, n: number, h: number, w: number, c: number, first: number): Float32Array {
  const out = new Float32Array(n * c * h * w);
  for (let i = 0; i < n; i++) {
    const src = (first + i) * h * w * c;
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let k = 0; k < c; k++) out[((i * c + k) * h + y) * w + x] = data[src + (y * w + x) * c + k]! / 255;
  }
  return out;
}

/** Load one corruption at one severity (N/5 = 10,000 images [3, 32, 32] with their labels). */
export async function loadCifarCorrupted(options: CifarCorruptedOptions): Promise<ImageDataset> {
  const variant = options.variant ?? 10;
  if (variant !== 10 && variant !== 100) invalidArgument('variant', '10 or 100', describe(variant));
  if (!CIFAR_C_CORRUPTIONS.includes(options.corruption)) invalidArgument('corruption', `one of ${CIFAR_C_CORRUPTIONS.join(', ')}`, describe(options.corruption));
  const severity = options.severity;
  if (!Number.isInteger(severity) || severity < 1 || severity > 5) invalidArgument('severity', 'an integer in 1..5', describe(severity));
  const folder = `CIFAR-${variant}-C`;
  const dir = options.path ?? join(cacheRoot(), folder);
  const file = join(dir, `${options.corruption}.npy`);
  const labelsFile = join(dir, 'labels.npy');
  for (const f of [file, labelsFile]) {
    if (
      !(await stat(f).then(
        (s) => s.isFile(),
        () => false,
      ))
    ) {
      throw new DatasetNotFoundError(`cifar${variant}-c`, `cifar${variant}-c: ${f} not found. Download ${CIFAR_C_URLS[variant]}, extract it and pass the ${folder} folder as the path option.`);
    }
  }
  const x = await readNpy(file, 'corruption file');
  if (x.dtype !== 'uint8' || x.shape.length !== 4 || x.shape[1] !== 32 || x.shape[2] !== 32 || x.shape[3] !== 3) {
    invalidArgument(file, 'uint8 [N, 32, 32, 3]', `${x.dtype} [${x.shape.join(', ')}]`);
  }
  const y = await readNpy(labelsFile, 'labels file');
  const n = x.shape[0]!;
  if (y.shape.length !== 1 || y.shape[0] !== n) invalidArgument(labelsFile, `${n} labels`, `[${y.shape.join(', ')}]`);
  if (n === 0 || n % 5 !== 0) invalidArgument(file, 'five equal severity blocks (50,000 rows in the release)', `${n} rows`);
  const block = n / 5;
  const first = (severity - 1) * block;
  const images = hwcToChw(x.data as Uint8Array, block, 32, 32, 3, first);
  const labels = new Int32Array(block);
  for (let i = 0; i < block; i++) {
    const v = Number(y.data[first + i]);
    if (!Number.isInteger(v) || v < 0 || v >= variant) invalidArgument(`${labelsFile}[${first + i}]`, `a label in 0..${variant - 1}`, String(v));
    labels[i] = v;
  }
  return imageDataset({
    name: `cifar${variant}-c/${options.corruption}/${severity}`,
    images,
    labels,
    shape: [3, 32, 32],
    classes: variant,
    ...(variant === 10 ? { classNames: CIFAR10_CLASS_NAMES } : {}),
  });
}
