import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defineCommand, type Command } from '../../src/cli/command.js';
import { invalidArgument } from '../../src/util/errors.js';
import { run } from './capture.js';
import { flag } from '../../src/cli/flag.js';
import { described, number, optional, string } from '../../src/util/schema.js';

const echo = defineCommand({
  name: 'echo',
  summary: 'Print the parsed flags.',
  description: 'Test command.',
  examples: ['calib echo --text hi'],
  flags: {
    text: flag(described(string(), 'what to print'), { valueName: 'TEXT' }),
    times: flag(optional(number({ integer: true }), 1, 'repetitions')),
  },
  async run(flags, io) {
    for (let i = 0; i < flags.times; i++) io.stdout.write(`${flags.text}\n`);
    return flags.text === 'three' ? 3 : undefined;
  },
});
const bad = defineCommand({
  name: 'bad',
  summary: 'Fail on input.',
  flags: {},
  async run() {
    invalidArgument('--probs', 'rows summing to 1', 'a sum of 0.5 in row 3');
  },
});
const boom = defineCommand({
  name: 'boom',
  summary: 'Crash.',
  flags: {},
  async run() {
    throw new TypeError('cannot read properties of undefined\n(second line)');
  },
});
const commands: readonly Command[] = [echo, bad, boom];

test('a command runs with parsed flags and its exit code is returned', async () => {
  assert.deepEqual(await run(['echo', '--text', 'hi', '--times=2'], { commands }), { code: 0, stdout: 'hi\nhi\n', stderr: '' });
  assert.equal((await run(['echo', '--text', 'three'], { commands })).code, 3);
});

test('invalid input is one stderr line with exit code 2 and no stack', async () => {
  const r = await run(['bad'], { commands });
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, 'calib: error: --probs: expected rows summing to 1, got a sum of 0.5 in row 3\n');
});

test('usage mistakes are one stderr line with exit code 2', async () => {
  for (const argv of [['echo'], ['echo', '--text'], ['echo', '--text', 'a', '--nope'], ['ech'], ['--text', 'a']]) {
    const r = await run(argv, { commands });
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.stderr, /^calib: error: [^\n]+\n$/, argv.join(' '));
  }
  assert.match((await run(['ech'], { commands })).stderr, /unknown command "ech" \(did you mean echo\?\); commands: echo, bad, boom/);
});

test('other exceptions are internal errors with exit code 1, with the stack only under CALIB_DEBUG=1', async () => {
  const quiet = await run(['boom'], { commands });
  assert.equal(quiet.code, 1);
  assert.equal(quiet.stderr, 'calib: internal error: cannot read properties of undefined (second line)\n');
  const debug = await run(['boom'], { commands, env: { CALIB_DEBUG: '1' } });
  assert.equal(debug.code, 1);
  assert.match(debug.stderr, /^calib: internal error: .*\nTypeError: cannot read properties[\s\S]*at /);
});

test('help lists the commands, and each command has its own help from its flag specs', async () => {
  const top = await run(['--help'], { commands });
  assert.equal(top.code, 0);
  assert.match(top.stdout, /Commands:\n  echo  Print the parsed flags\.\n  bad   Fail on input\.\n  boom  Crash\.\n/);
  assert.deepEqual(await run(['help'], { commands }), top);
  const none = await run([], { commands });
  assert.equal(none.code, 2);
  assert.equal(none.stderr, top.stdout);
  const sub = await run(['echo', '--help'], { commands });
  assert.equal(sub.code, 0);
  assert.match(sub.stdout, /^Usage: calib echo --text TEXT \[options\]\n/);
  assert.match(sub.stdout, /--text TEXT\s+what to print \(required\)/);
  assert.match(sub.stdout, /--times N\s+repetitions \(default 1\)/);
  assert.match(sub.stdout, /Examples:\n  calib echo --text hi/);
  assert.deepEqual(await run(['help', 'echo'], { commands }), sub);
});

test('--version prints the package version', async () => {
  const r = await run(['--version'], { commands });
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^\d+\.\d+\.\d+\n$/);
});
