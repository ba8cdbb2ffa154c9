import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as ort from 'onnxruntime-node';
import { cifarResNet, lenet, type Model, textCnn } from '../../src/nn/index.js';
import { sgd } from '../../src/optim/index.js';
import { compileEvalStep, compileTrainStep, createTrainState, crossEntropy, exportOnnx, saveOnnx } from '../../src/train/index.js';
import { Random } from '../../src/util/random.js';

const dir = await mkdtemp(join(tmpdir(), 'calibkit-onnx-'));
after(() => rm(dir, { recursive: true, force: true }));

/** A briefly trained model (so BN running statistics are not the initial 0/1). */
function trained(model: Model, seed: number): ReturnType<typeof createTrainState> {
  const opt = sgd({ momentum: 0.9 });
  const step = compileTrainStep(model, crossEntropy, opt, { batch: 4 });
  const state = createTrainState(model, opt, seed);
  const rng = new Random(seed + 1);
  const per = model.input.shape.reduce((a, b) => a * b, 1);
  for (let t = 0; t < 2; t++) {
    const x = model.input.dtype === 'int32' ? Int32Array.from({ length: 4 * per }, () => rng.int(20)) : Float32Array.from({ length: 4 * per }, () => rng.normal());
    step.run(state, { x, y: Int32Array.from({ length: 4 }, () => rng.int(model.numClasses)) }, 0.05);
  }
  step.dispose();
  return state;
}

function input(model: Model, n: number, seed: number): ort.Tensor {
  const rng = new Random(seed);
  const per = model.input.shape.reduce((a, b) => a * b, 1);
  return model.input.dtype === 'int32'
    ? new ort.Tensor(
        'int32',
        Int32Array.from({ length: n * per }, () => rng.int(20)),
        [n, ...model.input.shape],
      )
    : new ort.Tensor(
        'float32',
        Float32Array.from({ length: n * per }, () => rng.normal()),
        [n, ...model.input.shape],
      );
}

describe('ONNX export', () => {
  const models: [string, Model][] = [
    ['lenet with BN', lenet({ inputShape: [1, 12, 12], channels: [2, 3], hidden: [5], numClasses: 3, batchNorm: true })],
    ['cifar-resnet-8', cifarResNet({ depth: 8, width: 4, inputShape: [3, 8, 8], numClasses: 4 })],
    ['text-cnn', textCnn({ vocabularySize: 20, sequenceLength: 6, embeddingDim: 4, filters: 3, numClasses: 2 })],
  ];
  for (const [name, model] of models) {
    it(`${name}: a standalone file with a dynamic batch that onnxruntime loads and that reproduces the eval-step logits`, async () => {
      const state = trained(model, 50);
      const path = join(dir, `${model.kind}.onnx`);
      await saveOnnx(path, model, state);
      const session = await ort.InferenceSession.create(new Uint8Array(await readFile(path)));
      assert.deepEqual(session.inputNames, ['input']);
      assert.deepEqual(session.outputNames, ['logits']);
      const evalStep = compileEvalStep(model);
      for (const n of [1, 5]) {
        const x = input(model, n, 60 + n);
        const got = (await session.run({ input: x }))['logits']!;
        assert.deepEqual(got.dims, [n, model.numClasses]);
        const want = evalStep.run(state, x.data as Float32Array | Int32Array).logits;
        (got.data as Float32Array).forEach((v, i) => assert.ok(Math.abs(v - want[i]!) < 1e-5 * (1 + Math.abs(want[i]!)), `batch ${n} logit ${i}: ${v} vs ${want[i]}`));
      }
      evalStep.dispose();
      await session.release();
    });
  }

  it('bakes a temperature in as a division and can fix the batch size', async () => {
    const model = models[0]![1];
    const state = trained(model, 70);
    const plain = await ort.InferenceSession.create(exportOnnx(model, state));
    const scaled = await ort.InferenceSession.create(exportOnnx(model, state, { temperature: 2.5, batch: 3 }));
    const x = input(model, 3, 71);
    const a = (await plain.run({ input: x }))['logits']!.data as Float32Array;
    const b = (await scaled.run({ input: x }))['logits']!.data as Float32Array;
    a.forEach((v, i) => assert.ok(Math.abs(v / 2.5 - b[i]!) < 1e-6 * (1 + Math.abs(v))));
    await assert.rejects(scaled.run({ input: input(model, 2, 72) }), /dimension|Got invalid dimensions|shape/i);
    assert.throws(() => exportOnnx(model, state, { temperature: 0 }), /options\.temperature/);
    assert.throws(() => exportOnnx(model, { params: new Float32Array(3), buffers: state.buffers }), /flat/);
    await plain.release();
    await scaled.release();
  });
});
