/**
 * The section that leads the reproductions README once deep-scale reports exist (issue #23: "the README's
 * reproduction page leads with the new scale"): one row per deep-scale report, from its report.json alone — runs
 * finished, cross-entropy's training accuracy and fitted temperature (the deep scale's reason to exist: CE fits its
 * training set and ends overconfident, T > 1), the paper's claims tested, the verdicts flipped against the machine-scale
 * report beside it (scale-comparison.ts), and the measured machine-hours (the report's `compute`, when it has one).
 *
 * Cross-entropy is the first method whose runs train plain CE: loss `ce` with no loss options, no secondary loss, no
 * mixup (Karandikar's "NLL", Maroñas's "B"); a report without one shows "—".
 */
import { heading, type Block } from '../../report/document/document.js';
import { compareScales, type ScaleReport } from './scale-comparison.js';

/** The parts of a report.json the lead reads. */
export interface LeadReport {
  readonly suite: string;
  readonly scale: string;
  readonly runs: readonly { readonly id: string; readonly config: Readonly<Record<string, unknown>> }[];
  readonly missing: readonly string[];
  readonly diverged?: readonly { readonly id: string }[];
  readonly methods?: readonly { readonly name: string; readonly label?: string; readonly runs: readonly string[] }[];
  readonly tables?: readonly {
    readonly columns: readonly { readonly key: string }[];
    readonly rows: readonly { readonly method: string; readonly cells: readonly { readonly mean: number | null }[] }[];
  }[];
  readonly verdicts: readonly { readonly origin?: string; readonly outcome: string }[];
  readonly compute?: { readonly machine_hours?: number | null; readonly jobs?: number | null } | null;
}

function isPlainCe(config: Readonly<Record<string, unknown>>): boolean {
  const options = config['lossOptions'];
  const noOptions = options === undefined || (typeof options === 'object' && options !== null && Object.keys(options).length === 0);
  const secondary = config['secondary'];
  return config['loss'] === 'ce' && noOptions && (secondary === undefined || secondary === null || secondary === 'none') && !(Number(config['mixup'] ?? 0) > 0);
}

/** The report's cross-entropy method (see the module comment), or undefined. */
export function crossEntropyMethod(r: LeadReport): { readonly name: string; readonly label: string } | undefined {
  const config = new Map(r.runs.map((x) => [x.id, x.config]));
  const m = r.methods?.find((m) => m.runs.length > 0 && m.runs.every((id) => config.has(id) && isPlainCe(config.get(id)!)));
  return m ? { name: m.name, label: m.label ?? m.name } : undefined;
}

/** The mean of table column `key` for `method` (first table holding both), or NaN. */
export function tableMean(r: LeadReport, method: string, key: string): number {
  for (const t of r.tables ?? []) {
    const col = t.columns.findIndex((c) => c.key === key);
    const row = t.rows.find((x) => x.method === method);
    const v = col >= 0 ? row?.cells[col]?.mean : undefined;
    if (typeof v === 'number') return v;
  }
  return Number.NaN;
}

/** The lead section: a heading, what the table shows, one row per deep report (`name` → report, its machine report or null). */
export function deepScaleLead(deep: readonly { readonly name: string; readonly report: LeadReport; readonly machine: LeadReport | null }[]): Block[] {
  const fixed = (x: number, d: number, suffix = ''): string => (Number.isFinite(x) ? `${x.toFixed(d)}${suffix}` : '—');
  return [
    heading(2, 'Deep scale'),
    {
      kind: 'paragraph',
      content: [
        "The papers' regime, where cross-entropy fits its training set and keeps sharpening its softmax (the ",
        { code: 'deep' },
        ' scale; its pilot: ',
        { link: 'deep-scale-pilot.md', href: 'deep-scale-pilot.md' },
        '; its budget: ',
        { link: 'deep-budget.md', href: 'deep-budget.md' },
        "). Each paper's section below leads with its deep-scale report; the machine scale follows, then the verdicts that flipped between the two. CE: the suite's plain cross-entropy method; training accuracy and the temperature fitted on validation are its mean over seeds. Machine hours: as measured in the suite directory (the report's Compute paragraph).",
      ],
    },
    {
      kind: 'table',
      columns: ['paper', 'report', 'runs finished', 'CE train accuracy (%)', 'CE fitted T', 'claims of the paper tested / listed', 'flipped vs machine scale', 'machine hours'],
      align: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right'],
      rows: deep.map(({ name, report, machine }) => {
        const ce = crossEntropyMethod(report);
        const paper = report.verdicts.filter((v) => v.origin === 'paper');
        const tested = paper.filter((v) => v.outcome !== 'not tested' && v.outcome !== 'not evaluated').length;
        const total = report.runs.length + report.missing.length + (report.diverged?.length ?? 0);
        const flipped = machine ? String(compareScales(machine as unknown as ScaleReport, report as unknown as ScaleReport).filter((c) => c.state === 'flipped').length) : '—';
        const hours = report.compute?.machine_hours;
        return {
          header: [{ code: report.suite }],
          cells: [
            { text: [{ link: name, href: `${name}/report.md` }] },
            { text: `${report.runs.length} of ${total}` },
            { text: ce ? fixed(tableMean(report, ce.name, 'train:accuracy') * 100, 2) : '—' },
            { text: ce ? fixed(tableMean(report, ce.name, 'T'), 2) : '—' },
            { text: `${tested} / ${paper.length}` },
            { text: flipped },
            { text: typeof hours === 'number' ? hours.toFixed(1) : 'not recorded' },
          ],
        };
      }),
    },
  ];
}
