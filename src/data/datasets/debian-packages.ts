import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { invalidArgument, requireNumber } from '../../util/errors.js';
import { DatasetNotFoundError } from '../dataset-not-found.js';
import type { DatasetSplits, TextDataset } from '../dataset.js';
import { isGzip } from '../formats/idx.js';
import { decompressLz4, isLz4 } from '../formats/lz4.js';
import { textDatasets, type TextEncodingOptions, type TextRecord } from './text.js';
import { tokenize, type Vocabulary } from '../vocabulary.js';
import { defineDataset } from '../dataset-definition.js';

/**
 * Debian package descriptions classified by their archive Section: an offline text-classification set read from
 * the package lists apt keeps on every Debian machine (/var/lib/apt/lists/*_Packages, plain, .gz or .lz4).
 *
 * Lists are deb822 control files (Debian Policy §5.1): stanzas separated by blank lines, `Field: value` lines, and
 * continuation lines starting with a space or tab; in Description the first line is the synopsis and " ." stands
 * for a blank line of the long description (Policy §5.6.13). Each package gives
 *
 *   text  = its Description (synopsis + long description, " ." → empty line); the official archive's Packages files
 *           carry the synopsis only (long descriptions live in Translation-en), so there the texts are one-line,
 *           sentence-classification texts like the MR / TREC sets of Thulasidasan et al. §4;
 *   label = its Section with any archive-area prefix removed ("contrib/games", "non-free/games" → "games"; likewise
 *           Ubuntu's "universe/…"), i.e. the part after the last "/".
 *
 * Packages are deduplicated by name (the first stanza in sorted-file order wins), texts with fewer than `minTokens`
 * tokens are dropped, and only the `sections` most frequent labels are kept (ties by name). The split is by a hash
 * of the package name, stable across machines and list versions: a package is in test when
 * SHA-256(name)'s first 32 bits / 2³² < `testFraction`. The vocabulary and label ids come from the training part
 * (text.ts / vocabulary.ts, as the `text` and `newsgroups` sets); validation is held out of train by the trainer as
 * for every dataset. The lists change with every `apt-get update`, so `source` records what was read: the list
 * files, the newest Release/InRelease Date, and the package counts. The data is Debian package metadata (the
 * maintainers' descriptions, distributed with the archive's index files).
 */
export const APT_LISTS_DIRECTORY = '/var/lib/apt/lists';

/** Options of `loadDebianPackages` (plus the text encoding options: maxLength, minFrequency, maxVocabulary, name). */
export interface DebianPackagesOptions extends TextEncodingOptions {
  /** Folder holding the *_Packages lists (default /var/lib/apt/lists). */
  listsDirectory?: string;
  /** Number K of most frequent sections kept as classes (default 20). */
  sections?: number;
  /** Drop descriptions with fewer tokens than this (default 3). */
  minTokens?: number;
  /** Fraction of packages (by name hash) in the test split (default 0.2). */
  testFraction?: number;
}

/** One package stanza of a Packages list. */
export interface PackageStanza {
  readonly package: string;
  readonly section: string;
  readonly description: string;
}

/**
 * The Package, Section and Description of each stanza of a Packages file (deb822; see the module comment).
 * Stanzas missing one of the three fields are skipped. Description: the synopsis, then each continuation line
 * without its leading space, " ." lines as empty lines.
 */
export function parsePackages(text: string): PackageStanza[] {
  const out: PackageStanza[] = [];
  let fields = new Map<string, string>();
  let current: string | undefined;
  const flush = (): void => {
    const p = fields.get('package');
    const s = fields.get('section');
    const d = fields.get('description');
    if (p !== undefined && s !== undefined && d !== undefined && p !== '' && s !== '') out.push({ package: p, section: s, description: d });
    fields = new Map();
    current = undefined;
  };
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (line[0] === ' ' || line[0] === '\t') {
      if (current === 'description') {
        const rest = line.slice(1);
        fields.set(current, `${fields.get(current)}\n${rest.trim() === '.' ? '' : rest}`);
      }
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    current = line.slice(0, colon).toLowerCase();
    if (current === 'package' || current === 'section' || current === 'description') fields.set(current, line.slice(colon + 1).trim());
    else current = undefined;
  }
  flush();
  return out;
}

/** The class of a Section: the part after the last "/" ("contrib/games" → "games"). */
export function sectionLabel(section: string): string {
  return section.slice(section.lastIndexOf('/') + 1);
}

/** Position of a package in [0, 1) by the first 32 bits of SHA-256 of its name (the split's hash). */
export function packageHash(name: string): number {
  return createHash('sha256').update(name, 'utf8').digest().readUInt32BE(0) / 2 ** 32;
}

/** Text of a (possibly compressed) list file: .lz4 and gzip by their magic bytes, otherwise UTF-8 text. */
function decodeList(bytes: Uint8Array, path: string): string {
  let raw = bytes;
  if (isLz4(raw)) raw = decompressLz4(raw, path);
  else if (isGzip(raw)) raw = gunzipSync(raw);
  return new TextDecoder('utf-8').decode(raw);
}

/** Whether a file name is a Packages list this loader reads. */
const PACKAGES_FILE = /(^|_)Packages(\.(lz4|gz))?$/;
/** Packages lists in a compression this loader does not read. */
const UNREADABLE_FILE = /(^|_)Packages\.(xz|bz2|zst|lzma)$/;
const RELEASE_FILE = /(^|_)(In)?Release$/;

/** The newest `Date:` of the Release / InRelease files in `dir`, as an ISO string (undefined when none). */
async function releaseDate(dir: string, names: readonly string[]): Promise<string | undefined> {
  let newest: number | undefined;
  for (const name of names.filter((n) => RELEASE_FILE.test(n))) {
    const text = await readFile(join(dir, name), 'utf8').catch(() => '');
    const m = /^Date:\s*(.+)$/m.exec(text);
    const t = m ? Date.parse(m[1]!) : Number.NaN;
    if (Number.isFinite(t) && (newest === undefined || t > newest)) newest = t;
  }
  return newest === undefined ? undefined : new Date(newest).toISOString();
}

/** The packages of the lists (deduplicated, short texts dropped, top-K sections) and what was read. */
export interface DebianRecords {
  readonly train: TextRecord[];
  readonly test: TextRecord[];
  /** Counts and provenance (see `loadDebianPackages`'s `source`). */
  readonly source: Readonly<Record<string, string | number>>;
}

/** Records of the Packages lists in `dir` (see the module comment); no tokenising beyond the length filter. */
export async function debianRecords(options: DebianPackagesOptions = {}): Promise<DebianRecords> {
  const dir = options.listsDirectory ?? APT_LISTS_DIRECTORY;
  const k = requireNumber('sections', options.sections ?? 20, { integer: true, min: 2 });
  const minTokens = requireNumber('minTokens', options.minTokens ?? 3, { integer: true, min: 0 });
  const testFraction = requireNumber('testFraction', options.testFraction ?? 0.2, { min: 0, max: 1, exclusiveMin: true, exclusiveMax: true });
  const hint = 'Run `apt-get update` (as root) to download the package lists, or pass listsDirectory=… (on the command line: --data-opt listsDirectory=DIR) naming a folder of *_Packages files.';
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch {
    throw new DatasetNotFoundError('debian-packages', `debian-packages: cannot read the apt lists folder ${dir}. ${hint}`);
  }
  const lists = names.filter((n) => PACKAGES_FILE.test(n));
  if (lists.length === 0) {
    const unreadable = names.filter((n) => UNREADABLE_FILE.test(n));
    const extra = unreadable.length > 0 ? ` (found ${unreadable.join(', ')}: only plain, .gz and .lz4 lists are read; decompress one next to it)` : '';
    throw new DatasetNotFoundError('debian-packages', `debian-packages: no *_Packages lists in ${dir}${extra}. ${hint}`);
  }
  const seen = new Map<string, TextRecord>();
  let stanzas = 0;
  for (const name of lists) {
    for (const s of parsePackages(decodeList(await readFile(join(dir, name)), join(dir, name)))) {
      stanzas++;
      if (!seen.has(s.package)) seen.set(s.package, { text: s.description, label: sectionLabel(s.section) });
    }
  }
  const unique = seen.size;
  const long = [...seen.entries()].filter(([, r]) => tokenize(r.text).length >= minTokens);
  const counts = new Map<string, number>();
  for (const [, r] of long) counts.set(r.label, (counts.get(r.label) ?? 0) + 1);
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, k);
  if (top.length < 2) invalidArgument(`debian-packages (${dir})`, 'packages of at least 2 sections', `${top.length} section(s) among ${unique} packages`);
  const kept = new Set(top.map(([s]) => s));
  const train: TextRecord[] = [];
  let test: TextRecord[] = [];
  for (const [name, r] of long) {
    if (!kept.has(r.label)) continue;
    (packageHash(name) < testFraction ? test : train).push(r);
  }
  // Only tiny lists can leave a section without training packages; its test packages cannot be labelled then.
  const trained = new Set(train.map((r) => r.label));
  test = test.filter((r) => trained.has(r.label));
  const date = await releaseDate(dir, names);
  return {
    train,
    test,
    source: {
      lists_directory: dir,
      lists: lists.join(', '),
      ...(date !== undefined ? { release_date: date } : {}),
      stanzas,
      packages: unique,
      packages_long_enough: long.length,
      packages_kept: train.length + test.length,
      sections: top.map(([s, c]) => `${s} ${c}`).join(', '),
    },
  };
}

/**
 * Load the Debian package descriptions set: train and test splits of [maxLength] token ids (default 32: the
 * synopses are ~5–15 tokens), K = `sections` classes (default 20), and `source` (list files, Release date, counts).
 */
export async function loadDebianPackages(
  options: DebianPackagesOptions = {},
): Promise<Required<DatasetSplits<TextDataset>> & { vocabulary: Vocabulary; source: Readonly<Record<string, string | number>> }> {
  const { train, test, source } = await debianRecords(options);
  if (test.length === 0) invalidArgument(`debian-packages (${source['lists_directory']})`, 'packages in the test split', `none of ${train.length}`);
  const splits = textDatasets(train, test, {
    name: options.name ?? 'debian-packages',
    maxLength: options.maxLength ?? 32,
    ...(options.minFrequency !== undefined ? { minFrequency: options.minFrequency } : {}),
    ...(options.maxVocabulary !== undefined ? { maxVocabulary: options.maxVocabulary } : {}),
  });
  return { train: splits.train, test: splits.test!, vocabulary: splits.vocabulary, source: { ...source, train: train.length, test: test.length, vocabulary: splits.vocabulary.tokens.length } };
}

/** The `debian-packages` dataset's declaration (load-dataset.ts lists it). */
export const debianPackagesDefinition = defineDataset({
  name: 'debian-packages',
  summary: "Debian package descriptions by Section, read from apt's lists (the data's source is recorded)",
  task: 'text',
  optionKeys: ['listsDirectory', 'sections', 'minTokens', 'testFraction', 'maxLength', 'minFrequency', 'maxVocabulary', 'name'],
  load: async (options: DebianPackagesOptions | undefined) => {
    const { train, test, source } = await loadDebianPackages(options ?? {});
    return { train, test, source };
  },
  augmentation: 'none',
  oodPartner: null,
});
