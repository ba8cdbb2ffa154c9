import { invalidArgument } from '../../util/errors.js';

/**
 * A minimal reader of (ustar / GNU / pax) tar archives held in memory, enough for dataset archives.
 * An archive is a sequence of 512-byte headers, each followed by the entry's data padded to 512 bytes, ended
 * by zero blocks. Header fields used: name (0, 100 bytes), size (124, 12 bytes octal, or base-256 when the
 * first byte has its high bit set), checksum (148, 8 bytes: sum of the header bytes with this field read as
 * spaces), type flag (156), ustar prefix (345, 155 bytes, when the magic at 257 is "ustar").
 * GNU long names (type 'L') and pax extended headers (type 'x', keys path and size) are honoured.
 */
export interface TarEntry {
  /** Path inside the archive. */
  readonly name: string;
  readonly type: 'file' | 'directory' | 'other';
  readonly size: number;
  /** The entry's bytes (a view into the archive). */
  readonly data: Uint8Array;
}

const decoder = new TextDecoder();

function field(header: Uint8Array, offset: number, length: number): string {
  const bytes = header.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  return decoder.decode(end === -1 ? bytes : bytes.subarray(0, end));
}

function numeric(header: Uint8Array, offset: number, length: number, source: string): number {
  if (header[offset]! & 0x80) {
    let v = header[offset]! & 0x7f;
    for (let i = 1; i < length; i++) v = v * 256 + header[offset + i]!;
    return v;
  }
  const text = field(header, offset, length).trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) invalidArgument(source, 'a tar archive (octal header fields)', `the field ${JSON.stringify(text)} at byte ${offset}`);
  return parseInt(text, 8);
}

/** Iterate over the entries of a tar archive. `source` names the archive in error messages. */
export function* readTar(archive: Uint8Array, source = 'tar'): Generator<TarEntry> {
  let offset = 0;
  let longName: string | undefined;
  let pax: Record<string, string> = {};
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) return;
    const stored = numeric(header, 148, 8, source);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
    if (sum !== stored) invalidArgument(source, 'a tar archive with valid header checksums', `a bad checksum at byte ${offset} (corrupt or not a tar file)`);
    let size = numeric(header, 124, 12, source);
    const flag = String.fromCharCode(header[156]!);
    let name = field(header, 0, 100);
    if (field(header, 257, 5) === 'ustar') {
      const prefix = field(header, 345, 155);
      if (prefix) name = `${prefix}/${name}`;
    }
    if (pax['size'] !== undefined) size = Number(pax['size']);
    const dataStart = offset + 512;
    if (dataStart + size > archive.length) invalidArgument(source, `an entry of ${size} bytes at byte ${dataStart}`, `an archive of ${archive.length} bytes (truncated)`);
    const data = archive.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / 512) * 512;
    if (flag === 'L') {
      longName = field(data, 0, data.length);
      continue;
    }
    if (flag === 'x') {
      pax = parsePax(data);
      continue;
    }
    if (flag === 'g') continue;
    if (longName !== undefined) name = longName;
    if (pax['path'] !== undefined) name = pax['path'];
    longName = undefined;
    pax = {};
    const type = flag === '0' || flag === '\0' || flag === '7' ? 'file' : flag === '5' ? 'directory' : 'other';
    yield { name, type, size, data };
  }
}

/** Parse pax records "<length> <key>=<value>\n". */
function parsePax(data: Uint8Array): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < data.length) {
    const space = data.indexOf(0x20, i);
    if (space === -1) break;
    const length = Number(decoder.decode(data.subarray(i, space)));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = decoder.decode(data.subarray(space + 1, i + length - 1));
    const eq = record.indexOf('=');
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    i += length;
  }
  return out;
}

/** Write a ustar archive (regular files only, names < 100 bytes); used to build test archives. */
export function writeTar(files: readonly { name: string; data: Uint8Array }[]): Uint8Array {
  const encoder = new TextEncoder();
  const blocks: Uint8Array[] = [];
  for (const f of files) {
    const header = new Uint8Array(512);
    const name = encoder.encode(f.name);
    if (name.length >= 100) invalidArgument('files[].name', 'a name shorter than 100 bytes', JSON.stringify(f.name));
    header.set(name, 0);
    header.set(encoder.encode('0000644\0'), 100);
    header.set(encoder.encode('0000000\0'), 108);
    header.set(encoder.encode('0000000\0'), 116);
    header.set(encoder.encode(f.data.length.toString(8).padStart(11, '0') + '\0'), 124);
    header.set(encoder.encode('00000000000\0'), 136);
    header[156] = 0x30;
    header.set(encoder.encode('ustar\x0000'), 257);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
    header.set(encoder.encode(sum.toString(8).padStart(6, '0') + '\0 '), 148);
    blocks.push(header);
    const padded = new Uint8Array(Math.ceil(f.data.length / 512) * 512);
    padded.set(f.data);
    blocks.push(padded);
  }
  blocks.push(new Uint8Array(1024));
  const out = new Uint8Array(blocks.reduce((a, b) => a + b.length, 0));
  let o = 0;
  for (const b of blocks) {
    out.set(b, o);
    o += b.length;
  }
  return out;
}
