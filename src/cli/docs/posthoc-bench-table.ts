/**
 * The README table of issue #25 item 6, generated from the committed output of `bench/posthoc-real-predictions.ts`
 * (bench/results/posthoc-real-predictions/*.json, one file per set, each recording its command and date): test log
 * loss, test ECE (15 bins) and fit CPU seconds of temperature, ts-mix, svs, sms, vector, matrix and dirichlet per
 * set, and the issue's done-when line "SMS and SVS at or below TS's test log loss", computed per set from the same
 * numbers (never typed). `npm run docs` rewrites it (generated-tables.ts); the docs test fails while it is stale.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tableCell as cell } from './table-cell.js';

/** dist/src/cli/docs → repository root → bench/results/posthoc-real-predictions. */
export const POSTHOC_BENCH_RESULTS = fileURLToPath(new URL('../../../../bench/results/posthoc-real-predictions/', import.meta.url));

/** The methods of the table, in its row order. */
export const POSTHOC_BENCH_METHODS = ['temperature', 'ts-mix', 'svs', 'sms', 'vector', 'matrix', 'dirichlet'] as const;

/** One method's entry in the bench JSON: measured values, or why there are none. */
interface MethodResult {
  readonly nll?: number;
  readonly ece?: number;
  readonly fit_cpu_s?: number;
  readonly skipped?: string;
  readonly error?: string;
}

/** One set's record in the bench JSON. */
export interface PosthocBenchSet {
  readonly set: string;
  readonly classes: number;
  readonly split: string;
  readonly raw: { readonly nll: number; readonly ece: number };
  readonly methods: Readonly<Record<string, MethodResult>>;
}

/** One bench output file (see bench/posthoc-real-predictions.ts). */
export interface PosthocBenchFile {
  readonly command: string;
  readonly date: string;
  readonly load_average?: { readonly at_start: readonly number[]; readonly at_end: readonly number[] };
  readonly sets: readonly PosthocBenchSet[];
}

/** Every committed bench file, sorted by file name, with the file name. */
export function readPosthocBenchFiles(dir: string = POSTHOC_BENCH_RESULTS): { name: string; file: PosthocBenchFile }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ name, file: JSON.parse(readFileSync(dir + name, 'utf8')) as PosthocBenchFile }));
}

/**
 * The done-when verdict of one set: 'met' when SMS and SVS both have a test log loss ≤ temperature scaling's,
 * 'not met' when either is above it, 'not measured' when one of the three has no value (skipped or failed).
 */
export function structuredAtOrBelowTs(set: PosthocBenchSet): 'met' | 'not met' | 'not measured' {
  const ts = set.methods['temperature']?.nll;
  const svs = set.methods['svs']?.nll;
  const sms = set.methods['sms']?.nll;
  if (ts === undefined || svs === undefined || sms === undefined) return 'not measured';
  return svs <= ts && sms <= ts ? 'met' : 'not met';
}

/** One cell: "NLL · ECE % · fit CPU s", or why there is no value. */
function resultCell(result: MethodResult | undefined): string {
  if (result === undefined) return '–';
  if (result.nll === undefined || result.ece === undefined) return result.skipped ? 'skipped' : `failed: ${cell(result.error ?? 'no value')}`;
  const seconds = result.fit_cpu_s === undefined ? '' : ` · ${result.fit_cpu_s < 10 ? result.fit_cpu_s.toFixed(2) : result.fit_cpu_s.toFixed(0)} s`;
  return `${result.nll.toFixed(4)} · ${(100 * result.ece).toFixed(2)} %${seconds}`;
}

/** The generated section: the table, the done-when line and where the numbers come from. */
export function posthocBenchTable(files: { name: string; file: PosthocBenchFile }[] = readPosthocBenchFiles()): string {
  // Fewest classes first, then by name: DenseNet-40 CIFAR-10 leads, the CIFAR-100 sets follow.
  const sets = files.flatMap(({ file }) => file.sets).sort((a, b) => a.classes - b.classes || a.set.localeCompare(b.set));
  if (sets.length === 0) return '_No bench results committed under bench/results/posthoc-real-predictions/._';
  const header = `| method | ${sets.map((s) => `${s.set} (C = ${s.classes})`).join(' | ')} |`;
  const rule = `| --- | ${sets.map(() => '---').join(' | ')} |`;
  const raw = `| raw (uncalibrated) | ${sets.map((s) => `${s.raw.nll.toFixed(4)} · ${(100 * s.raw.ece).toFixed(2)} %`).join(' | ')} |`;
  const rows = POSTHOC_BENCH_METHODS.map((m) => `| ${m} | ${sets.map((s) => resultCell(s.methods[m])).join(' | ')} |`);
  const verdicts = sets.map(structuredAtOrBelowTs);
  const verdictRow = `| **done-when: SMS and SVS test log loss ≤ temperature's** | ${verdicts.join(' | ')} |`;
  const metCount = verdicts.filter((v) => v === 'met').length;
  const sources = files.map(({ name, file }) => {
    const load = file.load_average ? `, load average ${file.load_average.at_start[0]} → ${file.load_average.at_end[0]}` : '';
    return `- \`${name}\`: \`${cell(file.command)}\` (${file.date}${load})`;
  });
  return [
    header,
    rule,
    raw,
    ...rows,
    verdictRow,
    '',
    `Cells: test log loss · test ECE (15 equal-width bins) · fit CPU seconds (process user + system, one thread, on a shared machine). Done-when met on ${metCount} of ${sets.length} sets (computed from the cells above).`,
    '',
    'Splits and commands (bench/results/posthoc-real-predictions/):',
    ...sets.map((s) => `- ${s.set}: ${cell(s.split)}`),
    ...sources,
  ].join('\n');
}
