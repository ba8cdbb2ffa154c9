import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { describe, invalidArgument, requireNumber } from '../../util/errors.js';
import { textDataset, type DatasetSplits, type TextDataset } from '../dataset.js';
import { buildVocabulary, encodeDocuments, labelNames, tokenize, type Vocabulary } from '../vocabulary.js';
import { defineDataset } from '../dataset-definition.js';

/**
 * Text classification sets from CSV or JSON Lines files.
 * CSV (RFC 4180): a header row naming the columns, fields separated by `delimiter` (default ","), fields may be
 * quoted with " (a doubled "" inside quotes is a quote; quoted fields may span lines), CRLF or LF line ends,
 * a UTF-8 byte-order mark is ignored. JSONL: one JSON object per non-empty line, e.g. {"text": "...", "label": "pos"}
 * (labels may be strings or numbers). The vocabulary and the label ids are built from the training split only
 * (see vocabulary.ts); the test split is encoded with them (its unknown tokens map to <unk>; an unknown label is an error).
 */
export interface TextRecord {
  readonly text: string;
  readonly label: string;
}

/** Parse CSV text into rows of fields. */
export function parseCsv(text: string, delimiter = ',', source = 'csv'): string[][] {
  if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\n') invalidArgument('delimiter', 'one character other than a quote or newline', JSON.stringify(delimiter));
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let fieldStarted = false;
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
      continue;
    }
    if (ch === '"' && field === '' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (ch === delimiter) {
      row.push(field);
      field = '';
      fieldStarted = false;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (!(row.length === 1 && row[0] === '')) rows.push(row);
      row = [];
      field = '';
      fieldStarted = false;
    } else {
      field += ch;
      fieldStarted = true;
    }
  }
  if (quoted) invalidArgument(source, 'CSV with closed quotes', 'an unterminated quoted field');
  if (field !== '' || fieldStarted || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** Columns / keys to read. */
export interface TextFields {
  /** Name of the text column / key (default "text"). */
  textField?: string;
  /** Name of the label column / key (default "label"). */
  labelField?: string;
}

/** Records from CSV text with a header row. */
export function csvRecords(text: string, options: TextFields & { delimiter?: string; source?: string } = {}): TextRecord[] {
  const source = options.source ?? 'csv';
  const rows = parseCsv(text, options.delimiter ?? ',', source);
  if (rows.length === 0) invalidArgument(source, 'a header row and records', 'an empty file');
  const header = rows[0]!.map((h) => h.trim());
  const column = (name: string): number => {
    let k = header.indexOf(name);
    if (k === -1) k = header.findIndex((h) => h.toLowerCase() === name.toLowerCase());
    if (k === -1) invalidArgument(source, `a header with a column "${name}"`, `columns ${JSON.stringify(header)}`);
    return k;
  };
  const t = column(options.textField ?? 'text');
  const l = column(options.labelField ?? 'label');
  return rows.slice(1).map((r, i) => {
    if (r.length !== header.length) invalidArgument(`${source} line ${i + 2}`, `${header.length} fields`, `${r.length}`);
    const label = r[l]!.trim();
    if (label === '') invalidArgument(`${source} line ${i + 2}`, 'a non-empty label', '""');
    return { text: r[t]!, label };
  });
}

/** Records from JSON Lines text. */
export function jsonlRecords(text: string, options: TextFields & { source?: string } = {}): TextRecord[] {
  const source = options.source ?? 'jsonl';
  const tf = options.textField ?? 'text';
  const lf = options.labelField ?? 'label';
  const out: TextRecord[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      invalidArgument(`${source} line ${i + 1}`, 'a JSON object', `invalid JSON (${(e as Error).message})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) invalidArgument(`${source} line ${i + 1}`, 'a JSON object', describe(value));
    const obj = value as Record<string, unknown>;
    const textValue = obj[tf];
    const label = obj[lf];
    if (typeof textValue !== 'string') invalidArgument(`${source} line ${i + 1}: ${tf}`, 'a string', describe(textValue));
    if (typeof label !== 'string' && !(typeof label === 'number' && Number.isFinite(label))) invalidArgument(`${source} line ${i + 1}: ${lf}`, 'a string or number label', describe(label));
    out.push({ text: textValue, label: String(label) });
  });
  return out;
}

/** Options of `textDatasets` / `loadTextDataset`. */
export interface TextEncodingOptions {
  /** Sequence length L: longer texts are truncated, shorter ones padded with 0 (default 128). */
  maxLength?: number;
  /** Minimum count of a training token to enter the vocabulary (default 1). */
  minFrequency?: number;
  /** Largest vocabulary, including <pad> and <unk> (default 20,000). */
  maxVocabulary?: number;
  /** Dataset name (default "text"). */
  name?: string;
}

/** Encode training (and optional test) records with a vocabulary and label ids built from the training records. */
export function textDatasets(train: readonly TextRecord[], test: readonly TextRecord[] | undefined, options: TextEncodingOptions = {}): DatasetSplits<TextDataset> & { vocabulary: Vocabulary } {
  if (train.length === 0) invalidArgument('train', 'at least one record', 'none');
  const length = requireNumber('maxLength', options.maxLength ?? 128, { integer: true, min: 1 });
  const name = options.name ?? 'text';
  const trainTokens = train.map((r) => tokenize(r.text));
  const vocabulary = buildVocabulary(trainTokens, {
    minFrequency: options.minFrequency ?? 1,
    maxSize: options.maxVocabulary ?? 20000,
  });
  const classNames = labelNames(train.map((r) => r.label));
  const labelIds = new Map(classNames.map((n, i) => [n, i]));
  const make = (records: readonly TextRecord[], tokens: string[][], split: string): TextDataset => {
    const labels = new Int32Array(records.length);
    records.forEach((r, i) => {
      const id = labelIds.get(r.label);
      if (id === undefined) invalidArgument(`${split}[${i}].label`, `one of the training labels ${JSON.stringify(classNames)}`, JSON.stringify(r.label));
      labels[i] = id;
    });
    return textDataset({
      name: `${name}/${split}`,
      tokens: encodeDocuments(tokens, vocabulary, length),
      labels,
      shape: [length],
      classes: classNames.length,
      classNames,
      vocabulary: vocabulary.tokens,
    });
  };
  const result = { train: make(train, trainTokens, 'train'), vocabulary };
  if (test === undefined) return result;
  return {
    ...result,
    test: make(
      test,
      test.map((r) => tokenize(r.text)),
      'test',
    ),
  };
}

/** Options of `loadTextDataset`. */
export interface TextDatasetOptions extends TextEncodingOptions, TextFields {
  /** Training file (.csv, .tsv, .jsonl or .ndjson). */
  train: string;
  /** Optional test file in the same format. */
  test?: string;
  /** File format; default from the extension (.jsonl/.ndjson → jsonl, .tsv → csv with tabs, else csv). */
  format?: 'csv' | 'jsonl';
  /** CSV delimiter (default "," or tab for .tsv). */
  delimiter?: string;
}

async function readRecords(path: string, options: TextDatasetOptions): Promise<TextRecord[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new Error(`text: cannot read ${path}: ${(e as Error).message}`);
  }
  const ext = extname(path).toLowerCase();
  const format = options.format ?? (ext === '.jsonl' || ext === '.ndjson' ? 'jsonl' : 'csv');
  const fields = {
    ...(options.textField !== undefined ? { textField: options.textField } : {}),
    ...(options.labelField !== undefined ? { labelField: options.labelField } : {}),
    source: path,
  };
  if (format === 'jsonl') return jsonlRecords(text, fields);
  if (format !== 'csv') invalidArgument('format', '"csv" or "jsonl"', describe(format));
  return csvRecords(text, { ...fields, delimiter: options.delimiter ?? (ext === '.tsv' ? '\t' : ',') });
}

/** Load a text classification set from files (see `textDatasets`). */
export async function loadTextDataset(options: TextDatasetOptions): Promise<DatasetSplits<TextDataset> & { vocabulary: Vocabulary }> {
  if (typeof options.train !== 'string') invalidArgument('train', 'the path of a CSV or JSONL file', describe(options.train));
  const train = await readRecords(options.train, options);
  const test = options.test === undefined ? undefined : await readRecords(options.test, options);
  return textDatasets(train, test, options);
}

/** The `text` dataset's declaration (load-dataset.ts lists it). */
export const textDatasetDefinition = defineDataset({
  name: 'text',
  summary: 'your own labelled texts as CSV / TSV / JSON lines (train=…, optionally test=…) as token ids',
  task: 'text',
  optionKeys: ['train', 'test', 'format', 'delimiter', 'textField', 'labelField', 'maxLength', 'minFrequency', 'maxVocabulary', 'name'],
  load: async (options: TextDatasetOptions | undefined) => {
    if (options === undefined) invalidArgument('options', '{ train } path for the text dataset', 'undefined');
    const { train, test } = await loadTextDataset(options);
    return test === undefined ? { train } : { train, test };
  },
  augmentation: 'none',
  oodPartner: null,
});
