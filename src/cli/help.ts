import { defaultText } from '../util/schema.js';
import type { Command } from './command.js';
import { type Flag, isRequired } from './flag.js';

/** Help texts generated from the command table and the flags' schemas (so they cannot drift from the parser). */

function flagUsage(name: string, spec: Flag): string {
  if (spec.schema.type === 'boolean') return `--${name}`;
  const value = spec.valueName ?? (spec.schema.choices ? spec.schema.choices.join('|') : spec.schema.type === 'number' ? 'N' : 'VALUE');
  return `--${name} ${value}`;
}

/** The notes after a flag's help line: required, repeatable, its default (a boolean's `false` goes without saying). */
export function flagNotes(spec: Flag): string {
  const shown = spec.shownDefault ?? defaultText(spec.schema);
  return [isRequired(spec) ? 'required' : '', spec.repeatable ? 'repeatable' : '', shown !== undefined && !(spec.schema.type === 'boolean' && shown === 'false') ? `default ${shown}` : '']
    .filter(Boolean)
    .join(', ');
}

/** `calib <command> --help`. */
export function commandHelp(command: Command): string {
  const entries = Object.entries(command.flags);
  const required = entries.filter(([, s]) => isRequired(s)).map(([n, s]) => flagUsage(n, s));
  const generated = `${required.length ? ' ' + required.join(' ') : ''}${entries.length > required.length ? ' [options]' : ''}`;
  const lines = [`Usage: calib ${command.name}${command.usage !== undefined ? ' ' + command.usage : generated}`, ''];
  lines.push(command.summary);
  if (command.description) lines.push('', ...command.description.split('\n'));
  if (entries.length) {
    lines.push('', 'Options:');
    const left = entries.map(([n, s]) => flagUsage(n, s));
    const width = Math.min(34, Math.max(...left.map((l) => l.length)));
    entries.forEach(([, spec], i) => {
      const notes = flagNotes(spec);
      const l = left[i]!;
      const pad = l.length > width ? `\n  ${' '.repeat(width)}  ` : ' '.repeat(width - l.length) + '  ';
      lines.push(`  ${l}${pad}${spec.schema.description ?? ''}${notes ? ` (${notes})` : ''}`);
    });
    lines.push(`  ${'--help'.padEnd(width)}  show this help`);
  }
  if (command.examples?.length) lines.push('', 'Examples:', ...command.examples.map((e) => `  ${e}`));
  return lines.join('\n') + '\n';
}

/** `calib --help`: the command list. */
export function programHelp(commands: readonly Command[], version: string): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `calib ${version}: calibration metrics, post-hoc recalibration and reliability diagrams for classifier outputs.`,
    '',
    'Usage: calib <command> [options]       calib <command> --help',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Inputs are N × C logits or probabilities and N integer labels as .npy, .csv or .json files.',
    'Errors are one line on stderr; exit codes: 0 success, 2 bad arguments or input, 1 failed fit or internal error.',
    '',
  ].join('\n');
}
