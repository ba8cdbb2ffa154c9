import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readNpy } from '../../src/io/npy.js';
import { softmax } from '../../src/metrics/numeric/softmax.js';
import { matrix } from '../../src/util/matrix.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';
import { tinySuite } from './tiny-suite.js';

const dir = tempDir('suite-ensembles');

test("a suite with several seeds reports each method's deep ensemble beside its members", async () => {
  const file = join(dir, 'tiny.json');
  writeFileSync(file, JSON.stringify(tinySuite({ compare: [], seeds: [0, 1], methods: [{ name: 'ce', label: 'CE' }] })));
  const out = join(dir, 'out');
  const r = await run(['suite', 'run', file, '--out', out, '--jobs', '2', '--progress', 'none']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { ensembles: { method: string; members: number; ensemble: { accuracy: number } }[] };
  assert.equal(report.ensembles.length, 1);
  assert.equal(report.ensembles[0]!.members, 2);
  // The ensemble's accuracy by hand: argmax of the mean of the two runs' softmax probabilities.
  const a = await readNpy(join(out, 'runs', 'ce-seed0', 'test-logits.npy'));
  const b = await readNpy(join(out, 'runs', 'ce-seed1', 'test-logits.npy'));
  const y = (await readNpy(join(out, 'runs', 'ce-seed0', 'test-labels.npy'))).data;
  const pa = softmax(matrix(200, 10, a.data as Float32Array)).data;
  const pb = softmax(matrix(200, 10, b.data as Float32Array)).data;
  let correct = 0;
  for (let i = 0; i < 200; i++) {
    let best = 0;
    for (let k = 1; k < 10; k++) if (pa[i * 10 + k]! + pb[i * 10 + k]! > pa[i * 10 + best]! + pb[i * 10 + best]!) best = k;
    if (best === y[i]) correct++;
  }
  assert.equal(report.ensembles[0]!.ensemble.accuracy, correct / 200);
  assert.match(readFileSync(join(out, 'report.md'), 'utf8'), /## Ensembles of the seeds\n\n\| Method \| K \| Acc\. \(%\) members → ensemble/);
  assert.match(readFileSync(join(out, 'report.html'), 'utf8'), /<table class="ensembles">/);
});
