import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../src/engine/index.js';
import { Random } from '../../src/util/random.js';

// A 2-layer MLP trained by plain SGD for a few steps: the engine's one-graph train step (ORT, float32) against
// gradients derived by hand and computed in plain TypeScript float64.
const N = 6,
  D = 4,
  H = 5,
  C = 3,
  LR = 0.5;

interface Params {
  w1: Float64Array;
  b1: Float64Array;
  w2: Float64Array;
  b2: Float64Array;
}

/** Hand-derived backprop: h = relu(xW1 + b1), z = hW2 + b2, L = mean_i −log softmax(z_i)_{y_i}. */
function handStep(p: Params, x: Float64Array, y: Int32Array): { loss: number; next: Params } {
  const a = new Float64Array(N * H),
    h = new Float64Array(N * H),
    z = new Float64Array(N * C);
  for (let i = 0; i < N; i++)
    for (let j = 0; j < H; j++) {
      let s = p.b1[j]!;
      for (let k = 0; k < D; k++) s += x[i * D + k]! * p.w1[k * H + j]!;
      a[i * H + j] = s;
      h[i * H + j] = Math.max(s, 0);
    }
  for (let i = 0; i < N; i++)
    for (let c = 0; c < C; c++) {
      let s = p.b2[c]!;
      for (let j = 0; j < H; j++) s += h[i * H + j]! * p.w2[j * C + c]!;
      z[i * C + c] = s;
    }
  let loss = 0;
  const dz = new Float64Array(N * C); // (softmax − onehot)/N
  for (let i = 0; i < N; i++) {
    const row = z.subarray(i * C, (i + 1) * C);
    const m = Math.max(...row);
    const lse = m + Math.log(row.reduce((s, v) => s + Math.exp(v - m), 0));
    loss += (lse - row[y[i]!]!) / N;
    for (let c = 0; c < C; c++) dz[i * C + c] = (Math.exp(row[c]! - lse) - (c === y[i] ? 1 : 0)) / N;
  }
  const dw2 = new Float64Array(H * C),
    db2 = new Float64Array(C),
    dh = new Float64Array(N * H);
  const dw1 = new Float64Array(D * H),
    db1 = new Float64Array(H);
  for (let i = 0; i < N; i++)
    for (let c = 0; c < C; c++) {
      db2[c]! += dz[i * C + c]!;
      for (let j = 0; j < H; j++) {
        dw2[j * C + c]! += h[i * H + j]! * dz[i * C + c]!;
        dh[i * H + j]! += p.w2[j * C + c]! * dz[i * C + c]!;
      }
    }
  for (let i = 0; i < N; i++)
    for (let j = 0; j < H; j++) {
      const da = a[i * H + j]! > 0 ? dh[i * H + j]! : 0;
      db1[j]! += da;
      for (let k = 0; k < D; k++) dw1[k * H + j]! += x[i * D + k]! * da;
    }
  const upd = (w: Float64Array, g: Float64Array) => w.map((v, i) => v - LR * g[i]!);
  return { loss, next: { w1: upd(p.w1, dw1), b1: upd(p.b1, db1), w2: upd(p.w2, dw2), b2: upd(p.b2, db2) } };
}

test('a 2-layer MLP trained by SGD on ORT follows hand-derived float64 gradients step by step', () => {
  const rng = new Random(11);
  const x = Float64Array.from({ length: N * D }, () => Math.fround(rng.normal()));
  const y = Int32Array.from({ length: N }, () => rng.int(C));
  const init = (n: number) => Float64Array.from({ length: n }, () => Math.fround(0.6 * rng.normal()));
  let host: Params = { w1: init(D * H), b1: init(H), w2: init(H * C), b2: init(C) };

  const f32 = (...shape: number[]) => ({ dtype: 'float32', shape }) as const;
  const step = E.compile(
    E.trace(
      ({ x, y, w1, b1, w2, b2 }) => {
        const { loss } = E.softmaxCrossEntropy(x.matmul(w1).add(b1).relu().matmul(w2).add(b2), y);
        const grads = E.grad(loss, [w1, b1, w2, b2]);
        const [nw1, nb1, nw2, nb2] = [w1, b1, w2, b2].map((p, i) => p.sub(grads[i]!.mul(LR)));
        return { loss, w1: nw1!, b1: nb1!, w2: nw2!, b2: nb2! };
      },
      { x: f32(N, D), y: { dtype: 'int32', shape: [N] }, w1: f32(D, H), b1: f32(H), w2: f32(H, C), b2: f32(C) },
    ),
  );

  let ort: Record<'w1' | 'b1' | 'w2' | 'b2', Float32Array> = { w1: Float32Array.from(host.w1), b1: Float32Array.from(host.b1), w2: Float32Array.from(host.w2), b2: Float32Array.from(host.b2) };
  const losses: number[] = [];
  for (let k = 0; k < 5; k++) {
    const expected = handStep(host, x, y);
    const out = step.run({ x: Float32Array.from(x), y, ...ort });
    assert.ok(Math.abs((out.loss as Float32Array)[0]! - expected.loss) < 1e-5, `step ${k}: loss ${(out.loss as Float32Array)[0]} vs ${expected.loss}`);
    for (const name of ['w1', 'b1', 'w2', 'b2'] as const) {
      const got = out[name] as Float32Array;
      got.forEach((v, i) => assert.ok(Math.abs(v - expected.next[name][i]!) < 2e-5, `step ${k}: ${name}[${i}] ${v} vs ${expected.next[name][i]}`));
    }
    losses.push(expected.loss);
    host = expected.next;
    ort = { w1: out.w1 as Float32Array, b1: out.b1 as Float32Array, w2: out.w2 as Float32Array, b2: out.b2 as Float32Array };
  }
  assert.ok(losses[4]! < losses[0]!, `the loss decreases: ${losses.join(', ')}`);
  step.dispose();
});
