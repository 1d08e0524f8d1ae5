// Canonical byte encoding of state values. Equal values encode to equal bytes, whatever order
// their Sets and Maps were built in (Records also by their name, which immutable.js `is`
// ignores: that can only split states, never merge different ones). Unordered
// collections are encoded with their entries sorted by their own encodings. The encoder
// reuses one growing buffer, so encoding a state allocates only for sorting.
import { isImmutable, isList, isMap, isOrdered, isRecord, isSet, Record as ImmutableRecord } from 'immutable';

const TAG_NULL = 1;
const TAG_FALSE = 2;
const TAG_TRUE = 3;
const TAG_NUMBER = 4;
const TAG_STRING = 5;
const TAG_LIST = 6;
const TAG_MAP = 7;
const TAG_SET = 8;
const TAG_ORDERED_MAP = 9;
const TAG_ORDERED_SET = 10;
const TAG_RECORD = 11;

/** Why a value cannot be part of a state; the path says where in the state it sits. */
export class NotAStateValue extends Error {
  constructor(
    readonly path: string,
    readonly what: string,
  ) {
    super(`${what} at ${path || 'the top level'}`);
  }
}

export class CanonicalEncoder {
  private buf = new Uint8Array(1024);
  private view = new DataView(this.buf.buffer);
  private pos = 0;

  /** Encodes `v`; the bytes are valid until the next call. Returns their length. */
  encode(v: unknown): number {
    this.pos = 0;
    this.write(v, '');
    // Zero the padding up to the next 16 bytes, so the hash can read whole blocks.
    const end = (this.pos + 15) & ~15;
    this.ensure(end - this.pos);
    this.buf.fill(0, this.pos, end);
    return this.pos;
  }

  /** The buffer holding the last encoding, padded with zeros to a multiple of 16 bytes. */
  get bytes(): Uint8Array {
    return this.buf;
  }

  get length(): number {
    return this.pos;
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  private byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  private u32(n: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, n, true);
    this.pos += 4;
  }

  private str(s: string): void {
    const n = s.length;
    this.u32(n);
    this.ensure(2 * n);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      // Big-endian code units, so byte order sorts strings the way code units do.
      buf[p++] = c >>> 8;
      buf[p++] = c & 0xff;
    }
    this.pos = p;
  }

  private write(v: unknown, path: string): void {
    switch (typeof v) {
      case 'boolean':
        this.byte(v ? TAG_TRUE : TAG_FALSE);
        return;
      case 'number':
        if (Number.isNaN(v)) throw new NotAStateValue(path, 'NaN');
        this.byte(TAG_NUMBER);
        this.ensure(8);
        // -0 and 0 are the same value to immutable.js.
        this.view.setFloat64(this.pos, v === 0 ? 0 : v, false);
        this.pos += 8;
        return;
      case 'string':
        this.byte(TAG_STRING);
        this.str(v);
        return;
      case 'undefined':
        throw new NotAStateValue(path, 'undefined');
      case 'function':
        throw new NotAStateValue(path, 'a function');
      case 'bigint':
      case 'symbol':
        throw new NotAStateValue(path, `a ${typeof v}`);
    }
    if (v === null) {
      this.byte(TAG_NULL);
      return;
    }
    if (isRecord(v)) {
      this.byte(TAG_RECORD);
      // The name and the field names too: two Record types with the same values are not the
      // same state. Fields come in the order the Record's factory declared them.
      this.str(ImmutableRecord.getDescriptiveName(v));
      const fields = v.toSeq();
      this.u32(fields.count());
      for (const [k, x] of fields.entries()) {
        this.str(String(k));
        this.write(x, `${path}.${String(k)}`);
      }
      return;
    }
    if (isList(v)) {
      this.byte(TAG_LIST);
      this.u32(v.size);
      let i = 0;
      for (const x of v) this.write(x, `${path}[${i++}]`);
      return;
    }
    if (isMap(v)) {
      const ordered = isOrdered(v);
      this.byte(ordered ? TAG_ORDERED_MAP : TAG_MAP);
      this.u32(v.size);
      const start = this.pos;
      const starts: number[] = [];
      for (const [k, x] of v.entries()) {
        starts.push(this.pos);
        this.write(k, `${path}{key}`);
        this.write(x, `${path}[${String(k)}]`);
      }
      if (!ordered) this.sortSegments(start, starts);
      return;
    }
    if (isSet(v)) {
      const ordered = isOrdered(v);
      this.byte(ordered ? TAG_ORDERED_SET : TAG_SET);
      this.u32(v.size);
      const start = this.pos;
      const starts: number[] = [];
      for (const x of v) {
        starts.push(this.pos);
        this.write(x, `${path}{member}`);
      }
      if (!ordered) this.sortSegments(start, starts);
      return;
    }
    if (isImmutable(v)) throw new NotAStateValue(path, 'an immutable.js Seq or Stack');
    if (Array.isArray(v)) throw new NotAStateValue(path, 'a plain array (use an immutable List)');
    if (v instanceof Date) throw new NotAStateValue(path, 'a Date (use a number)');
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) {
      throw new NotAStateValue(path, 'a plain object (use an immutable Record or Map)');
    }
    throw new NotAStateValue(path, `an instance of ${proto?.constructor?.name ?? 'a class'}`);
  }

  /** Rewrites the segments [starts[i], starts[i+1]) ending at this.pos in sorted byte order. */
  private sortSegments(start: number, starts: number[]): void {
    const n = starts.length;
    if (n < 2) return;
    const end = this.pos;
    const buf = this.buf;
    const segEnd = (i: number) => (i + 1 < n ? starts[i + 1] : end);
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort((a, b) => {
      const a0 = starts[a];
      const a1 = segEnd(a);
      const b0 = starts[b];
      const b1 = segEnd(b);
      const la = a1 - a0;
      const lb = b1 - b0;
      const l = la < lb ? la : lb;
      for (let i = 0; i < l; i++) {
        const d = buf[a0 + i] - buf[b0 + i];
        if (d !== 0) return d;
      }
      return la - lb;
    });
    const copy = buf.slice(start, end);
    let p = start;
    for (const i of order) {
      const s = starts[i] - start;
      const e = segEnd(i) - start;
      buf.set(copy.subarray(s, e), p);
      p += e - s;
    }
  }
}
