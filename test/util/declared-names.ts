import { readdirSync, readFileSync } from 'node:fs';

/**
 * The names declared as `export const x = <define>({ name: '…'` in the TypeScript files of `dir` (a src folder) and
 * its sub-folders: what the "every file that declares one is registered" tests compare each registry with.
 */
export function declaredNames(dir: URL, define: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => [...readFileSync(new URL(f, dir), 'utf8').matchAll(new RegExp(`^export const \\w+ = ${define}\\(\\{\\s*name: '([a-z0-9-]+)'`, 'gm'))].map((m) => m[1]!))
    .sort();
}
