import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendCalibrator } from '../../src/deploy/append-calibrator.js';
import { decodeOnnx, encodeOnnx } from '../../src/deploy/onnx-file.js';
import { CALIBRATOR_KINDS, fitCalibrator, type Calibrator, type CalibratorKind, type Predictions } from '../../src/posthoc/index.js';
import { Random } from '../../src/util/random.js';
import { calibratorToOnnx, onnxExportableKinds } from '../../src/posthoc/onnx/index.js';
import { buildClassifier, referenceLogits, type ClassifierSpec } from './classifiers.js';
import { runModel, type RuntimeName } from './runtimes.js';

/**
 * For every calibrator kind, on the logits (or, behind a final Softmax, the probabilities) of a small classifier:
 * the exported model's calibrated_probabilities equal `calibrator.apply` on the model's own raw output (kept with
 * keepOutputs) within 1e-6, through onnxruntime-node and onnxruntime-web (WASM); calibrated_logits likewise where
 * the calibrator has them. The max |difference| of each is reported as a test diagnostic.
 */

const TOLERANCE = 1e-6;
const N = 400;

/** Inputs and labels drawn so that the model is overconfident: y ~ softmax(z / 3) of its own float64 logits. */
function dataset(spec: ClassifierSpec, seed: number) {
  const model = buildClassifier(spec);
  const rng = new Random(seed);
  const D = spec.sampleShape.reduce((a, b) => a * b, 1);
  const x = Float32Array.from({ length: N * D }, () => rng.normal());
  for (let i = 0; i < 3 * D; i++) x[i] = x[i]! * 400; // three rows with logits of magnitude ~1e3
  const z = referenceLogits(model, x, N);
  const C = spec.classes;
  const labels = new Int32Array(N);
  for (let i = 0; i < N; i++) {
    const w = Array.from({ length: C }, (_, k) => Math.exp(z[i * C + k]! / 3));
    let u = rng.uniform() * w.reduce((a, b) => a + b, 0);
    let k = 0;
    while (k < C - 1 && (u -= w[k]!) > 0) k++;
    labels[i] = k;
  }
  return { model, x, labels, D };
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

const FIT_OPTIONS: Partial<Record<CalibratorKind, object>> = { 'ts-sb-ece': {}, 'ts-hb-ece': {} };

for (const softmax of [false, true]) {
  // Every exportable kind with its default options; the step-ensemble methods also with 2 classes (their class-1
  // path) and mode=top-label, top-versus-all with each of its binary maps.
  const cases: [CalibratorKind, number, object, string][] = [];
  for (const kind of onnxExportableKinds()) {
    cases.push([kind, kind === 'platt' || kind === 'beta' || kind === 'quadratic-scaling' ? 2 : 4, FIT_OPTIONS[kind] ?? {}, '']);
    if (['bbq', 'enir', 'near-isotonic'].includes(kind)) {
      cases.push([kind, 2, {}, ' (2 classes)'], [kind, 4, { mode: 'top-label' }, ' (mode=top-label)']);
    }
  }
  cases.push(['top-versus-all', 4, { binary: 'histogram' }, ' (binary=histogram)'], ['top-versus-all', 4, { binary: 'platt' }, ' (binary=platt)']);
  cases.push(['scaling-binning', 4, { mode: 'top-label' }, ' (mode=top-label)'], ['spline', 4, { runout: 'parabolic' }, ' (runout=parabolic)']);
  cases.push(['venn-abers', 4, { mode: 'one-vs-rest' }, ' (mode=one-vs-rest)'], ['venn-abers', 2, {}, ' (2 classes)']);
  cases.push(['top-label', 4, { binary: 'isotonic', pointsPerBin: 20 }, ' (binary=isotonic)'], ['top-label', 4, { binary: 'platt' }, ' (binary=platt)']);
  for (const [kind, classes, options, variant] of cases) {
    {
      const spec: ClassifierSpec = { sampleShape: [6], classes, softmax, scale: 1.5, seed: 3, inputName: 'x' };
      test(`export ${kind}${variant}${softmax ? ' (model ends in Softmax)' : ''}: exported probabilities equal calib apply within 1e-6 in onnxruntime-node and onnxruntime-web`, async (t) => {
        const { model, x, labels, D } = dataset(spec, 11);
        const raw = await runModel('onnxruntime-node', model.bytes, 'x', x, [N, D]);
        const out = raw['logits']!.data;
        const asPredictions = (m: Float32Array): Predictions => {
          const matrix = { rows: m.length / spec.classes, cols: spec.classes, data: m };
          return softmax ? { probabilities: matrix } : { logits: matrix };
        };
        const half = (N / 2) * spec.classes;
        const calibrator: Calibrator = fitCalibrator(kind, asPredictions(out.slice(0, half)), labels.slice(0, N / 2), options as never);
        const decoded = decodeOnnx(model.bytes, 'model');
        const appended = appendCalibrator(decoded, calibrator, { keepOutputs: true });
        assert.equal(appended.sourceKind, softmax ? 'probabilities' : 'logits');
        const exported = encodeOnnx(appended.model);
        for (const runtime of ['onnxruntime-node', 'onnxruntime-web'] as RuntimeName[]) {
          const result = await runModel(runtime, exported, 'x', x, [N, D]);
          const own = result['logits']!.data;
          const expected = calibrator.apply(asPredictions(own));
          const probs = result['calibrated_probabilities']!;
          assert.deepEqual(probs.dims, [N, spec.classes]);
          // Venn–Abers jumps at each calibration score (p0 at #{x ≤ s}, p1 at #{x < s}): on the fitting rows
          // themselves a one-ulp difference between ONNX Runtime's softmax and ours moves a score across its own
          // calibration score. It is compared on the held-out rows (any score not within an ulp of a calibration score).
          const from = kind === 'venn-abers' ? half : 0;
          const dp = maxAbsDiff(probs.data.subarray(from), expected.data.subarray(from));
          let message = `${runtime} ${kind}${variant}${softmax ? ' softmax-output' : ''}: max |Δp| = ${dp.toExponential(2)}`;
          assert.ok(dp <= TOLERANCE, message);
          if (calibrator.applyLogits) {
            const dz = maxAbsDiff(
              result['calibrated_logits']!.data,
              calibrator.applyLogits(asPredictions(own)).data.map((v) => Math.fround(v)),
            );
            message += `, max |Δlogit| = ${dz.toExponential(2)}`;
            assert.ok(dz <= 1e-5, message);
          } else {
            assert.equal(result['calibrated_logits'], undefined);
          }
          t.diagnostic(message);
        }
      });
    }
  }
}

test('every calibrator kind is exportable, and a calibrator of an unknown kind is refused in one line naming it', () => {
  assert.deepEqual([...onnxExportableKinds()].sort(), [...CALIBRATOR_KINDS].sort());
  const unknown = {
    kind: 'no-such-kind',
    classes: 3,
    apply: () => {
      throw new Error('unused');
    },
    toJSON: () => ({}),
  } as unknown as Calibrator;
  assert.throws(() => calibratorToOnnx(unknown, { name: 'z', kind: 'logits' }, 'c_', '--calibrator'), /--calibrator\.kind: expected one of temperature, .*, got "no-such-kind"/);
});
