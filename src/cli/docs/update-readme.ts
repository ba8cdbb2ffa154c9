/**
 * `npm run docs`: rewrite the generated sections of README.md (generated-tables.ts) from the registries.
 * Run from the repository root after adding a metric, a calibrator or a loss.
 */
import { readFileSync } from 'node:fs';
import { atomicWriteFile } from '../../util/atomic-write.js';
import { updateGeneratedSections } from './generated-tables.js';

const path = process.argv[2] ?? 'README.md';
const before = readFileSync(path, 'utf8');
const after = updateGeneratedSections(before);
if (after !== before) await atomicWriteFile(path, after);
process.stdout.write(after === before ? `${path}: generated sections up to date\n` : `${path}: generated sections rewritten\n`);
