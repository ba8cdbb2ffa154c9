import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs, parseKeyValues, UsageError, type Flags } from '../../src/cli/args.js';
import { flag } from '../../src/cli/flag.js';
import { boolean, described, number, optional, string } from '../../src/util/schema.js';

const specs = {
  logits: flag(described(optional(string()), 'logits file'), { valueName: 'FILE' }),
  labels: flag(described(string(), 'labels file')),
  bins: flag(optional(number({ integer: true }), 15, 'bins')),
  scale: flag(described(optional(number()), 'a number')),
  convention: flag(optional(string(['(l,u]', '[l,u)']), '(l,u]', 'bins')),
  json: flag(optional(boolean(), false, 'json output')),
  opt: flag(described(string(), 'k=v'), { repeatable: true }),
} as const satisfies Flags;

function parse(argv: string[]) {
  const result = parseArgs(specs, argv, 'eval');
  assert.equal(result.help, false);
  return (result as Extract<typeof result, { help: false }>).flags;
}

function usage(argv: string[], pattern: RegExp): void {
  assert.throws(
    () => parseArgs(specs, argv, 'eval'),
    (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, pattern);
      assert.ok(!error.message.includes('\n'), 'one line');
      return true;
    },
  );
}

test('values come as --flag value or --flag=value, with defaults filled in', () => {
  const flags = parse(['--labels', 'y.npy', '--logits=z.npy', '--scale', '-2.5e-1']);
  assert.equal(flags.labels, 'y.npy');
  assert.equal(flags.logits, 'z.npy');
  assert.equal(flags.scale, -0.25);
  assert.equal(flags.bins, 15);
  assert.equal(flags.convention, '(l,u]');
  assert.equal(flags.json, false);
  assert.deepEqual(flags.opt, []);
});

test('booleans, repeated flags and values containing "=" or brackets', () => {
  const flags = parse(['--json', '--labels=a=b.npy', '--opt', 'k=v', '--opt=k2=1', '--convention', '[l,u)', '--bins=20']);
  assert.equal(flags.json, true);
  assert.equal(flags.labels, 'a=b.npy');
  assert.deepEqual(flags.opt, ['k=v', 'k2=1']);
  assert.equal(flags.convention, '[l,u)');
  assert.equal(flags.bins, 20);
  assert.equal(parse(['--labels', 'y', '--json=false']).json, false);
});

test('help is recognised anywhere, even among invalid flags', () => {
  assert.deepEqual(parseArgs(specs, ['--bogus', '--help'], 'eval'), { help: true });
  assert.deepEqual(parseArgs(specs, ['-h'], 'eval'), { help: true });
});

test('mistakes are one-line usage errors naming the flag', () => {
  usage(['--labels', 'y', '--bogus'], /^eval: unknown flag --bogus \(see calib eval --help\)$/);
  usage(['--labels', 'y', '--log', 'z'], /unknown flag --log \(did you mean --logits\?\)/);
  usage(['--labels'], /^eval: --labels needs a value$/);
  usage(['--labels', '--json'], /--labels needs a value/);
  usage(['--logits', 'z'], /^eval: missing required flag --labels/);
  usage(['--labels', 'y', '--bins', '1.5'], /--bins: expected an integer, got 1\.5$/);
  usage(['--labels', 'y', '--bins', '12abc'], /--bins: expected an integer, got "12abc"/);
  usage(['--labels', 'y', '--scale', ''], /--scale: expected a finite number, got ""/);
  usage(['--labels', 'y', '--convention', '(l,u)'], /--convention: expected one of '\(l,u\]', '\[l,u\)' \(did you mean .*\?\), got "\(l,u\)"$/);
  usage(['--labels', 'y', '--convention', 'open'], /^--convention: expected one of '\(l,u\]', '\[l,u\)', got "open"$/);
  usage(['--labels', ''], /^--labels: expected a non-empty string, got ""$/);
  usage(['--labels', 'y', '--json=yes'], /--json: expected true or false, got "yes"/);
  usage(['--labels', 'y', '--labels', 'z'], /--labels given more than once/);
  usage(['--labels', 'y', 'extra.npy'], /unexpected argument "extra\.npy"/);
  usage(['--labels', 'y', '--', 'extra'], /unexpected argument "extra"/);
});

test('key=value options become typed values', () => {
  assert.deepEqual(parseKeyValues('opt', ['maxIter=200', 'mode=grid', 'flag=true', 'grid=0.5,1,2', 'eps=1e-3']), {
    maxIter: 200,
    mode: 'grid',
    flag: true,
    grid: [0.5, 1, 2],
    eps: 0.001,
  });
  assert.throws(() => parseKeyValues('opt', ['novalue']), /--opt: expected key=value, got "novalue"/);
  assert.throws(() => parseKeyValues('opt', ['=3']), /expected key=value/);
  assert.throws(() => parseKeyValues('opt', ['a=1', 'a=2']), /key "a" given more than once/);
});

test('a flag is a schema field: its range and choices are checked at parsing by the schema, with the path --flag', () => {
  const ranged = {
    bins: flag(optional(number({ integer: true, min: 1, max: 1000 }), 15, 'bins')),
    rate: flag(described(optional(number({ min: 0, max: 1, exclusiveMin: true })), 'a rate')),
  } as const;
  const parsed = parseArgs(ranged, ['--rate', '0.5'], 'x');
  assert.ok(!parsed.help);
  assert.deepEqual(parsed.flags, { bins: 15, rate: 0.5 });
  // The same messages as the schema gives for a configuration file's key (util/schema.ts), under the flag's name.
  assert.throws(
    () => parseArgs(ranged, ['--bins', '0'], 'x'),
    (e: unknown) => e instanceof UsageError && e.message === '--bins: expected an integer ≥ 1, got 0',
  );
  assert.throws(
    () => parseArgs(ranged, ['--bins', '2000'], 'x'),
    (e: unknown) => e instanceof UsageError && e.message === '--bins: expected an integer ≤ 1000, got 2000',
  );
  assert.throws(
    () => parseArgs(ranged, ['--rate', '0'], 'x'),
    (e: unknown) => e instanceof UsageError && e.message === '--rate: expected a finite number > 0, got 0',
  );
  assert.throws(() => number({ min: 0, exclusiveMin: true, max: 1 }).parse(0, '--rate'), /^InvalidArgumentError: --rate: expected a finite number > 0, got 0$/);
});

test('the parsed flags are typed by their schemas: literal unions for choices, lists for repeatable flags', () => {
  const flags = parse(['--labels', 'y']);
  const convention: '(l,u]' | '[l,u)' = flags.convention;
  const opts: string[] = flags.opt;
  const logits: string | undefined = flags.logits;
  const json: boolean = flags.json;
  assert.deepEqual([convention, opts, logits, json], ['(l,u]', [], undefined, false]);
});
