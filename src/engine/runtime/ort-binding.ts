/**
 * The synchronous native session of onnxruntime-node. The package's public `InferenceSession.run` wraps the
 * same blocking native call in a Promise resolved from `setImmediate`; training loops call it thousands of
 * times, so the engine talks to the binding directly (pinned package version: 1.30.0) and offers an async
 * wrapper on top. Only this file knows about the binding.
 */
import { binding, initOrt } from 'onnxruntime-node/dist/binding.js';
import { Tensor as OrtTensor } from 'onnxruntime-node';

/** Session options understood by the binding (a subset of InferenceSession.SessionOptions). */
export interface NativeSessionOptions {
  intraOpNumThreads: number;
  interOpNumThreads: number;
  graphOptimizationLevel: 'disabled' | 'basic' | 'extended' | 'all';
  executionMode: 'sequential' | 'parallel';
  enableCpuMemArena: boolean;
  enableMemPattern: boolean;
  executionProviders: string[];
  optimizedModelFilePath?: string;
  logSeverityLevel?: 0 | 1 | 2 | 3 | 4;
}

/** A raw output of the binding. */
export interface NativeValue {
  readonly type: string;
  readonly data: unknown;
  readonly dims: readonly number[];
}

/** A loaded native session. */
export interface NativeSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, OrtTensor>, fetches: Record<string, null>): Record<string, NativeValue>;
  dispose(): void;
}

/** Load model bytes into a native session (blocking). */
export function loadNativeSession(model: Uint8Array, options: NativeSessionOptions): NativeSession {
  initOrt();
  const session = new binding.InferenceSession();
  session.loadModel(model.buffer as ArrayBuffer, model.byteOffset, model.byteLength, options as never);
  return {
    inputNames: session.inputMetadata.map((m) => m.name),
    outputNames: session.outputMetadata.map((m) => m.name),
    run: (feeds, fetches) => session.run(feeds, fetches, {}) as unknown as Record<string, NativeValue>,
    dispose: () => session.dispose(),
  };
}

export { OrtTensor };
