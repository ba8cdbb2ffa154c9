import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { evaluate, type Tensor, trace } from '../../src/engine/index.js';
import { cifarResNet, createModel, initModel, lenet, type Model, mlp, modelSpec, optionAKernel, parameterCount, resnet18, textCnn, vgg, wideResNet } from '../../src/nn/index.js';
import { compileEvalStep } from '../../src/train/index.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { Random } from '../../src/util/random.js';

interface TorchShapes {
  params: [string, number[]][];
  buffers: [string, number[]][];
  count: number;
}
const fixture = JSON.parse(readFileSync(new URL('../../../test/fixtures/nn/model-shapes.json', import.meta.url), 'utf8')) as Record<string, TorchShapes>;

function shapesOf(model: Model): { params: [string, number[]][]; buffers: [string, number[]][] } {
  return {
    params: model.params.map((d) => [d.path, [...d.shape]]),
    buffers: model.buffers.map((d) => [d.path, [...d.shape]]),
  };
}

describe('model zoo vs the PyTorch reference implementations', () => {
  const cases: [string, Model, boolean][] = [
    ['mlp', mlp(), false],
    ['lenet', lenet({ batchNorm: false }), true],
    // The deep scale's model (issue 23): one basic block per stage, widths 16/32/64, on one-channel 28×28 images.
    ['cifar-resnet-8-grey', cifarResNet({ depth: 8, inputShape: [1, 28, 28] }), true],
    ['cifar-resnet-20', cifarResNet({ depth: 20 }), true],
    ['cifar-resnet-32', cifarResNet({ depth: 32 }), true],
    ['cifar-resnet-56', cifarResNet({ depth: 56 }), true],
    ['resnet18', resnet18(), true],
    ['wide-resnet-16-4', wideResNet({ depth: 16, widen: 4 }), true],
    ['wide-resnet-28-10', wideResNet({ depth: 28, widen: 10 }), true],
    ['vgg-11', vgg({ depth: 11 }), false],
    ['vgg-16', vgg({ depth: 16 }), false],
    ['text-cnn', textCnn({ vocabularySize: 1000, sequenceLength: 20 }), true],
  ];
  for (const [name, model, sameNames] of cases) {
    it(`${name} has PyTorch's parameter and buffer shapes in order${sameNames ? ' and names' : ''} (${fixture[name]!.count} parameters)`, () => {
      const ours = shapesOf(model);
      const ref = fixture[name]!;
      assert.equal(parameterCount(model), ref.count);
      assert.deepEqual(
        ours.params.map((p) => p[1]),
        ref.params.map((p) => p[1]),
      );
      assert.deepEqual(
        ours.buffers.map((p) => p[1]),
        ref.buffers.map((p) => p[1]),
      );
      if (sameNames) {
        assert.deepEqual(
          ours.params.map((p) => p[0]),
          ref.params.map((p) => p[0]),
        );
        assert.deepEqual(
          ours.buffers.map((p) => p[0]),
          ref.buffers.map((p) => p[0]),
        );
      }
    });
  }
});

describe('model zoo forward passes', () => {
  const small: [string, Model, number][] = [
    ['mlp', mlp({ inputShape: [1, 4, 4], hidden: [8], numClasses: 3 }), 3],
    ['lenet with BN', lenet({ inputShape: [1, 12, 12], channels: [2, 3], hidden: [5], numClasses: 4, batchNorm: true }), 4],
    ['cifar-resnet-8', cifarResNet({ depth: 8, width: 4, inputShape: [3, 8, 8], numClasses: 5 }), 5],
    ['resnet18 (narrow)', resnet18({ width: 4, blocks: [1, 1], inputShape: [3, 8, 8], numClasses: 3 }), 3],
    ['wide-resnet-10-1', wideResNet({ depth: 10, widen: 1, inputShape: [3, 8, 8], numClasses: 3, dropout: 0.3 }), 3],
    ['vgg-11 (narrow)', vgg({ depth: 11, widthScale: 32, numClasses: 3 }), 3],
    ['text-cnn', textCnn({ vocabularySize: 30, sequenceLength: 7, embeddingDim: 6, filters: 4, filterWidths: [2, 3], numClasses: 2 }), 2],
  ];
  for (const [name, model, c] of small) {
    it(`${name} maps [B, ...input] to finite logits [B, ${c}] on ORT, equal to the float64 reference`, () => {
      const b = 2;
      const state = initModel(model, 11);
      const rng = new Random(12);
      const per = model.input.shape.reduce((p, q) => p * q, 1);
      const x = model.input.dtype === 'int32' ? Int32Array.from({ length: b * per }, () => rng.int(30)) : Float32Array.from({ length: b * per }, () => rng.normal());
      const step = compileEvalStep(model);
      const flat = step.layout.pack(state);
      const { logits } = step.run(flat, x);
      assert.equal(logits.length, b * c);
      assert.ok(logits.every(Number.isFinite));
      const ref = evaluate(step.graph(b), { x, params: flat.params, ...(flat.buffers.length ? { buffers: flat.buffers } : {}) })['logits']!.data;
      ref.forEach((v, i) => assert.ok(Math.abs(v - logits[i]!) < 1e-4 * (1 + Math.abs(v)), `logit ${i}: ${logits[i]} vs ${v}`));
      step.dispose();
    });
  }

  it('calls the feature hook at every declared layer, in order, and uses its result', () => {
    const model = cifarResNet({ depth: 8, width: 4, inputShape: [3, 8, 8] });
    const seen: [string, number[]][] = [];
    const specs = Object.fromEntries([...model.params, ...model.buffers].map((d) => [d.path, { dtype: 'float32' as const, shape: d.shape }]));
    const graph = trace(
      (inp: Readonly<Record<string, Tensor>>) => {
        const params = Object.fromEntries(model.params.map((d) => [d.path, inp[d.path]!]));
        const buffers = Object.fromEntries(model.buffers.map((d) => [d.path, inp[d.path]!]));
        return model.forward(params, buffers, inp['x']!, {
          training: false,
          features: (layer: string, h: Tensor) => {
            seen.push([layer, [...h.shape]]);
            return layer === 'pool' ? h.mul(0) : h; // zero the pooled features: logits become the bias
          },
        }).logits;
      },
      { ...specs, x: { dtype: 'float32', shape: [2, 3, 8, 8] } },
    );
    assert.deepEqual(seen, [
      ['input', [2, 3, 8, 8]],
      ['stem', [2, 4, 8, 8]],
      ['layer1', [2, 4, 8, 8]],
      ['layer2', [2, 8, 4, 4]],
      ['layer3', [2, 16, 2, 2]],
      ['pool', [2, 16]],
    ]);
    assert.deepEqual(
      seen.map((s) => s[0]),
      model.featureLayers,
    );
    const state = initModel(model, 3);
    const rng = new Random(4);
    const logits = evaluate(graph, { ...state.params, ...state.buffers, x: Float32Array.from({ length: 2 * 3 * 64 }, () => rng.normal()) })['output']!.data;
    const bias = Array.from(state.params['linear.bias']!);
    assert.deepEqual(Array.from(logits), [...bias, ...bias]);
  });

  it('builds the option-A shortcut kernel as subsample + symmetric channel zero-padding', () => {
    const w = optionAKernel(2, 4); // out 4, in 2: channels 1 and 2 carry inputs 0 and 1
    assert.deepEqual(Array.from(w), [0, 0, 1, 0, 0, 1, 0, 0]);
    assert.throws(() => optionAKernel(4, 7), InvalidArgumentError);
  });

  it('recreates a model from its spec and rejects unknown options and kinds', () => {
    const m = cifarResNet({ depth: 32, numClasses: 100 });
    const again = createModel(modelSpec(m));
    assert.deepEqual(shapesOf(again), shapesOf(m));
    assert.throws(() => createModel({ kind: 'mlp', hiden: [3] } as never), /hiden/);
    assert.throws(() => createModel({ kind: 'resnet50' } as never), /spec\.kind: expected one of mlp, lenet, cifar-resnet, resnet18, resnet, preact-resnet, densenet/);
    assert.throws(() => cifarResNet({ depth: 21 }), /depth/);
    assert.throws(() => wideResNet({ depth: 27 }), /depth/);
    assert.throws(() => vgg({ depth: 12 }), /depth/);
  });

  it('checks options by their schemas (util/schema.ts): errors name the path given to createModel', () => {
    assert.throws(() => createModel({ kind: 'mlp', hiden: [3] } as never), /^InvalidArgumentError: mlp options\.hiden: expected a known key \(did you mean hidden\?\), got an unknown key$/);
    assert.throws(() => createModel({ kind: 'mlp', dropout: 1 }, 'net'), /^InvalidArgumentError: net\.dropout: expected a finite number < 1, got 1$/);
    assert.throws(() => cifarResNet({ depth: 21 }), /^InvalidArgumentError: cifar-resnet options\.depth: expected 6n \+ 2 with n ≥ 1 \(20, 32, 44, 56, 110\), got 21$/);
    assert.throws(() => vgg({ depth: 12 }), /^InvalidArgumentError: vgg options\.depth: expected one of 11, 13, 16, 19, got 12$/);
    assert.throws(() => lenet({ pool: 'min' as never }), /^InvalidArgumentError: lenet options\.pool: expected one of 'max', 'avg', got "min"$/);
    assert.throws(
      () => createModel({ kind: 'mlp', activation: 'gelu' as never }),
      /^InvalidArgumentError: mlp options\.activation: expected one of 'relu', 'tanh', 'softplus' \(did you mean 'relu'\?\), got "gelu"$/,
    );
    // Defaults come from the schema: the normalised config is the schema's fallbacks.
    assert.deepEqual(createModel({ kind: 'mlp' }).config, { inputShape: [784], hidden: [512, 512], numClasses: 10, activation: 'relu', dropout: 0, init: 'torch' });
    // LeNet has batch norm by default (the default recipe, SGD lr 0.1, diverges without it: hardness-leftovers.test.ts).
    assert.deepEqual(createModel({ kind: 'lenet' }).config, {
      inputShape: [1, 28, 28],
      numClasses: 10,
      channels: [6, 16],
      hidden: [120, 84],
      activation: 'relu',
      pool: 'max',
      batchNorm: true,
      init: 'torch',
    });
  });

  it('initialises deterministically from the seed', () => {
    const m = lenet({ batchNorm: true });
    const a = initModel(m, 5),
      b = initModel(m, 5),
      c = initModel(m, 6);
    assert.deepEqual(a.params['conv1.weight'], b.params['conv1.weight']);
    assert.notDeepEqual(a.params['conv1.weight'], c.params['conv1.weight']);
    assert.deepEqual(Array.from(a.buffers['bn1.running_var']!), [1, 1, 1, 1, 1, 1]);
    assert.deepEqual(Array.from(a.params['bn1.weight']!), [1, 1, 1, 1, 1, 1]);
  });
});
