import { CALIBRATOR_KINDS, CALIBRATORS, describeOption, type CalibratorDefinition } from '../../posthoc/index.js';
import { tableCell as cell } from './table-cell.js';

/**
 * `calib fit --help`'s method list and the README's calibrator table, both generated from the `CALIBRATORS`
 * record (posthoc/calibrators.ts), so a calibrator added there reaches the CLI help and the docs unedited.
 */

function facts(d: CalibratorDefinition): string {
  const classes = d.classes === 'two' ? 'two classes, ' : '';
  const argmax = d.keepsArgmax === 'yes' ? 'keeps the argmax' : d.keepsArgmax === 'no' ? 'may change the argmax' : 'argmax not kept in general';
  const weights = d.weights === 'accepted' ? 'takes --weights' : 'no --weights';
  return `${classes}fits on ${d.input}; ${argmax}; ${weights}; ONNX export ${typeof d.onnx === 'function' ? 'yes' : `no (${d.onnx.notExpressible})`}`;
}

/** The method list of `calib fit --help`: per method its summary, facts and options (`--opt key=value`). */
export function calibratorHelp(): string {
  const width = Math.max(...CALIBRATOR_KINDS.map((k) => k.length));
  const lines = ['Methods (--method NAME) and their options (--opt key=value; default, then what it accepts):'];
  for (const kind of CALIBRATOR_KINDS) {
    const d = CALIBRATORS[kind];
    const indent = ' '.repeat(width + 4);
    lines.push(`  ${kind.padEnd(width)}  ${d.summary}`, `${indent}${facts(d)}`);
    for (const [name, spec] of Object.entries(d.options)) lines.push(`${indent}  ${describeOption(name, spec)}`);
  }
  return lines.join('\n');
}

/** The README's calibrator table. */
export function calibratorsTable(): string {
  const rows = CALIBRATOR_KINDS.map((kind) => {
    const d = CALIBRATORS[kind];
    const options = Object.entries(d.options).map(([name, spec]) => `\`${name}=${String(spec.fallback)}\``);
    const argmax = d.keepsArgmax === 'yes' ? 'yes' : d.keepsArgmax === 'no' ? 'no' : 'not in general';
    const onnx = typeof d.onnx === 'function' ? 'yes' : 'no';
    const weights = d.weights === 'accepted' ? 'yes' : `no: ${cell(d.weights.refused)}`;
    return `| \`${kind}\` | ${cell(d.summary)} | ${d.input}${d.classes === 'two' ? ', C = 2' : ''} | ${argmax} | ${weights} | ${onnx} | ${cell(options.join(', ') || '—')} | ${cell(d.checkedAgainst)} |`;
  });
  return ['| method | what it fits | works on | keeps argmax | sample weights | ONNX export | options (`--opt`, defaults) | checked against |', '| --- | --- | --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}
