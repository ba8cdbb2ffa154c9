import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeImage, toPlanes } from '../formats/decode-image.js';
import { describe, invalidArgument, requireNumber } from '../../util/errors.js';
import { DatasetNotFoundError } from '../dataset-not-found.js';
import { imageDataset, type DatasetSplits, type ImageDataset } from '../dataset.js';
import { cacheRoot } from '../download.js';
import { defineDataset } from '../dataset-definition.js';

/**
 * Tiny-ImageNet (the CS231n release, 200 classes of 64 × 64 RGB JPEGs), from the extracted official zip
 * http://cs231n.stanford.edu/tiny-imagenet-200.zip (≈ 237 MB; unzip it, then pass the tiny-imagenet-200 folder or
 * its parent as `path`). Layout read:
 *   tiny-imagenet-200/wnids.txt                          the 200 WordNet ids, one a line
 *   tiny-imagenet-200/words.txt                          "<wnid>\t<names>" for all of WordNet (class names)
 *   tiny-imagenet-200/train/<wnid>/images/*.JPEG         500 training images per class
 *   tiny-imagenet-200/val/images/*.JPEG + val/val_annotations.txt  ("<file>\t<wnid>\t<box…>"), 10,000 labelled
 *   tiny-imagenet-200/test/images/*.JPEG                 10,000 unlabelled images (not loaded)
 * Classes are the wnids in sorted order (the order of torchvision's ImageFolder over train/); the labelled val split
 * is returned as the test split, as is usual since the test labels were never released. Images are decoded with
 * jpeg-js (grayscale JPEGs, a few hundred in the release, are replicated to 3 channels), files read in sorted order,
 * values byte/255 as [3, 64, 64]. Memory: the full training split is 100,000 × 12,288 float32 = 4.9 GB; `perClass`
 * keeps the first k training images of each class (in sorted file order).
 */
export const TINY_IMAGENET_URL = 'http://cs231n.stanford.edu/tiny-imagenet-200.zip';
const FOLDER = 'tiny-imagenet-200';
const SIDE = 64;
const PIXELS = 3 * SIDE * SIDE;

/** Options of `loadTinyImageNet`. */
export interface TinyImageNetOptions {
  /** The extracted tiny-imagenet-200 folder or its parent (default: <cache>/tiny-imagenet-200). */
  path?: string;
  /** Keep at most this many training images per class (default all 500). */
  perClass?: number;
  /** Cache directory searched when `path` is absent (default cacheRoot()). */
  cacheDirectory?: string;
}

const exists = (p: string): Promise<boolean> =>
  stat(p).then(
    () => true,
    () => false,
  );

async function resolveRoot(options: TinyImageNetOptions): Promise<string> {
  const candidates = options.path !== undefined ? [options.path, join(options.path, FOLDER)] : [join(options.cacheDirectory ?? cacheRoot(), FOLDER)];
  for (const c of candidates) if (await exists(join(c, 'wnids.txt'))) return c;
  throw new DatasetNotFoundError(
    'tiny-imagenet',
    `tiny-imagenet: no wnids.txt in ${candidates.join(' or ')}. Download ${TINY_IMAGENET_URL}, unzip it and pass the ${FOLDER} ` +
      `folder as the path option (on the command line: --data-opt path=…/${FOLDER}).`,
  );
}

const lines = (bytes: Uint8Array): string[] =>
  new TextDecoder()
    .decode(bytes)
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** Decode the listed JPEG files into one [n, 3, 64, 64] array (any other size is an error naming the file). */
async function decodeAll(files: readonly string[], name: string): Promise<Float32Array> {
  const images = new Float32Array(files.length * PIXELS);
  for (let i = 0; i < files.length; i++) {
    const img = decodeImage(await readFile(files[i]!), files[i]!, name);
    if (img.width !== SIDE || img.height !== SIDE) invalidArgument(`${name}: ${files[i]}`, `a ${SIDE} × ${SIDE} image`, `${img.width} × ${img.height}`);
    toPlanes(img, 3, SIDE, SIDE, images, i * PIXELS);
  }
  return images;
}

const isJpeg = (f: string): boolean => /\.jpe?g$/i.test(f);

/** Load Tiny-ImageNet's train split (100,000 images, or `perClass` per class) and its labelled val split as test. */
export async function loadTinyImageNet(options: TinyImageNetOptions = {}): Promise<Required<DatasetSplits<ImageDataset>>> {
  const perClass = options.perClass === undefined ? Infinity : requireNumber('tiny-imagenet options.perClass', options.perClass, { integer: true, min: 1 });
  const root = await resolveRoot(options);
  const wnids = [...new Set(lines(await readFile(join(root, 'wnids.txt'))))].sort();
  if (wnids.length < 2) invalidArgument(`tiny-imagenet: ${join(root, 'wnids.txt')}`, 'at least two WordNet ids', String(wnids.length));
  const index = new Map(wnids.map((w, i) => [w, i]));
  const words = new Map<string, string>();
  if (await exists(join(root, 'words.txt'))) {
    for (const line of lines(await readFile(join(root, 'words.txt')))) {
      const tab = line.indexOf('\t');
      if (tab > 0) words.set(line.slice(0, tab), line.slice(tab + 1).trim());
    }
  }
  const classNames = wnids.map((w) => words.get(w) ?? w);

  const trainFiles: string[] = [];
  const trainLabels: number[] = [];
  for (const [k, wnid] of wnids.entries()) {
    const dir = join(root, 'train', wnid, 'images');
    const names = await readdir(dir).catch(() => {
      throw new DatasetNotFoundError('tiny-imagenet', `tiny-imagenet: ${dir} is missing (class ${wnid} of wnids.txt)`);
    });
    const kept = names.filter(isJpeg).sort().slice(0, perClass);
    for (const f of kept) {
      trainFiles.push(join(dir, f));
      trainLabels.push(k);
    }
  }

  const annotations = join(root, 'val', 'val_annotations.txt');
  if (!(await exists(annotations))) throw new DatasetNotFoundError('tiny-imagenet', `tiny-imagenet: ${annotations} is missing`);
  const val = lines(await readFile(annotations))
    .map((line, i) => {
      const [file, wnid] = line.split('\t');
      const label = wnid === undefined ? undefined : index.get(wnid);
      if (file === undefined || label === undefined) invalidArgument(`tiny-imagenet: ${annotations} line ${i + 1}`, '"<file>\\t<wnid of wnids.txt>…"', describe(line));
      return { file, label };
    })
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));

  const make = (split: string, files: readonly string[], labels: readonly number[]): Promise<ImageDataset> =>
    decodeAll(files, `tiny-imagenet/${split}`).then((images) =>
      imageDataset({ name: `tiny-imagenet/${split}`, images, labels: Int32Array.from(labels), shape: [3, SIDE, SIDE], classes: wnids.length, classNames }),
    );
  return {
    train: await make('train', trainFiles, trainLabels),
    test: await make(
      'val',
      val.map((v) => join(root, 'val', 'images', v.file)),
      val.map((v) => v.label),
    ),
  };
}

/** The `tiny-imagenet` dataset's declaration (load-dataset.ts lists it). */
export const tinyImageNetDefinition = defineDataset({
  name: 'tiny-imagenet',
  summary: 'Tiny ImageNet: 64×64 images of 200 classes from the extracted tiny-imagenet-200 folder',
  task: 'image',
  optionKeys: ['path', 'perClass', 'cacheDirectory'],
  load: (options: TinyImageNetOptions | undefined) => loadTinyImageNet(options ?? {}),
  augmentation: 'none',
  oodPartner: null,
});
