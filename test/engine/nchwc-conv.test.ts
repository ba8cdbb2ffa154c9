import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../src/engine/index.js';
import { nchwcBlockSize } from '../../src/engine/runtime/nchwc.js';
import { Random } from '../../src/util/random.js';

const f32 = (...shape: number[]) => ({ dtype: 'float32', shape }) as const;

/** conv (stride 1) → relu → conv (stride 2) → sum of squares, with gradients for x and both filters. */
function convNet(c: number) {
  return E.trace(
    ({ x, w1, w2 }) => {
      const h = E.conv2d(x!, w1!, { padding: 1 }).relu();
      const y = E.conv2d(h, w2!, { stride: 2, padding: 1 });
      const loss = y.mul(y).sum();
      const [dx, dw1, dw2] = E.grad(loss, [x!, w1!, w2!]);
      return { y, loss, dx: dx!, dw1: dw1!, dw2: dw2! };
    },
    { x: f32(2, c, 6, 5), w1: f32(c, c, 3, 3), w2: f32(2 * c, c, 3, 3) },
  );
}

/**
 * The other window kinds: dilated 3×3 with asymmetric padding from 2c input channels (two input-channel blocks,
 * so the filter's Ci/B axis of the OIHWBiBo reorder is exercised), then a 1×1 stride-2 projection.
 */
function windowNet(c: number) {
  return E.trace(
    ({ x, w1, w2 }) => {
      const h = E.conv2d(x!, w1!, { padding: [2, 1, 2, 3], dilation: 2 }).relu();
      const y = E.conv2d(h, w2!, { stride: 2 });
      const loss = y.mul(y).sum();
      const [dx, dw1, dw2] = E.grad(loss, [x!, w1!, w2!]);
      return { y, loss, dx: dx!, dw1: dw1!, dw2: dw2! };
    },
    { x: f32(2, 2 * c, 7, 6), w1: f32(c, 2 * c, 3, 3), w2: f32(2 * c, c, 1, 1) },
  );
}

/** A 6-channel input (fewer than a block) widened to a block by a 5×5 valid conv (LeNet's 6 → 16), then a block-aligned stride-2 conv. */
function narrowInputNet(block: number) {
  return E.trace(
    ({ x, w1, w2 }) => {
      const h = E.conv2d(x!, w1!).relu();
      const y = E.conv2d(h, w2!, { stride: 2, padding: 1 });
      const loss = y.mul(y).sum();
      const [dx, dw1, dw2] = E.grad(loss, [x!, w1!, w2!]);
      return { y, loss, dx: dx!, dw1: dw1!, dw2: dw2! };
    },
    { x: f32(2, 6, 9, 8), w1: f32(block, 6, 5, 5), w2: f32(block, block, 3, 3) },
  );
}

test('convolutions lower to the NCHWc kernels only when asked, and only for block-aligned float32 channels', () => {
  const block = 8;
  const count = (g: E.Graph, b: number) => E.lowerToOnnx(g, { nchwcBlock: b }).nodes.filter((n) => n.domain === 'com.microsoft.nchwc').length;
  const aligned = convNet(block);
  // Forward: 2 convs; backward: dX of the stride-1 conv is a stride-1 conv too (the strided one uses ConvTranspose,
  // the first conv's dX is the input gradient, also a conv): each conv is ReorderInput → Conv → ReorderOutput.
  assert.equal(count(aligned, 0), 0, 'portable lowering (exports) never uses the extension');
  const nodes = E.lowerToOnnx(aligned, { nchwcBlock: block })
    .nodes.filter((n) => n.domain === 'com.microsoft.nchwc')
    .map((n) => n.opType);
  assert.ok(nodes.length >= 9 && nodes.length % 3 === 0, `3 nodes per eligible conv, got ${nodes.join(', ')}`);
  assert.deepEqual(nodes.slice(0, 3), ['ReorderInput', 'Conv', 'ReorderOutput']);
  assert.equal(count(convNet(4), block), 0, '4 channels are not a multiple of the block (and a 4·3·3 filter is too shallow for NCHW input)');
  // Fewer input channels than a block, output channels a multiple of it, filter depth Ci·kh·kw ≥ 64: NCHW input read
  // directly (Conv + ReorderOutput, no ReorderInput; ORT's form for a first layer) — only the 8 → 16 stride-2 conv.
  const blockedOps = E.lowerToOnnx(aligned, { nchwcBlock: 16 })
    .nodes.filter((n) => n.domain === 'com.microsoft.nchwc')
    .map((n) => n.opType);
  assert.deepEqual(blockedOps, ['Conv', 'ReorderOutput'], '8 → 8 is not aligned to a 16 block; 8 → 16 (8·3·3 = 72) reads NCHW input');
  assert.equal(count(convNet(1), block), 0, 'a single input channel keeps the portable Conv');
  for (const bad of [-8, 3, 6, 8.5, Number.NaN]) {
    assert.throws(
      () => E.lowerToOnnx(aligned, { nchwcBlock: bad }),
      /^InvalidArgumentError: options\.nchwcBlock: expected 0 \(portable ONNX\) or ORT's NCHWc channel block, a positive multiple of 4 \(8 or 16\), got /,
    );
  }
});

test('the NCHWc convolution path gives the float64 reference values, forward and backward (ORT f32)', (t) => {
  const block = nchwcBlockSize();
  if (block === 0) {
    t.skip('this ONNX Runtime build has no NCHWc kernels');
    return;
  }
  assert.ok([4, 8, 16, 32].includes(block), `block ${block}`);
  const c = block;
  for (const [name, graph] of [
    ['3×3 stride 1 and 2', convNet(c)],
    ['dilated, asymmetric padding, 1×1 stride 2', windowNet(c)],
    ['6-channel NCHW input widened to a block (5×5 valid), then stride 2', narrowInputNet(c)],
  ] as const) {
    const blockedConvs = E.lowerToOnnx(graph, { nchwcBlock: block }).nodes.filter((n) => n.domain === 'com.microsoft.nchwc' && n.opType === 'Conv');
    assert.ok(blockedConvs.length >= 2, `${name}: ${blockedConvs.length} NCHWc convs (forward ×2, + dX where stride 1)`);
    compareWithReference(name, graph);
  }
});

function compareWithReference(name: string, graph: E.Graph): void {
  const rng = new Random(11);
  const feeds = Object.fromEntries(
    graph.inputs.map((t) => {
      const size = t.shape.reduce((a, b) => a * b, 1);
      const scale = t.source.kind === 'input' && t.source.name === 'x' ? 1 : 0.2;
      return [t.source.kind === 'input' ? t.source.name : '?', Float64Array.from({ length: size }, () => rng.normal() * scale)];
    }),
  );
  const ref = E.evaluate(graph, feeds);
  const f32feeds = Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, Float32Array.from(v)]));
  const blocked = E.compile(graph).run(f32feeds);
  const portable = E.compile(graph, { nchwc: false }).run(f32feeds);
  for (const k of ['y', 'loss', 'dx', 'dw1', 'dw2'] as const) {
    const want = ref[k]!.data;
    let scale = 0;
    for (const v of want) scale = Math.max(scale, Math.abs(v));
    for (const [label, got] of [
      ['nchwc', blocked[k]!],
      ['portable', portable[k]!],
    ] as const) {
      let err = 0;
      for (let i = 0; i < want.length; i++) err = Math.max(err, Math.abs(Number(got[i]) - want[i]!));
      assert.ok(err <= 2e-5 * scale, `${name}, ${label} ${k}: max error ${err} vs scale ${scale}`);
    }
  }
  // Same session twice: the blocked kernels are deterministic.
  const again = E.compile(graph).run(f32feeds);
  assert.deepEqual([...again['dw1']!], [...blocked['dw1']!]);
}
