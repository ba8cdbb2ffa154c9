/**
 * The report's claims sections (Markdown, HTML and report.json's `verdicts`): the paper's claims in one table (rows:
 * id and statement, source, the paper's number, the test as decided, ours with its interval, the outcome and the
 * Holm-adjusted outcome), coverage (claims tested / claims listed), the suite's own checks in a table of their own,
 * and the definitions of the verdict vocabulary (verdict-vocabulary.ts).
 */
import { heading, paragraph, type Block, type TableCell } from '../../report/document/document.js';
import { jsonNumber } from '../../report/metrics-json.js';
import { claimMetricDescription, claimMetricPercent } from '../claims/claim-metric.js';
import type { SuiteResults } from './suite-results.js';
import type { Verdict } from './verdicts.js';
import { CLAIM_OUTCOMES, definitionEntries, OUTCOME_DEFINITIONS, STATISTIC_DEFINITIONS } from './verdict-vocabulary.js';

/** Claims tested / listed among the paper's claims. */
export interface ClaimCoverage {
  /** The paper's claims listed (origin 'paper'). */
  readonly listed: number;
  /** …of which decided (not 'not tested' nor 'not evaluated'). */
  readonly tested: number;
  readonly notTested: number;
  readonly notEvaluated: number;
  /** The suite's own checks (origin 'suite', and `compare` strings). */
  readonly suiteChecks: number;
}

export function claimCoverage(verdicts: readonly Verdict[]): ClaimCoverage {
  const paper = verdicts.filter((v) => v.claim.origin === 'paper');
  const count = (o: string): number => paper.filter((v) => v.outcome === o).length;
  return {
    listed: paper.length,
    tested: paper.length - count('not tested') - count('not evaluated'),
    notTested: count('not tested'),
    notEvaluated: count('not evaluated'),
    suiteChecks: verdicts.length - paper.length,
  };
}

/** The paper's claims, headline claims first (otherwise in the suite's order), and the suite's own checks. */
export function claimGroups(verdicts: readonly Verdict[]): { paper: Verdict[]; suite: Verdict[] } {
  const paper = verdicts.filter((v) => v.claim.origin === 'paper');
  return { paper: [...paper.filter((v) => v.claim.headline), ...paper.filter((v) => !v.claim.headline)], suite: verdicts.filter((v) => v.claim.origin === 'suite') };
}

/** The number of bins a verdict's metric uses: the suite's, or for OOD / corruption metrics the runs' shift settings. */
function binsOf(results: SuiteResults, metric: string): number {
  if (/^(shift_|noise_|ood_)/.test(metric)) {
    for (const r of results.runs) {
      const bins = (r.ood?.['settings'] as { bins?: unknown } | undefined)?.bins;
      if (typeof bins === 'number') return bins;
    }
  }
  return results.record.suite.bins;
}

/** A value in the verdict's unit: points of % for rates, else 4 decimals. */
function unit(metric: string, x: number): string {
  if (!Number.isFinite(x)) return 'n/a';
  return claimMetricPercent(metric) ? `${(x * 100).toFixed(2)} pt` : x.toFixed(4);
}

function pText(p: number): string {
  if (!Number.isFinite(p)) return 'n/a';
  return p < 1e-4 ? p.toExponential(1) : p.toFixed(4);
}

/** The metric of a verdict (shape claims: their metric; none for untested claims). */
function metricOf(v: Verdict): string | undefined {
  if (v.comparison) return v.comparison.metric;
  const t = v.claim.test;
  return t.kind === 'qualitative' ? t.qualitative.metric : undefined;
}

/** The test as the report decided it: the comparison (with the margin), or the shape criterion, with the metric's bins/norm. */
export function testText(results: SuiteResults, v: Verdict): string {
  const t = v.claim.test;
  const metric = metricOf(v);
  const described = metric !== undefined ? `; ${metric} = ${claimMetricDescription(metric, binsOf(results, metric))}` : '';
  switch (t.kind) {
    case 'compare':
      return `${t.comparison.text}${described}`;
    case 'equivalent':
      return `${t.comparison.text} within ±${unit(t.comparison.metric, t.margin)}${described}`;
    case 'qualitative':
      return `${t.qualitative.kind}: ${v.criterion?.text ?? ''}${described}`;
    case 'not tested':
      return '—';
  }
}

/** Our result: the difference with its interval and test, MDE and raw p; a shape claim's numbers; the reason or note. */
export function oursText(v: Verdict): string {
  if (v.outcome === 'not tested') return `not tested: ${v.reason ?? ''}`;
  if (v.criterion !== undefined)
    return `${v.criterion.result}${v.criterion.steps.length ? `; paired intervals ${v.criterion.steps.map((s) => `${s.label}: ${stepText(v, s.difference, s.lower, s.upper)}`).join(', ')}` : ''}${v.note ? ` (${v.note})` : ''}`;
  const metric = v.comparison?.metric;
  if (metric === undefined || !Number.isFinite(v.difference)) return v.note ?? '—';
  const level = Math.round(v.level * 100);
  const test = v.method === 'paired t over seeds' ? `paired t, n = ${v.n}` : `paired bootstrap over ${v.n} test samples${v.note ? `, ${v.note}` : ''}`;
  return `${unit(metric, v.difference)} [${unit(metric, v.lower)}, ${unit(metric, v.upper)}] (${level} %; ${test}; MDE ${unit(metric, v.mde)}${Number.isFinite(v.p) ? `; p = ${pText(v.p)}` : ''})`;
}

function stepText(v: Verdict, d: number, lo: number, hi: number): string {
  const pct = v.criterion?.percent ?? false;
  const f = (x: number): string => (!Number.isFinite(x) ? 'n/a' : pct ? (x * 100).toFixed(2) : x.toFixed(4));
  return `${f(d)} [${f(lo)}, ${f(hi)}]${pct ? ' pt' : ''}`;
}

/** The Holm column: adjusted p and the outcome at that level, or why the verdict is not adjusted. */
export function holmText(v: Verdict): string {
  if (v.outcomeHolm === null) return v.holmNote ?? '—';
  return `p = ${pText(v.pHolm)}: ${v.outcomeHolm}`;
}

/** The paper's number: its text, and the difference in our units when it gives one. */
export function paperText(v: Verdict): string {
  const p = v.claim.paper;
  if (p === null) return '—';
  const metric = metricOf(v);
  return p.difference !== undefined && metric !== undefined ? `${p.text} (difference ${claimMetricPercent(metric) ? `${p.difference.toFixed(2)} pt` : p.difference.toFixed(4)})` : p.text;
}

function claimCell(v: Verdict): string {
  const id = v.claim.id !== null ? `${v.claim.id}${v.claim.headline ? ' (headline)' : ''}: ` : '';
  return `${id}${v.claim.statement}${v.claim.note ? ` — note: ${v.claim.note}` : ''}`;
}

function coverageText(c: ClaimCoverage): string {
  return `Coverage: ${c.tested} of the ${c.listed} claims listed are tested here (${c.notTested} not tested on this machine, ${c.notEvaluated} not evaluated: their runs are missing).`;
}

/** The claims table's outcome cell: the outcome, highlighted by its class (`verdict-holds`, `verdict-not-tested`, …). */
function outcomeCell(v: Verdict): TableCell {
  return { text: v.outcome, highlight: `verdict-${v.outcome.replace(/ /g, '-')}` };
}

/**
 * The claims sections as report blocks: the paper's claims with their coverage, the suite's own checks, and the
 * vocabulary's definitions (always).
 */
export function claimsBlocks(results: SuiteResults, verdicts: readonly Verdict[]): Block[] {
  const { paper, suite } = claimGroups(verdicts);
  const blocks: Block[] = [];
  const text = (s: string): TableCell => ({ text: s });
  if (paper.length) {
    blocks.push(heading(2, "The paper's claims", 'claims'), paragraph(coverageText(claimCoverage(verdicts))));
    blocks.push({
      kind: 'table',
      className: 'verdicts claims',
      columns: ['Claim', 'Source', 'Paper', 'Test', 'Ours [interval]', 'Outcome', 'Holm'],
      align: ['left', 'left', 'left', 'left', 'left', 'left', 'left'],
      rows: paper.map((v) => ({
        header: claimCell(v),
        attributes: { class: 'verdict' },
        cells: [text(v.claim.source ?? '—'), text(paperText(v)), text(testText(results, v)), text(oursText(v)), outcomeCell(v), text(holmText(v))],
      })),
    });
  }
  if (suite.length) {
    blocks.push(heading(2, "The suite's own checks", 'comparisons'), paragraph('Comparisons the suite adds; they are not claims of the paper.', 'note'));
    blocks.push({
      kind: 'table',
      className: 'verdicts checks',
      columns: ['Check', 'Test', 'Ours [interval]', 'Outcome', 'Holm'],
      align: ['left', 'left', 'left', 'left', 'left'],
      rows: suite.map((v) => ({ header: claimCell(v), attributes: { class: 'verdict' }, cells: [text(testText(results, v)), text(oursText(v)), outcomeCell(v), text(holmText(v))] })),
    });
  }
  blocks.push(...definitionsBlocks(3));
  return blocks;
}

/** The vocabulary's definitions under a heading of level `level`: "**term**: definition." per entry. */
export function definitionsBlocks(level: 2 | 3): Block[] {
  return [heading(level, 'How the verdicts are decided'), { kind: 'list', className: 'note definitions', items: definitionEntries().map(([term, text]) => [{ strong: term }, `: ${text}.`]) }];
}

/** One verdict as report.json writes it (CLAIMS-SPEC.md's fields; NaN → null). */
export function verdictJson(results: SuiteResults, v: Verdict): Record<string, unknown> {
  const t = v.claim.test;
  const metric = metricOf(v);
  return {
    id: v.claim.id,
    statement: v.claim.statement,
    source: v.claim.source,
    origin: v.claim.origin,
    headline: v.claim.headline,
    paper_value: v.claim.paper?.difference ?? null,
    paper_text: v.claim.paper?.text ?? null,
    note_claim: v.claim.note,
    kind: t.kind,
    claim: t.kind === 'compare' || t.kind === 'equivalent' ? t.comparison.text : t.kind === 'qualitative' ? `${t.qualitative.kind}: ${v.criterion?.text ?? ''}` : null,
    direction: v.comparison?.direction ?? null,
    margin: t.kind === 'equivalent' ? t.margin : null,
    metric: metric ?? null,
    metric_description: metric !== undefined ? claimMetricDescription(metric, binsOf(results, metric)) : null,
    outcome: v.outcome,
    reason: v.reason ?? null,
    difference: jsonNumber(v.difference),
    lower: jsonNumber(v.lower),
    upper: jsonNumber(v.upper),
    interval_level: jsonNumber(v.level),
    test: v.method,
    n: v.n,
    mde: jsonNumber(v.mde),
    p: jsonNumber(v.p),
    p_holm: jsonNumber(v.pHolm),
    outcome_holm: v.outcomeHolm,
    holm_note: v.holmNote,
    criterion: v.criterion
      ? {
          text: v.criterion.text,
          result: v.criterion.result,
          points: v.criterion.points.map((p) => ({ ...p, mean: jsonNumber(p.mean) })),
          steps: v.criterion.steps.map((s) => ({ ...s, difference: jsonNumber(s.difference), lower: jsonNumber(s.lower), upper: jsonNumber(s.upper) })),
        }
      : null,
    note: v.note ?? null,
  };
}

/** report.json's `definitions`: every outcome and statistic with its definition. */
export function definitionsJson(): Record<string, unknown> {
  return { outcomes: Object.fromEntries(CLAIM_OUTCOMES.map((o) => [o, OUTCOME_DEFINITIONS[o]])), statistics: STATISTIC_DEFINITIONS };
}

/** report.json's claim keys: `verdicts` (one entry per claim and check), `coverage`, `definitions`. */
export function claimsJson(results: SuiteResults, verdicts: readonly Verdict[]): Record<string, unknown> {
  return { verdicts: verdicts.map((v) => verdictJson(results, v)), coverage: claimCoverage(verdicts), definitions: definitionsJson() };
}

/** One line of the report's findings for a verdict: `"id": outcome (difference, interval, test[, MDE when inconclusive])`. */
export function verdictFinding(v: Verdict): string {
  const label = v.claim.id ?? v.comparison?.text ?? v.claim.statement;
  const metric = v.comparison?.metric;
  if (v.outcome === 'not tested') return `"${label}": not tested (${v.reason ?? ''}).`;
  if (v.criterion !== undefined) return `"${label}": ${v.outcome} (${v.criterion.result}${v.note ? `; ${v.note}` : ''}).`;
  if (metric === undefined || !Number.isFinite(v.difference)) return `"${label}": ${v.outcome}${v.note ? ` (${v.note})` : ''}.`;
  const holm = v.outcomeHolm !== null ? `; Holm ${v.outcomeHolm}` : '';
  // An inconclusive verdict says what effect the design could have detected (its minimum detectable effect).
  const mde = v.outcome === 'inconclusive' && Number.isFinite(v.mde) ? `, MDE ${unit(metric, v.mde)}` : '';
  return `"${label}": ${v.outcome} (difference ${unit(metric, v.difference)}, ${Math.round(v.level * 100)}% interval [${unit(metric, v.lower)}, ${unit(metric, v.upper)}], ${v.method}${mde}${holm}).`;
}

/** The HTML report's styles for outcomes. */
export const CLAIMS_CSS =
  '.verdict-holds,.verdict-equivalent,.verdict-criterion-met{color:#1a7f37;font-weight:bold}.verdict-contradicted,.verdict-criterion-not-met{color:#b8211d;font-weight:bold}.verdict-inconclusive{color:#9a6700;font-weight:bold}.verdict-not-tested,.verdict-not-evaluated{color:#666}.claims td,.checks td{white-space:normal;text-align:left;min-width:6em}';
