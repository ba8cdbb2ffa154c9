import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generatedSections, updateGeneratedSections } from '../../src/cli/docs/generated-tables.js';

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));

test('the README sections generated from the registries are up to date (npm run docs rewrites them)', () => {
  const text = readFileSync(README, 'utf8');
  for (const [name, content] of Object.entries(generatedSections())) {
    assert.ok(text.includes(`<!-- generated:${name} -->\n${content}\n<!-- /generated:${name} -->`), `README section ${name} is out of date: run npm run docs`);
  }
  assert.equal(updateGeneratedSections(text), text);
});

test('updateGeneratedSections replaces only the delimited text', () => {
  const text = 'a\n<!-- generated:x -->\nold\n<!-- /generated:x -->\nb\n';
  assert.equal(updateGeneratedSections(text, { x: 'new\nlines', y: 'absent' }), 'a\n<!-- generated:x -->\nnew\nlines\n<!-- /generated:x -->\nb\n');
});
