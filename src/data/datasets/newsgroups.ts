import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { DatasetNotFoundError } from '../dataset-not-found.js';
import type { DatasetSplits, TextDataset } from '../dataset.js';
import { cacheRoot, downloadFile } from '../download.js';
import { readTar } from '../formats/tar.js';
import { textDatasets, type TextEncodingOptions, type TextRecord } from './text.js';
import type { Vocabulary } from '../vocabulary.js';
import { defineDataset } from '../dataset-definition.js';

/**
 * 20 Newsgroups, the "bydate" release (Lang 1995; Rennie's sorted-by-date split, duplicates and the Newsgroups/Path/
 * Xref/Date headers removed): http://qwone.com/~jason/20Newsgroups/20news-bydate.tar.gz → 20news-bydate-train/<group>/<id>
 * (11,314 posts) and 20news-bydate-test/<group>/<id> (7,532). Each post is a text file, read as Latin-1 (the release
 * is not valid UTF-8 throughout, and Latin-1 maps every byte). Classes are the group folder names in sorted order.
 * Texts are tokenised, and the vocabulary (ids 0 = <pad>, 1 = <unk>, then by decreasing training count) built on the
 * training split only, exactly as the `text` dataset does (vocabulary.ts); every post becomes `maxLength` ids,
 * truncated or padded with 0. `stripHeaders` drops each post's header block (everything up to the first blank line:
 * From, Subject, Organization, Lines, …), as scikit-learn's `remove=('headers',)`.
 */
export const NEWSGROUPS_URL = 'http://qwone.com/~jason/20Newsgroups/';
const ARCHIVE = '20news-bydate.tar.gz';
const SPLITS = { train: '20news-bydate-train', test: '20news-bydate-test' } as const;

/** Options of `loadNewsgroups` (plus the text encoding options: maxLength, minFrequency, maxVocabulary, name). */
export interface NewsgroupsOptions extends TextEncodingOptions {
  /** The folder holding 20news-bydate-train/ and 20news-bydate-test/, or 20news-bydate.tar.gz. Default: the cache. */
  path?: string;
  /** Drop each post's header block (default false: the release's text as is). */
  stripHeaders?: boolean;
  /** Download the archive when nothing is found (default false; the host has no published checksum). */
  download?: boolean;
  /** Cache directory (default cacheRoot()). */
  cacheDirectory?: string;
  /** Base URL of the archive (default NEWSGROUPS_URL). */
  baseUrl?: string;
  /** Expected MD5 of the archive (default none). */
  md5?: string;
}

const latin1 = new TextDecoder('latin1');
const exists = (p: string): Promise<boolean> =>
  stat(p).then(
    () => true,
    () => false,
  );

/** The text of a post, without its header block when `stripHeaders`. */
export function newsgroupsText(bytes: Uint8Array, stripHeaders: boolean): string {
  const text = latin1.decode(bytes);
  if (!stripHeaders) return text;
  const blank = text.search(/\r?\n\r?\n/);
  return blank < 0 ? '' : text.slice(blank).trimStart();
}

/** Records of one split folder: <dir>/<group>/<file>, groups and files in sorted order. */
async function folderRecords(dir: string, stripHeaders: boolean): Promise<TextRecord[]> {
  const records: TextRecord[] = [];
  for (const group of (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()) {
    for (const file of (await readdir(join(dir, group))).sort()) records.push({ text: newsgroupsText(await readFile(join(dir, group, file)), stripHeaders), label: group });
  }
  return records;
}

/** Records of both splits from the tar(.gz) archive. */
async function archiveRecords(path: string, stripHeaders: boolean): Promise<{ train: TextRecord[]; test: TextRecord[] }> {
  let bytes: Uint8Array = await readFile(path);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = new Uint8Array(await promisify(gunzip)(bytes));
  const found = { train: [] as { key: string; record: TextRecord }[], test: [] as { key: string; record: TextRecord }[] };
  for (const entry of readTar(bytes, path)) {
    if (entry.type !== 'file') continue;
    const parts = entry.name.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.length !== 3) continue;
    const split = parts[0] === SPLITS.train ? 'train' : parts[0] === SPLITS.test ? 'test' : undefined;
    if (split === undefined) continue;
    found[split].push({ key: `${parts[1]}\u0000${parts[2]}`, record: { text: newsgroupsText(entry.data, stripHeaders), label: parts[1]! } });
  }
  const sorted = (xs: { key: string; record: TextRecord }[]): TextRecord[] => xs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((x) => x.record);
  return { train: sorted(found.train), test: sorted(found.test) };
}

async function resolve(options: NewsgroupsOptions): Promise<string> {
  const cache = options.cacheDirectory ?? cacheRoot();
  const candidates = options.path !== undefined ? [options.path] : [cache];
  for (const c of candidates) {
    if (await exists(join(c, SPLITS.train))) return c;
    if (await exists(join(c, ARCHIVE))) return join(c, ARCHIVE);
    if (/\.(tar\.gz|tgz|tar)$/i.test(c) && (await exists(c))) return c;
  }
  const destination = options.path !== undefined && /\.(tar\.gz|tgz)$/i.test(options.path) ? options.path : join(options.path ?? cache, ARCHIVE);
  if (options.download) {
    const base = options.baseUrl ?? NEWSGROUPS_URL;
    await downloadFile(new URL(ARCHIVE, base.endsWith('/') ? base : base + '/').href, destination, options.md5 !== undefined ? { md5: options.md5 } : {});
    return destination;
  }
  throw new DatasetNotFoundError(
    'newsgroups',
    `newsgroups: no ${SPLITS.train} folder or ${ARCHIVE} in ${candidates.join(' or ')}. Download ${NEWSGROUPS_URL}${ARCHIVE} and pass it ` +
      `(or the folder it extracts to) as the path option, or pass download: true (on the command line: --data-opt download=true) to fetch it into ${destination}.`,
  );
}

/** Load 20 Newsgroups (bydate): train 11,314 and test 7,532 posts as [maxLength] token ids (default 128), 20 classes. */
export async function loadNewsgroups(options: NewsgroupsOptions = {}): Promise<Required<DatasetSplits<TextDataset>> & { vocabulary: Vocabulary }> {
  const path = await resolve(options);
  const strip = options.stripHeaders ?? false;
  const { train, test } = (await stat(path)).isDirectory()
    ? { train: await folderRecords(join(path, SPLITS.train), strip), test: (await exists(join(path, SPLITS.test))) ? await folderRecords(join(path, SPLITS.test), strip) : [] }
    : await archiveRecords(path, strip);
  if (train.length === 0) throw new DatasetNotFoundError('newsgroups', `newsgroups: ${path} holds no posts under ${SPLITS.train}/<group>/`);
  if (test.length === 0) throw new DatasetNotFoundError('newsgroups', `newsgroups: ${path} holds no posts under ${SPLITS.test}/<group>/`);
  const encoding: TextEncodingOptions = {
    name: options.name ?? '20newsgroups',
    ...(options.maxLength !== undefined ? { maxLength: options.maxLength } : {}),
    ...(options.minFrequency !== undefined ? { minFrequency: options.minFrequency } : {}),
    ...(options.maxVocabulary !== undefined ? { maxVocabulary: options.maxVocabulary } : {}),
  };
  const splits = textDatasets(train, test, encoding);
  return { train: splits.train, test: splits.test!, vocabulary: splits.vocabulary };
}

/** The `newsgroups` dataset's declaration (load-dataset.ts lists it). */
export const newsgroupsDefinition = defineDataset({
  name: 'newsgroups',
  summary: '20 Newsgroups (bydate split) as token ids',
  task: 'text',
  optionKeys: ['path', 'stripHeaders', 'download', 'cacheDirectory', 'baseUrl', 'md5', 'maxLength', 'minFrequency', 'maxVocabulary', 'name'],
  load: async (options: NewsgroupsOptions | undefined) => {
    const { train, test } = await loadNewsgroups(options ?? {});
    return { train, test };
  },
  augmentation: 'none',
  oodPartner: null,
});
