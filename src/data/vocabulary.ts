import { describe, invalidArgument, requireNumber } from '../util/errors.js';

/**
 * Tokenising and encoding text for classification.
 * Tokenizer: lowercase (String.prototype.toLowerCase, locale-independent), split on runs of characters that
 * are neither letters nor digits (Unicode \p{L}, \p{N}), drop empty pieces: "Don't STOP—now!" →
 * ["don", "t", "stop", "now"].
 * Vocabulary: id 0 = "<pad>", id 1 = "<unk>", then the training tokens seen at least `minFrequency` times,
 * by decreasing count, ties by code-unit order of the token, cut to `maxSize` entries in all.
 */
export const PAD = '<pad>';
export const UNK = '<unk>';
export const PAD_ID = 0;
export const UNK_ID = 1;

/** Split a text into lowercase alphanumeric tokens. */
export function tokenize(text: string): string[] {
  if (typeof text !== 'string') invalidArgument('text', 'a string', describe(text));
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

/** Options of `buildVocabulary`. */
export interface VocabularyOptions {
  /** Keep tokens seen at least this often (default 1). */
  minFrequency?: number;
  /** Most entries, including <pad> and <unk> (default unlimited). */
  maxSize?: number;
}

/** A vocabulary: token strings by id and the inverse map. */
export interface Vocabulary {
  readonly tokens: readonly string[];
  readonly ids: ReadonlyMap<string, number>;
}

/** Build the vocabulary from tokenised training texts (see the module comment for the order). */
export function buildVocabulary(documents: readonly (readonly string[])[], options: VocabularyOptions = {}): Vocabulary {
  const minFrequency = requireNumber('minFrequency', options.minFrequency ?? 1, { integer: true, min: 1 });
  const maxSize = options.maxSize === undefined ? Infinity : requireNumber('maxSize', options.maxSize, { integer: true, min: 2 });
  const counts = new Map<string, number>();
  for (const doc of documents) for (const t of doc) counts.set(t, (counts.get(t) ?? 0) + 1);
  const kept = [...counts.entries()]
    .filter(([, c]) => c >= minFrequency)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, Math.max(0, maxSize - 2))
    .map(([t]) => t);
  const tokens = [PAD, UNK, ...kept];
  return { tokens, ids: new Map(tokens.map((t, i) => [t, i])) };
}

/**
 * Encode tokenised documents as an [N, L] Int32Array: the ids of the first L tokens (unknown → 1), padded with 0
 * at the end.
 */
export function encodeDocuments(documents: readonly (readonly string[])[], vocabulary: Vocabulary, length: number): Int32Array {
  const l = requireNumber('length', length, { integer: true, min: 1 });
  const out = new Int32Array(documents.length * l);
  documents.forEach((doc, i) => {
    const m = Math.min(doc.length, l);
    for (let t = 0; t < m; t++) out[i * l + t] = vocabulary.ids.get(doc[t]!) ?? UNK_ID;
  });
  return out;
}

/**
 * Deterministic label ids: the distinct label strings sorted numerically when they are all integers
 * (so "2" < "10"), otherwise by code units; id = position. Returns the sorted names.
 */
export function labelNames(labels: readonly string[]): string[] {
  const distinct = [...new Set(labels)];
  if (distinct.every((s) => /^-?\d+$/.test(s))) return distinct.sort((a, b) => Number(a) - Number(b));
  return distinct.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
