/**
 * The papers' larger architectures against torchvision (ResNet-50/101, DenseNet-121, both stems) and kuangliu's
 * PreActResNet-18: parameter and buffer names, shapes and order, and parameter counts
 * (test/fixtures/scripts/make-paper-model-fixtures.py). Training steps against PyTorch are in
 * test/train/pytorch-golden.test.ts; dropout before the classifier is checked here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { evaluate, type Shape, type Tensor, trace } from '../../src/engine/index.js';
import { cifarResNet, createModel, densenet, initModel, type Model, modelSpec, parameterCount, preactResNet, resnet, resnet18, vgg } from '../../src/nn/index.js';
import { Random } from '../../src/util/random.js';

interface TorchShapes {
  params: [string, number[]][];
  buffers: [string, number[]][];
  count: number;
}
const fixture = JSON.parse(readFileSync(new URL('../../../test/fixtures/nn/paper-models.json', import.meta.url), 'utf8')) as { shapes: Record<string, TorchShapes> };

describe('paper architectures vs torchvision / kuangliu', () => {
  const cases: [string, () => Model][] = [
    ['resnet50', () => resnet({ depth: 50, numClasses: 10, inputShape: [3, 224, 224] })],
    ['resnet50-cifar', () => resnet({ depth: 50, numClasses: 10, inputShape: [3, 32, 32] })],
    ['resnet101', () => resnet({ depth: 101, numClasses: 200, stem: 'imagenet', inputShape: [3, 64, 64] })],
    ['densenet121', () => densenet({ depth: 121, numClasses: 10 })],
    ['densenet121-cifar', () => densenet({ depth: 121, numClasses: 100, inputShape: [3, 32, 32] })],
    ['preact-resnet18', () => preactResNet()],
  ];
  for (const [name, make] of cases) {
    it(`${name} has the reference's parameter and buffer names and shapes in order (${fixture.shapes[name]!.count} parameters)`, () => {
      const model = make();
      const ref = fixture.shapes[name]!;
      assert.equal(parameterCount(model), ref.count);
      assert.deepEqual(
        model.params.map((d) => [d.path, [...d.shape]]),
        ref.params,
      );
      assert.deepEqual(
        model.buffers.map((d) => [d.path, [...d.shape]]),
        ref.buffers,
      );
    });
  }

  it('resolves the stem from the input size and records it, so the spec recreates the same model', () => {
    assert.equal(resnet({ inputShape: [3, 32, 32] }).config['stem'], 'cifar');
    assert.equal(resnet({ inputShape: [3, 64, 64] }).config['stem'], 'cifar');
    assert.equal(resnet({ inputShape: [3, 224, 224] }).config['stem'], 'imagenet');
    assert.equal(densenet({ inputShape: [3, 128, 128] }).config['stem'], 'imagenet');
    const m = resnet({ depth: 101, inputShape: [3, 32, 32], stem: 'imagenet', width: 8 });
    const again = createModel(modelSpec(m));
    assert.deepEqual(
      again.params.map((d) => d.shape),
      m.params.map((d) => d.shape),
    );
    assert.equal(again.config['stem'], 'imagenet');
  });

  it('rejects unknown depths, stems and options with the argument named', () => {
    assert.throws(() => resnet({ depth: 34 }), /resnet options\.depth: expected one of 50, 101, 152, got 34$/);
    assert.throws(() => resnet({ stem: 'tiny' as never }), /resnet options\.stem: expected one of 'imagenet', 'cifar', 'auto', got "tiny"$/);
    assert.throws(() => densenet({ depth: 100 }), /densenet options\.depth/);
    assert.throws(() => preactResNet({ depth: 50 }), /preact-resnet options\.depth/);
    assert.throws(() => resnet({ dropout: 1 }), /resnet options\.dropout/);
    assert.throws(() => createModel({ kind: 'densenet', grwoth: 4 } as never), /grwoth/);
  });
});

describe('dropout before the classifier (option dropout)', () => {
  const models: [string, Model][] = [
    ['resnet', resnet({ depth: 50, width: 2, inputShape: [3, 8, 8], numClasses: 3, dropout: 0.3 })],
    ['preact-resnet', preactResNet({ width: 2, inputShape: [3, 8, 8], numClasses: 3, dropout: 0.3 })],
    ['densenet', densenet({ growth: 2, inputShape: [3, 8, 8], numClasses: 3, dropout: 0.3 })],
    ['cifar-resnet', cifarResNet({ depth: 8, width: 2, inputShape: [3, 8, 8], numClasses: 3, dropout: 0.3 })],
    ['resnet18', resnet18({ width: 2, blocks: [1, 1], inputShape: [3, 8, 8], numClasses: 3, dropout: 0.3 })],
    ['vgg', vgg({ depth: 11, widthScale: 64, numClasses: 3, dropout: 0.3 })],
  ];
  for (const [name, model] of models) {
    it(`${name}: logits = W · (pool ⊙ mask / (1 − p)) + b with a host mask at 'pool', identity without masks`, () => {
      const state = initModel(model, 1);
      const rng = new Random(2);
      const b = 2;
      const x = Float32Array.from({ length: b * model.input.shape.reduce((p, q) => p * q, 1) }, () => rng.normal());
      const specs = Object.fromEntries([...model.params, ...model.buffers].map((d) => [d.path, { dtype: 'float64' as const, shape: d.shape }]));
      const asked: [string, number[], number][] = [];
      let pooled: Tensor | null = null;
      const run = (withMask: boolean, mask: Float64Array) => {
        const g = trace(
          (inp: Readonly<Record<string, Tensor>>) => {
            const params = Object.fromEntries(model.params.map((d) => [d.path, inp[d.path]!]));
            const buffers = Object.fromEntries(model.buffers.map((d) => [d.path, inp[d.path]!]));
            const out = model.forward(params, buffers, inp['x']!, {
              training: false,
              features: (layer, h) => {
                if (layer === 'pool') pooled = h;
                return h;
              },
              ...(withMask ? { dropout: (layer: string, shape: Shape, r: number) => (asked.push([layer, [...shape], r]), inp['mask']!) } : {}),
            });
            return { logits: out.logits, pool: pooled! };
          },
          { ...specs, x: { dtype: 'float64', shape: [b, ...model.input.shape] }, mask: { dtype: 'float64', shape: [b, model.params.at(-2)!.shape[1]!] } },
        );
        const feeds = Object.fromEntries([...Object.entries(state.params), ...Object.entries(state.buffers)].map(([k, v]) => [k, Float64Array.from(v)]));
        return evaluate(g, { ...feeds, x: Float64Array.from(x), mask });
      };
      const features = model.params.at(-2)!.shape[1]!;
      const mask = Float64Array.from({ length: b * features }, (_, i) => (i % 3 === 0 ? 0 : 1));
      const plain = run(false, mask);
      const dropped = run(true, mask);
      assert.deepEqual(asked, [['pool', [b, features], 0.3]]);
      const w = state.params[model.params.at(-2)!.path]!,
        bias = state.params[model.params.at(-1)!.path]!;
      const h = plain['pool']!.data;
      for (let i = 0; i < b; i++) {
        for (let k = 0; k < 3; k++) {
          let z = bias[k]!;
          for (let f = 0; f < features; f++) z += (w[k * features + f]! * h[i * features + f]! * mask[i * features + f]!) / 0.7;
          const got = dropped['logits']!.data[i * 3 + k]!;
          assert.ok(Math.abs(got - z) < 1e-9 * (1 + Math.abs(z)), `${name} logit ${i},${k}: ${got} vs ${z}`);
        }
      }
    });
  }
});
