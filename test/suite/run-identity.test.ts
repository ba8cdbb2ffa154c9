import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { prepareSuiteDirectory, runIdentity, type SuiteRecord } from '../../src/suite/suite-directory.js';
import { parseSuite } from '../../src/suite/suite-schema.js';
import { expandSuite } from '../../src/suite/expand-suite.js';

const SUITE = {
  name: 'identity',
  base: { dataset: 'mnist', model: 'mlp', epochs: 1 },
  methods: [
    { name: 'plain', loss: 'ce' },
    { name: 'shifted', loss: 'ce', ood: true },
  ],
};

function record(oodSubset?: number): SuiteRecord {
  const suite = parseSuite(structuredClone({ ...SUITE, base: { ...SUITE.base, ...(oodSubset ? { oodSubset } : {}) } }), 'suite');
  return { format: 1, scale: 'quick', suite, runs: expandSuite(suite, 'quick', 'suite') };
}

test('a run that does not evaluate OOD is not redefined by OOD-only settings; one that does is', async () => {
  const runs = record().runs;
  const plain = runs.find((r) => r.method === 'plain')!.config;
  const shifted = runs.find((r) => r.method === 'shifted')!.config;
  assert.equal(runIdentity({ ...plain, oodSubset: 2000, oodDataset: 'mnist' }), runIdentity(plain));
  assert.notEqual(runIdentity({ ...shifted, oodSubset: 2000 }), runIdentity(shifted));
  assert.notEqual(runIdentity({ ...plain, epochs: 2 }), runIdentity(plain));
  assert.equal(runIdentity({ ...plain, threads: 7 }), runIdentity(plain));

  const dir = await mkdtemp(join(tmpdir(), 'calib-identity-'));
  try {
    await prepareSuiteDirectory(dir, record());
    // Adding oodSubset at the suite level changes the OOD run only: resuming is refused because of it.
    await assert.rejects(prepareSuiteDirectory(dir, record(500)), /run shifted-seed0 there has other settings/);
    // Without the OOD run, the same change is accepted (the plain runs' results do not depend on it).
    const onlyPlain = (r: SuiteRecord): SuiteRecord => ({ ...r, runs: r.runs.filter((x) => x.method === 'plain') });
    await rm(dir, { recursive: true });
    await prepareSuiteDirectory(dir, onlyPlain(record()));
    await prepareSuiteDirectory(dir, onlyPlain(record(500)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
