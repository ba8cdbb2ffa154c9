import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { trainCommand } from '../../src/cli/commands/train.js';
import { commandHelp, flagNotes } from '../../src/cli/help.js';
import { TRAIN_CONFIG_SCHEMA } from '../../src/train/train-config.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import type { Schema } from '../../src/util/schema.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

/**
 * Issue 27 item 5: every command's flags are fields of the one option-schema language (util/schema.ts), so a flag's
 * type, choices, default, range and --help line are written once; `calib train`'s flags that set configuration keys
 * take those keys' own schemas.
 */

const PRESENTATION_KEYS = new Set(['schema', 'valueName', 'repeatable', 'shownDefault']);

test("every command's flags are schema fields, and each --help line is generated from the flag's schema", () => {
  let flags = 0;
  for (const command of COMMANDS) {
    const help = commandHelp(command).split('\n');
    for (const [name, f] of Object.entries(command.flags)) {
      flags++;
      const where = `calib ${command.name} --${name}`;
      for (const key of Object.keys(f)) assert.ok(PRESENTATION_KEYS.has(key), `${where}: '${key}' is not part of a flag (a schema field plus valueName, repeatable, shownDefault)`);
      assert.equal(typeof f.schema.parse, 'function', where);
      assert.ok(f.schema.expected.length > 0, where);
      assert.ok(f.schema.description !== undefined && f.schema.description.trim() !== '', `${where} has a description`);
      const i = help.findIndex((l) => new RegExp(`^  --${name}(\\s|$)`).test(l));
      assert.ok(i >= 0, `${where} is in the help`);
      // A flag column wider than the table's puts the description on the next line.
      const line = help[i + 1]?.startsWith('    ') ? `${help[i]!} ${help[i + 1]!.trim()}` : help[i]!;
      const notes = flagNotes(f);
      assert.ok(line.includes(`${f.schema.description}${notes ? ` (${notes})` : ''}`), `${where}: the help line shows the schema's description and notes: ${line}`);
      if (f.schema.choices && f.valueName === undefined) assert.ok(line.includes(f.schema.choices.join('|')), `${where} lists its choices`);
    }
  }
  assert.ok(flags > 200, `${flags} flags checked`);
});

/** What `schema` makes of `value`: the value, or the error message without its path. */
function outcome(schema: Schema<unknown>, value: unknown, path: string): unknown {
  try {
    return schema.parse(value, path);
  } catch (e) {
    assert.ok(e instanceof InvalidArgumentError, String(e));
    return `error: ${e.message.slice(path.length)}`;
  }
}

test("calib train's setting flags accept and refuse exactly what their configuration keys do", () => {
  const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
  const probes: readonly unknown[] = [-1, 0, 0.05, 0.5, 1, 1.5, 2, 7, 1e9, '', 'x', 'mnist', 'focl', 'cosine', 'cosin', 'resnet20', 'lenett', true, false];
  let compared = 0;
  for (const [name, f] of Object.entries(trainCommand.flags)) {
    const key = camel(name) as keyof typeof TRAIN_CONFIG_SCHEMA.shape;
    const config = TRAIN_CONFIG_SCHEMA.shape[key] as Schema<unknown> | undefined;
    if (config === undefined || config.type === undefined || f.repeatable) continue;
    if (name === 'mixup-layers' || name === 'out') continue; // their own syntax (L1,L2) / a path
    for (const v of probes) assert.deepEqual(outcome(f.schema, v, `--${name}`), outcome(config, v, `config.${key}`), `--${name} ${String(v)}`);
    compared++;
  }
  assert.ok(compared >= 30, `${compared} flags compared`);
});

const dir = tempDir('flags-from-schema');

async function refused(argv: string[], message: RegExp): Promise<void> {
  const out = join(dir, `run-${Math.random().toString(36).slice(2)}`);
  const r = await run([...argv, '--out', out]);
  assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
  assert.match(r.stderr, message);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.equal(existsSync(out), false, `${argv.join(' ')} wrote ${out}`);
}

test('calib train refuses out-of-range settings and misspelt names at parsing, naming the flag, as a config file does', async () => {
  await refused(['train', '--dataset', 'mnist', '--epochs', '0'], /^calib: error: --epochs: expected an integer ≥ 1, got 0\n$/);
  await refused(['train', '--dataset', 'mnist', '--momentum', '1.5'], /^calib: error: --momentum: expected a finite number ≤ 1, got 1\.5\n$/);
  await refused(
    ['train', '--dataset', 'mnist', '--schedule', 'cosin'],
    /^calib: error: --schedule: expected constant, cosine, step:S\[,γ\] or multistep:m1,m2,…\[:γ\] \(did you mean cosine\?\), got "cosin"\n$/,
  );
  await refused(['train', '--dataset', 'mnist', '--loss', 'focl'], /^calib: error: --loss: expected one of 'ce', .* \(did you mean 'focal'\?\), got "focl"\n$/);
  await refused(['train', '--dataset', 'mnist', '--checkpoint-steps', '-2'], /^calib: error: --checkpoint-steps: expected an integer ≥ 0, got -2\n$/);
  const config = join(dir, 'typos.json');
  for (const [key, value, message] of [
    ['schedule', 'multstep:0.5', /config \(.*typos\.json \+ flags\)\.schedule: expected constant, cosine, .*\(did you mean multistep\?\), got "multstep:0\.5"/],
    ['loss', 'focl', /\.loss: expected one of .*\(did you mean 'focal'\?\), got "focl"/],
    ['secondary', 'mdac', /\.secondary: expected one of .*\(did you mean 'mdca'\?\), got "mdac"/],
    ['model', 'lenett', /\.model: expected a model kind .*\(did you mean lenet\?\), got "lenett"/],
  ] as const) {
    writeFileSync(config, JSON.stringify({ dataset: 'mnist', [key]: value }));
    await refused(['train', '--config', config], message);
  }
});
