import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decompressLz4, isLz4 } from '../../src/data/formats/lz4.js';
import { InvalidArgumentError } from '../../src/util/errors.js';

const text = (b: Uint8Array): string => new TextDecoder().decode(b);
const bytes = (s: string): number[] => [...new TextEncoder().encode(s)];
const le32 = (v: number): number[] => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255, (v >>> 24) & 255];
/** Length continuation bytes of a nibble-overflowing length (value − 15 as 255, 255, …, rest). */
function more(value: number): number[] {
  const out: number[] = [];
  let v = value - 15;
  while (v >= 255) {
    out.push(255);
    v -= 255;
  }
  out.push(v);
  return out;
}
/** One sequence: literals, then (unless last) a match of `match` bytes `offset` back. */
function sequence(literals: string, match?: { offset: number; length: number }): number[] {
  const lit = bytes(literals);
  const ml = match ? match.length - 4 : 0;
  const token = (Math.min(lit.length, 15) << 4) | Math.min(ml, 15);
  return [token, ...(lit.length >= 15 ? more(lit.length) : []), ...lit, ...(match ? [match.offset & 255, match.offset >>> 8, ...(ml >= 15 ? more(ml) : [])] : [])];
}
/** A frame (FLG: version 01, block checksums / content checksum as asked) of the given blocks. */
function frame(blocks: { data: number[]; stored?: boolean }[], flags: { blockChecksum?: boolean; contentChecksum?: boolean } = {}): number[] {
  const flg = 0x40 | (flags.blockChecksum ? 0x10 : 0) | (flags.contentChecksum ? 0x04 : 0);
  const out = [...le32(0x184d2204), flg, 0x40, 0x00];
  for (const b of blocks) out.push(...le32(b.data.length | (b.stored ? 0x80000000 : 0)), ...b.data, ...(flags.blockChecksum ? [0, 0, 0, 0] : []));
  out.push(...le32(0), ...(flags.contentChecksum ? [0, 0, 0, 0] : []));
  return out;
}

test('lz4: a frame written by the lz4 command-line tool (content size, block checksums, content checksum)', () => {
  // printf 'Package: a\nSection: libs\n…' | lz4 --content-size -BX
  const fixture = Buffer.from(
    'BCJNGHxApgAAAAAAAACxXQAAAPURUGFja2FnZTogYQpTZWN0aW9uOiBsaWJzCkRlc2NyaXASAHByYXJ5IG9mHQAPCwAAhXRoaW5ncwoKTwAWYk8Ay2NvbnRyaWIvZ2FtZVgAABMADwUADFBnYW1lCmSTy3QAAAAAVZ87kA==',
    'base64',
  );
  assert.ok(isLz4(fixture));
  assert.equal(
    text(decompressLz4(fixture)),
    'Package: a\nSection: libs\nDescription: library of library of library of things\n\nPackage: b\nSection: contrib/games\nDescription: game game game game game game game game\n',
  );
});

test('lz4: overlapping matches, long literal and match lengths, linked and stored blocks, skippable and concatenated frames', () => {
  const long = 'x'.repeat(300); // literal length 300 = 15 + 255 + 30
  const first = frame(
    [
      { data: [...sequence('ab', { offset: 2, length: 10 }), ...sequence('!')] }, // "ab" + "ababababab" + "!"
      { data: [...sequence(long.slice(0, 1), { offset: 1, length: 280 }), ...sequence(long.slice(0, 19))] }, // 1 + 280 + 19 x's
      { data: [...sequence('', { offset: 313, length: 4 }), ...sequence('.')] }, // linked: "abab" from the first block
      { data: bytes('stored'), stored: true },
    ],
    { blockChecksum: true, contentChecksum: true },
  );
  const skippable = [...le32(0x184d2a53), ...le32(3), 1, 2, 3];
  const second = frame([{ data: sequence('end') }]);
  const out = text(decompressLz4(Uint8Array.from([...first, ...skippable, ...second])));
  assert.equal(out, 'ab' + 'ababababab' + '!' + 'x'.repeat(300) + 'abab.' + 'stored' + 'end');
});

test('lz4: bad data is an error naming the source', () => {
  assert.throws(
    () => decompressLz4(Uint8Array.from([1, 2, 3, 4]), 'f.lz4'),
    (e: unknown) => e instanceof InvalidArgumentError && /f\.lz4: expected LZ4 frame data/.test(e.message),
  );
  const badOffset = frame([{ data: [...sequence('a', { offset: 5, length: 4 }), ...sequence('b')] }]);
  assert.throws(() => decompressLz4(Uint8Array.from(badOffset), 'g.lz4'), /g\.lz4: expected a valid LZ4 block, got a match offset 5 before the start/);
  const truncated = frame([{ data: sequence('abc') }]).slice(0, -4);
  assert.throws(() => decompressLz4(Uint8Array.from(truncated), 'h.lz4'), /h\.lz4: expected an LZ4 block size or end mark/);
});
