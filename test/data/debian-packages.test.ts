import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { DatasetNotFoundError, debianRecords, loadDataset, loadDebianPackages, packageHash, parsePackages, sectionLabel } from '../../src/data/index.js';
import { writeDebianLists } from './debian-lists.js';
import { withTempDir } from './helpers.js';

/** A Packages file in the archive's format: multi-line descriptions, " ." lines, other continued fields. */
const MAIN = `Package: alpha
Version: 1.0
Depends: libc6 (>= 2.34),
 libfoo1
Description: Alpha shared library for things
 The alpha library does things.
 .
 It also does other things.
Section: libs
Priority: optional

Package: beta
Section: contrib/games
Description: beta arcade game with puzzles
Tag: game::arcade,
 role::program

Package: gamma
Section: non-free/games
Description: gamma game of strategy and luck

Package: short
Section: libs
Description: tiny lib

Package: nosection
Description: a package without any section field

Package: delta
Section: python
Description: Python module for the delta format

Package: epsilon
Section: python
Description: Python bindings to epsilon services
`;

/** A second list (sorted after the first): a duplicate of alpha with another text, and one more library. */
const UPDATES = `Package: alpha
Section: libs
Description: a duplicate of alpha that loses to the first list

Package: zeta
Section: libs
Description: zeta runtime library for parsing
`;

/** An LZ4 frame holding `text` in one stored (uncompressed) block, as apt's .lz4 lists are framed. */
function storedLz4(text: string): Uint8Array {
  const data = new TextEncoder().encode(text);
  const le32 = (v: number): number[] => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255, (v >>> 24) & 255];
  return Uint8Array.from([...le32(0x184d2204), 0x40, 0x40, 0x00, ...le32(data.length | 0x80000000), ...data, ...le32(0)]);
}

test('parsePackages: Package, Section and Description of each stanza; continuation lines and " ." blank lines', () => {
  const stanzas = parsePackages(MAIN);
  assert.deepEqual(
    stanzas.map((s) => s.package),
    ['alpha', 'beta', 'gamma', 'short', 'delta', 'epsilon'],
  );
  assert.equal(stanzas[0]!.description, 'Alpha shared library for things\nThe alpha library does things.\n\nIt also does other things.');
  assert.equal(stanzas[1]!.description, 'beta arcade game with puzzles'); // the Tag continuation is not part of it
  assert.equal(stanzas[1]!.section, 'contrib/games');
  assert.equal(sectionLabel('contrib/games'), 'games');
  assert.equal(sectionLabel('non-free-firmware/kernel'), 'kernel');
  assert.equal(sectionLabel('libs'), 'libs');
});

test('packageHash: the first 32 bits of SHA-256 of the name, the same on every machine', () => {
  // sha256("bash") = 37d2b12d …
  assert.equal(packageHash('bash'), 0x37d2b12d / 2 ** 32);
});

test('debian-packages: plain, gzip and lz4 lists; duplicates by name; prefixes removed; short texts dropped; top-K sections; hash split; Release date', async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'a.org_debian_dists_x_main_binary-amd64_Packages.lz4'), storedLz4(MAIN));
    await writeFile(join(dir, 'b.org_debian_dists_x-updates_main_binary-amd64_Packages.gz'), gzipSync(UPDATES));
    await writeFile(join(dir, 'a.org_debian_dists_x_InRelease'), '-----BEGIN PGP SIGNED MESSAGE-----\nOrigin: Debian\nDate: Sat, 11 Jul 2026 10:16:37 UTC\n');
    await writeFile(join(dir, 'b.org_debian_dists_x-updates_Release'), 'Date: Wed, 25 Nov 2026 02:10:59 UTC\n');
    await writeFile(join(dir, 'lock'), '');
    const all = await debianRecords({ listsDirectory: dir, sections: 3, testFraction: 0.4 });
    const records = [...all.train, ...all.test];
    // alpha (first list wins), beta, gamma, delta, epsilon, zeta; 'short' has 2 tokens < 3, 'nosection' has no Section.
    assert.equal(records.length, 6);
    assert.ok(records.some((r) => r.text.startsWith('Alpha shared library')));
    assert.ok(!records.some((r) => r.text.includes('duplicate')));
    assert.deepEqual([...new Set(records.map((r) => r.label))].sort(), ['games', 'libs', 'python']);
    assert.equal(all.source['stanzas'], 8); // stanzas with Package, Section and Description
    assert.equal(all.source['packages'], 7);
    assert.equal(all.source['packages_long_enough'], 6);
    assert.equal(all.source['sections'], 'games 2, libs 2, python 2');
    assert.equal(all.source['release_date'], '2026-11-25T02:10:59.000Z');
    // The split follows the name hash only: delta 0.31, zeta 0.36 < 0.4 ≤ epsilon 0.43, alpha 0.56, gamma 0.74, beta 0.95.
    assert.deepEqual(
      all.test.map((r) => r.text.split(' ')[0]),
      ['Python', 'zeta'],
    );
    assert.deepEqual(
      all.train.map((r) => r.label),
      ['libs', 'games', 'games', 'python'],
    );
    // With 0.45 epsilon joins delta in test: python has no training package left, so its test packages are dropped.
    const unlabelled = await debianRecords({ listsDirectory: dir, sections: 3, testFraction: 0.45 });
    assert.deepEqual(
      unlabelled.test.map((r) => r.label),
      ['libs'],
    );
    // K = 2: ties broken by name (games, libs).
    const two = await debianRecords({ listsDirectory: dir, sections: 2, testFraction: 0.5 });
    assert.deepEqual([...new Set([...two.train, ...two.test].map((r) => r.label))].sort(), ['games', 'libs']);
  });
});

test('debian-packages through loadDataset: token ids of the training vocabulary, sections as classes, source recorded', async () => {
  await withTempDir(async (dir) => {
    writeDebianLists(dir, 200);
    const d = await loadDebianPackages({ listsDirectory: dir, sections: 4, maxLength: 8 });
    assert.deepEqual(d.train.classNames, ['doc', 'games', 'libs', 'python']);
    assert.equal(d.train.shape[0], 8);
    assert.equal(d.train.labels.length + d.test.labels.length, 200);
    assert.equal(d.source['train'], d.train.labels.length);
    assert.equal(d.source['release_date'], '2026-07-11T10:16:37.000Z');
    const viaRegistry = await loadDataset('debian-packages', { listsDirectory: dir, sections: 4, maxLength: 8 });
    assert.equal(viaRegistry.train.kind, 'text');
    assert.deepEqual(viaRegistry.source, d.source);
  });
});

test('debian-packages: no lists is a DatasetNotFoundError telling the user to run apt-get update', async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'a.org_debian_dists_x_main_binary-amd64_Packages.xz'), '');
    await assert.rejects(loadDataset('debian-packages', { listsDirectory: dir }), (e: unknown) => {
      assert.ok(e instanceof DatasetNotFoundError);
      assert.match(e.message, /no \*_Packages lists in .*only plain, \.gz and \.lz4 lists are read.*apt-get update/);
      return true;
    });
    await assert.rejects(loadDataset('debian-packages', { listsDirectory: join(dir, 'missing') }), /cannot read the apt lists folder .*apt-get update/);
    await assert.rejects(loadDataset('debian-packages', { listsDirectory: dir, section: 3 } as never), /debian-packages options\.section: expected one of listsDirectory, sections/);
  });
});
