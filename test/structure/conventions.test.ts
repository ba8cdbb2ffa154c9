import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's lint rules (issue 27 item 5), checked over every .ts file of src/, test/ and bench/ with no
 * dependency: what the type checker (tsconfig: strict, noUnusedLocals, noUncheckedIndexedAccess, …) does not see.
 * `npm run lint` runs this file alone; `npm test` runs it with the rest. Each rule says what it keeps out:
 * - kebab-case file names (STYLE.md), `.test.ts` for tests;
 * - no default exports (one named primary export per file, greppable by name);
 * - relative imports name the emitted `.js` file (ES modules resolve nothing else);
 * - no `@ts-ignore` / `@ts-nocheck` (a type error is fixed or cast where it is explained);
 * - no `console.*` in src/ outside the CLI (library code reports through errors and callbacks, STYLE.md pitfalls);
 * - no explicit `any` in src/ outside the listed places (each with its reason; tests may type parsed JSON as any);
 * - formatting the formatter would otherwise keep: no tabs, no trailing white space, a final newline.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FOLDERS = ['src', 'test', 'bench'];

/** Files allowed an explicit `any`, each with its reason. */
const ANY_ALLOWED: Readonly<Record<string, string>> = {
  'src/engine/ir/tensor.ts': 'a tensor records the primitive that made it, whatever its parameter type (Primitive<any>)',
  'src/engine/ops/primitives.ts': 'the table of every primitive, each with its own parameter type (Primitive<any>)',
};

function files(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(posix.join(ROOT, dir), { withFileTypes: true })) {
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'fixtures' && entry.name !== 'results' && entry.name !== 'node_modules') out.push(...files(path));
    } else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

const ALL = FOLDERS.flatMap(files);
/** This file spells the patterns it looks for. */
const SELF = 'test/structure/conventions.test.ts';

/** Code lines of a file (line number, text) without comment lines. */
function codeLines(text: string): [number, string][] {
  return text
    .split('\n')
    .map((line, i): [number, string] => [i + 1, line])
    .filter(([, line]) => !/^\s*(\/\/|\*|\/\*)/.test(line));
}

function check(rule: string, find: (path: string, text: string) => string[]): void {
  const found = ALL.filter((path) => path !== SELF).flatMap((path) => find(path, readFileSync(posix.join(ROOT, path), 'utf8')));
  assert.deepEqual(found, [], `${rule}:\n${found.join('\n')}`);
}

test('lint: the tree holds .ts files to check', () => {
  assert.ok(ALL.length > 500, `${ALL.length} files`);
  assert.ok(ALL.includes('src/util/schema.ts'));
});

test('lint: file names are kebab-case', () => {
  check('file names', (path) => (/^[a-z0-9]+(-[a-z0-9]+)*(\.test)?\.ts$/.test(posix.basename(path)) ? [] : [path]));
});

test('lint: no default exports, no @ts-ignore / @ts-nocheck', () => {
  check('default exports', (path, text) =>
    codeLines(text)
      .filter(([, l]) => /\bexport default\b/.test(l))
      .map(([n]) => `${path}:${n}`),
  );
  check('@ts-ignore / @ts-nocheck', (path, text) => text.split('\n').flatMap((l, i) => (/@ts-(ignore|nocheck)/.test(l) ? [`${path}:${i + 1}`] : [])));
});

test('lint: relative imports name the emitted .js file', () => {
  const spec = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']*)'/g;
  check('relative imports', (path, text) => codeLines(text).flatMap(([n, l]) => [...l.matchAll(spec)].filter((m) => !m[1]!.endsWith('.js') && !m[1]!.endsWith('.json')).map(() => `${path}:${n}`)));
});

test('lint: no console output from library code (src/ outside src/cli)', () => {
  check('console in src/', (path, text) =>
    path.startsWith('src/') && !path.startsWith('src/cli/')
      ? codeLines(text)
          .filter(([, l]) => /\bconsole\.\w+\(/.test(l))
          .map(([n]) => `${path}:${n}`)
      : [],
  );
});

test('lint: no explicit any in src/ outside the listed places, and every listed place still needs it', () => {
  const any = /(:\s*any\b(?!\.)|\bas any\b|<any>|\bany\[\])/;
  const uses = new Set<string>();
  check('explicit any', (path, text) => {
    if (!path.startsWith('src/')) return [];
    const lines = codeLines(text).filter(([, l]) => any.test(l));
    if (lines.length > 0) uses.add(path);
    return path in ANY_ALLOWED ? [] : lines.map(([n]) => `${path}:${n}`);
  });
  assert.deepEqual(
    Object.keys(ANY_ALLOWED).filter((p) => !uses.has(p)),
    [],
    'allowed places that no longer use any',
  );
});

test('lint: no tabs, no trailing white space, a final newline', () => {
  check('formatting', (path, text) => [
    ...text.split('\n').flatMap((l, i) => (/\t/.test(l) ? [`${path}:${i + 1}: tab`] : / +$/.test(l) ? [`${path}:${i + 1}: trailing white space`] : [])),
    ...(text.endsWith('\n') ? [] : [`${path}: no final newline`]),
  ]);
});
