import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from '../../src/engine/index.js';

// Golden values from PyTorch (float64): test/fixtures/scripts/make-engine-fixtures.py.
interface Fixture {
  inputs: Record<string, number[]>;
  loss: number;
  logits: number[];
  grads: Record<string, number[]>;
  running_mean: number[];
  running_var: number[];
}
const fx = JSON.parse(readFileSync(join(process.cwd(), 'test', 'fixtures', 'engine', 'small-cnn.json'), 'utf8')) as Fixture;

const shapes: Record<string, number[]> = {
  x: [4, 2, 6, 6],
  w1: [3, 2, 3, 3],
  b1: [3],
  gamma: [3],
  beta: [3],
  w2: [4, 3, 3, 3],
  w3: [3, 4],
  b3: [3],
  running_mean: [3],
  running_var: [3],
};
const names = ['x', 'w1', 'b1', 'gamma', 'beta', 'w2', 'w3', 'b3'];

function step(dtype: 'float32' | 'float64') {
  const specs: Record<string, E.TensorSpec> = Object.fromEntries(Object.entries(shapes).map(([k, s]) => [k, { dtype, shape: s }]));
  specs.labels = { dtype: 'int32', shape: [4] };
  return E.trace((t) => {
    let h = E.conv2d(t.x!, t.w1!, { padding: 1, bias: t.b1! });
    const bn = E.batchNorm(h, t.gamma!, t.beta!, t.running_mean!, t.running_var!, { training: true, momentum: 0.1 });
    h = E.maxPool2d(bn.y.relu(), { kernel: 2 });
    h = E.conv2d(h, t.w2!, { stride: 2, padding: 1 });
    h = E.avgPool2d(h, { kernel: 2 }).flatten(1);
    const logits = h.matmul(t.w3!, { transB: true }).add(t.b3!);
    const { loss } = E.softmaxCrossEntropy(logits, t.labels!);
    const grads = E.grad(
      loss,
      names.map((n) => t[n]!),
    );
    return { loss, logits, runningMean: bn.runningMean, runningVar: bn.runningVar, ...Object.fromEntries(names.map((n, i) => [`d_${n}`, grads[i]!])) };
  }, specs);
}

function maxError(got: ArrayLike<number>, want: readonly number[]): number {
  let m = 0;
  for (let i = 0; i < want.length; i++) m = Math.max(m, Math.abs(got[i]! - want[i]!) / (1 + Math.abs(want[i]!)));
  return m;
}

function check(outputs: Record<string, ArrayLike<number>>, tol: number, label: string): void {
  const want: Record<string, readonly number[]> = {
    loss: [fx.loss],
    logits: fx.logits,
    runningMean: fx.running_mean,
    runningVar: fx.running_var,
    ...Object.fromEntries(names.map((n) => [`d_${n}`, fx.grads[n]!])),
  };
  for (const [k, w] of Object.entries(want)) {
    const err = maxError(outputs[k]!, w);
    assert.ok(err < tol, `${label}: ${k} differs from PyTorch by ${err.toExponential(2)}`);
  }
}

test('a conv → batch-norm → relu → max-pool → strided conv → avg-pool → linear → CE step matches PyTorch (float64 reference)', () => {
  const feeds = { ...fx.inputs, labels: fx.inputs.labels! };
  const ref = E.evaluate(step('float64'), feeds);
  check(Object.fromEntries(Object.entries(ref).map(([k, v]) => [k, v.data])), 1e-10, 'reference evaluator');
});

test('the same step on ORT in float32 matches PyTorch to float32 precision', () => {
  const feeds: Record<string, Float32Array | Int32Array> = Object.fromEntries(Object.entries(shapes).map(([k]) => [k, Float32Array.from(fx.inputs[k]!)]));
  feeds.labels = Int32Array.from(fx.inputs.labels!);
  const session = E.compile(step('float32'));
  check(session.run(feeds) as Record<string, Float32Array>, 2e-5, 'ORT');
  session.dispose();
});
