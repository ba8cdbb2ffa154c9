/**
 * The worker-thread side of `SessionWorkers` (session-workers.ts): holds ORT sessions loaded from ONNX bytes and
 * answers requests on its MessagePort — `load` (bytes, signatures, options) and `run` (feeds) — each answer
 * posted on the port and then signalled through the shared flag, so the main thread can wait synchronously
 * (Atomics.wait) and take the answer with receiveMessageOnPort.
 */
import { type MessagePort, workerData } from 'node:worker_threads';
import type { HostArray } from '../ir/dtype.js';
import { loadNativeSession, type NativeSession, type NativeSessionOptions } from './ort-binding.js';
import { type Feed, runNative, type ValueSignature } from './session.js';

/** A request to a session worker. */
export type SessionWorkerRequest =
  | {
      readonly op: 'load';
      readonly key: string;
      readonly bytes: Uint8Array;
      readonly options: NativeSessionOptions;
      readonly inputs: readonly ValueSignature[];
      readonly outputs: readonly ValueSignature[];
      readonly onnxNames: Readonly<Record<string, string>>;
    }
  | { readonly op: 'run'; readonly key: string; readonly feeds: Readonly<Record<string, Feed>> }
  | { readonly op: 'dispose'; readonly key: string };

/** Its answer. */
export type SessionWorkerReply = { readonly ok: true; readonly outputs?: Record<string, HostArray> } | { readonly ok: false; readonly error: string };

interface Loaded {
  readonly native: NativeSession;
  readonly inputs: readonly ValueSignature[];
  readonly outputs: readonly ValueSignature[];
  readonly onnxNames: Readonly<Record<string, string>>;
  readonly fetches: Record<string, null>;
}

const { port, flag } = workerData as { port: MessagePort; flag: Int32Array };
const sessions = new Map<string, Loaded>();

function handle(request: SessionWorkerRequest): { reply: SessionWorkerReply; transfer: ArrayBuffer[] } {
  if (request.op === 'load') {
    const native = loadNativeSession(request.bytes, request.options);
    const fetches = Object.fromEntries(request.outputs.map((o) => [request.onnxNames[o.name]!, null]));
    sessions.set(request.key, { native, inputs: request.inputs, outputs: request.outputs, onnxNames: request.onnxNames, fetches });
    return { reply: { ok: true }, transfer: [] };
  }
  const s = sessions.get(request.key);
  if (!s) throw new Error(`no session ${request.key} in this worker`);
  if (request.op === 'dispose') {
    s.native.dispose();
    sessions.delete(request.key);
    return { reply: { ok: true }, transfer: [] };
  }
  const outputs = runNative(s.native, s.inputs, s.outputs, s.onnxNames, s.fetches, request.feeds);
  const transfer = [...new Set(Object.values(outputs).map((a) => a.buffer as ArrayBuffer))];
  return { reply: { ok: true, outputs }, transfer };
}

port.on('message', (request: SessionWorkerRequest) => {
  try {
    const { reply, transfer } = handle(request);
    try {
      port.postMessage(reply, transfer);
    } catch {
      port.postMessage(reply); // an output that shares a non-transferable buffer: copy instead
    }
  } catch (e) {
    port.postMessage({ ok: false, error: e instanceof Error ? e.message : String(e) } satisfies SessionWorkerReply);
  }
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
