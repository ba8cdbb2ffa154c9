import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeOnnx, encodeOnnx } from '../../src/deploy/onnx-file.js';
import { readNpy, writeNpy } from '../../src/io/npy.js';
import { Random } from '../../src/util/random.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';
import { buildClassifier, referenceLogits } from './classifiers.js';
import { runModel } from './runtimes.js';

/**
 * `calib export` of a `calib fit --multilabel` calibrator on an ONNX model with L independent sigmoid outputs: the
 * exported model's calibrated_probabilities (onnxruntime-node) equal `calib apply` on the model's own raw output
 * within 1e-6, for a logits head and a sigmoid head, per-label temperature, Platt, beta, isotonic and histogram;
 * mismatched heads and label counts are refused in one line.
 */

const dir = tempDir('multilabel-export');
const p = (name: string): string => join(dir, name);
const N = 300;
const L = 4;
const D = 6;

/** The same weights with a logits head ("logits") and with a final Sigmoid ("scores", probabilities). */
function models() {
  const c = buildClassifier({ sampleShape: [D], classes: L, scale: 1.5, seed: 5, inputName: 'x' });
  writeFileSync(p('logits-head.onnx'), c.bytes);
  const m = decodeOnnx(c.bytes, 'model');
  const g = m.graph!;
  g.node = [...g.node!.map((n) => (n.output?.[0] === 'logits' ? { ...n, output: ['pre_sigmoid'] } : n)), { input: ['pre_sigmoid'], output: ['sigmoid_out'], name: 'sigmoid', opType: 'Sigmoid' }];
  g.output = [{ ...g.output![0]!, name: 'scores' }];
  g.node.push({ input: ['sigmoid_out'], output: ['scores'], name: 'identity', opType: 'Identity' });
  writeFileSync(p('sigmoid-head.onnx'), encodeOnnx(m));
  const softmax = buildClassifier({ sampleShape: [D], classes: L, scale: 1.5, seed: 5, inputName: 'x', softmax: true });
  writeFileSync(p('softmax-head.onnx'), softmax.bytes);
  return c;
}

async function ok(argv: string[]): Promise<string> {
  const r = await run(argv);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

/** One line on stderr naming `arg`, exit code 2. */
function assertBadInput(r: { code: number; stderr: string }, arg: string, message: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.ok(r.stderr.includes(arg), r.stderr);
  assert.match(r.stderr, message);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
}

const setup = (async () => {
  const c = models();
  const rng = new Random(17);
  const x = Float32Array.from({ length: N * D }, () => rng.normal());
  for (let i = 0; i < 2 * D; i++) x[i] = x[i]! * 400; // two rows with logits of magnitude ~1e3 (σ exactly 0 or 1)
  const z = referenceLogits(c, x, N);
  const labels = Float64Array.from(z, (v) => (rng.uniform() < 1 / (1 + Math.exp(-v / 3)) ? 1 : 0)); // overconfident model
  await writeNpy(p('labels.npy'), labels, [N, L]);
  const logits = (await runModel('onnxruntime-node', c.bytes, 'x', x, [N, D]))['logits']!.data;
  const probs = (await runModel('onnxruntime-node', readFileSync(p('sigmoid-head.onnx')), 'x', x, [N, D]))['scores']!.data;
  await writeNpy(p('logits.npy'), Float64Array.from(logits), [N, L]);
  await writeNpy(p('probs.npy'), Float64Array.from(probs), [N, L]);
  assert.ok(
    probs.some((v) => v === 0 || v === 1),
    'the large rows saturate the sigmoid',
  );
  return { x };
})();

const cases: [head: 'logits' | 'sigmoid', fittedOn: 'logits' | 'probs', method: string][] = [
  ['logits', 'logits', 'temperature'],
  ['logits', 'logits', 'platt'],
  ['logits', 'logits', 'beta'],
  ['logits', 'logits', 'isotonic'],
  ['logits', 'logits', 'histogram'],
  ['sigmoid', 'probs', 'platt'],
  ['sigmoid', 'probs', 'isotonic'],
  ['sigmoid', 'probs', 'histogram'],
  ['sigmoid', 'logits', 'temperature'],
];

for (const [head, fittedOn, method] of cases) {
  test(`export multilabel ${method} fitted on ${fittedOn} onto a ${head} head: onnxruntime-node output equals calib apply within 1e-6`, async (t) => {
    const { x } = await setup;
    const name = `${head}-${fittedOn}-${method}`;
    const input = fittedOn === 'logits' ? ['--logits', p('logits.npy')] : ['--probs', p('probs.npy')];
    await ok(['fit', '--multilabel', '--method', method, ...input, '--labels', p('labels.npy'), '--out', p(`${name}.json`)]);
    const out = await ok(['export', '--model', p(`${head}-head.onnx`), '--calibrator', p(`${name}.json`), '--out', p(`${name}.onnx`), '--keep-outputs']);
    assert.match(out, new RegExp(`exported multilabel ${method} \\(${L} labels\\)`));
    if (head === 'sigmoid' && fittedOn === 'logits') assert.match(out, /"pre_sigmoid" \(the logits before the Sigmoid of "scores"\)/);
    const result = await runModel('onnxruntime-node', readFileSync(p(`${name}.onnx`)), 'x', x, [N, D]);
    const calibrated = result['calibrated_probabilities']!;
    assert.deepEqual(calibrated.dims, [N, L]);
    await ok(['apply', '--calibrator', p(`${name}.json`), ...input, '--out', p(`${name}-applied.npy`), '--dtype', 'float64']);
    const applied = (await readNpy(p(`${name}-applied.npy`))).data as Float64Array;
    const d = maxAbsDiff(calibrated.data, applied);
    t.diagnostic(`max |Δp| = ${d.toExponential(2)}`);
    assert.ok(d <= 1e-6, `max |Δp| = ${d}`);
    // The calibrator changed something (the comparison is not between two copies of the raw output).
    const raw = head === 'sigmoid' ? result['scores']!.data : Float64Array.from(result['logits']!.data, (v) => 1 / (1 + Math.exp(-v)));
    assert.ok(maxAbsDiff(raw, applied) > 1e-3);
  });
}

test('calib export of a multi-label calibrator refuses a Softmax head, probabilities on a logits head and a wrong label count', async () => {
  await setup;
  await ok(['fit', '--multilabel', '--method', 'platt', '--probs', p('probs.npy'), '--labels', p('labels.npy'), '--out', p('probs-platt.json')]);
  await ok(['fit', '--multilabel', '--method', 'temperature', '--logits', p('logits.npy'), '--labels', p('labels.npy'), '--out', p('logits-ts.json')]);
  const exportTo = (model: string, calibrator: string) => run(['export', '--model', p(model), '--calibrator', p(calibrator), '--out', p('refused.onnx')]);
  assertBadInput(await exportTo('softmax-head.onnx', 'logits-ts.json'), '--model', /produced by a Softmax/);
  assertBadInput(await exportTo('logits-head.onnx', 'probs-platt.json'), '--calibrator', /fitted on logits .* which has no final Sigmoid/);
  const three = buildClassifier({ sampleShape: [D], classes: 3, seed: 5, inputName: 'x' });
  writeFileSync(p('three.onnx'), three.bytes);
  assertBadInput(await exportTo('three.onnx', 'logits-ts.json'), '--calibrator', /for the model's 3 labels .* fitted for 4 labels/);
  assert.throws(() => readFileSync(p('refused.onnx')));
});
