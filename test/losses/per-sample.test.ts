import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateLoss } from '../../src/losses/evaluate-loss.js';

// Three rows of C = 3 logits; the expected values follow METHODS.md § Secondary terms by hand.
const LOGITS = { data: [3, 0, 1, 0.5, 0, 0.2, 0, 2, -1], shape: [3, 3] };
const LABELS = { data: [0, 2, 1], shape: [3] };
const ROWS = [
  [3, 0, 1],
  [0.5, 0, 0.2],
  [0, 2, -1],
];
const ce = (z: number[], y: number): number => Math.log(z.reduce((s, v) => s + Math.exp(v), 0)) - z[y]!;
const close = (got: ArrayLike<number>, want: readonly number[], tol: number, what: string): void => {
  assert.equal(got.length, want.length, what);
  for (let i = 0; i < want.length; i++) assert.ok(Math.abs(got[i]! - want[i]!) <= tol, `${what}[${i}]: ${got[i]} vs ${want[i]}`);
};

test('ACLS per-sample regulariser α·(λ1 ReLU(z_ŷ − m)² + λ2 Σ_{j≠ŷ} ReLU(z_ŷ − z_j − m)²/(C − 1)) by hand', () => {
  // m = 1, α = 0.1, λ1 = 1, λ2 = 0.1:
  //   row 0 (max 3): pos (3−1)² = 4; neg ((3−0−1)² + (3−1−1)²)/2 = 2.5; reg 4 + 0.25 = 4.25 → R = 0.425
  //   row 1 (max 0.5 < m): every hinge is 0 → R = 0 (the regulariser is inactive)
  //   row 2 (max 2): pos 1; neg ((2−0−1)² + (2+1−1)²)/2 = 2.5; reg 1.25 → R = 0.125
  const options = { margin: 1, alpha: 0.1, lambda1: 1, lambda2: 0.1 };
  const R = [0.425, 0, 0.125];
  const reg = evaluateLoss({ logits: LOGITS, labels: LABELS }, { name: 'acls', options, perSample: 'regulariser', dtype: 'float64' });
  close(reg.perSample!, R, 1e-12, 'regulariser');
  assert.equal(reg.perSample![1], 0, 'exactly 0 where inactive');
  close(evaluateLoss({ logits: LOGITS, labels: LABELS }, { name: 'acls', options, perSample: 'reg', dtype: 'float64' }).perSample!, [4.25, 0, 1.25], 1e-12, 'term reg (unweighted)');
  close(evaluateLoss({ logits: LOGITS, labels: LABELS }, { name: 'acls', options, perSample: 'positive', dtype: 'float64' }).perSample!, [4, 0, 1], 1e-12, 'term positive');
  const loss = evaluateLoss({ logits: LOGITS, labels: LABELS }, { name: 'acls', options, perSample: 'loss', dtype: 'float64' });
  const want = ROWS.map((z, i) => ce(z, LABELS.data[i]!) + R[i]!);
  close(loss.perSample!, want, 1e-12, 'loss = CE + R');
  assert.ok(Math.abs(loss.loss - want.reduce((a, b) => a + b, 0) / 3) < 1e-12, 'their mean is the loss');
  const f32 = evaluateLoss({ logits: LOGITS, labels: LABELS }, { name: 'acls', options, perSample: 'regulariser' });
  close(f32.perSample!, R, 1e-6, 'float32');
});

test('MbLS per-sample regulariser α·Σ_j ReLU(max z − z_j − m)/C; ignored rows are 0; dense logits give [N, H]', () => {
  // m = 1, α = 0.1: row 0 distances 0, 3, 2 → (0 + 2 + 1)/3 = 1 → 0.1; row 1: 0; row 2 distances 2, 0, 3 → (1 + 0 + 2)/3 → 0.1
  const r = evaluateLoss(
    { logits: LOGITS, labels: { data: [0, 255, 1], shape: [3] } },
    { name: 'mbls', options: { margin: 1, alpha: 0.1 }, perSample: 'regulariser', ignoreIndex: 255, dtype: 'float64' },
  );
  close(r.perSample!, [0.1, 0, 0.1], 1e-12, 'mbls');
  // Dense [1, 3, 3] (class axis 1): the rows are the 3 positions, in row-major (n, h) order.
  const dense = { data: [3, 0.5, 0, 0, 0, 2, 1, 0.2, -1], shape: [1, 3, 3] };
  const d = evaluateLoss({ logits: dense, labels: { data: [0, 2, 1], shape: [1, 3] } }, { name: 'mbls', options: { margin: 1, alpha: 0.1 }, perSample: 'regulariser', dtype: 'float64' });
  close(d.perSample!, [0.1, 0, 0.1], 1e-12, 'dense');
});

test('perSample errors: an unknown quantity names the choices; batch-level losses and primary + term are refused', () => {
  const base = { logits: LOGITS, labels: LABELS };
  assert.throws(() => evaluateLoss(base, { name: 'acls', perSample: 'nope' }), /perSample: expected 'loss', 'regulariser' or a term of acls \(ce, reg, positive, negative\), got "nope"/);
  // Names of Object.prototype members are not terms (they used to reach the graph builder as functions).
  for (const name of ['constructor', 'toString', '__proto__']) {
    assert.throws(() => evaluateLoss(base, { name: 'acls', perSample: name }), /perSample: expected 'loss', 'regulariser' or a term of acls/, name);
  }
  assert.throws(() => evaluateLoss(base, { name: 'ls', perSample: 'regulariser' }), /perSample: expected 'loss' or a term of ls \(ce, smoothing\)/);
  assert.throws(() => evaluateLoss(base, { name: 'mdca', perSample: 'loss' }), /perSample: expected a per-example loss \(mdca is batch-level/);
  assert.throws(() => evaluateLoss(base, { name: 'mmce', primary: { name: 'ce' }, perSample: 'loss' }), /perSample: expected a loss evaluated alone/);
});
