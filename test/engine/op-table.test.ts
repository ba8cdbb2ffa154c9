import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../src/engine/index.js';
import { im2colCnhw } from '../../src/engine/ops/layers/im2col-cnhw.js';
import { type OpCase, runCase, samplers } from './op-harness.js';

const { positive, awayFromZero, bool, int } = samplers;
const f = (...shape: number[]) => ({ shape });
const i32 = (n: number, ...shape: number[]) => ({ shape, dtype: 'int32' as const, sample: int(n) });

/**
 * The op table: every primitive appears in at least one row (checked at the end). Each row is checked forward
 * (ORT float32 vs float64 reference), by finite differences in float64, and backward (gradient graph on ORT vs
 * reference). Samplers keep inputs inside each op's domain and away from kinks.
 */
export const cases: OpCase[] = [
  { name: 'add broadcasting [3,1,4] + [2,4]', inputs: { a: f(3, 1, 4), b: f(2, 4) }, fn: ({ a, b }) => a!.add(b!) },
  { name: 'sub with a scalar', inputs: { a: f(2, 3) }, fn: ({ a }) => E.sub(1.5, a!) },
  { name: 'mul broadcasting [2,3] · [3]', inputs: { a: f(2, 3), b: f(3) }, fn: ({ a, b }) => a!.mul(b!) },
  { name: 'div broadcasting', inputs: { a: f(2, 3), b: { shape: [2, 1], sample: positive } }, fn: ({ a, b }) => a!.div(b!) },
  { name: 'pow of positive base and tensor exponent', inputs: { a: { shape: [2, 3], sample: positive }, b: f(3) }, fn: ({ a, b }) => a!.pow(b!) },
  { name: 'pow with a constant exponent', inputs: { a: { shape: [5], sample: positive } }, fn: ({ a }) => a!.pow(2.5) },
  { name: 'maximum', inputs: { a: f(2, 3), b: f(3) }, fn: ({ a, b }) => a!.maximum(b!) },
  { name: 'minimum', inputs: { a: f(2, 3), b: f(2, 3) }, fn: ({ a, b }) => E.minimum(a!, b!) },
  { name: 'neg', inputs: { a: f(4) }, fn: ({ a }) => a!.neg() },
  { name: 'exp', inputs: { a: f(2, 3) }, fn: ({ a }) => a!.exp() },
  { name: 'log of positives', inputs: { a: { shape: [2, 3], sample: positive } }, fn: ({ a }) => a!.log() },
  { name: 'tanh', inputs: { a: f(6) }, fn: ({ a }) => a!.tanh() },
  { name: 'sigmoid', inputs: { a: f(6) }, fn: ({ a }) => a!.sigmoid() },
  { name: 'relu away from 0', inputs: { a: { shape: [3, 4], sample: awayFromZero } }, fn: ({ a }) => a!.relu() },
  { name: 'abs away from 0', inputs: { a: { shape: [5], sample: awayFromZero } }, fn: ({ a }) => a!.abs() },
  { name: 'sign (no gradient)', inputs: { a: { shape: [5], sample: awayFromZero } }, fn: ({ a }) => a!.sign().mul(a!) },
  { name: 'sqrt of positives', inputs: { a: { shape: [5], sample: positive } }, fn: ({ a }) => a!.sqrt() },
  { name: 'softplus and logSigmoid', inputs: { a: f(6) }, fn: ({ a }) => ({ sp: E.softplus(a!.mul(3)), ls: E.logSigmoid(a!) }) },
  { name: 'floor', inputs: { a: f(5) }, fn: ({ a }) => a!.floor(), grad: false },
  { name: 'clip inside and outside the bounds', inputs: { a: { shape: [8], values: [-2, -0.7, -0.3, 0.1, 0.4, 0.8, 1.3, 2] } }, fn: ({ a }) => a!.clip(-0.5, 1) },
  {
    name: 'comparisons and logic feeding where',
    inputs: { a: f(2, 4), b: f(4), c: { shape: [2, 4], dtype: 'bool', sample: bool } },
    fn: ({ a, b, c }) => {
      const m1 = a!.less(b!).logicalOr(a!.greater(1));
      const m2 = a!.lessEqual(0).logicalAnd(a!.greaterEqual(-1)).logicalNot();
      const m3 = a!.equal(a!).logicalAnd(c!);
      return E.where(m1.logicalAnd(m2).logicalOr(m3), a!.mul(2), b!.mul(a!));
    },
  },
  { name: 'cast float32 → float64 → float32 and to int', inputs: { a: f(2, 3) }, fn: ({ a }) => ({ y: a!.cast('float64').mul(3).cast('float32'), i: a!.mul(3).cast('int32') }) },
  { name: 'stopGradient blocks one path', inputs: { a: f(4) }, fn: ({ a }) => a!.mul(a!.stopGradient()), grad: false },
  { name: 'matmul 2-D', inputs: { a: f(3, 4), b: f(4, 2) }, fn: ({ a, b }) => a!.matmul(b!) },
  { name: 'matmul transA (Gemm)', inputs: { a: f(4, 3), b: f(4, 2) }, fn: ({ a, b }) => a!.matmul(b!, { transA: true }) },
  { name: 'matmul transB (Gemm)', inputs: { a: f(3, 4), b: f(2, 4) }, fn: ({ a, b }) => a!.matmul(b!, { transB: true }) },
  { name: 'matmul batched with broadcast batch axes', inputs: { a: f(2, 1, 3, 4), b: f(3, 4, 2) }, fn: ({ a, b }) => a!.matmul(b!) },
  { name: 'matmul batched transA transB (FusedMatMul)', inputs: { a: f(2, 4, 3), b: f(2, 5, 4) }, fn: ({ a, b }) => a!.matmul(b!, { transA: true, transB: true }) },
  { name: 'sum over axes with and without keepdims', inputs: { a: f(2, 3, 4) }, fn: ({ a }) => ({ s: a!.sum([0, 2]), k: a!.sum(1, true), all: a!.sum() }) },
  { name: 'mean', inputs: { a: f(2, 3, 4) }, fn: ({ a }) => ({ m: a!.mean(-1), all: a!.mean() }) },
  {
    name: 'reductions over non-adjacent axes (lowered as one Reduce per run of axes)',
    inputs: { a: f(2, 3, 4, 5) },
    fn: ({ a }) => ({ s: a!.sum([0, 2, 3], true), m: a!.mean([0, 3]), mx: a!.max([0, 2], true), mn: a!.min([1, 3]) }),
  },
  { name: 'max and min over an axis', inputs: { a: f(3, 5) }, fn: ({ a }) => ({ mx: a!.max(1), mn: a!.min(0, true) }) },
  { name: 'argmax and argmin', inputs: { a: f(3, 5) }, fn: ({ a }) => ({ i: a!.argmax(1), j: a!.argmin(0, true) }), grad: false },
  { name: 'reshape, transpose, expand', inputs: { a: f(2, 6) }, fn: ({ a }) => a!.reshape([3, -1, 1]).transpose([1, 0, 2]).expand([4, 3, 5]) },
  { name: 'slice with negative and strided steps', inputs: { a: f(5, 7) }, fn: ({ a }) => ({ s: a!.slice([1, -1], [4, 0], [0, 1], [1, -2]), f: E.flip(a!, [0, 1]), t: a!.slice([0], [7], [1], [3]) }) },
  { name: 'pad', inputs: { a: f(2, 3) }, fn: ({ a }) => E.pad(a!, [1, 0, 0, 2], 0.5) },
  { name: 'pad with negative pads (crop one side, pad the other: a shift)', inputs: { a: f(2, 3, 4) }, fn: ({ a }) => E.pad(a!, [0, -1, 2, 1, 1, -3], 0) },
  { name: 'concat', inputs: { a: f(2, 3), b: f(2, 1) }, fn: ({ a, b }) => E.concat([a!, b!, a!], 1) },
  { name: 'flatten, squeeze, unsqueeze', inputs: { a: f(2, 1, 3) }, fn: ({ a }) => a!.squeeze(1).unsqueeze([0, 3]).flatten(2) },
  { name: 'gather on axis 0 (embedding) with repeated ids', inputs: { w: f(5, 3), ids: { shape: [2, 3], dtype: 'int32', values: [0, 4, 4, 2, 0, 0] } }, fn: ({ w, ids }) => w!.gather(ids!, 0) },
  { name: 'gather on axis 1 with int64 indices', inputs: { w: f(2, 5, 3), ids: { shape: [4], dtype: 'int64', values: [1, 3, 1, 0] } }, fn: ({ w, ids }) => w!.gather(ids!, 1) },
  { name: 'takeAlongAxis picks p[i, y_i]', inputs: { p: f(4, 3), y: { shape: [4, 1], dtype: 'int32', values: [2, 0, 1, 2] } }, fn: ({ p, y }) => p!.takeAlongAxis(y!, 1) },
  { name: 'scatterNDAdd accumulates repeated rows', inputs: { d: f(4, 2), u: f(3, 2), i: { shape: [3, 1], dtype: 'int64', values: [3, 0, 3] } }, fn: ({ d, u, i }) => E.scatterNDAdd(d!, i!, u!) },
  {
    name: 'scatterElementsAdd along axis 1',
    inputs: { d: f(2, 4), u: f(2, 3), i: { shape: [2, 3], dtype: 'int64', values: [0, 3, 0, 1, 1, 2] } },
    fn: ({ d, u, i }) => E.scatterElementsAdd(d!, i!, u!, 1),
  },
  { name: 'oneHot (out-of-range index gives a zero row)', inputs: { y: { shape: [4], dtype: 'int32', values: [0, 2, 5, 1] }, a: f(4, 3) }, fn: ({ y, a }) => E.oneHot(y!, 3, a!.dtype).mul(a!) },
  { name: 'large zeros are a fill node', inputs: { a: f(80, 60) }, fn: ({ a }) => a!.add(E.zeros([80, 60], a!.dtype)).add(E.ones([60], a!.dtype)), gradRtol: 1e-4 },
  { name: 'softmax on axis 0', inputs: { a: f(4, 3) }, fn: ({ a }) => a!.softmax(0) },
  { name: 'logSoftmax', inputs: { a: f(3, 5) }, fn: ({ a }) => a!.logSoftmax() },
  { name: 'logSumExp (composite with detached max)', inputs: { a: f(3, 5) }, fn: ({ a }) => a!.logSumExp(1) },
  {
    name: 'softmaxCrossEntropy mean, sum, none and its logProb',
    inputs: { z: f(4, 3), y: i32(3, 4) },
    fn: ({ z, y }) => {
      const m = E.softmaxCrossEntropy(z!, y!);
      return { mean: m.loss, sum: E.softmaxCrossEntropy(z!, y!, { reduction: 'sum' }).loss, none: E.softmaxCrossEntropy(z!, y!, { reduction: 'none' }).loss, lp: m.logProb.mul(0.3) };
    },
  },
  { name: 'softmaxCrossEntropy with int64 labels', inputs: { z: f(3, 4), y: { shape: [3], dtype: 'int64', values: [3, 0, 1] } }, fn: ({ z, y }) => E.softmaxCrossEntropy(z!, y!).loss },
  {
    name: 'conv2d 3×3 stride 1 pad 1 with bias (dW: shifted copies)',
    inputs: { x: f(2, 3, 5, 5), w: f(4, 3, 3, 3), b: f(4) },
    fn: ({ x, w, b }) => E.conv2d(x!, w!, { padding: 1, bias: b! }),
    tol: 1e-4,
  },
  {
    name: 'conv2d stride 1, dilated, asymmetric padding (dW: shifted copies)',
    inputs: { x: f(2, 3, 6, 7), w: f(2, 3, 2, 3) },
    fn: ({ x, w }) => E.conv2d(x!, w!, { dilation: [2, 1], padding: [1, 0, 0, 2] }),
    tol: 1e-4,
  },
  { name: 'conv2d 5×5 valid (dW: shifted copies that crop)', inputs: { x: f(2, 4, 8, 8), w: f(2, 4, 5, 5) }, fn: ({ x, w }) => E.conv2d(x!, w!), tol: 1e-4 },
  {
    name: 'conv2d 5×5 valid widening 2 → 6 channels (dX: stride-1 ConvTranspose, fewer columns)',
    inputs: { x: f(2, 2, 9, 9), w: f(6, 2, 5, 5) },
    fn: ({ x, w }) => E.conv2d(x!, w!),
    tol: 1e-4,
  },
  {
    name: 'conv2d 3×3 pad 1 widening 3 → 5 channels with bias (dX: stride-1 ConvTranspose with padding)',
    inputs: { x: f(2, 3, 6, 5), w: f(5, 3, 3, 3), b: f(5) },
    fn: ({ x, w, b }) => E.conv2d(x!, w!, { padding: 1, bias: b! }),
    tol: 1e-4,
  },
  { name: 'conv2d 3×3 stride 2 (input gradient via ConvTranspose)', inputs: { x: f(2, 2, 7, 6), w: f(3, 2, 3, 3) }, fn: ({ x, w }) => E.conv2d(x!, w!, { stride: 2, padding: 1 }), tol: 1e-4 },
  {
    name: 'conv2d grouped, dilated, asymmetric padding',
    inputs: { x: f(1, 4, 6, 7), w: f(6, 2, 2, 3) },
    fn: ({ x, w }) => E.conv2d(x!, w!, { groups: 2, dilation: [2, 1], padding: [1, 0, 0, 2] }),
    tol: 1e-4,
  },
  { name: 'conv2d 1×1 (dW: transpose + one GEMM, im2col skipped)', inputs: { x: f(18, 3, 2, 2), w: f(2, 3, 1, 1) }, fn: ({ x, w }) => E.conv2d(x!, w!), tol: 1e-4 },
  { name: 'conv2d grouped 1×1 over more than one dW chunk', inputs: { x: f(18, 4, 2, 2), w: f(2, 2, 1, 1) }, fn: ({ x, w }) => E.conv2d(x!, w!, { groups: 2 }), tol: 1e-4 },
  { name: 'conv2d grouped 3×3 over more than one dW chunk', inputs: { x: f(17, 2, 3, 3), w: f(4, 1, 3, 3) }, fn: ({ x, w }) => E.conv2d(x!, w!, { groups: 2, padding: 1 }), tol: 1e-4 },
  {
    name: 'conv2d stride [2,1], dilated, asymmetric padding (dW: im2colCnhw + one GEMM)',
    inputs: { x: f(2, 3, 7, 6), w: f(4, 3, 2, 3) },
    fn: ({ x, w }) => E.conv2d(x!, w!, { stride: [2, 1], dilation: [2, 1], padding: [1, 0, 0, 2] }),
    tol: 1e-4,
  },
  {
    name: 'im2colCnhw stride 2, dilation, asymmetric padding',
    inputs: { x: f(2, 3, 7, 6) },
    fn: ({ x }) => im2colCnhw(x!, [3, 2], { strides: [2, 1], pads: [1, 0, 2, 1], dilations: [1, 2] }),
    grad: false,
  },
  { name: 'conv2d depthwise stride 2', inputs: { x: f(2, 3, 6, 6), w: f(3, 1, 3, 3) }, fn: ({ x, w }) => E.conv2d(x!, w!, { stride: 2, padding: 1, groups: 3 }), tol: 1e-4 },
  {
    name: 'convTranspose2d stride 2 with output padding',
    inputs: { x: f(2, 3, 3, 4), w: f(3, 2, 3, 3) },
    fn: ({ x, w }) => E.convTranspose2d(x!, w!, { stride: 2, padding: 1, outputPadding: 1 }),
    tol: 1e-4,
  },
  {
    name: 'maxPool2d 2×2 stride 2 with indices',
    inputs: { x: f(2, 2, 4, 6) },
    fn: ({ x }) => {
      const r = E.maxPool2dWithIndices(x!, { kernel: 2 });
      return { y: r.values, i: r.indices };
    },
  },
  {
    name: 'maxPool2x2 (what maxPool2d 2×2 stride 2 lowers to: one-hot argmax backward)',
    inputs: { x: f(2, 3, 4, 6) },
    fn: ({ x }) => ({ y: E.maxPool2d(x!, { kernel: 2 }), z: E.maxPool2x2(x!.mul(-1)) }),
  },
  { name: 'upsample2x (nearest, ONNX Resize)', inputs: { x: f(2, 3, 2, 3) }, fn: ({ x }) => E.upsample2x(x!) },
  { name: 'maxPool2d 3×3 stride 2 pad 1 (overlapping windows)', inputs: { x: f(2, 3, 5, 5) }, fn: ({ x }) => E.maxPool2d(x!, { kernel: 3, stride: 2, padding: 1 }) },
  { name: 'avgPool2d 2×2', inputs: { x: f(2, 2, 4, 4) }, fn: ({ x }) => E.avgPool2d(x!, { kernel: 2 }) },
  { name: 'avgPool2d 3×3 stride 2 pad 1, padding excluded from the count', inputs: { x: f(1, 2, 5, 6) }, fn: ({ x }) => E.avgPool2d(x!, { kernel: 3, stride: 2, padding: 1, countIncludePad: false }) },
  { name: 'globalAvgPool', inputs: { x: f(2, 3, 4, 5) }, fn: ({ x }) => E.globalAvgPool(x!) },
  {
    name: 'batchNormTraining: y and batch statistics',
    inputs: { x: f(4, 3, 2, 3), g: { shape: [3], sample: positive }, b: f(3) },
    fn: ({ x, g, b }) => {
      const s = E.batchNormTraining(x!, g!, b!);
      return { y: s.y, m: s.mean, v: s.variance };
    },
    tol: 1e-4,
  },
  {
    name: 'channelAffine a_c·x + b_c (one inference-mode BatchNormalization)',
    inputs: { x: f(3, 4, 2, 3), a: f(4), b: f(4) },
    fn: ({ x, a, b }) => ({ y4: E.channelAffine(x!, a!, b!), y2: E.channelAffine(x!.reshape([6, 4, 3]).sum(2), a!, b!) }),
  },
  { name: 'batchNormTraining on [N, C] features', inputs: { x: f(6, 4), g: { shape: [4], sample: positive }, b: f(4) }, fn: ({ x, g, b }) => E.batchNormTraining(x!, g!, b!).y, tol: 1e-4 },
  {
    name: 'batchNorm inference',
    inputs: { x: f(2, 3, 2, 2), g: f(3), b: f(3), rm: f(3), rv: { shape: [3], sample: positive } },
    fn: ({ x, g, b, rm, rv }) => E.batchNorm(x!, g!, b!, rm!, rv!, { training: false }).y,
  },
  { name: 'dropout with a fed mask', inputs: { x: f(3, 4), m: { shape: [3, 4], values: [1, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1, 0] } }, fn: ({ x, m }) => E.dropout(x!, m!, 0.25), wrt: ['x'] },
];

test('every primitive is covered by the op table', () => {
  const covered = new Set<string>();
  for (const c of cases) for (const name of runCase(c)) covered.add(name);
  const missing = [...E.primitives().keys()].filter((n) => !covered.has(n));
  assert.deepEqual(missing, [], `primitives without a row: ${missing.join(', ')}`);
});

for (const c of cases) {
  test(`op table: ${c.name} — ORT float32 and gradients match the float64 reference`, () => {
    runCase(c, 7);
  });
}
