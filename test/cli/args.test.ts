import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs, parseKeyValues, UsageError, type FlagSpecs } from '../../src/cli/args.js';

const specs = {
  logits: { type: 'string', description: 'logits file', valueName: 'FILE' },
  labels: { type: 'string', description: 'labels file', required: true },
  bins: { type: 'integer', description: 'bins', default: 15 },
  scale: { type: 'number', description: 'a number' },
  convention: { type: 'string', description: 'bins', choices: ['(l,u]', '[l,u)'], default: '(l,u]' },
  json: { type: 'boolean', description: 'json output' },
  opt: { type: 'string', description: 'k=v', multiple: true },
} as const satisfies FlagSpecs;

function parse(argv: string[]) {
  const result = parseArgs(specs, argv, 'eval');
  assert.equal(result.help, false);
  return (result as Extract<typeof result, { help: false }>).flags;
}

function usage(argv: string[], pattern: RegExp): void {
  assert.throws(() => parseArgs(specs, argv, 'eval'), (error: unknown) => {
    assert.ok(error instanceof UsageError);
    assert.match(error.message, pattern);
    assert.ok(!error.message.includes('\n'), 'one line');
    return true;
  });
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
  usage(['--labels', 'y', '--bins', '1.5'], /--bins: expected an integer, got "1\.5"/);
  usage(['--labels', 'y', '--bins', '12abc'], /--bins: expected an integer, got "12abc"/);
  usage(['--labels', 'y', '--scale', ''], /--scale: expected a number, got ""/);
  usage(['--labels', 'y', '--convention', '(l,u)'], /--convention: expected one of '\(l,u\]', '\[l,u\)', got "\(l,u\)"/);
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
