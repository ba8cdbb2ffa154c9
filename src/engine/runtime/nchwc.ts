/**
 * The channel block of ONNX Runtime's NCHWc convolution kernels (com.microsoft.nchwc: MLAS's blocked direct
 * convolution) on this machine: 16 with AVX-512, 8 with AVX2, 0 where the loaded ORT has none (then convolutions
 * lower to the portable ONNX Conv). Found once per process by running ReorderInput on a 4-channel tensor: the
 * kernel pads the channels up to one block.
 */
import { encodeModel } from '../onnx/onnx-model.js';
import { loadNativeSession, OrtTensor } from './ort-binding.js';

let cached: number | undefined;

/** NCHWc channel block of the loaded ONNX Runtime (0: not available). */
export function nchwcBlockSize(): number {
  cached ??= probe();
  return cached;
}

function probe(): number {
  try {
    const model = encodeModel({
      graphName: 'nchwc_probe',
      nodes: [{ opType: 'ReorderInput', inputs: ['x'], outputs: ['y'], attrs: {}, domain: 'com.microsoft.nchwc' }],
      initializers: [],
      inputs: [{ name: 'x', dtype: 'float32', shape: [1, 4, 1, 1] }],
      outputs: [{ name: 'y', dtype: 'float32', shape: [1, 'blocked', 1, 1] }],
      opsets: { '': 18, 'com.microsoft.nchwc': 1 },
      producer: 'calibkit',
    });
    const session = loadNativeSession(model, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'disabled',
      executionMode: 'sequential',
      enableCpuMemArena: false,
      enableMemPattern: false,
      executionProviders: ['cpu'],
      logSeverityLevel: 4,
    });
    try {
      const out = session.run({ x: new OrtTensor('float32', new Float32Array(4), [1, 4, 1, 1]) }, { y: null });
      const block = out['y']?.dims[1] ?? 0;
      return Number.isInteger(block) && block >= 4 && block <= 64 ? block : 0;
    } finally {
      session.dispose();
    }
  } catch {
    return 0;
  }
}
