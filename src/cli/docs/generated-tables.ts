import { METRICS, OPT_IN_METRICS, type MetricDefinition } from '../../metrics/index.js';
import { termWeight } from '../../losses/define-loss.js';
import type { LossOption } from '../../losses/options.js';
import { defaultText } from '../../util/schema.js';
import { LOSSES, LOSS_NAMES } from '../../losses/registry.js';
import { calibratorsTable } from './calibrator-docs.js';
import { datasetsTable, modelsTable, optimizersTable, suitesTable } from './registry-docs.js';
import { posthocBenchTable } from './posthoc-bench-table.js';
import { tableCell as cell } from './table-cell.js';

/**
 * README sections generated from the registries, so a metric, calibrator or loss added to its registry reaches
 * the docs without editing them by hand: each is delimited by `<!-- generated:NAME -->` and
 * `<!-- /generated:NAME -->` in one of `GENERATED_FILES`; `npm run docs` rewrites them and
 * test/readme/generated-tables.test.ts fails while a file is out of date.
 */

/** How a metric takes `--weights`: 'yes', 'refused' (by definition) or 'not yet' (not implemented). */
function weightsCell(m: MetricDefinition): string {
  if (m.weighted === undefined) return 'not yet';
  return 'refused' in m.weighted ? 'refused' : m.weighted.refusal === undefined ? 'yes' : 'yes (some settings)';
}

/** The `calib eval` metric table: JSON key, table label, better direction, `--weights` support and what it measures. */
export function metricsTable(): string {
  const rows = (METRICS as readonly MetricDefinition[]).map((m) => `| \`${m.key}\` | ${m.label} | ${m.better === 'none' ? '—' : m.better} | ${weightsCell(m)} | ${m.description} |`);
  return ['| `--json` key | table row | better | `--weights` | what |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/** The opt-in entries of the record (`calib eval --metrics`, suite `metrics:`), with the same columns. */
export function optInMetricsTable(): string {
  const rows = (OPT_IN_METRICS as readonly MetricDefinition[]).map((m) => `| \`${m.key}\` | ${cell(m.label)} | ${m.better === 'none' ? '—' : m.better} | ${weightsCell(m)} | ${cell(m.description)} |`);
  return ['| `--json` key | table row | better | weights | what |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/** One option of a loss for the table: `name` choices (default): description. */
function optionCell(name: string, option: LossOption): string {
  const choices = option.choices ? ` ${option.choices.join('|')}` : '';
  return cell(`\`${name}\`${choices} (${defaultText(option)}): ${option.description}`);
}

/**
 * The `calib loss` / `calib train --loss` table: every loss of the registry (src/losses/registry.ts) with its role
 * and scope (a term's default weight β), its title and its options with their defaults.
 */
export function lossesTable(): string {
  const rows = LOSS_NAMES.map((name) => {
    const def = LOSSES[name];
    const role = def.role === 'term' ? `term (β ${termWeight(def)})` : def.role;
    const options = Object.entries(def.options).map(([key, spec]) => optionCell(key, spec as LossOption));
    return `| \`${name}\` | ${role}, ${def.scope} | ${cell(def.title)} | ${options.length ? options.join('<br>') : 'none'} |`;
  });
  return ['| name | role, scope | what | options (default) |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** src/losses/README.md: the loss names by role and scope (registry order). */
export function lossRolesTable(): string {
  const heads = { primary: 'primary', combined: 'combined: CE + own term', term: 'term, used as primary + β·term' } as const;
  const rows: string[] = [];
  for (const role of Object.keys(heads) as (keyof typeof heads)[]) {
    for (const scope of ['per-example', 'batch'] as const) {
      const names = LOSS_NAMES.filter((name) => LOSSES[name].role === role && LOSSES[name].scope === scope);
      if (names.length) rows.push(`| ${heads[role]} | ${scope} | ${names.map((name) => `\`${name}\``).join(', ')} |`);
    }
  }
  return ['| role | scope | names |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The files with generated sections, relative to the repository root (`npm run docs` rewrites each). */
export const GENERATED_FILES: readonly string[] = ['README.md', 'src/losses/README.md'];

/** Every generated section by name. */
export function generatedSections(): Readonly<Record<string, string>> {
  return {
    metrics: metricsTable(),
    'opt-in-metrics': optInMetricsTable(),
    calibrators: calibratorsTable(),
    losses: lossesTable(),
    'loss-roles': lossRolesTable(),
    datasets: datasetsTable(),
    models: modelsTable(),
    optimizers: optimizersTable(),
    suites: suitesTable(),
    'posthoc-bench': posthocBenchTable(),
  };
}

/** `text` with each generated section replaced by its current content (sections absent from `text` are skipped). */
export function updateGeneratedSections(text: string, sections: Readonly<Record<string, string>> = generatedSections()): string {
  let out = text;
  for (const [name, content] of Object.entries(sections)) {
    const begin = `<!-- generated:${name} -->`;
    const end = `<!-- /generated:${name} -->`;
    const from = out.indexOf(begin);
    const to = out.indexOf(end);
    if (from < 0 || to < from) continue;
    out = `${out.slice(0, from + begin.length)}\n${content}\n${out.slice(to)}`;
  }
  return out;
}
