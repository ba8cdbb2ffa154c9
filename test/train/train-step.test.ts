import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gather, type Tensor } from '../../src/engine/index.js';
import { lenet, mlp } from '../../src/nn/index.js';
import { adam, sgd } from '../../src/optim/index.js';
import { compileEvalStep, compileTrainStep, createTrainState, crossEntropy, type LossFn, TrainStep } from '../../src/train/index.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { Random } from '../../src/util/random.js';

const tinyCnn = () => lenet({ inputShape: [1, 12, 12], channels: [2, 3], hidden: [5], numClasses: 3, batchNorm: true });

function data(per: number, n: number, c: number, seed: number): { x: Float32Array; y: Int32Array } {
  const rng = new Random(seed);
  return { x: Float32Array.from({ length: n * per }, () => rng.normal()), y: Int32Array.from({ length: n }, () => rng.int(c)) };
}

describe('compiled train step', () => {
  it('gives bit-identical results with flat packing and one input per tensor', () => {
    const model = tinyCnn();
    const opt = adam({ weightDecay: 1e-3 });
    const flat = compileTrainStep(model, crossEntropy, opt, { batch: 4 });
    const tensors = compileTrainStep(model, crossEntropy, opt, { batch: 4, packing: 'tensors' });
    const a = createTrainState(model, opt, 1),
      b = createTrainState(model, opt, 1);
    const batch = data(144, 4, 3, 2);
    for (let t = 0; t < 3; t++) assert.equal(flat.run(a, batch, 0.01).loss, tensors.run(b, batch, 0.01).loss);
    assert.deepEqual(a.params, b.params);
    assert.deepEqual(a.buffers, b.buffers);
    assert.deepEqual(a.opt['m'], b.opt['m']);
    assert.deepEqual(a.opt['v'], b.opt['v']);
    assert.equal(a.step, 3);
    assert.ok(
      a.buffers.some((v, i) => v !== createTrainState(model, opt, 1).buffers[i]),
      'running statistics were updated',
    );
    flat.dispose();
    tensors.dispose();
  });

  it('applies weight decay only where the mask says (zero-gradient loss: p ← p·(1 − ηλ) or unchanged)', () => {
    const model = tinyCnn();
    const opt = sgd({ weightDecay: 0.1 });
    const zero: LossFn = (logits) => ({ loss: logits.mul(0).sum(), terms: {} });
    const noBn = (path: string) => !path.startsWith('bn');
    for (const packing of ['flat', 'tensors'] as const) {
      const step = compileTrainStep(model, zero, opt, { batch: 2, weightDecay: noBn, packing });
      const state = createTrainState(model, opt, 3);
      const before = state.params.slice();
      step.run(state, data(144, 2, 3, 4), 0.5);
      for (const e of step.layout.params.entries) {
        for (let i = e.offset; i < e.offset + e.size; i++) {
          const want = noBn(e.name) ? Math.fround(before[i]! - Math.fround(Math.fround(before[i]! * 0.1) * 0.5)) : before[i]!;
          assert.ok(Math.abs(state.params[i]! - want) <= 1e-7 * Math.abs(want), `${packing} ${e.name}: ${state.params[i]} vs ${want}`);
        }
      }
      step.dispose();
    }
  });

  it('accepts int64 labels and soft targets: one-hot soft targets give the hard-label loss and update', () => {
    const model = mlp({ inputShape: [5], hidden: [6], numClasses: 4 });
    const opt = sgd({ momentum: 0.9 });
    const hard = compileTrainStep(model, crossEntropy, opt, { batch: 3 });
    const soft = compileTrainStep(model, crossEntropy, opt, { batch: 3, targets: 'soft' });
    const { x, y } = data(5, 3, 4, 5);
    const q = new Float32Array(12);
    y.forEach((k, i) => (q[i * 4 + k] = 1));
    const a = createTrainState(model, opt, 6),
      b = createTrainState(model, opt, 6);
    const c = createTrainState(model, opt, 6);
    const la = hard.run(a, { x, y }, 0.1).loss,
      lb = soft.run(b, { x, y: q }, 0.1).loss;
    assert.ok(Math.abs(la - lb) < 1e-6);
    assert.equal(hard.run(c, { x, y: BigInt64Array.from(y, (v) => BigInt(v)) }, 0.1).loss, la, 'int64 labels give the int32 result');
    a.params.forEach((v, i) => assert.ok(Math.abs(v - b.params[i]!) < 1e-6));
    hard.dispose();
    soft.dispose();
  });

  it('hands extra inputs to the loss and the feature hook (manifold-mixup style mixing at a hidden layer)', () => {
    const model = mlp({ inputShape: [5], hidden: [6, 6], numClasses: 3 });
    const opt = sgd();
    const mix = (extras: Readonly<Record<string, Tensor>>) => (layer: string, h: Tensor) =>
      layer === 'hidden1' ? h.mul(extras['lambda']!).add(gather(h, extras['perm']!, 0).mul(extras['lambda']!.neg().add(1))) : h;
    const weighted: LossFn = (logits, y, extras) => {
      const ce = crossEntropy(logits, y, extras).loss;
      return { loss: ce.mul(extras['weight']!), terms: { ce } };
    };
    const extras = { lambda: { dtype: 'float32' as const, shape: [] }, perm: { dtype: 'int32' as const, shape: [-1] }, weight: { dtype: 'float32' as const, shape: [] } };
    const mixed = compileTrainStep(model, weighted, opt, { batch: 4, extras, features: mix, outputLogits: true });
    const plain = compileTrainStep(model, crossEntropy, opt, { batch: 4, outputLogits: true });
    const { x, y } = data(5, 4, 3, 7);
    const perm = Int32Array.of(3, 2, 1, 0);
    const s0 = createTrainState(model, opt, 8);
    const s1 = s0.clone(),
      s2 = s0.clone(),
      s3 = s0.clone();
    const base = plain.run(s0, { x, y }, 0.1);
    const same = mixed.run(s1, { x, y, extras: { lambda: 1, perm, weight: 1 } }, 0.1);
    assert.equal(same.loss, base.loss);
    assert.deepEqual(same.logits, base.logits);
    assert.deepEqual(s1.params, s0.params);
    assert.equal(same.terms['ce'], same.loss);
    const half = mixed.run(s2, { x, y, extras: { lambda: 0.5, perm, weight: 1 } }, 0.1);
    assert.notEqual(half.loss, base.loss);
    const double = mixed.run(s3, { x, y, extras: { lambda: 1, perm, weight: 2 } }, 0.1);
    assert.ok(Math.abs(double.loss - 2 * base.loss) < 1e-6 && double.terms['ce'] === base.loss);
    assert.throws(() => mixed.run(s3, { x, y }, 0.1), /batch\.extras\.lambda/);
    mixed.dispose();
    plain.dispose();
  });

  it('draws dropout masks from the state generator: same seed, same run; the generator advances', () => {
    const model = mlp({ inputShape: [5], hidden: [16], numClasses: 3, dropout: 0.5 });
    const opt = sgd();
    const step = compileTrainStep(model, crossEntropy, opt, { batch: 4 });
    const batch = data(5, 4, 3, 9);
    const a = createTrainState(model, opt, 10),
      b = createTrainState(model, opt, 10);
    const ra = step.run(a, batch, 0.1),
      rb = step.run(b, batch, 0.1);
    assert.equal(ra.loss, rb.loss);
    assert.deepEqual(a.params, b.params);
    const r2 = step.run(a, batch, 0.1);
    const noDrop = compileTrainStep(mlp({ inputShape: [5], hidden: [16], numClasses: 3 }), crossEntropy, opt, { batch: 4 });
    const c = createTrainState(model, opt, 10);
    assert.notEqual(noDrop.run(c, batch, 0.1).loss, ra.loss, 'dropout changes the loss');
    assert.notEqual(r2.loss, ra.loss);
    assert.ok(step.graph(4).inputs.some((t) => t.source.kind === 'input' && t.source.name === 'dropout.hidden1'));
    step.dispose();
    noDrop.dispose();
  });

  it('compiles one session per batch size and caches it', () => {
    const model = mlp({ inputShape: [3], hidden: [4], numClasses: 2 });
    const opt = sgd();
    const step = new TrainStep(model, crossEntropy, opt, { batch: 4 });
    const state = createTrainState(model, opt, 1);
    step.run(state, data(3, 4, 2, 1), 0.1);
    step.run(state, data(3, 3, 2, 2), 0.1);
    step.run(state, data(3, 4, 2, 3), 0.1);
    const stats = step.compileStats();
    assert.deepEqual(Object.keys(stats).sort(), ['3', '4']);
    assert.ok(stats[4]!.nodes > 10 && stats[4]!.sessionMs > 0);
    assert.equal(state.step, 3);
    step.dispose();
  });

  it('rejects bad batches and options with messages naming the argument', () => {
    const model = mlp({ inputShape: [3], hidden: [4], numClasses: 2 });
    const opt = sgd({ momentum: 0.9 });
    assert.throws(() => compileTrainStep(model, crossEntropy, opt, { batch: 0 }), /options\.batch/);
    assert.throws(() => compileTrainStep(model, crossEntropy, opt, { batch: 2, packing: 'zip' as never }), /options\.packing/);
    const step = compileTrainStep(model, crossEntropy, opt, { batch: 2 });
    const state = createTrainState(model, opt, 1);
    assert.throws(
      () => step.run(state, { x: new Float32Array(7), y: new Int32Array(2) }, 0.1),
      (e: unknown) => e instanceof InvalidArgumentError && /batch\.x/.test(e.message),
    );
    assert.throws(() => step.run(state, { x: new Float32Array(6), y: new Float32Array(2) }, 0.1), /feeds\.y/);
    const other = createTrainState(model, sgd(), 1);
    assert.throws(() => step.run(other, { x: new Float32Array(6), y: new Int32Array(2) }, 0.1), /state\.opt\.momentum/);
    step.dispose();
  });
});

describe('compiled eval step', () => {
  it('uses running statistics (inference) and returns requested features', () => {
    const model = tinyCnn();
    const opt = sgd({ momentum: 0.9 });
    const train = compileTrainStep(model, crossEntropy, opt, { batch: 4, outputLogits: true });
    const state = createTrainState(model, opt, 11);
    const batch = data(144, 4, 3, 12);
    for (let t = 0; t < 3; t++) train.run(state, batch, 0.05);
    const evalStep = compileEvalStep(model, { batch: 4, features: ['conv2', 'fc1'] });
    const r = evalStep.run(state, batch.x);
    assert.equal(r.logits.length, 12);
    assert.equal(r.features['conv2']!.length, 4 * 3 * 1 * 1); // 12 → conv 12 → pool 6 → conv 2 → pool 1
    assert.equal(r.features['fc1']!.length, 4 * 5);
    // Training-mode logits (batch statistics) differ from inference logits (running statistics).
    const trainLogits = train.run(state.clone(), batch, 0).logits!;
    assert.ok(trainLogits.some((v, i) => Math.abs(v - r.logits[i]!) > 1e-4));
    // A per-example computation: the first example alone gives its row of the batch result.
    const one = evalStep.run(state, batch.x.subarray(0, 144));
    one.logits.forEach((v, k) => assert.ok(Math.abs(v - r.logits[k]!) < 1e-5));
    assert.throws(() => compileEvalStep(model, { features: ['nope'] }), /options\.features/);
    train.dispose();
    evalStep.dispose();
  });
});
