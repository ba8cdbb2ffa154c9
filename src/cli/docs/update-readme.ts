/**
 * `npm run docs`: rewrite the generated sections (generated-tables.ts) of README.md and src/losses/README.md (or of
 * the files given as arguments) from the registries, and (without arguments) docs/reproductions/README.md from the
 * committed reports (`calib suite readme docs/reproductions`, suite/report/reproductions-readme.ts). Run from the
 * repository root after adding a metric, a calibrator or a loss, or after committing a report.
 */
import { readFileSync } from 'node:fs';
import { atomicWriteFile } from '../../util/atomic-write.js';
import { GENERATED_FILES, updateGeneratedSections } from './generated-tables.js';
import { writeReproductionsReadme } from '../../suite/report/reproductions-readme.js';

const paths = process.argv.length > 2 ? process.argv.slice(2) : GENERATED_FILES;
for (const path of paths) {
  const before = readFileSync(path, 'utf8');
  const after = updateGeneratedSections(before);
  if (after !== before) await atomicWriteFile(path, after);
  process.stdout.write(after === before ? `${path}: generated sections up to date\n` : `${path}: generated sections rewritten\n`);
}
if (process.argv.length <= 2) {
  const written = await writeReproductionsReadme('docs/reproductions');
  process.stdout.write(`${written.path}: ${written.changed ? 'regenerated from the reports' : 'up to date'}\n`);
}
