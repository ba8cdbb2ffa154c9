import { DatasetNotFoundError } from '../dataset-not-found.js';
import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { invalidArgument } from '../../util/errors.js';
import { imageDataset, type DatasetSplits, type ImageDataset } from '../dataset.js';
import { cacheRoot, downloadFile } from '../download.js';
import { isGzip } from '../formats/idx.js';
import { readTar } from '../formats/tar.js';
import { defineDataset } from '../dataset-definition.js';

/**
 * CIFAR-10 and CIFAR-100 (Krizhevsky 2009), official binary versions
 * (https://www.cs.toronto.edu/~kriz/cifar.html).
 *
 * CIFAR-10 (cifar-10-binary.tar.gz → cifar-10-batches-bin/): data_batch_1..5.bin (training, 10,000 records
 * each) and test_batch.bin; each record is 3,073 bytes: the label (0–9), then 3,072 pixel bytes: the 1,024
 * red values of the 32×32 image row by row, then green, then blue — already C×H×W. batches.meta.txt has the
 * class names. CIFAR-100 (cifar-100-binary.tar.gz → cifar-100-binary/): train.bin (50,000) and test.bin
 * (10,000), 3,074-byte records: coarse label (0–19), fine label (0–99), 3,072 pixel bytes;
 * coarse_label_names.txt and fine_label_names.txt. Values are byte/255; shape [3, 32, 32].
 */
export const CIFAR10_CLASS_NAMES: readonly string[] = ['airplane', 'automobile', 'bird', 'cat', 'deer', 'dog', 'frog', 'horse', 'ship', 'truck'];

const PIXELS = 3 * 32 * 32;

/** The official binary archives over https (Krizhevsky's page). */
export const CIFAR_URL = 'https://www.cs.toronto.edu/~kriz/';

/** MD5 of the official binary archives (as published on https://www.cs.toronto.edu/~kriz/cifar.html). */
export const CIFAR_MD5: Readonly<Record<string, string>> = {
  'cifar-10-binary.tar.gz': 'c32a1d4ab5d03f1284b67883e8d87530',
  'cifar-100-binary.tar.gz': '03b5dce01913d631647c71ecec9e9cb8',
};

/** Options of the CIFAR loaders. */
export interface CifarOptions {
  /**
   * The official .tar.gz (or .tar), or a directory holding the extracted .bin files (directly or in the
   * archive's top folder); when given, only it is searched. Default: <cacheDirectory>/<archive name>, else the
   * extracted folder there.
   */
  path?: string;
  /** Download the official archive when it is not found (default false). */
  download?: boolean;
  /** Cache directory searched and downloaded into (default cacheRoot()). */
  cacheDirectory?: string;
  /** Base URL of the archive (default CIFAR_URL). */
  baseUrl?: string;
  /** Expected MD5 of the archive; default CIFAR_MD5's for the official URL, none for another base URL. */
  md5?: string;
}

/** Options of `loadCifar100`. */
export interface Cifar100Options extends CifarOptions {
  /** Which labels to use: the 100 fine classes (default) or the 20 coarse superclasses. */
  labels?: 'fine' | 'coarse';
}

const gunzipAsync = promisify(gunzip);

/**
 * Read the named files (by base name) from an archive or a directory (the files directly in it, in `folder`
 * there, or else in the archive `archive` there); missing files are absent from the map.
 */
export async function readSource(path: string, wanted: readonly string[], folder: string, archive: string): Promise<Map<string, Uint8Array>> {
  const found = new Map<string, Uint8Array>();
  const info = await stat(path);
  if (info.isDirectory()) {
    for (const dir of [path, join(path, folder)]) {
      for (const name of wanted) {
        if (found.has(name)) continue;
        try {
          found.set(name, await readFile(join(dir, name)));
        } catch {
          /* not in this folder */
        }
      }
    }
    const inner = join(path, archive);
    if (found.size === 0 && (await stat(inner).catch(() => undefined))?.isFile()) return readSource(inner, wanted, folder, archive);
    return found;
  }
  let bytes: Uint8Array = await readFile(path);
  if (isGzip(bytes)) bytes = new Uint8Array(await gunzipAsync(bytes));
  for (const entry of readTar(bytes, path)) {
    const name = basename(entry.name);
    if (entry.type === 'file' && wanted.includes(name) && !found.has(name)) found.set(name, entry.data);
  }
  return found;
}

/** Where a download goes: `path` itself when it names a .tar.gz / .tgz file, else <path>/<archive>. */
function downloadDestination(path: string, archive: string): string {
  return /\.(tar\.gz|tgz)$/i.test(path) ? path : join(path, archive);
}

async function resolvePath(options: CifarOptions, archive: string, folder: string): Promise<string> {
  const cache = options.cacheDirectory ?? cacheRoot();
  const candidates = options.path !== undefined ? [options.path] : [join(cache, archive), join(cache, folder)];
  for (const c of candidates) {
    try {
      await stat(c);
      return c;
    } catch {
      /* try the next */
    }
  }
  const destination = downloadDestination(options.path ?? cache, archive);
  if (options.download) {
    const base = options.baseUrl ?? CIFAR_URL;
    const md5 = options.md5 ?? (base === CIFAR_URL ? CIFAR_MD5[archive] : undefined);
    await downloadFile(new URL(archive, base.endsWith('/') ? base : base + '/').href, destination, md5 !== undefined ? { md5 } : {});
    return destination;
  }
  throw new DatasetNotFoundError(
    'cifar',
    `${archive.replace(/-binary\.tar\.gz$/, '')}: not found at ${candidates.join(' or ')}. Download the binary version ` +
      `${CIFAR_URL}${archive} and pass its path (or the extracted ${folder} directory) as the path option, ` +
      `or put it at ${candidates[0]}, or pass download: true (on the command line: --data-opt download=true) to fetch it into ${destination}.`,
  );
}

function requireFiles(found: Map<string, Uint8Array>, names: readonly string[], path: string): void {
  const missing = names.filter((n) => !found.has(n));
  if (missing.length > 0) throw new Error(`cifar: ${path} lacks ${missing.join(', ')}; expected the official binary version's files`);
}

/** Decode concatenated CIFAR records of `labelBytes` label bytes + 3,072 pixels; `labelIndex` picks the label byte. */
export function decodeCifarRecords(chunks: readonly Uint8Array[], labelBytes: 1 | 2, labelIndex: number, source: string): { images: Float32Array; labels: Int32Array } {
  const record = labelBytes + PIXELS;
  let n = 0;
  for (const [i, c] of chunks.entries()) {
    if (c.length % record !== 0) invalidArgument(`${source}[${i}]`, `a multiple of ${record}-byte records`, `${c.length} bytes`);
    n += c.length / record;
  }
  const images = new Float32Array(n * PIXELS);
  const labels = new Int32Array(n);
  let k = 0;
  for (const c of chunks) {
    for (let r = 0; r < c.length; r += record, k++) {
      labels[k] = c[r + labelIndex]!;
      const out = k * PIXELS;
      const start = r + labelBytes;
      for (let j = 0; j < PIXELS; j++) images[out + j] = c[start + j]! / 255;
    }
  }
  return { images, labels };
}

function names(bytes: Uint8Array | undefined): string[] | undefined {
  if (bytes === undefined) return undefined;
  return new TextDecoder()
    .decode(bytes)
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Load CIFAR-10: train 50,000 (batches 1–5 in order) and test 10,000, shape [3, 32, 32]. */
export async function loadCifar10(options: CifarOptions = {}): Promise<Required<DatasetSplits<ImageDataset>>> {
  const folder = 'cifar-10-batches-bin';
  const path = await resolvePath(options, 'cifar-10-binary.tar.gz', folder);
  const trainFiles = [1, 2, 3, 4, 5].map((i) => `data_batch_${i}.bin`);
  const found = await readSource(path, [...trainFiles, 'test_batch.bin', 'batches.meta.txt'], folder, 'cifar-10-binary.tar.gz');
  requireFiles(found, [...trainFiles, 'test_batch.bin'], path);
  const classNames = names(found.get('batches.meta.txt')) ?? CIFAR10_CLASS_NAMES;
  const make = (split: string, files: string[]) => {
    const { images, labels } = decodeCifarRecords(
      files.map((f) => found.get(f)!),
      1,
      0,
      `${path}: ${split}`,
    );
    return imageDataset({ name: `cifar10/${split}`, images, labels, shape: [3, 32, 32], classes: 10, classNames: classNames.length === 10 ? classNames : CIFAR10_CLASS_NAMES });
  };
  return { train: make('train', trainFiles), test: make('test', ['test_batch.bin']) };
}

/** Load CIFAR-100 with fine (100) or coarse (20) labels: train 50,000 and test 10,000, shape [3, 32, 32]. */
export async function loadCifar100(options: Cifar100Options = {}): Promise<Required<DatasetSplits<ImageDataset>>> {
  const which = options.labels ?? 'fine';
  if (which !== 'fine' && which !== 'coarse') invalidArgument('labels', '"fine" or "coarse"', JSON.stringify(which));
  const folder = 'cifar-100-binary';
  const path = await resolvePath(options, 'cifar-100-binary.tar.gz', folder);
  const found = await readSource(path, ['train.bin', 'test.bin', 'fine_label_names.txt', 'coarse_label_names.txt'], folder, 'cifar-100-binary.tar.gz');
  requireFiles(found, ['train.bin', 'test.bin'], path);
  const classes = which === 'fine' ? 100 : 20;
  const classNames = names(found.get(`${which}_label_names.txt`));
  const make = (split: string, file: string) => {
    const { images, labels } = decodeCifarRecords([found.get(file)!], 2, which === 'fine' ? 1 : 0, `${path}: ${file}`);
    return imageDataset({
      name: `cifar100${which === 'coarse' ? '-coarse' : ''}/${split}`,
      images,
      labels,
      shape: [3, 32, 32],
      classes,
      ...(classNames && classNames.length === classes ? { classNames } : {}),
    });
  };
  return { train: make('train', 'train.bin'), test: make('test', 'test.bin') };
}

/** The `cifar10` dataset's declaration (load-dataset.ts lists it). */
export const cifar10Definition = defineDataset({
  name: 'cifar10',
  summary: 'CIFAR-10 (Krizhevsky 2009): 32×32 colour images of 10 classes, from the official binary archive (or its folder) or downloaded',
  task: 'image',
  optionKeys: ['path', 'download', 'cacheDirectory', 'baseUrl', 'md5'],
  load: (options: CifarOptions | undefined) => loadCifar10(options ?? {}),
  augmentation: 'crop-flip',
  oodPartner: 'svhn',
});

/** The `cifar100` dataset's declaration (load-dataset.ts lists it). */
export const cifar100Definition = defineDataset({
  name: 'cifar100',
  summary: 'CIFAR-100 (Krizhevsky 2009): 100 fine (or 20 coarse) classes, from the official binary archive (or its folder) or downloaded',
  task: 'image',
  optionKeys: ['path', 'download', 'cacheDirectory', 'baseUrl', 'md5', 'labels'],
  load: (options: Cifar100Options | undefined) => loadCifar100(options ?? {}),
  augmentation: 'crop-flip',
  oodPartner: 'svhn',
});
