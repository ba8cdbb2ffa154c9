/**
 * ResNeXt (src/nn/models/resnext.ts) against PyTorch modules in torchvision's layout
 * (test/fixtures/scripts/make-resnext-fixtures.py; its ResNeXt-50 32×4d count is torchvision's published 25,028,904):
 * parameter and buffer names, shapes, order and counts; a forward pass; and one training run from the command line.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { evaluate, type Tensor, trace } from '../../src/engine/index.js';
import { createModel, initModel, type Model, MODEL_KINDS, modelSpec, parameterCount } from '../../src/nn/index.js';
import { resnext } from '../../src/nn/models/resnext.js';
import { Random } from '../../src/util/random.js';
import { run } from '../cli/capture.js';
import { withTempDir } from '../data/helpers.js';

interface TorchShapes {
  params: [string, number[]][];
  buffers: [string, number[]][];
  count: number;
}
const fixture = JSON.parse(readFileSync(new URL('../../../test/fixtures/nn/resnext.json', import.meta.url), 'utf8')) as Record<string, TorchShapes>;

describe('resnext vs PyTorch (torchvision layout)', () => {
  const cases: [string, () => Model][] = [
    ['resnext50-32x4d', () => resnext({ depth: 50, numClasses: 1000 })],
    ['resnext101-32x4d', () => createModel({ kind: 'resnext', numClasses: 1000 })],
    ['resnext101-32x4d-cifar100', () => resnext({ numClasses: 100, inputShape: [3, 32, 32] })],
  ];
  for (const [name, make] of cases) {
    it(`${name} has the reference's parameter and buffer names and shapes in order (${fixture[name]!.count} parameters)`, () => {
      const model = make();
      const ref = fixture[name]!;
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

  it('is in the zoo, its spec recreates it, and a width too small for a group is refused naming baseWidth', () => {
    assert.ok(MODEL_KINDS.includes('resnext'));
    const m = resnext({ depth: 50, width: 16, cardinality: 4, inputShape: [3, 8, 8], numClasses: 3 });
    assert.deepEqual(
      createModel(modelSpec(m)).params.map((d) => d.shape),
      m.params.map((d) => d.shape),
    );
    assert.deepEqual(m.params.find((d) => d.path === 'layer1.0.conv2.weight')!.shape, [4, 1, 3, 3], 'inner width ⌊16·4/64⌋·4 = 4 in 4 groups');
    assert.throws(() => resnext({ width: 4, baseWidth: 8 }), /^InvalidArgumentError: resnext options\.baseWidth: expected at least 16 with width 4 .*, got 8$/);
    assert.throws(() => resnext({ depth: 152 }), /resnext options\.depth: expected one of 50, 101, got 152$/);
  });

  it('maps [B, 3, H, W] to finite logits [B, C] (float64 forward, small grouped model)', () => {
    const model = resnext({ depth: 50, width: 16, cardinality: 4, inputShape: [3, 8, 8], numClasses: 3 });
    const state = initModel(model, 1);
    const b = 2;
    const rng = new Random(2);
    const specs = Object.fromEntries([...model.params, ...model.buffers].map((d) => [d.path, { dtype: 'float64' as const, shape: d.shape }]));
    const g = trace(
      (inp: Readonly<Record<string, Tensor>>) => {
        const params = Object.fromEntries(model.params.map((d) => [d.path, inp[d.path]!]));
        const buffers = Object.fromEntries(model.buffers.map((d) => [d.path, inp[d.path]!]));
        return { logits: model.forward(params, buffers, inp['x']!, { training: false }).logits };
      },
      { ...specs, x: { dtype: 'float64', shape: [b, 3, 8, 8] } },
    );
    const feeds = Object.fromEntries([...Object.entries(state.params), ...Object.entries(state.buffers)].map(([k, v]) => [k, Float64Array.from(v)]));
    const out = evaluate(g, { ...feeds, x: Float64Array.from({ length: b * 3 * 64 }, () => rng.normal()) })['logits']!;
    assert.deepEqual([...out.shape], [b, 3]);
    assert.ok(out.data.every((v) => Number.isFinite(v)));
    assert.ok(new Set(Array.from(out.data)).size > 1, 'the logits depend on the input and class');
  });

  it('trains from the command line: calib train --model resnext (one tiny epoch, finite training loss)', async () => {
    await withTempDir(async (dir) => {
      const out = join(dir, 'run');
      const opts = ['depth=50', 'width=16', 'cardinality=4', 'baseWidth=4'].flatMap((o) => ['--model-opt', o]);
      const r = await run(['train', '--dataset', 'mnist', '--subset', '16', '--test-subset', '8', '--model', 'resnext', ...opts, '--epochs', '1', '--batch', '16', '--progress', 'none', '--out', out]);
      assert.equal(r.code, 0, r.stderr);
      const config = JSON.parse(await readFile(join(out, 'config.json'), 'utf8')) as Record<string, unknown>;
      assert.equal(config['model'], 'resnext');
      const epochs = (await readFile(join(out, 'log.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const loss = epochs[0]?.['train_loss'];
      assert.ok(typeof loss === 'number' && Number.isFinite(loss) && loss > 0, `a finite training loss in log.jsonl, got ${JSON.stringify(epochs[0])}`);
    });
  });
});
