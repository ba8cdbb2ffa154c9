import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readNpy } from '../../src/io/npy.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { train } from '../../src/train/run/trainer.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';
import { tinySuite } from '../suite/tiny-suite.js';

const dir = tempDir('trainer-epoch-logits');

test("epochLogits keeps every epoch's validation logits; the last equals val-logits.npy of the last epoch", async () => {
  const config = resolveTrainConfig({
    dataset: 'mnist',
    subset: 200,
    testSubset: 50,
    validation: 50,
    modelOptions: { hidden: [8] },
    epochs: 3,
    batch: 50,
    select: 'last',
    epochLogits: true,
    out: join(dir, 'run'),
  });
  await train(config);
  const files = [1, 2, 3].map((e) => join(dir, 'run', 'epoch-logits', `val-00${e}.npy`));
  for (const f of files) assert.ok(existsSync(f), f);
  const last = await readNpy(files[2]!);
  const val = await readNpy(join(dir, 'run', 'val-logits.npy'));
  assert.deepEqual(last.shape, [50, 10]);
  assert.deepEqual(Array.from(last.data), Array.from(val.data));
  const first = await readNpy(files[0]!);
  assert.notDeepEqual(Array.from(first.data), Array.from(last.data), 'the weights changed between epochs');
  const without = resolveTrainConfig({ dataset: 'mnist', out: join(dir, 'x') });
  assert.ok(!('epochLogits' in JSON.parse(JSON.stringify(without))));
});

test('a suite whose runs keep epoch logits gets the accuracy-confidence density figure', async () => {
  const suite = tinySuite({ compare: [] });
  (suite['base'] as Record<string, unknown>)['epochLogits'] = true;
  const file = join(dir, 'suite.json');
  writeFileSync(file, JSON.stringify(suite));
  const out = join(dir, 'suite');
  const r = await run(['suite', 'run', file, '--out', out, '--jobs', '1', '--progress', 'none']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const svg = readFileSync(join(out, 'report-figures', 'density.svg'), 'utf8');
  // Two methods × epochs {1, 2} of the 2-epoch tiny suite.
  assert.equal((svg.match(/class="density-panel"/g) ?? []).length, 4);
  const md = readFileSync(join(out, 'report.md'), 'utf8');
  assert.match(md, /## Accuracy–confidence density per epoch/);
  assert.match(readFileSync(join(out, 'report.html'), 'utf8'), /id="density"/);
});
