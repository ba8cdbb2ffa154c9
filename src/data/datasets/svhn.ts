import { DatasetNotFoundError } from '../dataset-not-found.js';
import { join } from 'node:path';
import { invalidArgument } from '../../util/errors.js';
import { imageDataset, type DatasetSplits, type ImageDataset } from '../dataset.js';
import { cacheRoot, downloadFile } from '../download.js';
import { readMat, type MatArray } from '../formats/mat.js';
import { pathExists } from '../../util/path-exists.js';
import { defineDataset } from '../dataset-definition.js';

/**
 * SVHN, cropped digits (Netzer et al. 2011, http://ufldl.stanford.edu/housenumbers/): train_32x32.mat (73,257
 * images), test_32x32.mat (26,032), extra_32x32.mat (531,131). Each is a level-5 MAT-file with X, uint8
 * [32, 32, 3, N] column-major (element (row r, column c, channel k, image n) at r + 32c + 1024k + 3072n), and
 * y, double [N, 1] with labels 1–10 where 10 means the digit 0. Loaded as [3, 32, 32] images, byte/255, with
 * labels 0–9 (the digit).
 */
export const SVHN_CLASS_NAMES: readonly string[] = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];

/** The official files (cropped digits) over http — the site serves no https. */
export const SVHN_URL = 'http://ufldl.stanford.edu/housenumbers/';

/** MD5 of the official files (as used by torchvision's SVHN dataset). */
export const SVHN_MD5: Readonly<Record<string, string>> = {
  'train_32x32.mat': 'e26dedcc434d2e4c54c9b2d4a06d8373',
  'test_32x32.mat': 'eb5a983be6a315427106f1b164d9cef3',
  'extra_32x32.mat': 'a93ce644f1a588dc4d68dda5feec44a7',
};

/** Options of `loadSvhn`. */
export interface SvhnOptions {
  /** Directory with train_32x32.mat and test_32x32.mat; when given, only it is searched (default the cache directory). */
  directory?: string;
  /** Also load extra_32x32.mat (531,131 images, 1.6 GB as float32). Default false. */
  extra?: boolean;
  /** Download the missing files into `directory` if given, else the cache (default false). */
  download?: boolean;
  /** Cache directory for downloads (default <cacheRoot()>/svhn). */
  cacheDirectory?: string;
  /** Base URL of the files (default SVHN_URL). */
  baseUrl?: string;
  /** Expected MD5 per file name; default SVHN_MD5 for the official URL, none for another base URL. */
  md5?: Readonly<Record<string, string>>;
}

/** Convert SVHN's X [H, W, C, N] (column-major) and y [N, 1] arrays to an image dataset. */
export function svhnFromArrays(x: MatArray, y: MatArray, name: string): ImageDataset {
  if (x.dims.length !== 4) invalidArgument(`${name}: X`, 'a 4-D array [H, W, C, N]', `[${x.dims.join(', ')}]`);
  const [h, w, c, n] = x.dims as [number, number, number, number];
  if (y.data.length !== n) invalidArgument(`${name}: y`, `${n} labels (one per image)`, `${y.data.length}`);
  const scale = x.class === 'uint8' ? 1 / 255 : 1;
  const images = new Float32Array(n * c * h * w);
  const src = x.data;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < c; k++) {
      const outBase = (i * c + k) * h * w;
      const inBase = i * c * h * w + k * h * w;
      for (let col = 0; col < w; col++) {
        const inCol = inBase + col * h;
        for (let row = 0; row < h; row++) images[outBase + row * w + col] = src[inCol + row]! * scale;
      }
    }
  }
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = y.data[i]!;
    if (!Number.isInteger(v) || v < 1 || v > 10) invalidArgument(`${name}: y[${i}]`, 'a label in 1..10 (10 = digit 0)', String(v));
    labels[i] = v === 10 ? 0 : v;
  }
  return imageDataset({ name, images, labels, shape: [c, h, w], classes: 10, classNames: SVHN_CLASS_NAMES });
}

/** Make sure `<directory>/<split>_32x32.mat` exists, downloading it when allowed; returns its path. */
async function ensureSplit(directory: string, split: string, options: SvhnOptions): Promise<string> {
  const file = `${split}_32x32.mat`;
  const path = join(directory, file);
  if (await pathExists(path)) return path;
  if (!options.download) {
    throw new DatasetNotFoundError(
      'svhn',
      `svhn: ${path} not found. Download ${SVHN_URL}${file} (the cropped-digits format) into ${directory}, ` +
        `pass the directory that holds it as the directory option, or pass download: true ` +
        `(on the command line: --data-opt download=true) to fetch it into ${directory}.`,
    );
  }
  const base = options.baseUrl ?? SVHN_URL;
  const md5 = (options.md5 ?? (base === SVHN_URL ? SVHN_MD5 : {}))[file];
  await downloadFile(new URL(file, base.endsWith('/') ? base : base + '/').href, path, md5 !== undefined ? { md5 } : {});
  return path;
}

async function loadSplit(path: string, split: string): Promise<ImageDataset> {
  const vars = await readMat(path, ['X', 'y']);
  const x = vars.get('X');
  const y = vars.get('y');
  if (x === undefined || y === undefined) throw new Error(`svhn: ${path} lacks the variable ${x === undefined ? 'X' : 'y'}`);
  return svhnFromArrays(x, y, `svhn/${split}`);
}

/**
 * Load SVHN (cropped digits): train and test, and extra when asked. The files are read from `directory` if
 * given, else from the cache directory; missing ones are downloaded there (atomically, MD5-checked) when
 * `download` is set.
 */
export async function loadSvhn(options: SvhnOptions = {}): Promise<Required<DatasetSplits<ImageDataset>> & { extra?: ImageDataset }> {
  const directory = options.directory ?? options.cacheDirectory ?? join(cacheRoot(), 'svhn');
  const splits = options.extra ? ['train', 'test', 'extra'] : ['train', 'test'];
  const paths: string[] = [];
  for (const split of splits) paths.push(await ensureSplit(directory, split, options));
  const train = await loadSplit(paths[0]!, 'train');
  const test = await loadSplit(paths[1]!, 'test');
  if (!options.extra) return { train, test };
  return { train, test, extra: await loadSplit(paths[2]!, 'extra') };
}

/** The `svhn` dataset's declaration (load-dataset.ts lists it). */
export const svhnDefinition = defineDataset({
  name: 'svhn',
  summary: 'SVHN (Netzer et al. 2011): 32×32 house-number digits from the .mat files (optionally with extra)',
  task: 'image',
  optionKeys: ['directory', 'extra', 'download', 'cacheDirectory', 'baseUrl', 'md5'],
  load: (options: SvhnOptions | undefined) => loadSvhn(options ?? {}),
  augmentation: 'crop',
  oodPartner: 'cifar10',
});
