import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../src/engine/index.js';

const f32 = (...shape: number[]) => ({ dtype: 'float32', shape }) as const;

test('log-softmax, softmax, log-sum-exp and cross-entropy stay finite and exact for logits of ±1e3', () => {
  const z = Float32Array.of(1000, -1000, 0, /**/ -1000, -1000, -999, /**/ 1000, 1000, -1000);
  const y = Int32Array.of(1, 2, 0);
  const g = E.trace(
    ({ z, y }) => {
      const ce = E.softmaxCrossEntropy(z, y, { reduction: 'none' });
      const mean = E.softmaxCrossEntropy(z, y).loss;
      const [dz] = E.grad(mean, [z]);
      const lse = z.logSumExp(1);
      const [dlse] = E.grad(lse.sum(), [z]);
      return { ce: ce.loss, lp: z.logSoftmax(1), p: z.softmax(1), lse, dz: dz!, dlse: dlse! };
    },
    { z: f32(3, 3), y: { dtype: 'int32', shape: [3] } },
  );
  const out = E.compile(g).run({ z, y });
  for (const [name, v] of Object.entries(out)) for (const x of v as Float32Array) assert.ok(Number.isFinite(x), `${name} has ${x}`);
  const ln2 = Math.log(2);
  // Row 0: p = [1, 0, 0] (to float32), CE of label 1 = 2000. Row 1: CE of label 2 = log(1 + 2e^-1). Row 2: ln 2.
  const ce = out.ce as Float32Array;
  assert.ok(Math.abs(ce[0]! - 2000) < 1e-3);
  assert.ok(Math.abs(ce[1]! - Math.log(1 + 2 * Math.exp(-1))) < 1e-6);
  assert.ok(Math.abs(ce[2]! - ln2) < 1e-6);
  const lse = out.lse as Float32Array;
  assert.ok(Math.abs(lse[0]! - 1000) < 1e-3 && Math.abs(lse[1]! - (-999 + Math.log(1 + 2 * Math.exp(-1)))) < 1e-3 && Math.abs(lse[2]! - (1000 + ln2)) < 1e-3);
  const p = out.p as Float32Array;
  assert.equal(p[0], 1);
  assert.equal(p[1], 0);
  // dz = (p − onehot)/N: row 0 → [1, −1, 0]/3.
  const dz = out.dz as Float32Array;
  assert.ok(Math.abs(dz[0]! - 1 / 3) < 1e-6 && Math.abs(dz[1]! + 1 / 3) < 1e-6 && dz[2] === 0);
});

test('sigmoid, tanh and exp saturate without NaN at ±1e3, and their gradients are finite', () => {
  const x = Float32Array.of(-1000, -30, 0, 30, 1000);
  const g = E.trace(
    ({ x }) => {
      const s = x.sigmoid(),
        t = x.tanh(),
        ls = E.logSigmoid(x);
      const [ds] = E.grad(s.sum(), [x]);
      const [dt] = E.grad(t.sum(), [x]);
      const [dls] = E.grad(ls.sum(), [x]);
      return { s, t, ls, ds: ds!, dt: dt!, dls: dls! };
    },
    { x: f32(5) },
  );
  const out = E.compile(g).run({ x });
  for (const [name, v] of Object.entries(out)) for (const y of v as Float32Array) assert.ok(Number.isFinite(y), `${name}: ${y}`);
  assert.deepEqual(
    Array.from(out.s as Float32Array).map((v) => Math.round(v * 2) / 2),
    [0, 0, 0.5, 1, 1],
  );
  // log σ(x): −1000, ≈ −30, −ln 2, ≈ 0, 0; its gradient σ(−x): 1, ≈1, ½, ≈0, 0.
  const ls = out.ls as Float32Array;
  assert.ok(Math.abs(ls[0]! + 1000) < 1e-3 && Math.abs(ls[2]! + Math.LN2) < 1e-6 && Math.abs(ls[4]!) < 1e-6);
  assert.deepEqual(
    Array.from(out.dls as Float32Array).map((v) => Math.round(v * 2) / 2),
    [1, 1, 0.5, 0, 0],
  );
  // The reference sigmoid is stable too.
  const ref = E.evaluate(g, { x });
  assert.deepEqual(
    Array.from(ref.s!.data).map((v) => Math.round(v * 2) / 2),
    [0, 0, 0.5, 1, 1],
  );
});

test('probabilities of exactly 0 and 1 give finite losses and gradients when clamped before the log', () => {
  // p log p style terms: clip(p, 1e-7, 1) keeps log finite; the clamp passes zero gradient outside its range.
  const p = Float32Array.of(0, 1, 0.5, 0);
  const g = E.trace(
    ({ p }) => {
      const l = p.clip(1e-7, 1).log().mul(p).sum().neg();
      const [dp] = E.grad(l, [p]);
      return { l, dp: dp! };
    },
    { p: f32(4) },
  );
  const out = E.compile(g).run({ p });
  assert.ok(Number.isFinite((out.l as Float32Array)[0]!));
  for (const v of out.dp as Float32Array) assert.ok(Number.isFinite(v));
  const ref = E.evaluate(g, { p });
  assert.ok(Math.abs((out.l as Float32Array)[0]! - ref.l!.data[0]!) < 1e-6);
});
