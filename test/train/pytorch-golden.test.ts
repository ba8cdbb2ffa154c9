/**
 * Small zoo models against PyTorch reference implementations (test/fixtures/scripts/make-nn-fixtures.py):
 * from the same deterministic initial parameters, two SGD-momentum training steps on ORT (float32) give
 * PyTorch's float64 losses and logits, inference logits after the steps agree (batch norm on the updated
 * running statistics), and so do the sums of every final parameter and buffer.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createModel, type Model, type ModelSpec } from '../../src/nn/index.js';
import { sgd } from '../../src/optim/index.js';
import { compileEvalStep, compileTrainStep, createTrainState, crossEntropy } from '../../src/train/index.js';

interface Golden {
  spec: ModelSpec;
  x: number[];
  y: number[];
  lr: number;
  losses: number[];
  trainLogits0: number[];
  evalLogits: number[];
  finalSums: Record<string, [number, number]>;
}
const fx = JSON.parse(readFileSync(new URL('../../../test/fixtures/nn/golden-steps.json', import.meta.url), 'utf8')) as Record<string, Golden | string>;

/** The fixture script's formula initialisation (see `formula_init` there). */
function formulaInit(model: Model, params: Float32Array, offsets: Map<string, number>): void {
  model.params.forEach((d, j) => {
    const n = d.shape.reduce((a, b) => a * b, 1);
    const off = offsets.get(d.path)!;
    const fanIn = d.shape.slice(1).reduce((a, b) => a * b, 1);
    for (let i = 0; i < n; i++) {
      const w = Math.sin(0.7 * i + 1.3 * j + 0.5);
      params[off + i] = Math.fround(d.shape.length >= 2 ? w / Math.sqrt(fanIn) : d.path.endsWith('weight') ? 1 + 0.1 * w : 0.1 * w);
    }
  });
}

function near(a: number, b: number, tol: number, what: string): void {
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b} (|Δ| ${Math.abs(a - b).toExponential(2)} > ${tol.toExponential(1)})`);
}

describe('zoo models reproduce PyTorch training steps', () => {
  for (const [name, g] of Object.entries(fx)) {
    if (typeof g === 'string') continue;
    it(`${name}: two SGD-momentum steps, then inference, match the PyTorch reference`, () => {
      const model = createModel(g.spec);
      const opt = sgd({ momentum: 0.9, weightDecay: 5e-4 });
      const n = g.y.length;
      const step = compileTrainStep(model, crossEntropy, opt, { batch: n, outputLogits: true });
      const state = createTrainState(model, opt, 0);
      formulaInit(model, state.params, new Map(step.layout.params.entries.map((e) => [e.name, e.offset])));
      const x = model.input.dtype === 'int32' ? Int32Array.from(g.x) : Float32Array.from(g.x);
      const y = Int32Array.from(g.y);
      const r0 = step.run(state, { x, y }, g.lr);
      near(r0.loss, g.losses[0]!, 1e-5 * (1 + g.losses[0]!), 'loss 1');
      r0.logits!.forEach((v, i) => near(v, g.trainLogits0[i]!, 1e-5 * (1 + Math.abs(g.trainLogits0[i]!)), `training logit ${i}`));
      const r1 = step.run(state, { x, y }, g.lr);
      near(r1.loss, g.losses[1]!, 1e-4 * (1 + g.losses[1]!), 'loss 2');
      const evalStep = compileEvalStep(model);
      const logits = evalStep.run(state, x).logits;
      logits.forEach((v, i) => near(v, g.evalLogits[i]!, 1e-4 * (1 + Math.abs(g.evalLogits[i]!)), `inference logit ${i}`));
      const views = { ...step.layout.params.views(state.params), ...step.layout.buffers.views(state.buffers) };
      const torchNames = Object.keys(g.finalSums);
      const ours = [...model.params, ...model.buffers].map((d) => d.path);
      // Same entries (PyTorch lists each module's parameters then buffers; compare as sets of sums by position
      // in our declaration order matched by name where the names agree, else by PyTorch's order).
      assert.equal(torchNames.length, ours.length);
      const byName = ours.every((p) => p in g.finalSums);
      const order = byName ? ours.map((p) => [p, p]) : pairByOrder(model, torchNames);
      for (const [mine, theirs] of order) {
        const v = views[mine!]!;
        let s = 0,
          s2 = 0;
        for (const e of v) {
          s += e;
          s2 += e * e;
        }
        const [rs, rs2] = g.finalSums[theirs!]!;
        near(s, rs, 2e-5 * (1 + Math.sqrt(v.length * rs2)), `sum of ${mine}`);
        near(s2, rs2, 2e-5 * (1 + rs2), `sum of squares of ${mine}`);
      }
      step.dispose();
      evalStep.dispose();
    });
  }
});

/** Pair our paths with PyTorch's state_dict names when the naming differs (MLP, VGG): parameters in order, buffers in order. */
function pairByOrder(model: Model, torchNames: readonly string[]): [string, string][] {
  const isBuffer = (n: string) => n.endsWith('running_mean') || n.endsWith('running_var');
  const tp = torchNames.filter((n) => !isBuffer(n)),
    tb = torchNames.filter(isBuffer);
  return [...model.params.map((d, i): [string, string] => [d.path, tp[i]!]), ...model.buffers.map((d, i): [string, string] => [d.path, tb[i]!])];
}
