import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/** A fresh temporary directory for one test file, removed when the file's tests finish. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `calibkit-${prefix}-`));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
