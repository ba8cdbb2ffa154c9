import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { invalidArgument } from '../../util/errors.js';
import { readSource } from './cifar.js';
import { DatasetNotFoundError } from '../dataset-not-found.js';
import { imageDataset, type DatasetSplits, type ImageDataset } from '../dataset.js';
import { cacheRoot, downloadFile } from '../download.js';
import { defineDataset } from '../dataset-definition.js';

/**
 * STL-10 (Coates, Ng & Lee 2011, https://cs.stanford.edu/~acoates/stl10/), the binary release
 * stl10_binary.tar.gz → stl10_binary/: train_X.bin (5,000 images), train_y.bin, test_X.bin (8,000), test_y.bin,
 * class_names.txt (and unlabeled_X.bin, 100,000 images, not loaded). X is uint8, 3 × 96 × 96 per image, each
 * channel stored column-major (the official reader reshapes to [N, 3, 96, 96] and transposes to (0, 3, 2, 1)):
 * pixel (channel k, row r, column c) of image n is byte n·27648 + k·9216 + c·96 + r. y is uint8 labels 1–10.
 * Loaded as [3, 96, 96] images, byte/255, labels 0–9.
 */
export const STL10_CLASS_NAMES: readonly string[] = ['airplane', 'bird', 'car', 'cat', 'deer', 'dog', 'horse', 'monkey', 'ship', 'truck'];

/** The official archive (http only). */
export const STL10_URL = 'http://ai.stanford.edu/~acoates/stl10/';
const ARCHIVE = 'stl10_binary.tar.gz';
const FOLDER = 'stl10_binary';
/** MD5 of the official archive (as used by torchvision's STL10 dataset). */
export const STL10_MD5 = '91f7769df0f17e558f3565bffb0c7dfb';

const SIDE = 96;
const PIXELS = 3 * SIDE * SIDE;

/** Options of `loadStl10`. */
export interface Stl10Options {
  /** The extracted stl10_binary folder (or its parent), or the .tar.gz (2.6 GB: read into memory). Default: the cache. */
  path?: string;
  /** Download the official archive when nothing is found (default false). */
  download?: boolean;
  /** Cache directory (default cacheRoot()). */
  cacheDirectory?: string;
  /** Base URL of the archive (default STL10_URL). */
  baseUrl?: string;
  /** Expected MD5 of the archive; default STL10_MD5 for the official URL. */
  md5?: string;
}

/** Decode STL-10 X (column-major channels) and y (1–10) bytes into an image dataset. */
export function stl10FromBytes(x: Uint8Array, y: Uint8Array, name: string, classNames: readonly string[] = STL10_CLASS_NAMES): ImageDataset {
  if (x.length % PIXELS !== 0) invalidArgument(`${name}: X`, `a multiple of ${PIXELS} bytes (3 × 96 × 96 per image)`, `${x.length} bytes`);
  const n = x.length / PIXELS;
  if (y.length !== n) invalidArgument(`${name}: y`, `${n} labels (one per image)`, `${y.length}`);
  const images = new Float32Array(n * PIXELS);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      const base = i * PIXELS + k * SIDE * SIDE;
      for (let c = 0; c < SIDE; c++) for (let r = 0; r < SIDE; r++) images[base + r * SIDE + c] = x[base + c * SIDE + r]! / 255;
    }
  }
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = y[i]!;
    if (v < 1 || v > 10) invalidArgument(`${name}: y[${i}]`, 'a label in 1..10', String(v));
    labels[i] = v - 1;
  }
  return imageDataset({ name, images, labels, shape: [3, SIDE, SIDE], classes: 10, classNames });
}

async function resolve(options: Stl10Options): Promise<string> {
  const cache = options.cacheDirectory ?? cacheRoot();
  const candidates = options.path !== undefined ? [options.path] : [join(cache, FOLDER), join(cache, ARCHIVE)];
  for (const c of candidates)
    if (
      await stat(c).then(
        () => true,
        () => false,
      )
    )
      return c;
  const destination = options.path !== undefined && /\.(tar\.gz|tgz)$/i.test(options.path) ? options.path : join(options.path ?? cache, ARCHIVE);
  if (options.download) {
    const base = options.baseUrl ?? STL10_URL;
    const md5 = options.md5 ?? (base === STL10_URL ? STL10_MD5 : undefined);
    await downloadFile(new URL(ARCHIVE, base.endsWith('/') ? base : base + '/').href, destination, md5 !== undefined ? { md5 } : {});
    return destination;
  }
  throw new DatasetNotFoundError(
    'stl10',
    `stl10: not found at ${candidates.join(' or ')}. Download ${STL10_URL}${ARCHIVE} (binary release), extract it and pass the ` +
      `${FOLDER} folder as the path option, or pass download: true (on the command line: --data-opt download=true) to fetch it into ${destination}.`,
  );
}

/** Load STL-10's labelled splits: train 5,000 and test 8,000 images [3, 96, 96]. */
export async function loadStl10(options: Stl10Options = {}): Promise<Required<DatasetSplits<ImageDataset>>> {
  const path = await resolve(options);
  const files = ['train_X.bin', 'train_y.bin', 'test_X.bin', 'test_y.bin', 'class_names.txt'];
  const found = await readSource(path, files, FOLDER, ARCHIVE);
  const missing = files.slice(0, 4).filter((f) => !found.has(f));
  if (missing.length > 0) throw new DatasetNotFoundError('stl10', `stl10: ${path} lacks ${missing.join(', ')}; expected the binary release's files`);
  const text = found.get('class_names.txt');
  const names = text
    ? new TextDecoder()
        .decode(text)
        .split(/\r?\n/)
        .map((s) => s.trim())
        .filter((s) => s !== '')
    : [];
  const classNames = names.length === 10 ? names : STL10_CLASS_NAMES;
  return {
    train: stl10FromBytes(found.get('train_X.bin')!, found.get('train_y.bin')!, 'stl10/train', classNames),
    test: stl10FromBytes(found.get('test_X.bin')!, found.get('test_y.bin')!, 'stl10/test', classNames),
  };
}

/** The `stl10` dataset's declaration (load-dataset.ts lists it). */
export const stl10Definition = defineDataset({
  name: 'stl10',
  summary: 'STL-10 (Coates et al. 2011): 96×96 colour images of 10 classes, from the binary archive',
  task: 'image',
  optionKeys: ['path', 'download', 'cacheDirectory', 'baseUrl', 'md5'],
  load: (options: Stl10Options | undefined) => loadStl10(options ?? {}),
  augmentation: 'none',
  oodPartner: null,
});
