/**
 * One paper's claims at two scales (issue #23 item 5: machine vs deep), from the two report.json files: per claim
 * (by id; the paper's claims and the suite's own checks), the verdict at each scale, whether it flipped, and the two
 * differences with their intervals (`calib suite compare-scales A B`). A claim absent from a report, or one whose
 * outcome there is "not tested" / "not evaluated", has no verdict to compare; a missing second report is said as
 * such ("deep-scale report not yet produced").
 *
 * A flip is a change between decided outcomes (holds, contradicted, inconclusive, equivalent, criterion met / not
 * met); a claim decided at one scale only is listed as "decided at one scale".
 */
import { readFile } from 'node:fs/promises';
import { heading, paragraph, type Block } from '../../report/document/document.js';
import { renderMarkdownBlocks } from '../../report/document/render-markdown.js';
import { invalidArgument } from '../../util/errors.js';
import { claimMetricPercent } from '../claims/claim-metric.js';
import { pathExists } from '../../util/path-exists.js';

/** The fields of a report.json verdict the comparison reads. */
export interface ReportVerdict {
  readonly id: string | null;
  readonly claim?: string | null;
  readonly statement?: string;
  readonly source?: string | null;
  readonly origin?: string;
  readonly headline?: boolean;
  readonly metric?: string | null;
  readonly outcome: string;
  readonly reason?: string | null;
  readonly difference?: number | null;
  readonly lower?: number | null;
  readonly upper?: number | null;
}

export interface ScaleReport {
  readonly suite: string;
  readonly scale: string;
  readonly verdicts: readonly ReportVerdict[];
}

export type FlipState = 'flipped' | 'same' | 'decided at one scale' | 'untested at both';

export interface ClaimAtScales {
  readonly id: string;
  readonly statement: string;
  readonly source: string | null;
  readonly headline: boolean;
  readonly metric: string | null;
  readonly a: ReportVerdict | null;
  readonly b: ReportVerdict | null;
  readonly state: FlipState;
}

const UNDECIDED = new Set(['not tested', 'not evaluated']);

const decided = (v: ReportVerdict | null): boolean => v !== null && !UNDECIDED.has(v.outcome);

/** Read a report.json (a file, or a directory holding one) as a scale report; the argument name is `arg`. */
export async function readScaleReport(path: string, arg: string): Promise<ScaleReport | null> {
  const file = path.endsWith('.json') ? path : `${path.replace(/\/$/, '')}/report.json`;
  if (!(await pathExists(file))) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    invalidArgument(arg, 'a suite report.json (JSON)', `${file} (${(e as Error).message})`);
  }
  const r = raw as Partial<ScaleReport>;
  if (typeof r.suite !== 'string' || typeof r.scale !== 'string' || !Array.isArray(r.verdicts)) invalidArgument(arg, 'a suite report.json (suite, scale, verdicts)', file);
  return r as ScaleReport;
}

/** Every claim of `a` (then those only in `b`) with its verdicts at both scales and whether it flipped. */
export function compareScales(a: ScaleReport, b: ScaleReport | null): ClaimAtScales[] {
  const key = (v: ReportVerdict): string => v.id ?? v.claim ?? v.statement ?? '';
  const inB = new Map((b?.verdicts ?? []).map((v) => [key(v), v] as const));
  const ids = [...new Set([...a.verdicts.map(key), ...(b?.verdicts ?? []).map(key)])];
  const inA = new Map(a.verdicts.map((v) => [key(v), v] as const));
  return ids.map((id) => {
    const va = inA.get(id) ?? null;
    const vb = inB.get(id) ?? null;
    const any = (va ?? vb)!;
    const state: FlipState = decided(va) && decided(vb) ? (va!.outcome === vb!.outcome ? 'same' : 'flipped') : decided(va) || decided(vb) ? 'decided at one scale' : 'untested at both';
    return { id, statement: any.statement ?? any.claim ?? id, source: any.source ?? null, headline: any.headline === true, metric: any.claim ?? null, a: va, b: vb, state };
  });
}

/** "holds −1.64 [−2.45, −0.83]" in points (×100) for differences shown in %, else as is. */
function verdictText(v: ReportVerdict | null, percent: boolean): string {
  if (v === null) return '—';
  if (typeof v.difference !== 'number' || !Number.isFinite(v.difference)) return v.outcome;
  const k = percent ? 100 : 1;
  const f = (x: number | null | undefined): string => (typeof x === 'number' && Number.isFinite(x) ? (x * k).toFixed(2) : '?');
  return `${v.outcome} ${f(v.difference)} [${f(v.lower)}, ${f(v.upper)}]`;
}

/** Whether a claim's differences are fractions shown in points of % (claim-metric.ts). */
function percentOf(c: ClaimAtScales): boolean {
  const metric = c.a?.metric ?? c.b?.metric;
  return typeof metric === 'string' && claimMetricPercent(metric);
}

/**
 * The comparison as report blocks: a heading, the summary line and the table (flips first, then the rest in the
 * report's order; headline claims in bold). Without the second report, the heading and a line saying so.
 */
export function scaleComparisonBlocks(a: ScaleReport, b: ScaleReport | null, bScale: string): Block[] {
  const title = heading(2, `${a.suite}: verdicts at ${a.scale} vs ${b?.scale ?? bScale} scale`);
  if (b === null) return [title, paragraph(`${bScale}-scale report not yet produced.`)];
  const rows = compareScales(a, b);
  const count = (s: FlipState): number => rows.filter((r) => r.state === s).length;
  const order: FlipState[] = ['flipped', 'decided at one scale', 'same', 'untested at both'];
  const sorted = [...rows].sort((x, y) => order.indexOf(x.state) - order.indexOf(y.state));
  return [
    title,
    paragraph(
      `${count('flipped')} flipped, ${count('same')} unchanged, ${count('decided at one scale')} decided at one scale only, ${count('untested at both')} untested at both (differences in points of % where the metric is a fraction; 95 % intervals, 90 % for equivalence).`,
    ),
    {
      kind: 'table',
      columns: ['claim', 'source', a.scale, b.scale, 'state'],
      align: ['left', 'left', 'left', 'left', 'left'],
      rows: sorted.map((r) => {
        const p = percentOf(r);
        return { header: r.headline ? [{ strong: r.id }] : r.id, cells: [{ text: r.source ?? '' }, { text: verdictText(r.a, p) }, { text: verdictText(r.b, p) }, { text: r.state }] };
      }),
    },
  ];
}

/** The comparison as Markdown (`calib suite compare-scales`). */
export function scaleComparisonMarkdown(a: ScaleReport, b: ScaleReport | null, bScale: string): string {
  return renderMarkdownBlocks(scaleComparisonBlocks(a, b, bScale));
}
