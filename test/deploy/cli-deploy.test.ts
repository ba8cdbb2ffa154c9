import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import jpeg from 'jpeg-js';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { readNpy, writeNpy } from '../../src/io/npy.js';
import { calibratorFromJSON, fitCalibrator } from '../../src/posthoc/index.js';
import { Random } from '../../src/util/random.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';
import { buildClassifier, referenceLogits, type Classifier } from './classifiers.js';
import { runModel } from './runtimes.js';

const dir = tempDir('deploy-cli');
const p = (name: string): string => join(dir, name);

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

function samples(n: number, shape: number[], seed: number): Float32Array {
  const rng = new Random(seed);
  return Float32Array.from({ length: n * shape.reduce((a, b) => a * b, 1) }, () => rng.normal());
}

/** A temperature calibrator for C classes, fitted on synthetic overconfident logits. */
function temperatureFor(classes: number) {
  const set = syntheticOverconfident({ n: 200, classes, seed: 1 });
  return fitCalibrator('temperature', { logits: { rows: 200, cols: classes, data: set.logits } }, set.labels);
}

async function save(name: string, c: Classifier): Promise<string> {
  writeFileSync(p(name), c.bytes);
  return p(name);
}

/** One line on stderr naming `arg`, exit code 2. */
function assertBadInput(r: { code: number; stderr: string }, arg: string): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, new RegExp(arg.replace(/[-]/g, '\\-')));
  assert.doesNotMatch(r.stderr, /\n\s+at /);
}

test('calib predict runs a tf2onnx-style model (NHWC input "serving_default_x:0", fixed batch 8, opset 18) in padded batches', async () => {
  const c = buildClassifier({ sampleShape: [4, 4, 3], layout: 'nhwc', classes: 5, batch: 8, opset: 18, inputName: 'serving_default_x:0', outputName: 'Identity:0', seed: 4 });
  const model = await save('nhwc.onnx', c);
  const x = samples(21, [4, 4, 3], 1);
  await writeNpy(p('nhwc-x.npy'), x, [21, 4, 4, 3]);
  const r = await run(['predict', '--model', model, '--inputs', p('nhwc-x.npy'), '--out', p('nhwc-logits.npy')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /21 × 5 logits \(input "serving_default_x:0", output "Identity:0", batch 8\)/);
  assert.match(r.stderr, /predict \[#+\] 21\/21/);
  const out = await readNpy(p('nhwc-logits.npy'));
  assert.deepEqual(out.shape, [21, 5]);
  assert.ok(maxAbsDiff(out.data as Float32Array, referenceLogits(c, x, 21)) < 1e-4);
});

test('calib predict on a PyTorch-style model (input "input.1", opset 13, final Softmax) says it outputs probabilities', async () => {
  const c = buildClassifier({ sampleShape: [2, 3, 3], classes: 3, opset: 13, inputName: 'input.1', outputName: 'output', softmax: true, seed: 5 });
  const model = await save('softmax.onnx', c);
  const x = samples(10, [2, 3, 3], 2);
  await writeNpy(p('softmax-x.npy'), x, [10, 2, 3, 3]);
  const r = await run(['predict', '--model', model, '--inputs', p('softmax-x.npy'), '--out', p('softmax-probs.npy'), '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /produced by a Softmax, so it gives probabilities, not logits/);
  assert.match(r.stdout, /10 × 3 probabilities/);
  const probs = (await readNpy(p('softmax-probs.npy'))).data as Float32Array;
  for (let i = 0; i < 10; i++) assert.ok(Math.abs(probs[3 * i]! + probs[3 * i + 1]! + probs[3 * i + 2]! - 1) < 1e-6);
  writeFileSync(p('ts-3.json'), JSON.stringify(temperatureFor(3).toJSON()));
  const e = await run(['export', '--model', model, '--calibrator', p('ts-3.json'), '--out', p('softmax-cal.onnx')]);
  assert.equal(e.code, 0, e.stderr);
  assert.match(e.stderr, /produced by a Softmax/);
  assert.match(e.stdout, /on "output" \(probabilities\)/);
});

test('measure, fit, ship: calib predict → fit → export gives a model whose probabilities equal calib apply (ORT-node and ORT-web)', async () => {
  const c = buildClassifier({ sampleShape: [8], classes: 4, inputName: 'features', scale: 2, seed: 6 });
  const model = await save('mlp.onnx', c);
  const n = 300;
  const x = samples(n, [8], 3);
  await writeNpy(p('mlp-x.npy'), x, [n, 8]);
  const z = referenceLogits(c, x, n);
  const rng = new Random(8);
  const labels = Int32Array.from({ length: n }, (_, i) => {
    // labels from softmax(z / 4): the model is overconfident.
    const w = [0, 1, 2, 3].map((k) => Math.exp(z[i * 4 + k]! / 4));
    let u = rng.uniform() * w.reduce((a, b) => a + b, 0);
    let k = 0;
    while (k < 3 && (u -= w[k]!) > 0) k++;
    return k;
  });
  await writeNpy(p('mlp-y.npy'), labels, [n]);
  const measured = await run(['eval', '--model', model, '--inputs', p('mlp-x.npy'), '--labels', p('mlp-y.npy'), '--json']);
  assert.equal(measured.code, 0, measured.stderr);
  const metrics = JSON.parse(measured.stdout);
  assert.equal(metrics.n, n);
  assert.ok(metrics.ece > 0.05, `ECE ${metrics.ece}`);
  assert.equal((await run(['predict', '--model', model, '--inputs', p('mlp-x.npy'), '--out', p('mlp-z.npy'), '--quiet'])).code, 0);
  const fit = await run(['fit', '--method', 'temperature', '--logits', p('mlp-z.npy'), '--labels', p('mlp-y.npy'), '--out', p('ts.json')]);
  assert.equal(fit.code, 0, fit.stderr);
  const ship = await run(['export', '--model', model, '--calibrator', p('ts.json'), '--out', p('mlp-cal.onnx')]);
  assert.equal(ship.code, 0, ship.stderr);
  assert.match(ship.stdout, /exported temperature on "logits" \(logits\) -> .*\(outputs "calibrated_probabilities", "calibrated_logits"\)/);
  assert.equal((await run(['apply', '--calibrator', p('ts.json'), '--logits', p('mlp-z.npy'), '--out', p('mlp-p.npy'), '--dtype', 'float64'])).code, 0);
  const applied = (await readNpy(p('mlp-p.npy'))).data as Float64Array;
  const exported = new Uint8Array(readFileSync(p('mlp-cal.onnx')));
  for (const runtime of ['onnxruntime-node', 'onnxruntime-web'] as const) {
    const out = await runModel(runtime, exported, 'features', x, [n, 8]);
    assert.deepEqual(Object.keys(out).sort(), ['calibrated_logits', 'calibrated_probabilities']);
    assert.ok(maxAbsDiff(out['calibrated_probabilities']!.data, applied) <= 1e-6, runtime);
  }
  const after = await run(['eval', '--model', p('mlp-cal.onnx'), '--output-name', 'calibrated_logits', '--inputs', p('mlp-x.npy'), '--labels', p('mlp-y.npy'), '--json']);
  assert.equal(after.code, 0, after.stderr);
  assert.ok(JSON.parse(after.stdout).nll < metrics.nll);
  // --keep-outputs keeps the original output beside the calibrated ones.
  assert.equal((await run(['export', '--model', model, '--calibrator', p('ts.json'), '--out', p('mlp-keep.onnx'), '--keep-outputs'])).code, 0);
  const kept = await runModel('onnxruntime-node', new Uint8Array(readFileSync(p('mlp-keep.onnx'))), 'features', x, [n, 8]);
  assert.deepEqual(Object.keys(kept).sort(), ['calibrated_logits', 'calibrated_probabilities', 'logits']);
  assert.equal(calibratorFromJSON(JSON.parse(readFileSync(p('ts.json'), 'utf8'))).kind, 'temperature');
});

test('calib predict --images reads a class-per-folder tree of PNG and JPEG files (labels from folder names)', async () => {
  const c = buildClassifier({ sampleShape: [3, 4, 4], classes: 2, seed: 7 });
  const model = await save('img.onnx', c);
  const root = p('images');
  const pixels: number[][] = [];
  for (const [k, cls] of ['cat', 'dog'].entries()) {
    mkdirSync(join(root, cls), { recursive: true });
    for (let j = 0; j < 2; j++) {
      const png = new PNG({ width: 4, height: 4 });
      const rgb = [(40 + 60 * k + 20 * j) % 256, (200 - 50 * k) % 256, 17 * (j + 1)];
      for (let q = 0; q < 16; q++) png.data.set([rgb[0]!, rgb[1]!, rgb[2]!, 255], 4 * q);
      writeFileSync(join(root, cls, `${j}.png`), PNG.sync.write(png));
      pixels.push(rgb);
    }
  }
  const r = await run(['predict', '--model', model, '--images', root, '--out', p('img-z.npy'), '--labels-out', p('img-y.npy'), '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  const labels = (await readNpy(p('img-y.npy'))).data;
  assert.deepEqual(Array.from(labels), [0, 0, 1, 1]);
  const x = new Float32Array(4 * 48);
  pixels.forEach((rgb, i) => rgb.forEach((v, ch) => x.fill(v / 255, i * 48 + ch * 16, i * 48 + (ch + 1) * 16)));
  assert.ok(maxAbsDiff((await readNpy(p('img-z.npy'))).data as Float32Array, referenceLogits(c, x, 4)) < 1e-4);
  // A JPEG, resized from 8×8 to the model's 4×4, normalised with --mean/--std: a constant image stays constant.
  const flat = join(root, '..', 'flat');
  mkdirSync(flat, { recursive: true });
  const rgba = Buffer.alloc(8 * 8 * 4);
  for (let q = 0; q < 64; q++) rgba.set([128, 128, 128, 255], 4 * q);
  writeFileSync(join(flat, 'a.jpg'), jpeg.encode({ data: rgba, width: 8, height: 8 }, 100).data);
  const j = await run(['predict', '--model', model, '--images', flat, '--mean', '0.5', '--std', '0.25', '--out', p('jpg-z.npy'), '--quiet']);
  assert.equal(j.code, 0, j.stderr);
  const decoded = jpeg.decode(readFileSync(join(flat, 'a.jpg')), { useTArray: true });
  const gray = Float32Array.from({ length: 48 }, (_, q) => (decoded.data[(q % 16) * 4 + Math.floor(q / 16)]! / 255 - 0.5) / 0.25);
  assert.ok(maxAbsDiff((await readNpy(p('jpg-z.npy'))).data as Float32Array, referenceLogits(c, gray, 1)) < 1e-3);
});

test('calib predict --dataset mnist --split val feeds the embedded digits to a [N, 1, 28, 28] model', async () => {
  const c = buildClassifier({ sampleShape: [1, 28, 28], classes: 10, seed: 9, scale: 0.05 });
  const model = await save('mnist.onnx', c);
  const r = await run(['predict', '--model', model, '--dataset', 'mnist', '--split', 'val', '--out', p('mnist-z.npy'), '--labels-out', p('mnist-y.npy'), '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  const z = await readNpy(p('mnist-z.npy'));
  const y = await readNpy(p('mnist-y.npy'));
  assert.equal(z.shape[1], 10);
  assert.equal(z.shape[0], y.shape[0]);
  assert.ok(z.shape[0]! > 100);
});

test('bad input: not ONNX, truncated, no [N, C] float output, classes ≠ calibrator, samples of the wrong shape — one line, exit 2', async () => {
  const c = buildClassifier({ sampleShape: [6], classes: 3, seed: 10 });
  const model = await save('bad-base.onnx', c);
  await writeNpy(p('bad-x.npy'), samples(4, [6], 4), [4, 6]);
  writeFileSync(p('text.onnx'), 'this is not a model\n');
  assertBadInput(await run(['predict', '--model', p('text.onnx'), '--inputs', p('bad-x.npy'), '--out', p('o.npy')]), '--model');
  writeFileSync(p('truncated.onnx'), c.bytes.subarray(0, Math.floor(c.bytes.length / 2)));
  const t = await run(['export', '--model', p('truncated.onnx'), '--calibrator', p('ts.json'), '--out', p('o.onnx')]);
  assertBadInput(t, '--model');
  assert.match(t.stderr, /truncated/);
  // An image-to-image model: output [N, 6] float is fine, so use a 3-D output.
  const bad = buildClassifier({ sampleShape: [6], classes: 3, seed: 10 });
  const decoded = (await import('../../src/deploy/onnx-file.js')).decodeOnnx(bad.bytes, 'x');
  decoded.graph!.output![0]!.type!.tensorType!.shape!.dim!.push({ dimValue: 1 });
  writeFileSync(p('rank3.onnx'), (await import('../../src/deploy/onnx-file.js')).encodeOnnx(decoded));
  const r3 = await run(['predict', '--model', p('rank3.onnx'), '--inputs', p('bad-x.npy'), '--out', p('o.npy')]);
  assertBadInput(r3, '--model');
  assert.match(r3.stderr, /float output of shape \[N, C\]/);
  await writeNpy(p('wrong-x.npy'), samples(4, [5], 4), [4, 5]);
  const shape = await run(['predict', '--model', model, '--inputs', p('wrong-x.npy'), '--out', p('o.npy')]);
  assertBadInput(shape, '--inputs');
  assert.match(shape.stderr, /samples of shape \[6\].*samples of shape \[5\]/);
  writeFileSync(p('ts4.json'), JSON.stringify(temperatureFor(4).toJSON()));
  const mm = await run(['export', '--model', model, '--calibrator', p('ts4.json'), '--out', p('o.onnx')]);
  assertBadInput(mm, '--calibrator');
  assert.match(mm.stderr, /3 classes.*fitted for 4 classes/);
  const several = await run(['predict', '--model', model, '--inputs', p('bad-x.npy'), '--output-name', 'nope', '--out', p('o.npy')]);
  assertBadInput(several, '--output-name');
});
