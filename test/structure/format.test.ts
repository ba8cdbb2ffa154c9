import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Formatting (issue 27 item 5): every .ts file of src/, test/ and bench/ is as prettier (a devDependency, settings in
 * .prettierrc.json, exclusions in .prettierignore) writes it, so `npm run lint` and `npm test` fail on unformatted code.
 * Fix with `npm run format`. Prettier's cache (under dist/, rebuilt by any change of file or settings) keeps a rerun
 * to the files that changed.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PRETTIER = posix.join(ROOT, 'node_modules/prettier/bin/prettier.cjs');
const FILES = '{src,test,bench}/**/*.ts';

function prettier(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [PRETTIER, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('format: prettier is installed (npm ci installs the devDependencies)', () => {
  assert.ok(existsSync(PRETTIER), `${PRETTIER} is missing: run npm ci (or npm install)`);
});

test('format: every .ts file of src/, test/ and bench/ is formatted as `npm run format` writes it', () => {
  const r = prettier(['--list-different', '--cache', '--cache-location', 'dist/.prettier-cache', FILES]);
  const unformatted = r.stdout.split('\n').filter((l) => l !== '');
  assert.ok(r.status === 0 || (r.status === 1 && unformatted.length > 0), `prettier failed (exit ${r.status}): ${r.stderr}`);
  assert.deepEqual(unformatted, [], `${unformatted.length} files differ from prettier's output; run npm run format`);
});

test('format: the check sees a badly formatted file (the check can fail)', () => {
  const bad = spawnSync(process.execPath, [PRETTIER, '--check', '--stdin-filepath', 'src/example.ts'], { cwd: ROOT, input: 'const  a = {b:1}\n', encoding: 'utf8' });
  assert.notEqual(bad.status, 0, 'prettier --check accepted "const  a = {b:1}"');
  const good = spawnSync(process.execPath, [PRETTIER, '--check', '--stdin-filepath', 'src/example.ts'], { cwd: ROOT, input: "const a = { b: 'x' };\n", encoding: 'utf8' });
  assert.equal(good.status, 0, good.stderr);
});
