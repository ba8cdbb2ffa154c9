/**
 * A folder of PNG/JPEG images as a batch of model inputs (each decoded, converted to the model's channels, resized
 * to H × W and scaled to [0, 1] by data/formats/decode-image.ts). One subfolder per class gives the labels (classes =
 * subfolder names in sorted order, as torchvision's ImageFolder); images directly in the folder are unlabelled.
 * Files are read in sorted order.
 */
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { decodeImage, toPlanes, type DecodeImageOptions } from '../data/formats/decode-image.js';
import { invalidArgument } from '../util/errors.js';

const EXTENSIONS = new Set(['.png', '.jpg', '.jpeg']);

export interface ImageFolder {
  /** N × channels × H × W in [0, 1]. */
  readonly images: Float32Array;
  readonly count: number;
  /** Labels (class index per image) when the folder has one subfolder per class. */
  readonly labels: Int32Array | null;
  readonly classNames: readonly string[];
  readonly files: readonly string[];
}

/**
 * Read every PNG/JPEG in `dir` (and its class subfolders) as channels × height × width inputs in [0, 1]. Each file's
 * header is checked against `decode.maxPixels` before it is decoded (data/formats/decode-image.ts).
 */
export async function readImageFolder(dir: string, shape: { channels: number; height: number; width: number }, argName = '--images', decode: DecodeImageOptions = {}): Promise<ImageFolder> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    invalidArgument(argName, 'a folder of PNG/JPEG images', `${JSON.stringify(dir)} (${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such folder' : (error as Error).message})`);
  }
  const isImage = (name: string) => EXTENSIONS.has(extname(name).toLowerCase());
  const classNames = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const items: { file: string; label: number }[] = [];
  if (classNames.length > 0) {
    for (const [label, name] of classNames.entries()) {
      const files = (await readdir(join(dir, name))).filter(isImage).sort();
      for (const f of files) items.push({ file: join(dir, name, f), label });
    }
  } else {
    for (const f of entries
      .filter((e) => e.isFile() && isImage(e.name))
      .map((e) => e.name)
      .sort())
      items.push({ file: join(dir, f), label: -1 });
  }
  if (items.length === 0) invalidArgument(argName, 'a folder with PNG/JPEG images (directly, or one subfolder per class)', `${JSON.stringify(dir)} (no .png/.jpg/.jpeg files)`);
  const { channels, height, width } = shape;
  const per = channels * height * width;
  const images = new Float32Array(items.length * per);
  for (const [i, item] of items.entries()) {
    const img = decodeImage(new Uint8Array(await readFile(item.file)), item.file, argName, decode);
    toPlanes(img, channels, height, width, images, i * per);
  }
  return {
    images,
    count: items.length,
    labels: classNames.length > 0 ? Int32Array.from(items.map((it) => it.label)) : null,
    classNames,
    files: items.map((it) => it.file),
  };
}
