/**
 * A minimal protocol-buffers encoder (wire format only: varint, 64-bit, length-delimited, 32-bit), enough to
 * write ONNX ModelProto. No schema, no decoding; field numbers live in `onnx-model.ts`.
 * Integers are encoded as proto int64 (negative numbers as 10-byte two's complement varints).
 */
export class ProtoWriter {
  private buf = new Uint8Array(256);
  private len = 0;

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  private byte(b: number): void {
    this.reserve(1);
    this.buf[this.len++] = b;
  }

  /** Raw varint of a non-negative or negative (int64) integer. */
  varint(value: number): void {
    if (!Number.isInteger(value)) throw new RangeError(`protobuf: varint needs an integer, got ${value}`);
    if (value >= 0 && value <= 0xffffffff) {
      let v = value;
      while (v >= 0x80) {
        this.byte((v & 0x7f) | 0x80);
        v = Math.floor(v / 128);
      }
      this.byte(v);
      return;
    }
    let v = BigInt.asUintN(64, BigInt(value));
    while (v >= 0x80n) {
      this.byte(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.byte(Number(v));
  }

  private tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  /** An int32/int64/enum/bool field (wire type 0). */
  int(field: number, value: number): void {
    this.tag(field, 0);
    this.varint(value);
  }

  /** A float field (wire type 5). */
  float(field: number, value: number): void {
    this.tag(field, 5);
    this.reserve(4);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.len, 4).setFloat32(0, value, true);
    this.len += 4;
  }

  /** A bytes field (wire type 2). */
  bytes(field: number, data: Uint8Array): void {
    this.tag(field, 2);
    this.varint(data.length);
    this.reserve(data.length);
    this.buf.set(data, this.len);
    this.len += data.length;
  }

  /** A UTF-8 string field. */
  string(field: number, value: string): void {
    this.bytes(field, new TextEncoder().encode(value));
  }

  /** An embedded message field, written by `body` into a nested writer. */
  message(field: number, body: (w: ProtoWriter) => void): void {
    const inner = new ProtoWriter();
    body(inner);
    this.bytes(field, inner.finish());
  }

  /** A packed repeated int64 field. */
  packedInts(field: number, values: readonly number[]): void {
    const inner = new ProtoWriter();
    for (const v of values) inner.varint(v);
    this.bytes(field, inner.finish());
  }

  /** A packed repeated float field. */
  packedFloats(field: number, values: readonly number[]): void {
    const data = new Uint8Array(4 * values.length);
    const view = new DataView(data.buffer);
    values.forEach((v, i) => view.setFloat32(4 * i, v, true));
    this.bytes(field, data);
  }

  /** The encoded bytes. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}
