/**
 * The machine-time budget of several suites run one after another at one scale (`calib suite budget`, issue #23:
 * the five papers at the deep scale within 20 machine-hours): per suite, its runs at that scale (its trimmed grid
 * applied, scale-grid.ts), those it reuses instead of training (a run of an earlier suite in the list, or an earlier
 * twin in the same suite, with the same training identity: reuse-plan.ts), the estimated machine time of the rest
 * (suite-estimate.ts: measured minutes per run, `jobs` side by side), what its grid trimmed and how many of its
 * claims that leaves untested at the scale.
 */
import { heading, paragraph, type Block, type ReportDocument } from '../../report/document/document.js';
import { renderMarkdown } from '../../report/document/render-markdown.js';
import { claimEntries } from '../report/claim-entries.js';
import { expandSuite } from '../expand-suite.js';
import { gridChanges, scaledSuite } from '../scale-grid.js';
import { costClass } from './run-cost-class.js';
import { evaluationHash, trainingHash } from '../identity/run-identity.js';
import { planReuse, type ReusePlan } from '../identity/reuse-plan.js';
import { estimateSuite, formatHours } from './suite-estimate.js';
import type { Suite, SuiteScale } from '../suite-schema.js';
import { jobsText, MEASURE_DEFINITION, type SuiteMeasurement } from './suite-measured.js';

export interface SuiteBudgetRow {
  readonly name: string;
  readonly runs: number;
  readonly reuse: ReusePlan;
  /** Runs to train (runs − reused). */
  readonly trained: number;
  /** Machine seconds of the trained runs, `jobs` side by side (NaN parts left out: see unmeasured). */
  readonly machineSeconds: number;
  /** Planned seconds of each run to train, before dividing by `jobs` (NaN: no measured cost; reused runs absent). */
  readonly plannedRunSeconds: ReadonlyMap<string, number>;
  readonly unmeasured: number;
  /** What the scale's grid trimmed (gridChanges), and its reason; empty without a grid. */
  readonly trimmed: readonly string[];
  readonly reason: string | null;
  /** The paper's claims tested at this scale, of those the registry lists. */
  readonly claimsTested: number;
  readonly claimsListed: number;
  /** Headline claims tested at this scale, of the headline claims. */
  readonly headlineTested: number;
  readonly headlineListed: number;
}

export interface SuiteBudget {
  readonly scale: SuiteScale;
  readonly jobs: number;
  readonly threads: number;
  readonly rows: readonly SuiteBudgetRow[];
  readonly machineSeconds: number;
}

/** Plan `suites` run in this order at `scale` (each reusing the earlier ones' runs), `jobs` side by side with `threads` each. */
export function suiteBudget(suites: readonly { readonly name: string; readonly suite: Suite }[], scale: SuiteScale, jobs: number, threads: number): SuiteBudget {
  const planned = new Map<string, string>();
  const plannedWeights = new Map<string, string>();
  const rows: SuiteBudgetRow[] = [];
  for (const { name, suite } of suites) {
    const runs = expandSuite(suite, scale, `suite ${name}`);
    const reuse = planReuse(runs, new Map(), planned, { finished: new Map(), planned: plannedWeights });
    // A run reused for its weights only is re-evaluated: its finishing is priced (the reference's overhead), not its epochs.
    const progress = runs.map((run) => {
      const r = reuse.reused.get(run.id);
      return {
        id: run.id,
        method: run.method,
        cost: costClass(run.config, threads),
        epochs: run.config.epochs,
        epochsDone: r?.reevaluate ? run.config.epochs : 0,
        done: r !== undefined && !r.reevaluate,
        epochSeconds: [],
        ...(r?.reevaluate ? { finishing: Number.NaN } : {}),
      };
    });
    const estimate = estimateSuite(progress, jobs);
    const grid = suite.grids[scale];
    const paper = claimEntries(scaledSuite(suite, scale)).filter((c) => c.origin === 'paper');
    const tested = paper.filter((c) => c.test.kind !== 'not tested');
    rows.push({
      name,
      runs: runs.length,
      reuse,
      trained: runs.length - reuse.reused.size,
      machineSeconds: estimate.machineSeconds,
      plannedRunSeconds: new Map(estimate.runs.filter((e) => !e.done).map((e) => [e.id, e.seconds])),
      unmeasured: estimate.unmeasured,
      trimmed: grid ? gridChanges(suite, grid) : [],
      reason: grid?.reason ?? null,
      claimsTested: tested.length,
      claimsListed: paper.length,
      headlineTested: tested.filter((c) => c.headline).length,
      headlineListed: paper.filter((c) => c.headline).length,
    });
    for (const run of runs) if (!planned.has(evaluationHash(run.config))) planned.set(evaluationHash(run.config), name);
    for (const run of runs) if (!plannedWeights.has(trainingHash(run.config))) plannedWeights.set(trainingHash(run.config), name);
  }
  return { scale, jobs, threads, rows, machineSeconds: rows.reduce((a, r) => a + r.machineSeconds, 0) };
}

function reusedText(r: SuiteBudgetRow): string {
  const from = new Map<string, number>();
  for (const x of r.reuse.reused.values()) {
    const key = x.source === 'twin' ? 'twins in the suite' : x.from;
    from.set(key, (from.get(key) ?? 0) + 1);
  }
  const again = [...r.reuse.reused.values()].filter((x) => x.reevaluate).length;
  return `${[...from].map(([k, n]) => `${n} from ${k}`).join(', ')}${again ? `; ${again} re-evaluated` : ''}`;
}

/** What a suite's directory measured beside its plan (`--measured-root`), in machine hours. */
export interface MeasuredBeside {
  readonly measurement: SuiteMeasurement;
  /** Machine hours measured over every run trained there so far (finished or not). */
  readonly soFar: number;
  /** The finished runs trained there: planned and measured machine hours. */
  readonly finishedPlanned: number;
  readonly finishedMeasured: number;
}

/** The measurement of row `r` beside its plan; null for a suite not started, undefined without --measured-root. */
export function measuredBeside(b: SuiteBudget, r: SuiteBudgetRow, measured: ReadonlyMap<string, SuiteMeasurement | null> | undefined): MeasuredBeside | null | undefined {
  if (measured === undefined) return undefined;
  const m = measured.get(r.name) ?? null;
  if (m === null) return null;
  const finished = m.runs.filter((x) => x.kind === 'finished');
  // Planned as trained runs of this suite (a run the plan reuses from an earlier suite but that was trained here has its cost as the class's reference).
  const planned = finished.reduce((a, x) => a + (r.plannedRunSeconds.get(x.id) ?? Number.NaN), 0) / b.jobs;
  return { measurement: m, soFar: m.machineSeconds / 3600, finishedPlanned: planned / 3600, finishedMeasured: m.jobs === null ? Number.NaN : m.finishedSeconds / m.jobs / 3600 };
}

const hours = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '?');

/** One line (and markdown cell texts) of a row's measurement. */
function measuredCells(x: MeasuredBeside | null): { runs: string; soFar: string; planned: string; measured: string } {
  if (x === null) return { runs: 'not started', soFar: '—', planned: '—', measured: '—' };
  const m = x.measurement;
  return {
    runs: `${m.finished} finished + ${m.unfinished} unfinished of ${m.total}${m.reused ? ` (${m.reused} reused)` : ''}`,
    soFar: hours(x.soFar),
    planned: hours(x.finishedPlanned),
    measured: hours(x.finishedMeasured),
  };
}

/** The budget as plain text lines (`calib suite budget`), with each suite's measured hours when `measured` is given. */
export function formatBudget(b: SuiteBudget, limitHours?: number, measured?: ReadonlyMap<string, SuiteMeasurement | null>): string[] {
  const lines = [`${b.rows.length} suites at the ${b.scale} scale, in this order, ${b.jobs} runs side by side with ${b.threads} thread(s) each:`];
  for (const r of b.rows) {
    lines.push(
      `  ${r.name.padEnd(14)} ${String(r.runs).padStart(4)} runs, ${String(r.reuse.reused.size).padStart(3)} reused${r.reuse.reused.size ? ` (${reusedText(r)})` : ''}, ${r.trained} trained ≈ ${formatHours(r.machineSeconds)}${r.unmeasured ? ` (+ ${r.unmeasured} unmeasured)` : ''}; claims tested ${r.claimsTested}/${r.claimsListed} (headline ${r.headlineTested}/${r.headlineListed})`,
    );
    if (r.trimmed.length) lines.push(`  ${''.padEnd(14)} trimmed: ${r.trimmed.join('; ')}`);
    const x = measuredBeside(b, r, measured);
    if (x === null) lines.push(`  ${''.padEnd(14)} measured: not started`);
    else if (x !== undefined) {
      const c = measuredCells(x);
      lines.push(`  ${''.padEnd(14)} measured: ${c.runs} runs, ${c.soFar} machine-hours so far (${jobsText(x.measurement)}); the finished runs: planned ${c.planned} h, measured ${c.measured} h`);
    }
  }
  const total = b.rows.reduce((a, r) => a + r.trained, 0);
  // Runs without a measured cost (e.g. a thread count the pilot did not measure) leave the verdict open: "within"
  // would rest on the measured part alone.
  const unmeasured = b.rows.reduce((a, r) => a + r.unmeasured, 0);
  const verdict = unmeasured ? `not decided: ${unmeasured} runs have no measured cost with ${b.threads} thread(s) each` : b.machineSeconds / 3600 <= limitHours! ? 'within' : 'OVER';
  lines.push(
    `total: ${b.rows.reduce((a, r) => a + r.runs, 0)} runs, ${total} trained ≈ ${formatHours(b.machineSeconds)} of machine time${limitHours !== undefined ? ` (budget ${limitHours} h: ${verdict})` : ''}`,
  );
  if (measured !== undefined) {
    const xs = b.rows.map((r) => measuredBeside(b, r, measured)).filter((x): x is MeasuredBeside => x !== null && x !== undefined);
    const sum = (f: (x: MeasuredBeside) => number): number => xs.reduce((a, x) => a + f(x), 0);
    lines.push(
      `measured so far: ${hours(sum((x) => x.soFar))} machine-hours over ${xs.length} suite director${xs.length === 1 ? 'y' : 'ies'}; their finished runs: planned ${hours(sum((x) => x.finishedPlanned))} h, measured ${hours(sum((x) => x.finishedMeasured))} h`,
    );
    lines.push(`  (${MEASURE_DEFINITION})`);
  }
  return lines;
}

/** The budget as a Markdown section (docs/reproductions/deep-budget.md, generated by `calib suite budget --markdown`). */
export function budgetMarkdown(b: SuiteBudget, command: string, measured?: ReadonlyMap<string, SuiteMeasurement | null>): string {
  return renderMarkdown(budgetDocument(b, command, measured));
}

/** The budget page as a report document: title, how it was generated, what the numbers mean, the table, why trimmed. */
export function budgetDocument(b: SuiteBudget, command: string, measured?: ReadonlyMap<string, SuiteMeasurement | null>): ReportDocument {
  const runs = b.rows.reduce((a, r) => a + r.runs, 0);
  const trained = b.rows.reduce((a, r) => a + r.trained, 0);
  const sum = (f: (r: SuiteBudgetRow) => number): number => b.rows.reduce((a, r) => a + f(r), 0);
  const blocks: Block[] = [
    heading(1, 'Deep-scale budget'),
    { kind: 'comment', text: `generated by \`${command}\`; do not edit` },
    {
      kind: 'paragraph',
      content: [
        'The five paper suites at the ',
        { code: b.scale },
        ` scale, run in this order with ${b.jobs} runs side by side and ${b.threads} thread(s) each. A run whose evaluation identity (its resolved settings and data split) equals a run of an earlier suite, or of an earlier run of the same suite, is copied instead of trained; one whose training identity only (the same weights, other evaluation settings such as the OOD evaluation) equals one is copied and re-evaluated from its final checkpoint, priced at the finishing's share of a run (`,
        { code: 'calib suite run … --reuse-from DIR' },
        `). Hours are machine hours: runs × measured minutes per run (src/suite/estimate/run-cost-references.ts, the deep-scale pilot) ÷ runs side by side. "Trimmed" is relative to the suite's full grid (the machine scale's); claims on what was trimmed are reported "not tested at ${b.scale} scale", with the reason.`,
      ],
    },
    {
      kind: 'table',
      columns: ['suite', 'runs', 'reused', 'trained', 'machine hours', 'paper claims tested', 'headline claims tested', 'trimmed'],
      align: ['left', 'right', 'left', 'right', 'right', 'right', 'right', 'left'],
      rows: [
        ...b.rows.map((r) => ({
          header: r.name,
          cells: [
            String(r.runs),
            `${r.reuse.reused.size}${r.reuse.reused.size ? ` (${reusedText(r)})` : ''}`,
            String(r.trained),
            (r.machineSeconds / 3600).toFixed(1),
            `${r.claimsTested} / ${r.claimsListed}`,
            `${r.headlineTested} / ${r.headlineListed}`,
            r.trimmed.join('; ') || '—',
          ].map((text) => ({ text })),
        })),
        {
          header: [{ strong: 'total' }],
          cells: [
            { text: String(runs) },
            { text: String(runs - trained) },
            { text: String(trained) },
            { text: (b.machineSeconds / 3600).toFixed(1), best: true },
            { text: `${sum((r) => r.claimsTested)} / ${sum((r) => r.claimsListed)}` },
            { text: `${sum((r) => r.headlineTested)} / ${sum((r) => r.headlineListed)}` },
            { text: '' },
          ],
        },
      ],
    },
  ];
  const reasons = [...new Set(b.rows.map((r) => r.reason).filter((x): x is string => x !== null))];
  if (reasons.length) blocks.push(paragraph(`Why trimmed: ${reasons.join('; ')}.`));
  if (measured !== undefined) blocks.push(...measuredBlocks(b, measured));
  return { title: 'Deep-scale budget', styles: [], blocks };
}

/** The "Measured so far" section: per suite its planned hours beside what its directory measured (`--measured-root`). */
function measuredBlocks(b: SuiteBudget, measured: ReadonlyMap<string, SuiteMeasurement | null>): Block[] {
  const xs = b.rows.map((r) => ({ r, x: measuredBeside(b, r, measured) ?? null }));
  const sum = (f: (x: MeasuredBeside) => number): number => xs.reduce((a, { x }) => a + (x ? f(x) : 0), 0);
  return [
    heading(2, 'Measured so far'),
    paragraph(
      `What each suite's directory holds now, beside the plan. Machine hours measured = the summed run time of the runs trained there ÷ the runs side by side (recorded by each calib suite run in sessions.json, else the --jobs above); a run's time is the wall seconds of its epochs (log.jsonl epoch_time_s) plus its finishing (log.jsonl to the later of summary.json and ood.json: final evaluations, export, OOD and corruption sets). The finished runs' planned hours are the plan's own for the same runs, so the last two columns compare like with like. Wall times on a shared machine include what other work took from the runs.`,
    ),
    {
      kind: 'table',
      columns: ['suite', 'planned machine hours', 'runs trained there', 'side by side', 'measured machine hours so far', 'finished runs: planned hours', 'finished runs: measured hours'],
      align: ['left', 'right', 'left', 'left', 'right', 'right', 'right'],
      rows: [
        ...xs.map(({ r, x }) => {
          const c = measuredCells(x);
          return { header: r.name, cells: [hours(r.machineSeconds / 3600), c.runs, x ? jobsText(x.measurement) : '—', c.soFar, c.planned, c.measured].map((text) => ({ text })) };
        }),
        {
          header: [{ strong: 'total' }],
          cells: [hours(b.machineSeconds / 3600), '', '', hours(sum((x) => x.soFar)), hours(sum((x) => x.finishedPlanned)), hours(sum((x) => x.finishedMeasured))].map((text) => ({ text })),
        },
      ],
    },
  ];
}
