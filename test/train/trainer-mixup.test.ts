import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { assertGradients, evaluate, trace, type Tensor } from '../../src/engine/index.js';
import { drawLayerMix, interleavedEpoch, MIX_PERM, MIX_WEIGHTS, mixHidden, mixingHook, mixRows, oneHot } from '../../src/augment/index.js';
import { gatherBatch, type ImageBatch } from '../../src/data/batching.js';
import { imageDataset, textDataset } from '../../src/data/dataset.js';
import { initModel, mlp, paramShapes } from '../../src/nn/index.js';
import { Random } from '../../src/util/random.js';
import { prepareBatch, type BatchPlan } from '../../src/train/run/trainer-batch.js';
import { objectiveLossFn, placementLossFn, type ObjectiveSettings } from '../../src/train/run/trainer-objective.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { train } from '../../src/train/run/trainer.js';
import { loadRunData } from '../../src/train/run/trainer-data.js';
import { tempDir } from '../io/temp-dir.js';

const close = (a: number, b: number, tol = 1e-12): boolean => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

function randomArray(n: number, rng: Random, scale = 1): Float64Array {
  return Float64Array.from({ length: n }, () => scale * rng.normal());
}

test('mixHidden gives λ·h + (1 − λ)·h[π] and its gradient passes the finite-difference check', () => {
  const rng = new Random(1);
  const h = randomArray(4 * 3, rng);
  const perm = new Int32Array([2, 0, 3, 1]);
  const lambda = 0.7;
  const g = trace((x) => mixHidden(x['h']!, x['p']!, x['w']!), {
    h: { dtype: 'float64', shape: [4, 3] },
    p: { dtype: 'int32', shape: [4] },
    w: { dtype: 'float64', shape: [] },
  });
  const out = evaluate(g, { h, p: perm, w: [1 - lambda] })['output']!.data;
  for (let i = 0; i < 4; i++) for (let j = 0; j < 3; j++) assert.ok(close(out[i * 3 + j]!, lambda * h[i * 3 + j]! + (1 - lambda) * h[perm[i]! * 3 + j]!));
  assertGradients((x) => mixHidden(x['h']!, x['p']!, x['w']!), {
    h: { shape: [4, 3], data: h },
    p: { shape: [4], data: perm, dtype: 'int32' },
    w: { shape: [], data: [0.3] },
  });
});

/** A tiny MLP traced with the given feature hook, parameters as inputs; returns logits and hidden1. */
function mlpGraph(hook: (extras: Record<string, Tensor>) => ((layer: string, h: Tensor) => Tensor) | undefined, withH: boolean) {
  const model = mlp({ inputShape: [6], hidden: [5, 4], numClasses: 3 });
  const specs: Record<string, { dtype: 'float64' | 'int32'; shape: number[] }> = {
    x: { dtype: 'float64', shape: [4, 6] },
    [MIX_PERM]: { dtype: 'int32', shape: [4] },
    [MIX_WEIGHTS]: { dtype: 'float64', shape: [3] },
  };
  if (withH) specs['H'] = { dtype: 'float64', shape: [4, 5] };
  for (const [k, s] of Object.entries(paramShapes(model))) specs[k] = { dtype: 'float64', shape: [...s] };
  const graph = trace((inp) => {
    const params = Object.fromEntries(Object.keys(paramShapes(model)).map((k) => [k, inp[k]!]));
    let h1: Tensor | null = null;
    const inner = hook(inp);
    const features = (layer: string, h: Tensor): Tensor => {
      let out = inner ? inner(layer, h) : h;
      if (layer === 'hidden1' && withH) out = inp['H']!;
      if (layer === 'hidden1') h1 = h;
      return out;
    };
    const { logits } = model.forward(params, {}, inp['x']!, { training: true, features });
    return { logits, h1: h1! };
  }, specs);
  return { model, graph };
}

test('manifold mixing at a hidden layer equals running the model on host-mixed activations of that layer', () => {
  const rng = new Random(2);
  const layers = ['input', 'hidden1', 'hidden2'];
  const mixed = mlpGraph((e) => mixingHook(layers, e), false);
  const plainWithH = mlpGraph(() => undefined, true);
  const plain = mlpGraph(() => undefined, false);
  const params = Object.fromEntries(Object.entries(initModel(mixed.model, 3).params).map(([k, v]) => [k, Float64Array.from(v)]));
  const x = randomArray(24, rng);
  const perm = new Int32Array([1, 3, 0, 2]);
  const lambda = 0.35;
  const feeds = (weights: number[], extra: Record<string, ArrayLike<number>> = {}) => ({ x, [MIX_PERM]: perm, [MIX_WEIGHTS]: weights, ...params, ...extra });

  // At 'hidden1': host-mix the activations of a plain pass and feed them in place of hidden1.
  const h1 = evaluate(plain.graph, feeds([0, 0, 0]))['h1']!.data;
  const hostMixed = mixRows(Float64Array.from(h1), { lambda, perm });
  const expected = evaluate(plainWithH.graph, feeds([0, 0, 0], { H: hostMixed }))['logits']!.data;
  const got = evaluate(mixed.graph, feeds([0, 1 - lambda, 0]))['logits']!.data;
  expected.forEach((v, i) => assert.ok(close(got[i]!, v), `logit ${i}: ${got[i]} vs ${v}`));

  // At 'input': the same as input mixup of x.
  const xMixed = mixRows(Float64Array.from(x), { lambda, perm });
  const expectedInput = evaluate(plain.graph, { ...feeds([0, 0, 0]), x: xMixed })['logits']!.data;
  const gotInput = evaluate(mixed.graph, feeds([1 - lambda, 0, 0]))['logits']!.data;
  expectedInput.forEach((v, i) => assert.ok(close(gotInput[i]!, v)));

  // All weights 0: the unmixed model.
  const base = evaluate(plain.graph, feeds([0, 0, 0]))['logits']!.data;
  const zero = evaluate(mixed.graph, feeds([0, 0, 0]))['logits']!.data;
  assert.deepEqual(Array.from(zero), Array.from(base));
});

test('drawLayerMix: one candidate gets 1 − λ, the rest 0; α = 0 draws nothing', () => {
  const rng = new Random(5);
  const seen = new Set<number>();
  for (let t = 0; t < 40; t++) {
    const d = drawLayerMix(8, 3, 0.4, rng);
    const nonzero = Array.from(d.weights).filter((w) => w !== 0);
    assert.ok(nonzero.length <= 1);
    assert.ok(close(d.weights[d.layer]!, 1 - d.lambda, 1e-7));
    seen.add(d.layer);
  }
  assert.deepEqual([...seen].sort(), [0, 1, 2], 'every candidate layer is drawn');
  const r = new Random(9);
  const before = r.getState();
  const none = drawLayerMix(4, 3, 0, r);
  assert.deepEqual(r.getState(), before);
  assert.deepEqual(Array.from(none.weights), [0, 0, 0]);
  assert.equal(none.lambda, 1);
});

// A small image set for the host-side batch tests.
const B = 6;
const C = 4;
const dataset = imageDataset({
  name: 'tiny',
  images: Float32Array.from({ length: 10 * 2 * 2 }, (_, i) => (i % 17) / 17),
  labels: Int32Array.from({ length: 10 }, (_, i) => i % C),
  shape: [1, 2, 2],
  classes: C,
});
const batch = (): ImageBatch => gatherBatch(dataset, { epoch: 0, batch: 0, indices: Int32Array.from([3, 1, 4, 0, 9, 5]) });
const plan = (kind: BatchPlan['kind'], alpha = 0.4, mixLayers: string[] | null = null): BatchPlan => ({ augmentation: 'none', alpha, kind, mixLayers, classes: C });

test('input mixup: mixed images and soft targets λ·q_i + (1 − λ)·q_π(i), rows summing to 1', () => {
  const b = batch();
  const clean = b.images.slice();
  const p = prepareBatch(plan('input'), b, new Random(11));
  const draw = new Random(11);
  const lambda = draw.beta(0.4, 0.4);
  const perm = draw.permutation(B);
  assert.ok(close(p.lambda, lambda));
  const y = p.y as Float32Array;
  assert.ok(y instanceof Float32Array && y.length === B * C);
  for (let i = 0; i < B; i++) {
    let sum = 0;
    for (let k = 0; k < C; k++) {
      const q = lambda * (b.labels[i] === k ? 1 : 0) + (1 - lambda) * (b.labels[perm[i]!] === k ? 1 : 0);
      assert.ok(Math.abs(y[i * C + k]! - q) < 1e-6);
      sum += y[i * C + k]!;
    }
    assert.ok(Math.abs(sum - 1) < 1e-6);
    for (let j = 0; j < 4; j++) assert.ok(Math.abs((p.x as Float32Array)[i * 4 + j]! - (lambda * clean[i * 4 + j]! + (1 - lambda) * clean[perm[i]! * 4 + j]!)) < 1e-6);
  }
  assert.deepEqual(Object.keys(p.extras), []);
});

test('feature-only mixup keeps the hard label of the nearer sample', () => {
  const b = batch();
  const p = prepareBatch(plan('feature'), b, new Random(12));
  const draw = new Random(12);
  const lambda = draw.beta(0.4, 0.4);
  const perm = draw.permutation(B);
  const expected = Array.from(b.labels, (y, i) => (lambda >= 0.5 ? y : b.labels[perm[i]!]!));
  assert.ok(p.y instanceof Int32Array);
  assert.deepEqual(Array.from(p.y), expected);
});

test('manifold mixup: inputs untouched, soft targets mixed on the host, π and layer weights as step inputs', () => {
  const b = batch();
  const clean = b.images.slice();
  const layers = ['input', 'hidden1', 'hidden2'];
  const p = prepareBatch(plan('manifold', 0.4, layers), b, new Random(13));
  const d = drawLayerMix(B, 3, 0.4, new Random(13));
  assert.deepEqual(Array.from(p.x), Array.from(clean));
  assert.deepEqual(Array.from(p.extras[MIX_PERM] as Int32Array), Array.from(d.perm));
  assert.deepEqual(Array.from(p.extras[MIX_WEIGHTS] as Float32Array), Array.from(d.weights));
  assert.deepEqual(Array.from(p.y as Float32Array), Array.from(mixRows(oneHot(b.labels, C), d)));
});

test("the 'sources' placement appends the unmixed batch with one-hot rows; π is the identity on them", () => {
  const b = batch();
  const clean = b.images.slice();
  const p = prepareBatch(plan('manifold', 0.4, ['input']), b, new Random(14), 'sources');
  assert.equal(p.mainRows, B);
  assert.equal(p.x.length, 2 * B * 4);
  assert.deepEqual(Array.from(p.x.subarray(B * 4)), Array.from(clean));
  assert.deepEqual(Array.from((p.y as Float32Array).subarray(B * C)), Array.from(oneHot(b.labels, C)));
  const perm = p.extras[MIX_PERM] as Int32Array;
  assert.deepEqual(Array.from(perm.subarray(B)), [6, 7, 8, 9, 10, 11]);
  const withHeld = prepareBatch(plan('input', 0), batch(), new Random(14), { x: new Float32Array(8).fill(0.5), labels: new Int32Array([3, 2]) });
  assert.deepEqual(Array.from(withHeld.y as Int32Array).slice(B), [3, 2], 'held-out rows keep hard labels without mixup');
  assert.deepEqual(Array.from(withHeld.x.subarray(B * 4)), new Array(8).fill(0.5));
});

test('embedding mixup leaves the token ids alone and mixes inside the graph at the embedding layer', () => {
  const text = textDataset({
    name: 'text',
    tokens: Int32Array.from({ length: 6 * 5 }, (_, i) => 2 + (i % 7)),
    labels: Int32Array.from([0, 1, 0, 1, 1, 0]),
    shape: [5],
    classes: 2,
    vocabulary: ['<pad>', '<unk>', 'a', 'b', 'c', 'd', 'e', 'f', 'g'],
  });
  const b = gatherBatch(text, { epoch: 0, batch: 0, indices: Int32Array.from([0, 1, 2, 3, 4, 5]) });
  const p = prepareBatch({ augmentation: 'none', alpha: 0.3, kind: 'embedding', mixLayers: ['embedding'], classes: 2 }, b, new Random(3));
  assert.ok(p.x instanceof Int32Array);
  assert.deepEqual(Array.from(p.x), Array.from(text.tokens));
  const d = drawLayerMix(6, 1, 0.3, new Random(3));
  assert.deepEqual(Array.from(p.extras[MIX_WEIGHTS] as Float32Array), [Math.fround(1 - d.lambda)]);
  assert.deepEqual(Array.from(p.y as Float32Array), Array.from(mixRows(oneHot(b.labels, 2), d)));
});

// Naive references for the loss tests (float64, max-shifted softmax).
function softmaxRow(z: ArrayLike<number>, off: number, c: number): number[] {
  let m = -Infinity;
  for (let k = 0; k < c; k++) m = Math.max(m, z[off + k]!);
  const e = Array.from({ length: c }, (_, k) => Math.exp(z[off + k]! - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}
function naiveCe(z: ArrayLike<number>, y: ArrayLike<number>, rows: number[], c: number): number {
  return rows.reduce((acc, i) => acc - Math.log(softmaxRow(z, i * c, c)[y[i]!]!), 0) / rows.length;
}
/** ARC V1, M = 1: (mean_i c_i − mean_i a_i)², a_i = target mass on the predicted class. */
function naiveArc(z: ArrayLike<number>, target: (i: number, k: number) => number, rows: number[], c: number): number {
  let conf = 0;
  let acc = 0;
  for (const i of rows) {
    const p = softmaxRow(z, i * c, c);
    const top = p.indexOf(Math.max(...p));
    conf += p[top]!;
    acc += target(i, top);
  }
  return (conf / rows.length - acc / rows.length) ** 2;
}

function runLoss(fn: ReturnType<typeof objectiveLossFn>, z: Float64Array, targets: Int32Array | Float64Array, shape: [number, number]) {
  const soft = targets instanceof Float64Array;
  const g = trace(
    (x) => {
      const r = fn(x['z']!, x['t']!, {});
      return { loss: r.loss, ...Object.fromEntries(Object.entries(r.terms).map(([k, v]) => [`term:${k}`, v])) };
    },
    { z: { dtype: 'float64', shape }, t: soft ? { dtype: 'float64', shape } : { dtype: 'int32', shape: [shape[0]] } },
  );
  const out = evaluate(g, { z, t: targets });
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.data[0]!]));
}

const settings: ObjectiveSettings = { loss: 'ce', lossOptions: {}, secondary: 'arc', secondaryOptions: {}, weight: 2 };

test('placements: the secondary term is computed on the extra rows only, the primary on the main rows', () => {
  const rng = new Random(21);
  const rows = 7;
  const main = 4;
  const z = randomArray(rows * 3, rng, 2);
  const y = Int32Array.from({ length: rows }, () => rng.int(3));
  const out = runLoss(placementLossFn(settings, main), z, y, [rows, 3]);
  const mainRows = [0, 1, 2, 3];
  const extraRows = [4, 5, 6];
  const ce = naiveCe(z, y, mainRows, 3);
  const arc = naiveArc(z, (i, k) => (y[i] === k ? 1 : 0), extraRows, 3);
  assert.ok(close(out['term:ce']!, ce), `ce ${out['term:ce']} vs ${ce}`);
  assert.ok(close(out['term:arc']!, arc), `arc ${out['term:arc']} vs ${arc}`);
  assert.ok(close(out['loss']!, ce + 2 * arc));
  const arcOnMain = naiveArc(z, (i, k) => (y[i] === k ? 1 : 0), mainRows, 3);
  assert.ok(Math.abs(arcOnMain - arc) > 1e-3, 'the case distinguishes the two row sets');

  // Soft targets on the main rows; the extra rows are one-hot and read back as labels.
  const q = new Float64Array(rows * 3);
  for (let i = 0; i < main; i++) for (let k = 0; k < 3; k++) q[i * 3 + k] = (k === y[i] ? 0.6 : 0) + (k === y[(i + 1) % main] ? 0.4 : 0);
  for (let i = main; i < rows; i++) q[i * 3 + y[i]!] = 1;
  const soft = runLoss(placementLossFn(settings, main), z, q, [rows, 3]);
  let softCe = 0;
  for (const i of mainRows) softCe -= [0, 1, 2].reduce((a, k) => a + q[i * 3 + k]! * Math.log(softmaxRow(z, i * 3, 3)[k]!), 0);
  assert.ok(close(soft['term:ce']!, softCe / main));
  assert.ok(close(soft['term:arc']!, arc));
});

test("the 'mixed' placement computes ARC on the mixed batch with accuracy a_i = q̃_{i,ŷ}", () => {
  const rng = new Random(22);
  const rows = 6;
  const z = randomArray(rows * 3, rng, 2);
  const y1 = Int32Array.from({ length: rows }, () => rng.int(3));
  const y2 = Int32Array.from({ length: rows }, () => rng.int(3));
  const lambda = 0.3;
  const q = new Float64Array(rows * 3);
  for (let i = 0; i < rows; i++) {
    q[i * 3 + y1[i]!]! += lambda;
    q[i * 3 + y2[i]!]! += 1 - lambda;
  }
  const out = runLoss(objectiveLossFn(settings, 'full'), z, q, [rows, 3]);
  const all = [0, 1, 2, 3, 4, 5];
  const arc = naiveArc(z, (i, k) => lambda * (y1[i] === k ? 1 : 0) + (1 - lambda) * (y2[i] === k ? 1 : 0), all, 3);
  assert.ok(close(out['term:arc']!, arc));
  const secondaryOnly = runLoss(objectiveLossFn(settings, 'secondary'), z, q, [rows, 3]);
  assert.ok(close(secondaryOnly['loss']!, 2 * arc), 'the interleaved second pass optimises β · secondary alone');
  const primaryOnly = runLoss(objectiveLossFn(settings, 'primary'), z, q, [rows, 3]);
  assert.deepEqual(
    Object.keys(primaryOnly).filter((k) => k.startsWith('term:')),
    ['term:ce'],
  );
});

test('an interleaved epoch visits every majority batch, then every held-out batch, each sample once', () => {
  const steps = [...interleavedEpoch(2, 10, 4, { batchSize: 3, seed: 7 })];
  assert.deepEqual(
    steps.map((s) => s.phase),
    ['primary', 'primary', 'primary', 'primary', 'secondary', 'secondary'],
  );
  assert.deepEqual(
    steps.map((s) => s.split),
    ['majority', 'majority', 'majority', 'majority', 'held-out', 'held-out'],
  );
  assert.deepEqual(
    steps.map((s) => s.indices.length),
    [3, 3, 3, 1, 3, 1],
  );
  const majority = steps
    .filter((s) => s.split === 'majority')
    .flatMap((s) => Array.from(s.indices))
    .sort((a, b) => a - b);
  assert.deepEqual(majority, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const held = steps
    .filter((s) => s.split === 'held-out')
    .flatMap((s) => Array.from(s.indices))
    .sort((a, b) => a - b);
  assert.deepEqual(held, [0, 1, 2, 3]);
  const again = [...interleavedEpoch(2, 10, 4, { batchSize: 3, seed: 7 })];
  assert.deepEqual(
    again.map((s) => Array.from(s.indices)),
    steps.map((s) => Array.from(s.indices)),
  );
  const next = [...interleavedEpoch(3, 10, 4, { batchSize: 3, seed: 7 })];
  assert.notDeepEqual(
    next.map((s) => Array.from(s.indices)),
    steps.map((s) => Array.from(s.indices)),
  );
});

test('interleaved training alternates passes over the two splits and logs both objectives', async () => {
  const dir = tempDir('trainer-interleaved');
  const config = resolveTrainConfig({
    dataset: 'mnist',
    subset: 400,
    testSubset: 100,
    modelOptions: { hidden: [16] },
    epochs: 2,
    batch: 64,
    secondary: 'sb-ece-lb',
    interleaved: 0.2,
    out: join(dir, 'run'),
  });
  const data = await loadRunData(config);
  assert.equal(data.heldOut!.labels.length, 72, '20 % of the 360 samples left after validation');
  assert.equal(data.train.labels.length, 288);
  const phases: string[] = [];
  const result = await train(config, { data, onStep: ({ epoch, phase }) => phases.push(`${epoch}${phase[0]}`) });
  const epoch = ['p', 'p', 'p', 'p', 'p', 's', 's']; // ⌈288/64⌉ = 5 primary, ⌈72/64⌉ = 2 secondary
  assert.deepEqual(phases, [...epoch.map((p) => `0${p}`), ...epoch.map((p) => `1${p}`)]);
  const terms = result.records[0]!.train_terms;
  assert.deepEqual(Object.keys(terms).sort(), ['ce', 'sb-ece-lb']);
  assert.ok(terms['sb-ece-lb']! > 0);
});

test("the 'holdout' placement trains on full batches with the secondary term reported", async () => {
  const dir = tempDir('trainer-holdout');
  const config = resolveTrainConfig({
    dataset: 'mnist',
    subset: 400,
    testSubset: 100,
    modelOptions: { hidden: [16] },
    epochs: 1,
    batch: 64,
    secondary: 'arc',
    arcPlacement: 'holdout',
    holdout: 0.2,
    mixup: 0.2,
    out: join(dir, 'run'),
  });
  const result = await train(config);
  assert.equal(result.records[0]!.steps, 4, '⌊288/64⌋ full batches');
  assert.deepEqual(Object.keys(result.records[0]!.train_terms).sort(), ['arc', 'ce']);
});
