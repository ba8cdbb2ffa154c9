import { METRICS, type MetricDefinition } from '../../metrics/index.js';
import { calibratorsTable } from './calibrator-docs.js';

/**
 * README sections generated from the registries, so a metric, calibrator or loss added to its registry reaches
 * the docs without editing them by hand: each is delimited by `<!-- generated:NAME -->` and
 * `<!-- /generated:NAME -->`; `npm run docs` rewrites them and test/readme/generated-tables.test.ts fails while
 * the README is out of date.
 */

/** The `calib eval` metric table: JSON key, table label and what it measures. */
export function metricsTable(): string {
  const rows = (METRICS as readonly MetricDefinition[]).map((m) => `| \`${m.key}\` | ${m.label} | ${m.description} |`);
  return ['| `--json` key | table row | what |', '| --- | --- | --- |', ...rows].join('\n');
}

/** Every generated section by name. */
export function generatedSections(): Readonly<Record<string, string>> {
  return { metrics: metricsTable(), calibrators: calibratorsTable() };
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
