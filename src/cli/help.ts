import type { FlagSpec } from './args.js';
import type { Command } from './command.js';

/** Help texts generated from the command table and the flag specs (so they cannot drift from the parser). */

function flagUsage(name: string, spec: FlagSpec): string {
  if (spec.type === 'boolean') return `--${name}`;
  const value = spec.valueName ?? (spec.choices ? spec.choices.join('|') : spec.type === 'string' ? 'VALUE' : 'N');
  return `--${name} ${value}`;
}

/** `calib <command> --help`. */
export function commandHelp(command: Command): string {
  const entries = Object.entries(command.flags);
  const required = entries.filter(([, s]) => s.required).map(([n, s]) => flagUsage(n, s));
  const generated = `${required.length ? ' ' + required.join(' ') : ''}${entries.length > required.length ? ' [options]' : ''}`;
  const lines = [`Usage: calib ${command.name}${command.usage !== undefined ? ' ' + command.usage : generated}`, ''];
  lines.push(command.summary);
  if (command.description) lines.push('', ...command.description.split('\n'));
  if (entries.length) {
    lines.push('', 'Options:');
    const left = entries.map(([n, s]) => flagUsage(n, s));
    const width = Math.min(34, Math.max(...left.map((l) => l.length)));
    entries.forEach(([, spec], i) => {
      const notes = [spec.required ? 'required' : '', spec.multiple ? 'repeatable' : '', spec.default !== undefined ? `default ${spec.default}` : spec.shownDefault !== undefined ? `default ${spec.shownDefault}` : '']
        .filter(Boolean)
        .join(', ');
      const l = left[i]!;
      const pad = l.length > width ? `\n  ${' '.repeat(width)}  ` : ' '.repeat(width - l.length) + '  ';
      lines.push(`  ${l}${pad}${spec.description}${notes ? ` (${notes})` : ''}`);
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
