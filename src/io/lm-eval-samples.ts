/**
 * Multiple-choice LLM evaluation logs: per question the choices' log-likelihoods and the gold index.
 *
 * Formats read (one JSON object per line, or one JSON array of such objects):
 * - lm-evaluation-harness `--log_samples` (`samples_<task>_<date>.jsonl`): `filtered_resps` (else `resps`) holds one
 *   `[loglikelihood, is_greedy]` pair per choice (the harness writes them as strings, e.g. `["-1.25", "False"]`, via
 *   `sanitize_list` in its evaluation tracker; numbers are accepted too; `resps` nests each pair in one more list),
 *   `target` the gold index (an integer, or its string form), `arguments.gen_args_K.arg_1` the continuation of
 *   choice K (target delimiter + choice text), and `acc` / `acc_norm` the harness's own 0/1 results.
 * - lighteval / Open LLM Leaderboard details in JSON or JSONL form (parquet needs a reader dependency and is not
 *   read: convert with `pandas.read_parquet(f).to_json(out, orient='records', lines=True)`): either top-level
 *   `predictions` (one log-probability, or `[logprob, is_greedy]`, per choice), `gold_index` (an integer or a
 *   one-element list) and optional `choices`, or the nested form `model_response.logprobs`, `doc.gold_index`,
 *   `doc.choices`.
 *
 * Length normalisation (`acc_norm`): the harness divides each choice's log-likelihood by the length of the choice
 * text in characters (`len(choice)` in Python, lm_eval/api/task.py `process_results`: `completion_len =
 * np.array([float(len(i)) for i in choices])`), the choice without the target delimiter. The continuation in
 * `arguments` is the delimiter (default " ") followed by the choice, so one leading space is removed before
 * counting Unicode code points.
 */
import { readInputText } from './input-file.js';
import { describe, invalidArgument } from '../util/errors.js';

export interface LmEvalQuestion {
  /** Log-likelihood of each choice (C_i ≥ 2 values, finite). */
  readonly logLikelihoods: Float64Array;
  /** Index of the correct choice in [0, C_i). */
  readonly gold: number;
  /** Length of each choice in Unicode code points (for `acc_norm`), when the file gives the choices' texts. */
  readonly choiceLengths?: Float64Array;
  /** The harness's own 0/1 `acc` and `acc_norm`, when logged. */
  readonly acc?: number;
  readonly accNorm?: number;
  /** Line (1-based) of the record in the file, for messages. */
  readonly line: number;
}

export interface LmEvalLog {
  readonly questions: readonly LmEvalQuestion[];
  /** 'lm-eval-harness' or 'lighteval'. */
  readonly format: 'lm-eval-harness' | 'lighteval';
}

type Json = Record<string, unknown>;

/** Read and validate a samples file; every error names `argName`, the line and the field. */
export async function readLmEvalLog(path: string, argName = '--lm-eval'): Promise<LmEvalLog> {
  return parseLmEvalLog(await readInputText({ argName, path }), argName);
}

/** Parse the text of a samples file (JSONL, or one JSON array). */
export function parseLmEvalLog(text: string, argName = '--lm-eval'): LmEvalLog {
  const records: { value: unknown; line: number }[] = [];
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    let array: unknown;
    try {
      array = JSON.parse(text);
    } catch (error) {
      invalidArgument(argName, 'a JSON array of sample records or JSON Lines', `invalid JSON: ${(error as Error).message}`);
    }
    (array as unknown[]).forEach((value, i) => records.push({ value, line: i + 1 }));
  } else {
    const lines = text.split('\n');
    lines.forEach((raw, i) => {
      const line = raw.trim();
      if (line === '') return;
      try {
        records.push({ value: JSON.parse(line), line: i + 1 });
      } catch (error) {
        invalidArgument(argName, 'one JSON object per line', `invalid JSON on line ${i + 1}: ${(error as Error).message}`);
      }
    });
  }
  if (records.length === 0) invalidArgument(argName, 'at least one sample record', 'an empty file');
  let format: LmEvalLog['format'] | undefined;
  const questions = records.map(({ value, line }) => {
    const where = `line ${line}`;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) invalidArgument(argName, `a JSON object on ${where}`, describe(value));
    const record = value as Json;
    const kind = recordFormat(record);
    if (kind === undefined)
      invalidArgument(
        argName,
        `on ${where} a harness sample ('filtered_resps' or 'resps', and 'target') or lighteval details ('predictions' or 'model_response.logprobs', and 'gold_index')`,
        `fields ${Object.keys(record).join(', ') || 'none'}`,
      );
    if (format !== undefined && kind !== format) invalidArgument(argName, `one format in the whole file (${format})`, `${kind} on ${where}`);
    format = kind;
    return kind === 'lm-eval-harness' ? harnessQuestion(record, line, argName) : lightevalQuestion(record, line, argName);
  });
  return { questions, format: format! };
}

function recordFormat(record: Json): LmEvalLog['format'] | undefined {
  if ('filtered_resps' in record || 'resps' in record) return 'lm-eval-harness';
  if ('predictions' in record || 'model_response' in record) return 'lighteval';
  return undefined;
}

/** A number, or its string form as the harness's `sanitize_list` writes it. */
function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '')
    return Number(
      value
        .trim()
        .replace(/^nan$/i, 'NaN')
        .replace(/^(-?)inf$/i, '$1Infinity'),
    );
  return NaN;
}

function requireChoices(lls: number[], line: number, argName: string, field: string): Float64Array {
  if (lls.length < 2) invalidArgument(argName, `at least 2 choices on line ${line} ('${field}')`, `${lls.length}`);
  lls.forEach((v, k) => {
    if (!Number.isFinite(v)) invalidArgument(argName, `finite log-likelihoods on line ${line} ('${field}')`, `${describe(v)} for choice ${k}`);
    if (v > 1e-9) invalidArgument(argName, `log-likelihoods ≤ 0 on line ${line} ('${field}')`, `${v} for choice ${k}`);
  });
  return Float64Array.from(lls);
}

function requireGold(value: unknown, choices: number, line: number, argName: string, field: string): number {
  let gold = Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (typeof gold === 'string' && /^\s*\d+\s*$/.test(gold)) gold = Number(gold);
  if (typeof gold !== 'number' || !Number.isInteger(gold) || gold < 0 || gold >= choices)
    invalidArgument(argName, `a gold choice index in [0, ${choices}) on line ${line} ('${field}')`, describe(Array.isArray(value) ? `[${value.join(', ')}]` : value));
  return gold;
}

/** Code points of a choice's text (Python's len of a str). */
function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function optional01(record: Json, key: string): number | undefined {
  const v = record[key];
  return typeof v === 'number' && (v === 0 || v === 1) ? v : undefined;
}

function harnessQuestion(record: Json, line: number, argName: string): LmEvalQuestion {
  const field = 'filtered_resps' in record ? 'filtered_resps' : 'resps';
  const raw = record[field];
  if (!Array.isArray(raw)) invalidArgument(argName, `a list of [loglikelihood, is_greedy] pairs on line ${line} ('${field}')`, describe(raw));
  const lls = raw.map((entry: unknown) => {
    // resps: [[[ll, greedy]], ...]; filtered_resps: [[ll, greedy], ...]; a bare number is accepted too.
    let pair = entry;
    if (Array.isArray(pair) && pair.length === 1 && Array.isArray(pair[0])) pair = pair[0];
    return Array.isArray(pair) ? numberOf(pair[0]) : numberOf(pair);
  });
  const logLikelihoods = requireChoices(lls, line, argName, field);
  if (!('target' in record)) invalidArgument(argName, `a 'target' (gold choice index) on line ${line}`, 'no target field');
  const gold = requireGold(record['target'], lls.length, line, argName, 'target');
  const args = record['arguments'];
  let choiceLengths: Float64Array | undefined;
  if (args !== null && typeof args === 'object') {
    const list = Array.isArray(args) ? args : Object.values(args as Json);
    const continuations = list.map((a) => (Array.isArray(a) ? a[1] : a !== null && typeof a === 'object' ? (a as Json)['arg_1'] : undefined));
    if (continuations.length === lls.length && continuations.every((c) => typeof c === 'string'))
      choiceLengths = Float64Array.from(continuations as string[], (c) => codePoints(c.startsWith(' ') ? c.slice(1) : c));
  }
  const acc = optional01(record, 'acc');
  const accNorm = optional01(record, 'acc_norm');
  return { logLikelihoods, gold, line, ...(choiceLengths ? { choiceLengths } : {}), ...(acc !== undefined ? { acc } : {}), ...(accNorm !== undefined ? { accNorm } : {}) };
}

function lightevalQuestion(record: Json, line: number, argName: string): LmEvalQuestion {
  const nested = !('predictions' in record);
  const response = nested ? (record['model_response'] as Json | undefined) : undefined;
  const doc = nested ? (record['doc'] as Json | undefined) : record;
  const field = nested ? 'model_response.logprobs' : 'predictions';
  const raw = nested ? response?.['logprobs'] : record['predictions'];
  if (!Array.isArray(raw)) invalidArgument(argName, `a list of log-probabilities on line ${line} ('${field}')`, describe(raw));
  const lls = raw.map((entry: unknown) => (Array.isArray(entry) ? numberOf(entry[0]) : numberOf(entry)));
  const logLikelihoods = requireChoices(lls, line, argName, field);
  const goldField = nested ? 'doc.gold_index' : 'gold_index';
  if (doc === undefined || doc === null || !('gold_index' in doc)) invalidArgument(argName, `a '${goldField}' on line ${line}`, 'no gold_index field');
  const gold = requireGold(doc['gold_index'], lls.length, line, argName, goldField);
  const choices = doc['choices'];
  const choiceLengths =
    Array.isArray(choices) && choices.length === lls.length && choices.every((c) => typeof c === 'string')
      ? Float64Array.from(choices as string[], (c) => codePoints(c.startsWith(' ') ? c.slice(1) : c))
      : undefined;
  return { logLikelihoods, gold, line, ...(choiceLengths ? { choiceLengths } : {}) };
}
