import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The built executable named by package.json "bin" (this test runs from dist/test/cli/).
const bin = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

test('the built bin starts with a node shebang, runs directly and sets the exit code', () => {
  assert.equal(readFileSync(bin, 'utf8').split('\n')[0], '#!/usr/bin/env node');
  const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as { bin: { calib: string } };
  assert.equal(pkg.bin.calib, 'dist/src/cli/main.js');
  chmodSync(bin, 0o755); // npm does this on install; tsc does not
  const ok = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /^\d+\.\d+\.\d+\n$/);
  const bad = spawnSync(bin, ['no-such-command'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /^calib: error: unknown command "no-such-command"[^\n]*\n$/);
});

test('a reader that closes the pipe early (`calib … | head`) ends the command quietly: no EPIPE stack trace', async () => {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [bin, 'suite', 'list'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy(); // the reader is gone before the command writes its first line
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(stderr, '');
  assert.equal(code, 0);
});
