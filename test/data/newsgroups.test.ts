import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { DatasetNotFoundError, loadDataset, loadNewsgroups, newsgroupsText } from '../../src/data/index.js';
import { writeTar } from '../../src/data/formats/tar.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { train } from '../../src/train/run/trainer.js';
import { Random } from '../../src/util/random.js';
import { tempDir } from '../io/temp-dir.js';
import { serveFiles, withTempDir } from './helpers.js';

const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (ch) => ch.charCodeAt(0));

/** A tiny bydate tree: 2 groups; headers, a Latin-1 byte (é = 0xe9) and a post longer than maxLength. */
const POSTS: Record<string, Record<string, string>> = {
  '20news-bydate-train/sci.space/60001': 'From: a@b\nSubject: orbit\n\nOrbit orbit launch.',
  '20news-bydate-train/sci.space/60002': 'From: c@d\nSubject: moon\n\nLaunch the moon rocket now please soon',
  '20news-bydate-train/rec.autos/10001': 'From: e@f\nSubject: car\n\nMy car café engine.',
  '20news-bydate-test/rec.autos/10500': 'From: g@h\nSubject: car\n\nengine zeppelin',
  '20news-bydate-test/sci.space/60500': 'From: i@j\nSubject: orbit\n\norbit',
} as unknown as Record<string, Record<string, string>>;
const FILES = Object.entries(POSTS as unknown as Record<string, string>);

async function writeTree(dir: string): Promise<void> {
  for (const [name, text] of FILES) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), latin1(text));
  }
}

const ids = (d: { tokens: Int32Array; vocabulary: readonly string[] }, row: number, length: number): string[] =>
  Array.from(d.tokens.subarray(row * length, (row + 1) * length), (id) => d.vocabulary[id]!);

test('20 Newsgroups bydate tree: sorted groups as classes, training-split vocabulary, padded/truncated ids, Latin-1 text', async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir);
    const d = await loadNewsgroups({ path: dir, maxLength: 6, stripHeaders: true });
    assert.deepEqual(d.train.classNames, ['rec.autos', 'sci.space']);
    assert.deepEqual(Array.from(d.train.labels), [0, 1, 1]); // rec.autos/10001, sci.space/60001, sci.space/60002
    assert.deepEqual(Array.from(d.test.labels), [0, 1]);
    // training counts: orbit 2, launch 2, then the count-1 tokens in code-unit order
    assert.deepEqual(d.vocabulary.tokens.slice(0, 4), ['<pad>', '<unk>', 'launch', 'orbit']);
    assert.ok(d.vocabulary.tokens.includes('café'), 'Latin-1 0xe9 read as é');
    assert.deepEqual(ids(d.train, 0, 6), ['my', 'car', 'café', 'engine', '<pad>', '<pad>']);
    assert.deepEqual(ids(d.train, 2, 6), ['launch', 'the', 'moon', 'rocket', 'now', 'please']); // truncated
    assert.deepEqual(ids(d.test, 0, 6), ['engine', '<unk>', '<pad>', '<pad>', '<pad>', '<pad>']); // unseen word → <unk>
    const withHeaders = await loadNewsgroups({ path: dir, maxLength: 6 });
    assert.deepEqual(ids(withHeaders.train, 0, 6), ['from', 'e', 'f', 'subject', 'car', 'my']);
    // the archive gives the same sets; so does loadDataset (calib train --dataset newsgroups --data-opt path=…)
    const archive = join(dir, '20news-bydate.tar.gz');
    await writeFile(archive, gzipSync(writeTar(FILES.map(([name, text]) => ({ name, data: latin1(text) })))));
    const fromArchive = await loadNewsgroups({ path: archive, maxLength: 6, stripHeaders: true });
    assert.deepEqual(Array.from(fromArchive.train.tokens), Array.from(d.train.tokens));
    assert.deepEqual(Array.from(fromArchive.test.labels), Array.from(d.test.labels));
    const viaName = await loadDataset('newsgroups', { path: dir, maxLength: 6, stripHeaders: true });
    assert.deepEqual(Array.from(viaName.test!.labels), [0, 1]);
    await assert.rejects(loadDataset('newsgroups', { path: dir, strip: true } as never), /newsgroups options\.strip: expected one of path, stripHeaders/);
  });
  assert.equal(newsgroupsText(latin1('A: b\r\n\r\nbody'), true), 'body');
  assert.equal(newsgroupsText(latin1('only headers'), true), '');
});

test('20 Newsgroups: absent files name the archive URL; download fetches it into the cache', async () => {
  const archive = gzipSync(writeTar(FILES.map(([name, text]) => ({ name, data: latin1(text) }))));
  const { server, base } = await serveFiles({ '20news-bydate.tar.gz': archive }, []);
  try {
    await withTempDir(async (dir) => {
      await assert.rejects(loadNewsgroups({ cacheDirectory: dir }), (e: unknown) => e instanceof DatasetNotFoundError && /qwone\.com.*20news-bydate\.tar\.gz/.test((e as Error).message));
      const d = await loadNewsgroups({ cacheDirectory: dir, download: true, baseUrl: base, maxLength: 4 });
      assert.equal(d.train.labels.length, 3);
      assert.equal((await loadNewsgroups({ cacheDirectory: dir, maxLength: 4 })).test.labels.length, 2); // from the cache now
    });
  } finally {
    server.close();
  }
});

/** A generated corpus: 3 groups, each post 12 words, 4 from its group's 6 keywords, 8 from 40 shared filler words. */
async function writeCorpus(dir: string, perGroup: { train: number; test: number }, seed: number): Promise<void> {
  const rng = new Random(seed);
  const groups = ['alt.atheism', 'comp.graphics', 'sci.med'];
  const filler = Array.from({ length: 40 }, (_, i) => `w${i}`);
  for (const [split, count] of [
    ['train', perGroup.train],
    ['test', perGroup.test],
  ] as const) {
    for (const [g, group] of groups.entries()) {
      await mkdir(join(dir, `20news-bydate-${split}`, group), { recursive: true });
      for (let i = 0; i < count; i++) {
        const words = Array.from({ length: 12 }, (_, j) => (j % 3 === 0 ? `k${g}x${Math.floor(rng.uniform() * 6)}` : filler[Math.floor(rng.uniform() * 40)]!));
        await writeFile(join(dir, `20news-bydate-${split}`, group, String(1000 + i)), `From: x\nSubject: y\n\n${words.join(' ')}\n`);
      }
    }
  }
}

test('a text CNN with embedding mixup learns a generated newsgroups corpus in a few epochs', async () => {
  await withTempDir(async (dir) => {
    await writeCorpus(dir, { train: 60, test: 30 }, 5);
    const config = resolveTrainConfig({
      dataset: 'newsgroups',
      datasetOptions: { path: dir, stripHeaders: true, maxLength: 12 },
      model: 'text-cnn',
      modelOptions: { embeddingDim: 16, filters: 8, filterWidths: [2, 3], dropout: 0.2 },
      mixup: 0.2,
      mixupKind: 'embedding',
      epochs: 6,
      batch: 16,
      optimizer: 'adam',
      lr: 0.01,
      seed: 1,
      out: join(tempDir('newsgroups-train'), 'run'),
    });
    const result = await train(config);
    const acc = result.summary!.test.accuracy as number;
    assert.ok(acc > 0.8, `test accuracy ${acc} (chance 1/3)`);
    assert.ok(result.records.at(-1)!.train_loss < result.records[0]!.train_loss, 'training loss falls');
  });
});
