import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './capture.js';
import { tempDir } from '../io/temp-dir.js';
import { TRAIN_CONFIG_SCHEMA } from '../../src/train/train-config.js';
import { defaultText } from '../../src/util/schema.js';

/** The help line of `--flag` (its continuation line included when the flag column overflows). */
function helpLine(help: string, flag: string): string {
  const lines = help.split('\n');
  const i = lines.findIndex((l) => new RegExp(`^  --${flag}(\\s|$)`).test(l));
  assert.ok(i >= 0, `--${flag} in the help`);
  return lines[i]!.trim().startsWith(`--${flag} `) && lines[i + 1]?.startsWith('    ') ? `${lines[i]!} ${lines[i + 1]!.trim()}` : lines[i]!;
}

test('calib train --help states each default once, taken from the configuration schema', async () => {
  const r = await run(['train', '--help']);
  assert.equal(r.code, 0, r.stderr);
  const cases: [string, keyof typeof TRAIN_CONFIG_SCHEMA.shape][] = [
    ['lr', 'lr'],
    ['epochs', 'epochs'],
    ['momentum', 'momentum'],
    ['weight-decay', 'weightDecay'],
    ['validation', 'validation'],
    ['schedule', 'schedule'],
    ['model', 'model'],
    ['loss', 'loss'],
  ];
  for (const [flag, key] of cases) {
    const schema = TRAIN_CONFIG_SCHEMA.shape[key];
    const line = helpLine(r.stdout, flag);
    const shown = defaultText(schema);
    assert.ok(shown !== undefined, key);
    assert.ok(line.includes(`(default ${shown})`), `--${flag} shows the schema's default ${shown}: ${line}`);
    assert.equal(line.split('default').length - 1, 1, `--${flag} states its default once: ${line}`);
    assert.ok(schema.description !== undefined && line.includes(schema.description), `--${flag} shows the schema's description: ${line}`);
  }
  assert.match(helpLine(r.stdout, 'lr'), /base learning rate η₀ \(default 0\.1\)$/);
  assert.match(helpLine(r.stdout, 'epochs'), /epochs \(default 30\)$/);
  // A key without a fallback shows no parser default; a boolean that defaults to false shows none either.
  assert.doesNotMatch(helpLine(r.stdout, 'subset'), /\(default/);
  assert.doesNotMatch(helpLine(r.stdout, 'ood'), /\(default/);
  assert.match(helpLine(r.stdout, 'out'), /\(default runs\/<dataset>-<model>-<loss>\)$/);
});

test('every flag that sets a configuration key with a fallback shows that fallback', async () => {
  const r = await run(['train', '--help']);
  const kebab = (k: string): string => k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
  const flagOf: Record<string, string> = { datasetOptions: 'data-opt', modelOptions: 'model-opt', lossOptions: 'opt', secondaryOptions: 'secondary-opt', oodDatasetOptions: 'ood-data-opt' };
  for (const [key, schema] of Object.entries(TRAIN_CONFIG_SCHEMA.shape)) {
    const shown = defaultText(schema);
    if (shown === undefined || shown === 'false') continue;
    const line = helpLine(r.stdout, flagOf[key] ?? kebab(key));
    assert.ok(line.includes(`(default ${shown})`), `${key}: ${line}`);
  }
});

test('calib train --mc-dropout K: shown in the help, sets config mcDropout, and refuses --calibrate before training', async () => {
  const r = await run(['train', '--help']);
  assert.match(helpLine(r.stdout, 'mc-dropout'), /--mc-dropout K\s+final evaluation by MC dropout with K ≥ 2 passes/);
  const out = join(tempDir('train-mc-dropout-cli'), 'run');
  const bad = await run(['train', '--dataset', 'mnist', '--mc-dropout', '1', '--model-opt', 'dropout=0.3', '--out', out]);
  assert.equal(bad.code, 2);
  // The flag reads the configuration's own schema of mcDropout.passes: refused at parsing, naming the flag.
  assert.match(bad.stderr, /^calib: error: --mc-dropout: expected an integer ≥ 2, got 1\n$/);
  const noDropout = await run(['train', '--dataset', 'mnist', '--mc-dropout', '3', '--out', out]);
  assert.equal(noDropout.code, 2);
  assert.match(noDropout.stderr, /config\.mcDropout: expected a model with dropout rate > 0/);
  const calibrate = await run(['train', '--dataset', 'mnist', '--mc-dropout', '3', '--model-opt', 'dropout=0.3', '--calibrate', 'temperature', '--out', out]);
  assert.equal(calibrate.code, 2);
  assert.match(calibrate.stderr, /--calibrate exports model\.onnx \(the deterministic network\)/);
  assert.ok(!existsSync(join(out, 'config.json')), 'refused before the run directory is made');
});
