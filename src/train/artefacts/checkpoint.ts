/**
 * Training checkpoints: parameters, optimizer state, buffers, step, generator state, the model and optimizer
 * specifications and free-form metadata, in one file written atomically (`atomicWriteFile`: temp file, fsync,
 * rename) and read back bit for bit, so a resumed run continues exactly as if it had not stopped.
 *
 * Format (version 2, all integers little-endian):
 *   bytes 0–7    magic "CKITCKPT"
 *   bytes 8–11   uint32 H: byte length of the header
 *   bytes 12…    header: UTF-8 JSON (see `CheckpointHeader`)
 *   zero padding to a multiple of 8 bytes; the data section starts there
 *   data         each array's raw little-endian float32 bytes at header.arrays[i].offset (relative to the
 *                data section, 8-byte aligned), in the order params, buffers, opt.<slot>…
 *   last 4 bytes uint32 CRC-32 (zlib) of every byte before it: magic, header length, header, padding and data
 * Loading verifies the CRC over the whole file first (so a corrupted header or step counter is an error, never a
 * silent resume from the wrong place), then the magic, the version, every header field and the lengths, and (when
 * a model/optimizer is given) that the parameter layout matches. Version 1 (CRC of the data section only) is
 * refused with a message saying so.
 */
import { readFile } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { describe, InvalidArgumentError, invalidArgument } from '../../util/errors.js';
import { atomicWriteFile } from '../../util/atomic-write.js';
import { Random } from '../../util/random.js';
import type { Model } from '../../nn/model.js';
import { modelSpec, type ModelSpec } from '../../nn/models/zoo.js';
import type { Optimizer } from '../../optim/optimizer.js';
import type { OptimizerSpec } from '../../optim/create.js';
import { ModelLayout } from '../steps/model-layout.js';
import { TrainState } from '../steps/train-state.js';

const MAGIC = 'CKITCKPT';
const VERSION = 2;
/** Bytes of the trailing whole-file CRC-32. */
const TRAILER = 4;

/** One stored array. */
export interface CheckpointArray {
  /** 'params', 'buffers' or 'opt.<slot>'. */
  readonly name: string;
  readonly dtype: 'float32';
  readonly length: number;
  /** Byte offset inside the data section. */
  readonly offset: number;
}

/** The JSON header of a checkpoint file. */
export interface CheckpointHeader {
  readonly format: 'calibkit-checkpoint';
  readonly version: number;
  /** Number of optimizer updates done. */
  readonly step: number;
  /** `Random.getState()` of the run's generator (NaN stored as null). */
  readonly rng: readonly (number | null)[];
  readonly model: ModelSpec;
  readonly optimizer: OptimizerSpec;
  /** Parameter and buffer paths with shapes, in layout order. */
  readonly layout: { readonly params: readonly [string, readonly number[]][]; readonly buffers: readonly [string, readonly number[]][] };
  readonly arrays: readonly CheckpointArray[];
  /** Caller's metadata (epoch, schedule, metrics, …). */
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** A decoded checkpoint. */
export interface Checkpoint {
  readonly header: CheckpointHeader;
  readonly state: TrainState;
}

/** What `encodeCheckpoint` / `saveCheckpoint` store. */
export interface CheckpointContent {
  readonly model: Model;
  readonly optimizer: Optimizer;
  readonly state: TrainState;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** Serialise a checkpoint to bytes. */
export function encodeCheckpoint(content: CheckpointContent): Uint8Array {
  const { model, optimizer, state } = content;
  const layout = new ModelLayout(model);
  const named: [string, Float32Array][] = [['params', state.params], ['buffers', state.buffers], ...optimizer.slots.map((s): [string, Float32Array] => [`opt.${s}`, state.opt[s]!])];
  named.forEach(([name, a]) => {
    if (!(a instanceof Float32Array)) throw new InvalidArgumentError(`state.${name}`, 'a Float32Array', describe(a));
    const want = name === 'buffers' ? layout.buffers.size : layout.params.size;
    if (a.length !== want) throw new InvalidArgumentError(`state.${name}`, `${want} values (layout of ${model.kind})`, String(a.length));
  });
  let offset = 0;
  const arrays: CheckpointArray[] = named.map(([name, a]) => {
    const entry = { name, dtype: 'float32' as const, length: a.length, offset };
    offset += align8(a.byteLength);
    return entry;
  });
  const data = new Uint8Array(offset);
  named.forEach(([, a], i) => data.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), arrays[i]!.offset));
  const header: CheckpointHeader = {
    format: 'calibkit-checkpoint',
    version: VERSION,
    step: state.step,
    rng: state.rng.getState().map((v) => (Number.isNaN(v) ? null : v)),
    model: modelSpec(model),
    optimizer: { kind: optimizer.kind, ...optimizer.config } as OptimizerSpec,
    layout: {
      params: layout.params.entries.map((e) => [e.name, [...e.shape]]),
      buffers: layout.buffers.entries.map((e) => [e.name, [...e.shape]]),
    },
    arrays,
    metadata: content.metadata ?? {},
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const start = align8(12 + json.byteLength);
  const out = new Uint8Array(start + data.byteLength + TRAILER);
  out.set(new TextEncoder().encode(MAGIC), 0);
  const view = new DataView(out.buffer);
  view.setUint32(8, json.byteLength, true);
  out.set(json, 12);
  out.set(data, start);
  view.setUint32(out.byteLength - TRAILER, crc32(out.subarray(0, out.byteLength - TRAILER)), true);
  return out;
}

/**
 * Parse checkpoint bytes. With `expect.model` / `expect.optimizer` given, also check that the stored layout and
 * optimizer slots match them (a checkpoint of another architecture fails here, naming the first mismatch).
 */
export function decodeCheckpoint(bytes: Uint8Array, expect: { model?: Model; optimizer?: Optimizer } = {}): Checkpoint {
  if (!(bytes instanceof Uint8Array)) throw new InvalidArgumentError('bytes', 'a Uint8Array', describe(bytes));
  if (bytes.byteLength < 12 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) {
    throw new InvalidArgumentError('checkpoint', `a calibkit checkpoint (magic "${MAGIC}")`, 'other bytes');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 12 + TRAILER) throw new InvalidArgumentError('checkpoint', 'a complete checkpoint file', `${bytes.byteLength} bytes (truncated)`);
  const body = bytes.subarray(0, bytes.byteLength - TRAILER);
  const stored = view.getUint32(bytes.byteLength - TRAILER, true);
  const crc = crc32(body);
  if (crc !== stored) {
    const headerLength = view.getUint32(8, true);
    const v1 = 12 + headerLength <= bytes.byteLength && /"version":1[,}]/.test(new TextDecoder().decode(bytes.subarray(12, Math.min(12 + headerLength, 4096))));
    if (v1) throw new InvalidArgumentError('checkpoint', `format version ${VERSION} (this is a version-1 checkpoint of an older calibkit; restart the run with --force)`, 'version 1');
    throw new InvalidArgumentError('checkpoint', `CRC-32 ${stored} over the whole file`, `${crc} (the file is corrupted or truncated)`);
  }
  const headerLength = view.getUint32(8, true);
  if (12 + headerLength > body.byteLength) throw new InvalidArgumentError('checkpoint', `a header of ${headerLength} bytes`, `a file of ${bytes.byteLength} bytes (truncated)`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerLength)));
  } catch {
    throw new InvalidArgumentError('checkpoint header', 'valid JSON', 'unparsable text');
  }
  const header = checkHeader(parsed);
  const start = align8(12 + headerLength);
  const data = body.subarray(start);
  const end = header.arrays.reduce((m, a) => Math.max(m, a.offset + 4 * a.length), 0);
  if (data.byteLength < end) throw new InvalidArgumentError('checkpoint', `${end} data bytes`, `${data.byteLength} (truncated)`);
  const arrays: Record<string, Float32Array> = {};
  for (const a of header.arrays) {
    if (a.dtype !== 'float32' || a.offset % 8 !== 0) throw new InvalidArgumentError(`checkpoint array ${a.name}`, 'float32 at an 8-byte aligned offset', `${a.dtype} at ${a.offset}`);
    const copy = new Uint8Array(4 * a.length);
    copy.set(data.subarray(a.offset, a.offset + 4 * a.length));
    arrays[a.name] = new Float32Array(copy.buffer);
  }
  if (expect.model) checkLayout(header, new ModelLayout(expect.model));
  if (expect.optimizer) {
    const want = expect.optimizer.slots.map((s) => `opt.${s}`).join(', ');
    const have = header.arrays
      .filter((a) => a.name.startsWith('opt.'))
      .map((a) => a.name)
      .join(', ');
    if (want !== have || expect.optimizer.kind !== header.optimizer.kind) {
      throw new InvalidArgumentError('checkpoint optimizer', `${expect.optimizer.kind} with slots [${want}]`, `${header.optimizer.kind} with [${have}]`);
    }
  }
  const rng = new Random(0);
  rng.setState(header.rng.map((v) => (v === null ? Number.NaN : v)));
  const opt: Record<string, Float32Array> = {};
  for (const [k, v] of Object.entries(arrays)) if (k.startsWith('opt.')) opt[k.slice(4)] = v;
  if (!arrays['params'] || !arrays['buffers']) throw new InvalidArgumentError('checkpoint arrays', 'params and buffers', Object.keys(arrays).join(', '));
  return { header, state: new TrainState(arrays['params'], arrays['buffers'], opt, header.step, rng) };
}

/** Every header field present with the right type (a hand-edited or foreign file fails here, naming the field). */
function checkHeader(h: unknown): CheckpointHeader {
  if (typeof h !== 'object' || h === null || Array.isArray(h)) throw new InvalidArgumentError('checkpoint header', 'a JSON object', describe(h));
  const r = h as Record<string, unknown>;
  const need = (key: string, ok: (v: unknown) => boolean, what: string): void => {
    if (!ok(r[key])) throw new InvalidArgumentError(`checkpoint header.${key}`, what, r[key] === undefined ? 'nothing (missing field)' : describe(r[key]));
  };
  const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);
  need('format', (v) => v === 'calibkit-checkpoint', "'calibkit-checkpoint'");
  need('version', (v) => v === VERSION, String(VERSION));
  need('step', (v) => Number.isInteger(v) && (v as number) >= 0, 'an integer ≥ 0');
  need('rng', (v) => Array.isArray(v) && v.length >= 4 && v.every((x) => x === null || typeof x === 'number'), 'the generator state (numbers)');
  need('model', isObject, 'a model specification');
  need('optimizer', (v) => isObject(v) && typeof (v as { kind?: unknown }).kind === 'string', 'an optimizer specification');
  need('layout', (v) => isObject(v) && Array.isArray((v as { params?: unknown }).params) && Array.isArray((v as { buffers?: unknown }).buffers), '{ params, buffers }');
  need(
    'arrays',
    (v) => Array.isArray(v) && v.every((a) => isObject(a) && typeof a.name === 'string' && Number.isInteger(a.length) && Number.isInteger(a.offset)),
    'a list of { name, dtype, length, offset }',
  );
  need('metadata', isObject, 'an object');
  return r as unknown as CheckpointHeader;
}

function checkLayout(header: CheckpointHeader, layout: ModelLayout): void {
  const compare = (what: 'params' | 'buffers', entries: readonly { name: string; shape: readonly number[] }[]): void => {
    const stored = header.layout[what];
    if (stored.length !== entries.length) throw new InvalidArgumentError(`checkpoint ${what}`, `${entries.length} entries (model ${layout.model.kind})`, String(stored.length));
    entries.forEach((e, i) => {
      const [name, shape] = stored[i]!;
      if (name !== e.name || shape.join(',') !== e.shape.join(',')) {
        throw new InvalidArgumentError(`checkpoint ${what}[${i}]`, `${e.name} [${e.shape.join(', ')}]`, `${name} [${shape.join(', ')}]`);
      }
    });
  };
  compare('params', layout.params.entries);
  compare('buffers', layout.buffers.entries);
}

/** Atomically write a checkpoint file. */
export async function saveCheckpoint(path: string, content: CheckpointContent): Promise<void> {
  if (typeof path !== 'string' || path === '') throw new InvalidArgumentError('path', 'a file path', describe(path));
  await atomicWriteFile(path, encodeCheckpoint(content));
}

/** Read a checkpoint file (see `decodeCheckpoint` for the checks). */
export async function loadCheckpoint(path: string, expect: { model?: Model; optimizer?: Optimizer } = {}): Promise<Checkpoint> {
  if (typeof path !== 'string' || path === '') throw new InvalidArgumentError('path', 'a file path', describe(path));
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') return invalidArgument(path, 'a checkpoint file', 'a directory');
    if (code === 'ENOENT') return invalidArgument(path, 'a checkpoint file', 'no such file');
    if (code === 'EACCES') return invalidArgument(path, 'a readable checkpoint file', 'permission denied');
    throw e;
  }
  try {
    return decodeCheckpoint(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), expect);
  } catch (e) {
    if (e instanceof InvalidArgumentError) e.message = `${path}: ${e.message}`;
    throw e;
  }
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}
