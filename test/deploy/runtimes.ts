/**
 * Running an ONNX model in the two runtimes the toolkit targets, for the deploy tests: onnxruntime-node (native)
 * and onnxruntime-web (its WASM backend, loaded in Node from node_modules, one thread).
 */
import * as ortNode from 'onnxruntime-node';
import * as ortWeb from 'onnxruntime-web';

export type RuntimeName = 'onnxruntime-node' | 'onnxruntime-web';

/** Run `bytes` on one float32 input; returns every output as Float32Array with its dims. */
export async function runModel(
  runtime: RuntimeName,
  bytes: Uint8Array,
  inputName: string,
  data: Float32Array,
  dims: readonly number[],
): Promise<Record<string, { data: Float32Array; dims: readonly number[] }>> {
  const ort = (runtime === 'onnxruntime-node' ? ortNode : ortWeb) as typeof ortNode;
  if (runtime === 'onnxruntime-web') ortWeb.env.wasm.numThreads = 1;
  const session = await ort.InferenceSession.create(bytes, runtime === 'onnxruntime-web' ? { executionProviders: ['wasm'] } : {});
  try {
    const result = await session.run({ [inputName]: new ort.Tensor('float32', data, [...dims]) });
    const out: Record<string, { data: Float32Array; dims: readonly number[] }> = {};
    for (const [name, t] of Object.entries(result)) out[name] = { data: t.data as Float32Array, dims: t.dims };
    return out;
  } finally {
    await session.release();
  }
}
