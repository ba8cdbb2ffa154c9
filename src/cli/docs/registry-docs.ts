import { DATASETS } from '../../data/load-dataset.js';
import { MODELS } from '../../nn/models/zoo.js';
import { OPTIMIZERS } from '../../optim/create.js';
import { SUITES } from '../../suite/builtin-suites.js';
import { defaultText, type ObjectSchema, type Schema } from '../../util/schema.js';
import { tableCell as cell } from './table-cell.js';

/**
 * The README's dataset, model, optimizer and built-in suite tables, generated from their registries (util/registry.ts)
 * so that a dataset, model, optimizer or suite added to its registry reaches the docs unedited (`npm run docs`).
 */

/** An option schema's keys with their defaults: `key=default`, or `key` when it has none. */
function optionList(schema: ObjectSchema<Readonly<Record<string, Schema<unknown>>>>): string {
  const items = Object.entries(schema.shape).map(([key, s]) => {
    const d = defaultText(s);
    return d === undefined ? `\`${key}\`` : `\`${key}=${d}\``;
  });
  return items.length ? cell(items.join(', ')) : '—';
}

/** `calib train --dataset`: name, task, what, `--data-opt` keys, `--augment auto`, default OOD partner. */
export function datasetsTable(): string {
  const rows = DATASETS.definitions.map((d) => {
    const keys = d.optionKeys.map((k) => `\`${k}\``).join(', ');
    return `| \`${d.name}\` | ${d.task} | ${cell(d.summary)} | ${keys || '—'} | ${d.augmentation} | ${d.oodPartner === null ? '—' : `\`${d.oodPartner}\``} |`;
  });
  return ['| `--dataset` | task | what | `--data-opt` keys | `--augment auto` | `--ood` partner |', '| --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/** `calib train --model`: kind, task, what, `--model-opt` options with defaults. */
export function modelsTable(): string {
  const rows = MODELS.definitions.map((d) => `| \`${d.name}\` | ${d.task} | ${cell(d.summary)} | ${optionList(d.options)} |`);
  return ['| `--model` kind | data | what | `--model-opt` options (defaults) |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** `calib train --optimizer`: name, what, options with defaults, reference. */
export function optimizersTable(): string {
  const rows = OPTIMIZERS.definitions.map((d) => `| \`${d.name}\` | ${cell(d.summary)} | ${optionList(d.options)} | ${cell(d.checkedAgainst)} |`);
  return ['| `--optimizer` | update rule | options (defaults) | checked against |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** `calib suite run NAME`: the built-in suites and their summaries. */
export function suitesTable(): string {
  const rows = SUITES.definitions.map((d) => `| \`${d.name}\` | ${cell(d.summary)} |`);
  return ['| suite | what |', '| --- | --- |', ...rows].join('\n');
}
