import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GENERATED_FILES, generatedSections, updateGeneratedSections } from '../../src/cli/docs/generated-tables.js';
import { LOSS_NAMES } from '../../src/losses/index.js';

const ROOT = new URL('../../../', import.meta.url);

test('the README sections generated from the registries are up to date (npm run docs rewrites them)', () => {
  const texts = GENERATED_FILES.map((path) => readFileSync(fileURLToPath(new URL(path, ROOT)), 'utf8'));
  for (const [name, content] of Object.entries(generatedSections())) {
    const where = GENERATED_FILES.filter((_, i) => texts[i]!.includes(`<!-- generated:${name} -->\n${content}\n<!-- /generated:${name} -->`));
    assert.equal(where.length, 1, `section ${name} is out of date (or in no file / several): run npm run docs`);
  }
  texts.forEach((text, i) => assert.equal(updateGeneratedSections(text), text, GENERATED_FILES[i]));
});

test('the generated loss tables list every registered loss once', () => {
  const sections = generatedSections();
  for (const name of LOSS_NAMES) {
    assert.equal(sections['losses']!.split('\n').filter((row) => row.startsWith(`| \`${name}\` |`)).length, 1, `losses table: ${name}`);
    assert.equal(sections['loss-roles']!.split(`\`${name}\``).length, 2, `loss-roles table: ${name}`);
  }
});

test('updateGeneratedSections replaces only the delimited text', () => {
  const text = 'a\n<!-- generated:x -->\nold\n<!-- /generated:x -->\nb\n';
  assert.equal(updateGeneratedSections(text, { x: 'new\nlines', y: 'absent' }), 'a\n<!-- generated:x -->\nnew\nlines\n<!-- /generated:x -->\nb\n');
});
