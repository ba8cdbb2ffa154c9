/**
 * Run any ONNX classifier on a batch of samples through onnxruntime-node, in batches: the input and the [N, C]
 * output are chosen from the model's signature (`--input-name` / `--output-name` where it has several), the
 * samples' shape is checked against the input's declared dimensions, and a fixed batch size declared by the model
 * is honoured (the last batch is padded with zeros and the padding dropped).
 */
import * as ort from 'onnxruntime-node';
import { invalidArgument } from '../util/errors.js';
import type { OnnxModelProto } from './onnx-file.js';
import { describeTensor, modelSignature, outputKind, selectClassifierOutput, selectInput, type OutputKind, type TensorSignature } from './model-signature.js';

/** N samples, row-major, each of shape `sampleShape` (already in the model's layout). */
export interface Samples {
  readonly data: Float32Array;
  readonly count: number;
  readonly sampleShape: readonly number[];
}

export interface RunOptions {
  readonly inputName?: string;
  readonly outputName?: string;
  /** Batch size for a model with a dynamic batch (default 256). */
  readonly batch?: number;
  /** ONNX Runtime intra-op threads (default 2). */
  readonly threads?: number;
  /** Called after each batch with the rows done so far. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Argument names for errors. */
  readonly samplesArg?: string;
  readonly modelArg?: string;
}

export interface ClassifierOutput {
  /** N × C float32, row-major. */
  readonly values: Float32Array;
  readonly rows: number;
  readonly cols: number;
  readonly input: TensorSignature;
  readonly output: TensorSignature;
  /** What the output holds (a final Softmax gives probabilities). */
  readonly kind: OutputKind;
  /** The batch size used (the model's fixed one, or the requested one). */
  readonly batch: number;
}

/** Check `sampleShape` against the input's dimensions after the batch axis. */
export function requireSampleShape(input: TensorSignature, sampleShape: readonly number[], samplesArg: string): void {
  if (!input.dims) return;
  const want = input.dims.slice(1);
  const fits = want.length === sampleShape.length && want.every((d, i) => typeof d !== 'number' || d === sampleShape[i]);
  if (!fits) {
    invalidArgument(samplesArg, `samples of shape [${want.map((d) => d ?? '?').join(', ')}] to fit the model's input ${describeTensor(input)}`, `samples of shape [${sampleShape.join(', ')}]`);
  }
}

/** Run the classifier `bytes` (decoded as `model`) on `samples`. */
export async function runClassifier(bytes: Uint8Array, model: OnnxModelProto, samples: Samples, options: RunOptions = {}): Promise<ClassifierOutput> {
  const modelArg = options.modelArg ?? '--model';
  const samplesArg = options.samplesArg ?? '--inputs';
  const signature = modelSignature(model);
  const input = selectInput(signature, options.inputName, '--input-name', modelArg);
  const { output } = selectClassifierOutput(signature, options.outputName, '--output-name', modelArg);
  if (input.elemType !== 1 && input.elemType !== 11) invalidArgument(modelArg, 'a model whose input is float or double', describeTensor(input));
  requireSampleShape(input, samples.sampleShape, samplesArg);
  const fixed = typeof input.dims?.[0] === 'number' ? (input.dims[0] as number) : null;
  const batch = fixed ?? options.batch ?? 256;
  const per = samples.sampleShape.reduce((a, b) => a * b, 1);
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: options.threads ?? 2, interOpNumThreads: 1 });
  } catch (error) {
    invalidArgument(modelArg, 'an ONNX model that ONNX Runtime can load', (error as Error).message.split('\n')[0]!);
  }
  try {
    let values: Float32Array | null = null;
    let cols = 0;
    for (let start = 0; start < samples.count; start += batch) {
      const rows = Math.min(batch, samples.count - start);
      const size = fixed ?? rows;
      let chunk = samples.data.subarray(start * per, (start + rows) * per);
      if (size !== rows) {
        const padded = new Float32Array(size * per);
        padded.set(chunk);
        chunk = padded;
      }
      const tensor = input.elemType === 11 ? new ort.Tensor('float64', Float64Array.from(chunk), [size, ...samples.sampleShape]) : new ort.Tensor('float32', chunk, [size, ...samples.sampleShape]);
      let result: ort.InferenceSession.ReturnType;
      try {
        result = await session.run({ [input.name]: tensor }, [output.name]);
      } catch (error) {
        invalidArgument(samplesArg, `samples the model's input ${describeTensor(input)} accepts`, (error as Error).message.split('\n')[0]!);
      }
      const out = result[output.name]!;
      if (out.dims.length !== 2 || out.dims[0] !== size) {
        invalidArgument(modelArg, 'a classifier whose output has shape [N, C]', `output ${JSON.stringify(output.name)} of shape [${out.dims.join(', ')}] for ${size} samples`);
      }
      if (values === null) {
        cols = out.dims[1]!;
        values = new Float32Array(samples.count * cols);
      }
      const data = out.data as Float32Array | Float64Array;
      for (let i = 0; i < rows * cols; i++) values[start * cols + i] = data[i]!;
      options.onProgress?.(start + rows, samples.count);
    }
    return { values: values ?? new Float32Array(0), rows: samples.count, cols, input, output, kind: outputKind(model, output.name), batch };
  } finally {
    await session.release();
  }
}
