import { invalidArgument } from '../../util/errors.js';

/**
 * LZ4 frame decompression (the `.lz4` files of `lz4` and of apt, which keeps its package lists compressed with
 * Acquire::GzipIndexes / lz4 on many images). Format: the LZ4 Frame Format 1.6.x and the LZ4 Block Format
 * (github.com/lz4/lz4, doc/lz4_Frame_format.md, doc/lz4_Block_format.md):
 *
 *   frame  = magic 0x184D2204 (LE) · FLG · BD · [content size, 8 B] · [dictionary id, 4 B] · HC · blocks · 0 (4 B) · [checksum, 4 B]
 *   block  = size (4 B LE; bit 31 set = stored uncompressed) · data · [block checksum, 4 B]
 *   sequence = token (literal length high nibble, match length − 4 low nibble; 15 = more bytes of 255 follow)
 *              · literals · offset (2 B LE, 1…65535 back) · extra match-length bytes
 *
 * Blocks are decoded into one output buffer, so matches may reach into earlier blocks (linked blocks) as well as
 * stay within theirs (independent blocks). Concatenated frames and skippable frames (magic 0x184D2A5?) are read in
 * order. Checksums (xxHash32) are skipped, not verified; frames with a dictionary id are refused.
 */
const MAGIC = 0x184d2204;

/** A growable byte buffer. */
class Output {
  bytes = new Uint8Array(1 << 16);
  length = 0;
  reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }
}

/** Decode one LZ4 block `input[start, end)` onto `out`. */
function decodeBlock(input: Uint8Array, start: number, end: number, out: Output, source: string): void {
  let i = start;
  const bad = (what: string): never => invalidArgument(source, 'a valid LZ4 block', `${what} at byte ${i}`);
  while (i < end) {
    const token = input[i++]!;
    let literals = token >>> 4;
    if (literals === 15) {
      let b: number;
      do {
        if (i >= end) bad('a truncated literal length');
        b = input[i++]!;
        literals += b;
      } while (b === 255);
    }
    if (i + literals > end) bad('literals past the end of the block');
    out.reserve(literals);
    out.bytes.set(input.subarray(i, i + literals), out.length);
    out.length += literals;
    i += literals;
    if (i >= end) break; // the last sequence has literals only
    if (i + 2 > end) bad('a truncated match offset');
    const offset = input[i]! | (input[i + 1]! << 8);
    i += 2;
    if (offset === 0 || offset > out.length) bad(`a match offset ${offset} before the start of the output`);
    let match = (token & 15) + 4;
    if ((token & 15) === 15) {
      let b: number;
      do {
        if (i >= end) bad('a truncated match length');
        b = input[i++]!;
        match += b;
      } while (b === 255);
    }
    out.reserve(match);
    const o = out.bytes;
    let from = out.length - offset;
    // Byte by byte: the match may overlap the bytes it produces (offset < length repeats a pattern).
    for (let k = 0; k < match; k++) o[out.length++] = o[from++]!;
  }
}

const u32 = (b: Uint8Array, i: number): number => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;

/** Whether `bytes` start with the LZ4 frame magic number. */
export function isLz4(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && u32(bytes, 0) === MAGIC;
}

/** Decompress LZ4 frame data (one or more frames, see the module comment). `source` names the data in errors. */
export function decompressLz4(input: Uint8Array, source = 'lz4'): Uint8Array {
  const out = new Output();
  let i = 0;
  if (!isLz4(input)) invalidArgument(source, 'LZ4 frame data (magic 04 22 4D 18)', 'other bytes');
  while (i < input.length) {
    if (i + 4 > input.length) invalidArgument(source, 'a complete LZ4 frame', `${input.length - i} trailing bytes`);
    const magic = u32(input, i);
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      if (i + 8 > input.length) invalidArgument(source, 'a complete skippable frame', 'a truncated header');
      i += 8 + u32(input, i + 4);
      continue;
    }
    if (magic !== MAGIC) invalidArgument(source, 'an LZ4 frame magic number', `0x${magic.toString(16)} at byte ${i}`);
    const flg = input[i + 4]!;
    if (flg >>> 6 !== 1) invalidArgument(source, 'LZ4 frame version 01', `version ${flg >>> 6}`);
    const blockChecksum = (flg & 0x10) !== 0;
    const contentSize = (flg & 0x08) !== 0;
    const contentChecksum = (flg & 0x04) !== 0;
    if ((flg & 0x01) !== 0) invalidArgument(source, 'an LZ4 frame without a dictionary', 'a dictionary id');
    i += 6 + (contentSize ? 8 : 0) + 1; // magic, FLG, BD, [size], HC
    for (;;) {
      if (i + 4 > input.length) invalidArgument(source, 'an LZ4 block size or end mark', 'the end of the data');
      const word = u32(input, i);
      i += 4;
      if (word === 0) break;
      const size = word & 0x7fffffff;
      if (i + size > input.length) invalidArgument(source, `an LZ4 block of ${size} bytes`, `${input.length - i} bytes left`);
      if ((word & 0x80000000) !== 0) {
        out.reserve(size);
        out.bytes.set(input.subarray(i, i + size), out.length);
        out.length += size;
      } else decodeBlock(input, i, i + size, out, source);
      i += size + (blockChecksum ? 4 : 0);
    }
    i += contentChecksum ? 4 : 0;
  }
  return out.bytes.slice(0, out.length);
}
