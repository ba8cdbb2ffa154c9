import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { csvRecords, jsonlRecords, loadTextDataset, parseCsv, textDatasets } from '../../src/data/datasets/text.js';
import { buildVocabulary, encodeDocuments, labelNames, tokenize } from '../../src/data/vocabulary.js';
import { withTempDir } from './helpers.js';

test('the tokenizer lowercases and splits on everything but letters and digits', () => {
  assert.deepEqual(tokenize("Don't STOP—now! 42 cafés_x"), ['don', 't', 'stop', 'now', '42', 'cafés', 'x']);
  assert.deepEqual(tokenize('  ...  '), []);
});

test('CSV fields may be quoted, contain delimiters, doubled quotes and newlines', () => {
  const text = '\ufefftext,label\r\n"Hello, ""world""\nagain",pos\nplain,neg\n\n';
  assert.deepEqual(parseCsv(text), [
    ['text', 'label'],
    ['Hello, "world"\nagain', 'pos'],
    ['plain', 'neg'],
  ]);
  assert.deepEqual(csvRecords(text), [
    { text: 'Hello, "world"\nagain', label: 'pos' },
    { text: 'plain', label: 'neg' },
  ]);
  assert.throws(() => parseCsv('a,"b'), /expected CSV with closed quotes/);
  assert.throws(() => csvRecords('body,y\nx,1\n'), /expected a header with a column "text", got columns \["body","y"\]/);
  assert.throws(() => csvRecords('text,label\nx\n'), /csv line 2: expected 2 fields, got 1/);
});

test('the vocabulary orders tokens by count then alphabetically, after <pad> and <unk>, with min frequency and size cap', () => {
  const docs = [
    ['b', 'a', 'c', 'a'],
    ['c', 'b', 'd'],
    ['a', 'e'],
  ];
  // counts: a 3, b 2, c 2, d 1, e 1
  assert.deepEqual(buildVocabulary(docs).tokens, ['<pad>', '<unk>', 'a', 'b', 'c', 'd', 'e']);
  assert.deepEqual(buildVocabulary(docs, { minFrequency: 2 }).tokens, ['<pad>', '<unk>', 'a', 'b', 'c']);
  assert.deepEqual(buildVocabulary(docs, { maxSize: 4 }).tokens, ['<pad>', '<unk>', 'a', 'b']);
});

test('encoding truncates to L, maps unknown tokens to 1 and pads with 0', () => {
  const vocab = buildVocabulary([['x', 'y', 'x']]);
  const ids = encodeDocuments([['x', 'y', 'z', 'x', 'y'], ['y'], []], vocab, 3);
  assert.deepEqual(Array.from(ids), [2, 3, 1, 3, 0, 0, 0, 0, 0]);
});

test('label names map to ids in numeric order when numeric, else alphabetical', () => {
  assert.deepEqual(labelNames(['10', '2', '1', '2']), ['1', '2', '10']);
  assert.deepEqual(labelNames(['pos', 'neg', 'neutral']), ['neg', 'neutral', 'pos']);
});

test('train and test splits share the training vocabulary and label ids', () => {
  const {
    train,
    test: testSet,
    vocabulary,
  } = textDatasets(
    [
      { text: 'good movie', label: 'pos' },
      { text: 'bad movie', label: 'neg' },
      { text: 'good good', label: 'pos' },
    ],
    [{ text: 'great movie', label: 'neg' }],
    { maxLength: 4 },
  );
  assert.deepEqual(vocabulary.tokens, ['<pad>', '<unk>', 'good', 'movie', 'bad']);
  assert.deepEqual(train.classNames, ['neg', 'pos']);
  assert.deepEqual(Array.from(train.labels), [1, 0, 1]);
  assert.deepEqual(Array.from(train.tokens), [2, 3, 0, 0, 4, 3, 0, 0, 2, 2, 0, 0]);
  assert.deepEqual(Array.from(testSet!.tokens), [1, 3, 0, 0]);
  assert.deepEqual(testSet!.shape, [4]);
  assert.throws(() => textDatasets([{ text: 'a', label: 'x' }], [{ text: 'a', label: 'y' }]), /test\[0\]\.label: expected one of the training labels \["x"\], got "y"/);
});

test('text datasets load from CSV and JSONL files', async () => {
  await withTempDir(async (dir) => {
    const csv = join(dir, 'train.csv');
    await writeFile(csv, 'label,text\n1,"Nice, very nice"\n0,awful\n');
    const jsonl = join(dir, 'test.jsonl');
    await writeFile(jsonl, '{"text": "nice day", "label": 1}\n\n{"text": "AWFUL", "label": "0"}\n');
    const { train, test: testSet } = await loadTextDataset({ train: csv, test: jsonl, maxLength: 3 });
    assert.deepEqual(train.vocabulary, ['<pad>', '<unk>', 'nice', 'awful', 'very']);
    assert.deepEqual(Array.from(train.tokens), [2, 4, 2, 3, 0, 0]);
    assert.deepEqual(Array.from(testSet!.labels), [1, 0]);
    assert.deepEqual(Array.from(testSet!.tokens), [2, 1, 0, 3, 0, 0]);
    assert.throws(() => jsonlRecords('{"text": 3, "label": 1}'), /jsonl line 1: text: expected a string, got 3/);
    await assert.rejects(loadTextDataset({ train: join(dir, 'missing.csv') }), /text: cannot read .*missing\.csv/);
  });
});
