/**
 * Small ONNX classifiers written the way other producers write them, for the deploy tests: a named input
 * (e.g. "input.1" as PyTorch, "serving_default_x:0" as tf2onnx), NCHW or NHWC images (NHWC models start with a
 * Transpose, as tf2onnx/Keras exports), a dynamic or fixed batch, opset 13 or 18, optionally a final Softmax.
 * The network is Flatten → Gemm-free MatMul + Add (fixed seeded weights), so the expected logits are computed
 * here in float64 independently of ONNX Runtime.
 */
import { encodeOnnx, type OnnxModelProto } from '../../src/deploy/onnx-file.js';
import { Random } from '../../src/util/random.js';

export interface ClassifierSpec {
  readonly inputName?: string;
  readonly outputName?: string;
  /** Per-sample input shape: [C, H, W] (nchw), [H, W, C] (nhwc) or [D] (flat). */
  readonly sampleShape: readonly number[];
  readonly layout?: 'nchw' | 'nhwc' | 'flat';
  readonly classes: number;
  /** A fixed batch size, or 'dynamic' (default). */
  readonly batch?: number | 'dynamic';
  readonly opset?: number;
  readonly softmax?: boolean;
  readonly seed?: number;
  readonly producer?: string;
  /** Scale of the weights (larger → more confident logits). */
  readonly scale?: number;
}

export interface Classifier {
  readonly bytes: Uint8Array;
  /** W (D × C, row-major over the NCHW-flattened features) and b (C). */
  readonly weights: Float32Array;
  readonly bias: Float32Array;
  readonly spec: ClassifierSpec;
}

const tensor = (name: string, dims: number[], values: Float32Array | BigInt64Array, dataType: number) => ({
  name,
  dims,
  dataType,
  rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
});

export function buildClassifier(spec: ClassifierSpec): Classifier {
  const rng = new Random(spec.seed ?? 1);
  const layout = spec.layout ?? (spec.sampleShape.length === 3 ? 'nchw' : 'flat');
  const D = spec.sampleShape.reduce((a, b) => a * b, 1);
  const C = spec.classes;
  const scale = spec.scale ?? 1;
  const weights = Float32Array.from({ length: D * C }, () => (rng.uniform() * 2 - 1) * scale);
  const bias = Float32Array.from({ length: C }, () => rng.uniform() - 0.5);
  const inputName = spec.inputName ?? 'input';
  const outputName = spec.outputName ?? 'logits';
  const batchDim = spec.batch === undefined || spec.batch === 'dynamic' ? { dimParam: 'N' } : { dimValue: spec.batch };
  const nodes: object[] = [];
  let x = inputName;
  if (layout === 'nhwc') {
    nodes.push({ input: [x], output: ['nchw'], name: 'to_nchw', opType: 'Transpose', attribute: [{ name: 'perm', type: 7, ints: [0, 3, 1, 2] }] });
    x = 'nchw';
  }
  nodes.push({ input: [x], output: ['flat'], name: 'flatten', opType: 'Flatten', attribute: [{ name: 'axis', type: 2, i: 1 }] });
  nodes.push({ input: ['flat', 'W'], output: ['mm'], name: 'matmul', opType: 'MatMul' });
  const last = spec.softmax ? 'scores' : outputName;
  nodes.push({ input: ['mm', 'b'], output: [last], name: 'add', opType: 'Add' });
  if (spec.softmax) nodes.push({ input: [last], output: [outputName], name: 'softmax', opType: 'Softmax', attribute: [{ name: 'axis', type: 2, i: 1 }] });
  const model: OnnxModelProto = {
    irVersion: (spec.opset ?? 13) >= 18 ? 8 : 7,
    producerName: spec.producer ?? 'test-producer',
    opsetImport: [{ domain: '', version: spec.opset ?? 13 }],
    graph: {
      name: 'classifier',
      node: nodes,
      initializer: [tensor('W', [D, C], weights, 1), tensor('b', [C], bias, 1)],
      input: [{ name: inputName, type: { tensorType: { elemType: 1, shape: { dim: [batchDim, ...spec.sampleShape.map((d) => ({ dimValue: d }))] } } } }],
      output: [{ name: outputName, type: { tensorType: { elemType: 1, shape: { dim: [batchDim, { dimValue: C }] } } } }],
    },
  } as OnnxModelProto;
  return { bytes: encodeOnnx(model), weights, bias, spec };
}

/** Logits of `inputs` (N samples in the model's layout) computed in float64 from the weights. */
export function referenceLogits(c: Classifier, inputs: Float32Array, n: number): Float64Array {
  const { sampleShape, classes: C } = c.spec;
  const layout = c.spec.layout ?? (sampleShape.length === 3 ? 'nchw' : 'flat');
  const D = sampleShape.reduce((a, b) => a * b, 1);
  const out = new Float64Array(n * C);
  const features = new Float64Array(D);
  for (let i = 0; i < n; i++) {
    if (layout === 'nhwc') {
      const [H, W, Ch] = sampleShape as [number, number, number];
      for (let h = 0; h < H; h++) for (let w = 0; w < W; w++) for (let ch = 0; ch < Ch; ch++) features[(ch * H + h) * W + w] = inputs[i * D + (h * W + w) * Ch + ch]!;
    } else {
      for (let d = 0; d < D; d++) features[d] = inputs[i * D + d]!;
    }
    for (let k = 0; k < C; k++) {
      let z = c.bias[k]!;
      for (let d = 0; d < D; d++) z += features[d]! * c.weights[d * C + k]!;
      out[i * C + k] = z;
    }
  }
  return out;
}
