/**
 * SGD with momentum and L2 weight decay as ONE pass over the flat state on the host, in WebAssembly SIMD (f32x4):
 *   g ← ∇ + λ·p;  b ← μ·b + g;  p ← p − η·b
 * in exactly the float32 operations, order and rounding of the traced update (sgd.ts, run by ORT as six element-wise
 * nodes), so both give bit-identical results (test/optim/sgd-host-kernel.test.ts). ORT has no fused kernel for this:
 * its six nodes make ≈ 15 passes over the state, this kernel reads p, ∇, b and writes p, b once — on the MLP's
 * 669,706 parameters 0.16 ms against 1.79 ms for the update graph (engine notebook, round six). The module is
 * under 200 bytes, assembled below (no toolchain, no download); the last n mod 4 elements go through the same arithmetic in
 * JavaScript (Math.fround after each operation is IEEE float32 arithmetic).
 */

const SIMD = 0xfd;

/** Unsigned LEB128. */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

function section(id: number, bytes: number[]): number[] {
  return [id, ...leb(bytes.length), ...bytes];
}

function name(s: string): number[] {
  return [...leb(s.length), ...[...s].map((c) => c.charCodeAt(0))];
}

/**
 * The module: imports memory env.mem, exports sgd(p, g, m, n4, λ, μ, η) over byte offsets p, g, m and n4 elements
 * (a multiple of 4). Locals: 7 i (byte offset), 8 end, 9–11 splats of λ, μ, η, 12 p, 13 b.
 */
function moduleBytes(): Uint8Array {
  const get = (i: number): number[] => [0x20, i];
  const set = (i: number): number[] => [0x21, i];
  const load = [SIMD, ...leb(0x00), 4, 0];
  const store = [SIMD, ...leb(0x0b), 4, 0];
  const splat = [SIMD, ...leb(0x13)];
  const add = [SIMD, ...leb(0xe4)];
  const sub = [SIMD, ...leb(0xe5)];
  const mul = [SIMD, ...leb(0xe6)];
  const at = (base: number): number[] => [...get(base), ...get(7), 0x6a];
  // prettier-ignore
  const body = [
    ...get(4), ...splat, ...set(9), ...get(5), ...splat, ...set(10), ...get(6), ...splat, ...set(11),
    ...get(3), 0x41, 4, 0x6c, ...set(8), // end = n4 · 4
    0x02, 0x40, 0x03, 0x40, // block, loop
    ...get(7), ...get(8), 0x4f, 0x0d, 1, // i ≥ end → exit
    ...at(0), ...load, ...set(12), // p
    ...at(2), ...load, ...get(10), ...mul, // μ·b
    ...at(1), ...load, ...get(12), ...get(9), ...mul, ...add, // ∇ + λ·p
    ...add, ...set(13), // b' = μ·b + g
    ...at(2), ...get(13), ...store,
    ...at(0), ...get(12), ...get(13), ...get(11), ...mul, ...sub, ...store, // p − η·b'
    ...get(7), 0x41, 16, 0x6a, ...set(7),
    0x0c, 0, 0x0b, 0x0b, 0x0b, // br loop; end loop, block, function
  ];
  const func = [2, 2, 0x7f, 5, 0x7b, ...body]; // locals: 2 × i32, 5 × v128
  // prettier-ignore
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, [1, 0x60, 7, 0x7f, 0x7f, 0x7f, 0x7f, 0x7d, 0x7d, 0x7d, 0]),
    ...section(2, [1, ...name('env'), ...name('mem'), 0x02, 0x00, 1]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name('sgd'), 0x00, 0]),
    ...section(10, [1, ...leb(func.length), ...func]),
  ]);
}

/** Elements per pass through the kernel's memory (16384 floats = 64 KB per array; a multiple of 4). */
const CHUNK = 16384;

type Kernel = (p: number, g: number, m: number, n4: number, decay: number, momentum: number, lr: number) => void;

/** The part of the WebAssembly JS API used here (the project's TypeScript lib has no WebAssembly declarations). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
}

/** The compiled kernel and its memory (null where WebAssembly SIMD is unavailable). */
let compiled: { kernel: Kernel; memory: WasmMemory } | null | undefined;

function instance(): { kernel: Kernel; memory: WasmMemory } | null {
  if (compiled !== undefined) return compiled;
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm) return (compiled = null);
  try {
    const memory = new wasm.Memory({ initial: 1 });
    const module = new wasm.Module(moduleBytes());
    const inst = new wasm.Instance(module, { env: { mem: memory } });
    compiled = { kernel: inst.exports['sgd'] as Kernel, memory };
  } catch {
    compiled = null;
  }
  return compiled;
}

/** Whether this runtime can run the kernel (WebAssembly with SIMD). */
export function sgdHostKernelAvailable(): boolean {
  return instance() !== null;
}

/**
 * One SGD-momentum update with weight decay `decay` (λ), momentum `momentum` (μ) and learning rate `lr` (η), all
 * rounded to float32 as the graph's constants and inputs are, written IN PLACE into `params` and `buffer` (no new
 * arrays: a fresh multi-MB buffer per step costs more in page faults and garbage collection than the update itself).
 */
export function sgdMomentumHostUpdate(params: Float32Array, grad: Float32Array, buffer: Float32Array, decay: number, momentum: number, lr: number): void {
  const k = instance();
  if (!k) throw new Error('sgdMomentumHostUpdate needs WebAssembly SIMD (check sgdHostKernelAvailable first)');
  const n = params.length;
  if (grad.length !== n || buffer.length !== n) throw new Error(`sgdMomentumHostUpdate: ${n} parameters, ${grad.length} gradients, ${buffer.length} momentum values`);
  const have = k.memory.buffer.byteLength;
  if (have < 3 * 4 * CHUNK) k.memory.grow(Math.ceil((3 * 4 * CHUNK - have) / 65536));
  const heap = new Float32Array(k.memory.buffer);
  const f = Math.fround;
  const [l, mu, eta] = [f(decay), f(momentum), f(lr)];
  // Chunks of CHUNK elements: the kernel's memory stays 192 KB whatever the model, and each chunk's copies in and
  // out hit the cache the kernel just used.
  for (let start = 0; start < n; start += CHUNK) {
    const c = Math.min(CHUNK, n - start);
    heap.set(params.subarray(start, start + c), 0);
    heap.set(grad.subarray(start, start + c), CHUNK);
    heap.set(buffer.subarray(start, start + c), 2 * CHUNK);
    const c4 = c & ~3;
    k.kernel(0, 4 * CHUNK, 8 * CHUNK, c4, l, mu, eta);
    for (let i = c4; i < c; i++) {
      const p = heap[i]!;
      const g = f(heap[CHUNK + i]! + f(p * l));
      const b = f(f(heap[2 * CHUNK + i]! * mu) + g);
      heap[2 * CHUNK + i] = b;
      heap[i] = f(p - f(b * eta));
    }
    params.set(heap.subarray(0, c), start);
    buffer.set(heap.subarray(2 * CHUNK, 2 * CHUNK + c), start);
  }
}
