import { inflateRawSync } from 'node:zlib';
import { quotePath, type InputContext } from './input-file.js';
import { invalidArgument } from '../util/errors.js';

/**
 * The members of a ZIP archive held in memory (PKWARE APPNOTE 6.3: end-of-central-directory record, central
 * directory, local headers; ZIP64 sizes and offsets, which `np.savez` always writes), stored (method 0) or
 * deflated (method 8, `np.savez_compressed`; inflated with Node's zlib). Encrypted members, other methods and
 * multi-disk archives are refused. CRCs are not checked (zlib checks the deflate stream's own consistency).
 */
export function readZipMembers(bytes: Uint8Array, ctx: InputContext): Map<string, Uint8Array> {
  const fail = (what: string): never => invalidArgument(ctx.argName, 'a ZIP archive (.npz)', `${what} in ${quotePath(ctx.path)}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) fail('no end-of-central-directory record');
  let entries = view.getUint16(eocd + 10, true);
  let cdOffset = view.getUint32(eocd + 16, true);
  if (entries === 0xffff || cdOffset === 0xffffffff) {
    // ZIP64 end-of-central-directory locator just before the EOCD.
    const locator = eocd - 20;
    if (locator < 0 || view.getUint32(locator, true) !== 0x07064b50) fail('a ZIP64 archive without its locator');
    const record = Number(view.getBigUint64(locator + 8, true));
    if (view.getUint32(record, true) !== 0x06064b50) fail('a broken ZIP64 end-of-central-directory record');
    entries = Number(view.getBigUint64(record + 32, true));
    cdOffset = Number(view.getBigUint64(record + 48, true));
  }
  const members = new Map<string, Uint8Array>();
  let p = cdOffset;
  for (let e = 0; e < entries; e++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== 0x02014b50) fail(`a broken central directory entry ${e}`);
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    let compressed = view.getUint32(p + 20, true);
    let size = view.getUint32(p + 24, true);
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    let local = view.getUint32(p + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLength));
    // ZIP64 extra field (id 1): the 64-bit values of the fields saturated at 0xffffffff, in this order.
    let x = p + 46 + nameLength;
    const extraEnd = x + extraLength;
    while (x + 4 <= extraEnd) {
      const id = view.getUint16(x, true);
      const len = view.getUint16(x + 2, true);
      if (id === 1) {
        let q = x + 4;
        if (size === 0xffffffff) ((size = Number(view.getBigUint64(q, true))), (q += 8));
        if (compressed === 0xffffffff) ((compressed = Number(view.getBigUint64(q, true))), (q += 8));
        if (local === 0xffffffff) local = Number(view.getBigUint64(q, true));
      }
      x += 4 + len;
    }
    if (flags & 1) fail(`an encrypted member ${JSON.stringify(name)}`);
    if (method !== 0 && method !== 8) fail(`member ${JSON.stringify(name)} compressed with method ${method} (only stored and deflate are read)`);
    if (view.getUint32(local, true) !== 0x04034b50) fail(`a broken local header of ${JSON.stringify(name)}`);
    const dataStart = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const raw = bytes.subarray(dataStart, dataStart + compressed);
    if (raw.length !== compressed) fail(`a truncated member ${JSON.stringify(name)}`);
    let data: Uint8Array;
    try {
      data = method === 0 ? raw : new Uint8Array(inflateRawSync(raw));
    } catch (error) {
      return fail(`member ${JSON.stringify(name)} that does not inflate (${(error as Error).message})`);
    }
    if (data.length !== size) fail(`member ${JSON.stringify(name)} of ${data.length} bytes where the directory says ${size}`);
    members.set(name, data);
    p = extraEnd + commentLength;
  }
  return members;
}
