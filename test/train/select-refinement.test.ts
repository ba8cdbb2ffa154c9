import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readNpy } from '../../src/io/npy.js';
import { evaluate } from '../../src/metrics/index.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { train } from '../../src/train/run/trainer.js';
import { matrix } from '../../src/util/matrix.js';
import { tempDir } from '../io/temp-dir.js';

const dir = tempDir('select-refinement');

test("select: 'refinement' keeps the epoch of lowest recorded validation refinement NLL (the NLL after TS on the validation split)", async () => {
  const out = join(dir, 'run');
  const config = resolveTrainConfig({
    dataset: 'mnist',
    subset: 200,
    testSubset: 50,
    validation: 60,
    modelOptions: { hidden: [8] },
    epochs: 4,
    batch: 50,
    lr: 0.5,
    select: 'refinement',
    epochLogits: true,
    out,
  });
  await train(config);
  const log = readFileSync(join(out, 'log.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { val_refinement_nll: number; val_nll: number; best: boolean });
  assert.equal(log.length, 4);
  const recorded = log.map((r) => r.val_refinement_nll);
  for (const [e, v] of recorded.entries()) {
    assert.ok(Number.isFinite(v) && v <= log[e]!.val_nll + 1e-12, `epoch ${e + 1}: refinement ${v} vs nll ${log[e]!.val_nll}`);
    // The recorded value is refinement_nll of that epoch's validation logits.
    const logits = await readNpy(join(out, 'epoch-logits', `val-00${e + 1}.npy`));
    const labels = await readNpy(join(out, 'val-labels.npy'));
    const m = evaluate(matrix(60, 10, logits.data as Float32Array), Int32Array.from(labels.data as ArrayLike<number>), { input: 'logits', refinementCalibrator: 'temperature' });
    assert.ok(Math.abs(m.refinement_nll - v) <= 1e-9 * Math.max(1, v), `epoch ${e + 1}`);
  }
  const argmin = recorded.indexOf(Math.min(...recorded));
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { best_epoch: number; select: string };
  assert.equal(summary.select, 'refinement');
  assert.equal(summary.best_epoch, argmin + 1);
  const val = await readNpy(join(out, 'val-logits.npy'));
  const chosen = await readNpy(join(out, 'epoch-logits', `val-00${argmin + 1}.npy`));
  assert.deepEqual(Array.from(val.data), Array.from(chosen.data), "val-logits.npy are the chosen epoch's");
});
