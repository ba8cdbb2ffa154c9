import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Folder size (issue 27 item 5, "sub-folders where a layer has more than ~30 files"): no folder of src/ holds more
 * than MAX_FILES TypeScript files of its own (its sub-folders count separately), so a layer that grows is split by
 * concept (metrics/binned, posthoc/temperature, train/run, …) instead of turning into a flat list. A sub-folder of a
 * layer holds at least MIN_FILES files, so the split stays by concept and not one file per folder.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAX_FILES = 30;
const MIN_FILES = 4;
/** Sub-folders allowed under MIN_FILES, each with its reason. */
const SMALL_ALLOWED: Readonly<Record<string, string>> = {
  'src/engine/onnx': 'the ONNX protobuf writer of the engine, a tier of its own in the import-direction rules',
  'src/engine/autodiff': 'the autodiff driver, a tier of its own in the import-direction rules',
  'src/engine/reference': 'the float64 reference evaluator, a tier of its own in the import-direction rules',
  'src/engine/testing': 'gradient checks for tests, a tier of its own in the import-direction rules',
};

/** Every folder under `dir` (itself included) with the number of .ts files directly in it. */
function tsFilesPerFolder(dir: string): Map<string, number> {
  const counts = new Map<string, number>();
  const walk = (d: string): void => {
    const entries = readdirSync(posix.join(ROOT, d), { withFileTypes: true });
    counts.set(d, entries.filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')).length);
    for (const e of entries) if (e.isDirectory()) walk(posix.join(d, e.name));
  };
  walk(dir);
  return counts;
}

test(`folder size: no folder of src/ holds more than ${MAX_FILES} .ts files of its own`, () => {
  const counts = tsFilesPerFolder('src');
  assert.ok(counts.size > 15 && (counts.get('src/util') ?? 0) > 0, `read ${counts.size} folders`);
  const over = [...counts].filter(([, n]) => n > MAX_FILES).map(([d, n]) => `${d}: ${n} files`);
  assert.deepEqual(over, [], `split these by concept into sub-folders (see the layout of src/metrics):\n${over.join('\n')}`);
});

test(`folder size: every sub-folder of a layer holds at least ${MIN_FILES} .ts files (or is a listed exception)`, () => {
  const counts = tsFilesPerFolder('src');
  const small = [...counts].filter(([d, n]) => d.split('/').length > 2 && n < MIN_FILES && !(d in SMALL_ALLOWED)).map(([d, n]) => `${d}: ${n} files`);
  assert.deepEqual(small, []);
  assert.deepEqual(
    Object.keys(SMALL_ALLOWED).filter((d) => (counts.get(d) ?? MIN_FILES) >= MIN_FILES),
    [],
    'listed exceptions that are no longer small',
  );
});
