/**
 * ORT sessions on worker threads, driven synchronously from the calling thread: `runEach` hands each worker its
 * own feeds, all workers compute at the same time, and the call returns when every one has answered — the
 * building block of data-parallel train steps (train/steps/replicated-step.ts). ONNX Runtime scales modestly from one to
 * two intra-op threads (ENGINE-NOTES: three single-thread runs side by side reach ≈ 1.45× one two-thread run), so
 * two single-thread sessions on halves of a batch beat one two-thread session on the whole batch.
 *
 * Protocol (no event-loop turn needed on the calling side): each worker owns one end of a MessageChannel and a
 * shared Int32 flag; a request is posted, the worker answers on its port and then sets and notifies the flag; the
 * caller waits on the flag (Atomics.wait) and takes the answer with receiveMessageOnPort.
 */
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { describe, InvalidArgumentError } from '../../util/errors.js';
import type { Graph } from '../ir/graph.js';
import { loweredGraphSignature } from './lowered-signature.js';
import { type CompileOptions, type Feed, lowerGraph, nativeSessionOptions, type RunOutputs } from './session.js';
import type { SessionWorkerReply, SessionWorkerRequest } from './session-worker.js';

const WORKER_SCRIPT = new URL('./session-worker.js', import.meta.url);

interface WorkerHandle {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly flag: Int32Array;
}

/** `count` worker threads, each able to hold ORT sessions. */
export class SessionWorkers {
  private readonly workers: WorkerHandle[];
  private disposed = false;

  constructor(readonly count: number) {
    if (!Number.isInteger(count) || count < 1) throw new InvalidArgumentError('count', 'a positive integer', describe(count));
    this.workers = Array.from({ length: count }, () => {
      const { port1, port2 } = new MessageChannel();
      const flag = new Int32Array(new SharedArrayBuffer(4));
      const worker = new Worker(WORKER_SCRIPT, { workerData: { port: port2, flag }, transferList: [port2] });
      worker.unref();
      port1.unref();
      return { worker, port: port1, flag };
    });
  }

  /**
   * Load `graph` into every worker as session `key`, each with `threads` intra-op threads (NCHWc lowering, or the
   * portable ONNX when this ORT refuses it).
   */
  load(key: string, graph: Graph, threads: number, options: CompileOptions = {}): void {
    const signature = loweredGraphSignature(graph);
    const request = (portable: boolean): SessionWorkerRequest => {
      const lowered = lowerGraph(graph, options, portable);
      return { op: 'load', key, bytes: lowered.bytes, options: nativeSessionOptions(threads, options), ...signature, onnxNames: lowered.onnxNames };
    };
    const nchwc = request(false);
    try {
      this.all(this.workers.map(() => nchwc));
    } catch (error) {
      if (options.nchwc === false) throw error;
      const portable = request(true);
      this.all(this.workers.map(() => portable));
    }
  }

  /** Run session `requests[i].key` on worker i with `requests[i].feeds`, all at once; returns each worker's outputs. */
  runEach(requests: readonly { readonly key: string; readonly feeds: Readonly<Record<string, Feed>> }[]): RunOutputs[] {
    if (requests.length !== this.count) throw new InvalidArgumentError('requests', `one request per worker (${this.count})`, String(requests.length));
    return this.all(requests.map((q) => ({ op: 'run', key: q.key, feeds: q.feeds }))).map((r) => r.outputs as RunOutputs);
  }

  /** Release every session and stop the workers. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const w of this.workers) {
      w.port.close();
      void w.worker.terminate();
    }
  }

  private all(requests: readonly SessionWorkerRequest[]): Array<Extract<SessionWorkerReply, { ok: true }>> {
    if (this.disposed) throw new InvalidArgumentError('session workers', 'live workers', 'disposed ones');
    this.workers.forEach((w, i) => {
      Atomics.store(w.flag, 0, 0);
      w.port.postMessage(requests[i]!);
    });
    const replies = this.workers.map((w) => {
      while (Atomics.load(w.flag, 0) === 0) Atomics.wait(w.flag, 0, 0, 1000);
      const m = receiveMessageOnPort(w.port);
      if (!m) throw new Error('a session worker signalled an answer that is not on its port');
      return m.message as SessionWorkerReply;
    });
    const failed = replies.find((r) => !r.ok);
    if (failed && !failed.ok) throw new Error(`session worker: ${failed.error}`);
    return replies as Array<Extract<SessionWorkerReply, { ok: true }>>;
  }
}
