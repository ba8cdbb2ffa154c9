import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { lenet, mlp } from '../../src/nn/index.js';
import { adam, sgd } from '../../src/optim/index.js';
import { compileTrainStep, createTrainState, crossEntropy, decodeCheckpoint, encodeCheckpoint, loadCheckpoint, saveCheckpoint } from '../../src/train/index.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { Random } from '../../src/util/random.js';

const dir = await mkdtemp(join(tmpdir(), 'calibkit-ckpt-'));
after(() => rm(dir, { recursive: true, force: true }));

describe('checkpoints', () => {
  it('N steps equal k steps + save + load (fresh compiled step) + N − k steps, bit for bit', async () => {
    // Dropout and Adam exercise the generator state and two optimizer slots; BN the buffers.
    const model = lenet({ inputShape: [1, 12, 12], channels: [2, 3], hidden: [6], numClasses: 3, batchNorm: true });
    const withDrop = mlp({ inputShape: [1, 12, 12], hidden: [8], numClasses: 3, dropout: 0.3 });
    for (const m of [model, withDrop]) {
      const opt = adam({ weightDecay: 1e-3 });
      const rng = new Random(40);
      const batches = Array.from({ length: 6 }, () => ({
        x: Float32Array.from({ length: 4 * 144 }, () => rng.normal()),
        y: Int32Array.from({ length: 4 }, () => rng.int(3)),
      }));
      const lr = (t: number) => 0.01 / (1 + t);
      const stepA = compileTrainStep(m, crossEntropy, opt, { batch: 4 });
      const straight = createTrainState(m, opt, 41);
      const lossesA = batches.map((b, t) => stepA.run(straight, b, lr(t)).loss);

      const resumed = createTrainState(m, opt, 41);
      const lossesB = batches.slice(0, 3).map((b, t) => stepA.run(resumed, b, lr(t)).loss);
      const path = join(dir, `${m.kind}.ckpt`);
      await saveCheckpoint(path, { model: m, optimizer: opt, state: resumed, metadata: { epoch: 1, note: 'half way' } });
      stepA.dispose();
      const loaded = await loadCheckpoint(path, { model: m, optimizer: opt });
      assert.equal(loaded.state.step, 3);
      assert.deepEqual(loaded.header.metadata, { epoch: 1, note: 'half way' });
      assert.deepEqual(loaded.header.model, { kind: m.kind, ...m.config });
      const stepB = compileTrainStep(m, crossEntropy, opt, { batch: 4 });
      for (let t = 3; t < 6; t++) lossesB.push(stepB.run(loaded.state, batches[t]!, lr(t)).loss);
      assert.deepEqual(lossesB, lossesA);
      assert.deepEqual(loaded.state.params, straight.params);
      assert.deepEqual(loaded.state.buffers, straight.buffers);
      assert.deepEqual(loaded.state.opt, straight.opt);
      assert.deepEqual(loaded.state.rng.getState(), straight.rng.getState());
      stepB.dispose();
    }
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.endsWith('.tmp')),
      [],
      'no temporary files left',
    );
  });

  it('writes the documented layout: magic, header length, JSON header, 8-byte aligned float32 data', () => {
    const model = mlp({ inputShape: [3], hidden: [2], numClasses: 2 });
    const opt = sgd({ momentum: 0.9 });
    const state = createTrainState(model, opt, 1);
    const bytes = encodeCheckpoint({ model, optimizer: opt, state });
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 8)), 'CKITCKPT');
    const h = new DataView(bytes.buffer).getUint32(8, true);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + h)));
    assert.equal(header.format, 'calibkit-checkpoint');
    assert.deepEqual(
      header.arrays.map((a: { name: string }) => a.name),
      ['params', 'buffers', 'opt.momentum'],
    );
    assert.deepEqual(header.layout.params, [
      ['fc1.weight', [2, 3]],
      ['fc1.bias', [2]],
      ['head.weight', [2, 2]],
      ['head.bias', [2]],
    ]);
    const start = Math.ceil((12 + h) / 8) * 8;
    const params = new Float32Array(bytes.buffer.slice(start + header.arrays[0].offset, start + header.arrays[0].offset + 4 * 14));
    assert.deepEqual(params, state.params);
  });

  it('refuses corrupted, truncated and foreign files and checkpoints of another model', async () => {
    const model = mlp({ inputShape: [3], hidden: [2], numClasses: 2 });
    const opt = sgd({ momentum: 0.9 });
    const bytes = encodeCheckpoint({ model, optimizer: opt, state: createTrainState(model, opt, 1) });
    const flipped = bytes.slice();
    flipped[flipped.length - 3]! ^= 0xff;
    assert.throws(() => decodeCheckpoint(flipped), /CRC-32/);
    assert.throws(() => decodeCheckpoint(bytes.subarray(0, bytes.length - 8)), /truncated/);
    assert.throws(() => decodeCheckpoint(new TextEncoder().encode('{"not": "a checkpoint"}')), /magic/);
    assert.throws(
      () => decodeCheckpoint(bytes, { model: mlp({ inputShape: [3], hidden: [3], numClasses: 2 }) }),
      (e: unknown) => e instanceof InvalidArgumentError && /fc1\.weight \[3, 3\]/.test(e.message),
    );
    assert.throws(() => decodeCheckpoint(bytes, { optimizer: adam() }), /checkpoint optimizer/);
    const path = join(dir, 'bad.ckpt');
    await writeFile(path, flipped);
    await assert.rejects(loadCheckpoint(path), /CRC-32/);
  });
});
