import { describe, InvalidArgumentError } from '../../util/errors.js';
import { type DType, dtypeOfHost, type HostArray, type HostArrayOf } from '../ir/dtype.js';
import type { Graph } from '../ir/graph.js';
import { formatShape, type Shape, shapeSize } from '../ir/shape.js';
import { lowerToOnnx } from '../onnx/emit.js';
import { encodeModel } from '../onnx/onnx-model.js';
import { loweredGraphSignature } from './lowered-signature.js';
import { nchwcBlockSize } from './nchwc.js';
import { loadNativeSession, type NativeSession, type NativeSessionOptions, OrtTensor } from './ort-binding.js';

/** Options of `compile`. */
export interface CompileOptions {
  /** Intra-op threads (default 2: the machine this was tuned on has 2 cores). */
  readonly threads?: number;
  /** ORT graph optimisation level (default 'all'). */
  readonly optimization?: 'disabled' | 'basic' | 'extended' | 'all';
  /** Where ORT should save the optimised model (for inspection), if anywhere. */
  readonly optimizedModelPath?: string;
  /**
   * Run eligible convolutions (float32, ungrouped, channels a multiple of the block) on ORT's NCHWc kernels when
   * this machine's ORT has them (default true; runtime/nchwc.ts). Same results up to float32 summation order.
   */
  readonly nchwc?: boolean;
}

/** A feed: a typed array of the input's dtype (int64 inputs also take Int32Array), or a number for scalars. */
export type Feed = HostArray | number;

/** Outputs of one run, by name, as host arrays of each output's dtype (row-major, shapes as declared). */
export type RunOutputs = Record<string, HostArray>;

/** Name, dtype and static shape of a session input or output. */
export interface ValueSignature {
  readonly name: string;
  readonly dtype: DType;
  readonly shape: Shape;
}

/**
 * A graph compiled into an ONNX Runtime session (CPU). `run` is synchronous and blocks the thread for the
 * whole computation (ORT's native run is blocking either way); `runAsync` yields to the event loop first.
 * Train in a worker_thread if something else (a server, a progress bar) must stay responsive.
 */
export class Session {
  readonly inputs: readonly ValueSignature[];
  readonly outputs: readonly ValueSignature[];
  private readonly native: NativeSession;
  private readonly fetches: Record<string, null>;
  private disposed = false;
  private readonly onnxNames: Readonly<Record<string, string>>;

  constructor(
    readonly graph: Graph,
    options: CompileOptions = {},
  ) {
    const threads = options.threads ?? 2;
    if (!Number.isInteger(threads) || threads < 1) throw new InvalidArgumentError('options.threads', 'a positive integer', describe(threads));
    const signature = loweredGraphSignature(graph);
    this.inputs = signature.inputs;
    this.outputs = signature.outputs;
    const loaded = loadGraph(graph, threads, options);
    this.native = loaded.native;
    this.onnxNames = loaded.onnxNames;
    this.fetches = Object.fromEntries(this.outputs.map((o) => [this.onnxNames[o.name]!, null]));
  }

  /** Run once with `feeds` (one per input, by name); returns every output. */
  run(feeds: Readonly<Record<string, Feed>>): RunOutputs {
    if (this.disposed) throw new InvalidArgumentError('session', 'a live session', 'a disposed one');
    if (typeof feeds !== 'object' || feeds === null) throw new InvalidArgumentError('feeds', 'a record of typed arrays', describe(feeds));
    return runNative(this.native, this.inputs, this.outputs, this.onnxNames, this.fetches, feeds);
  }

  /** `run` after yielding to the event loop once (the computation itself still blocks its thread). */
  runAsync(feeds: Readonly<Record<string, Feed>>): Promise<RunOutputs> {
    return new Promise((resolve, reject) => {
      setImmediate(() => {
        try {
          resolve(this.run(feeds));
        } catch (e) {
          reject(e);
        }
      });
    });
  }

  /** Release the native session. */
  dispose(): void {
    if (!this.disposed) this.native.dispose();
    this.disposed = true;
  }
}

/** Compile a graph into an ONNX Runtime session (0.1–0.6 s for a few thousand nodes: cache the result). */
export function compile(graph: Graph, options: CompileOptions = {}): Session {
  return new Session(graph, options);
}

/** ORT session options of a compiled graph with `threads` intra-op threads. */
export function nativeSessionOptions(threads: number, options: CompileOptions = {}): NativeSessionOptions {
  return {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: options.optimization ?? 'all',
    executionMode: 'sequential',
    enableCpuMemArena: true,
    enableMemPattern: true,
    executionProviders: ['cpu'],
    ...(options.optimizedModelPath ? { optimizedModelFilePath: options.optimizedModelPath } : {}),
  };
}

/** A graph lowered to ONNX bytes (NCHWc kernels where `nchwcBlock` > 0) and its output-name map. */
export interface LoweredGraph {
  readonly bytes: Uint8Array;
  readonly onnxNames: Readonly<Record<string, string>>;
  readonly nchwcBlock: number;
}

/** Lower `graph` for ORT: NCHWc convolutions unless `options.nchwc` is false or `portable` is asked for. */
export function lowerGraph(graph: Graph, options: CompileOptions = {}, portable = false): LoweredGraph {
  const block = portable || options.nchwc === false ? 0 : nchwcBlockSize();
  const model = lowerToOnnx(graph, { nchwcBlock: block });
  return { bytes: encodeModel(model), onnxNames: model.outputNames, nchwcBlock: block };
}

/**
 * Lower and load `graph`. The NCHWc lowering is only an optimisation: should this ORT refuse it for some layer,
 * the portable ONNX is loaded instead.
 */
function loadGraph(graph: Graph, threads: number, options: CompileOptions): { native: NativeSession; onnxNames: Readonly<Record<string, string>> } {
  const nativeOptions = nativeSessionOptions(threads, options);
  let lowered = lowerGraph(graph, options);
  try {
    return { native: loadNativeSession(lowered.bytes, nativeOptions), onnxNames: lowered.onnxNames };
  } catch (error) {
    if (lowered.nchwcBlock === 0) throw error;
    lowered = lowerGraph(graph, options, true);
    return { native: loadNativeSession(lowered.bytes, nativeOptions), onnxNames: lowered.onnxNames };
  }
}

/** One run of a loaded native session: feeds checked against `inputs`, outputs by graph name. */
export function runNative(
  native: NativeSession,
  inputs: readonly ValueSignature[],
  outputs: readonly ValueSignature[],
  onnxNames: Readonly<Record<string, string>>,
  fetches: Record<string, null>,
  feeds: Readonly<Record<string, Feed>>,
): RunOutputs {
  const ortFeeds: Record<string, OrtTensor> = {};
  for (const input of inputs) ortFeeds[input.name] = toOrtTensor(input, feeds[input.name]);
  for (const name of Object.keys(feeds)) {
    if (!inputs.some((i) => i.name === name)) {
      throw new InvalidArgumentError(`feeds.${name}`, `one of the inputs ${inputs.map((i) => i.name).join(', ')}`, 'an unknown name');
    }
  }
  const raw = native.run(ortFeeds, fetches);
  const out: RunOutputs = {};
  for (const o of outputs) out[o.name] = raw[onnxNames[o.name]!]!.data as HostArray;
  return out;
}

function toOrtTensor(input: ValueSignature, feed: Feed | undefined): OrtTensor {
  const what = `feeds.${input.name}`;
  const n = shapeSize(input.shape);
  if (feed === undefined) throw new InvalidArgumentError(what, `a ${input.dtype}${formatShape(input.shape)} feed`, 'nothing');
  let data: HostArray;
  if (typeof feed === 'number') {
    if (n !== 1) throw new InvalidArgumentError(what, `${n} values of ${input.dtype}${formatShape(input.shape)}`, 'a single number');
    data = hostScalar(input.dtype, feed);
  } else {
    const got = dtypeOfHost(feed);
    if (got === input.dtype) data = feed;
    else if (input.dtype === 'int64' && got === 'int32') data = BigInt64Array.from(feed as Int32Array, (v) => BigInt(v));
    else throw new InvalidArgumentError(what, `a ${hostArrayName(input.dtype)} for ${input.dtype}${formatShape(input.shape)}`, describe(feed));
    if (data.length !== n) throw new InvalidArgumentError(what, `${n} values for ${input.dtype}${formatShape(input.shape)}`, `${data.length}`);
  }
  return new OrtTensor(input.dtype, data as never, input.shape as number[]);
}

function hostScalar(dtype: DType, v: number): HostArray {
  switch (dtype) {
    case 'float32':
      return Float32Array.of(v);
    case 'float64':
      return Float64Array.of(v);
    case 'int32':
      return Int32Array.of(v);
    case 'int64':
      return BigInt64Array.of(BigInt(Math.trunc(v)));
    default:
      return Uint8Array.of(v ? 1 : 0);
  }
}

/** "Float32Array" etc. */
export function hostArrayName(dtype: DType): string {
  const names: Record<DType, string> = { float32: 'Float32Array', float64: 'Float64Array', int32: 'Int32Array', int64: 'BigInt64Array', bool: 'Uint8Array' };
  return names[dtype];
}

export type { HostArrayOf };
