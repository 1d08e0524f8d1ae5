// States at rest: the breadth-first frontier holds each state as a few hundred bytes written
// here, not as an immutable.js object graph, and decodes it when it is expanded. Unlike the
// canonical encoding the fingerprints come from (encoding.ts), this one keeps every order the
// value has, the iteration order of a Map or Set included: a model's params() may list in that
// order, and a decoded state must give the successors, in the order, that the state itself
// gave. So it is decodable, and equal states may encode differently (the fingerprint, not
// these bytes, tells states apart).
//
// Strings are written as indices into a table of the strings met so far, and Records by the
// index of their type in a registry filled as they are met, by name: the names are what a
// checkpoint can record to rebuild them in another process, so a Record type must have one
// (MC112), and one name can stand for only one type.
//
// This module owns the format's frame (scalars, strings, "the same as before"); each
// representation (representations/) writes and reads its own values under its own tags.
import { REPRESENTATIONS, representationOf } from './representations/table.ts';
import type { AtRest } from './representations/representation.ts';
import { R } from './representations/tags.ts';
import { NotAStateValue, UnnamedRecord } from './valueErrors.ts';

/** A Record type as the registry knows it. */
export interface RecordType {
  /** Its index in the registry: what a state at rest writes for it. */
  readonly index: number;
  readonly name: string;
  readonly keys: readonly string[];
  readonly make: (values: Record<string, unknown>) => unknown;
  /** The type's constructor, as its instances name it (`constructor`). */
  readonly ctor: object;
}

/** Each codec tag's reader, from the table: the representation that writes the tag reads it. */
const READERS: (AtRest | undefined)[] = (() => {
  const readers: (AtRest | undefined)[] = new Array(256).fill(undefined);
  for (const r of REPRESENTATIONS) {
    for (const t of r.atRest.tags) {
      if (readers[t] !== undefined) throw new Error(`state codec: tag ${t} is read by two representations`);
      readers[t] = r.atRest;
    }
  }
  return readers;
})();

export class StateCodec {
  private buf = new Uint8Array(4096);
  private pos = 0;
  private readonly f64 = new Float64Array(1);
  private readonly f64Bytes = new Uint8Array(this.f64.buffer);
  private readonly stringIndex = new Map<string, number>();
  private readonly strings: string[] = [];
  private readonly typeIndex = new Map<object, RecordType>();
  private readonly types: RecordType[] = [];
  private readonly typeByName = new Map<string, object>();
  /** How each prototype's values are written, asked of the table once. */
  private readonly writers = new Map<object | null, AtRest>();
  private lastProto: object | null | undefined = undefined;
  private lastWriter: AtRest | undefined;
  /** Objects a representation interns (packed types, by identity: states stay in the thread that wrote them, so the objects themselves are the registry). */
  private readonly internIndex = new Map<object, number>();
  private readonly internedObjects: object[] = [];
  /** Decoding: the bytes being read and where. */
  private in: Uint8Array = this.buf;
  private at = 0;

  /**
   * Encodes `v` as a difference from `prev`, the state encoded just before it in the same
   * sequence (undefined for the first): a part of `v` that is the corresponding part of `prev`
   * itself (the same object, as siblings share most of their parent's) is one byte. Its bytes
   * are `bytes` from 0 to the returned length, valid until the next call.
   */
  encode(v: unknown, prev?: unknown): number {
    this.pos = 0;
    this.write(v, prev);
    return this.pos;
  }

  get bytes(): Uint8Array {
    return this.buf;
  }

  /**
   * The value encoded in `bytes` from `start` to `end` against `prev`, the value decoded just
   * before it in the same sequence: its unchanged parts are `prev`'s own objects, so a decoded
   * state shares its parts with its neighbours as the states themselves did (and the
   * fingerprints' digests of those parts, kept by identity, are found again).
   */
  decode(bytes: Uint8Array, start: number, end: number, prev?: unknown): unknown {
    this.in = bytes;
    this.at = start;
    const v = this.read(prev);
    if (this.at !== end) throw new Error(`state codec: read ${this.at - start} bytes of ${end - start}`);
    return v;
  }

  /** The Record type names met so far, for a reader of a checkpoint to check against. */
  get recordNames(): readonly string[] {
    return this.types.map((t) => t.name);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const b = new Uint8Array(size);
    b.set(this.buf.subarray(0, this.pos));
    this.buf = b;
  }

  uvarint(n: number): void {
    this.ensure(5);
    const b = this.buf;
    while (n >= 0x80) {
      b[this.pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    b[this.pos++] = n;
  }

  tag(t: number): void {
    this.ensure(1);
    this.buf[this.pos++] = t;
  }

  /** Writes `v` against `prev` (see encode): for the representations' writes too. */
  write(v: unknown, prev: unknown): void {
    if (v === prev && typeof v === 'object' && v !== null) {
      this.tag(R.SAME);
      return;
    }
    switch (typeof v) {
      case 'boolean':
        this.tag(v ? R.TRUE : R.FALSE);
        return;
      case 'number':
        if ((v | 0) === v && !Object.is(v, -0)) {
          this.tag(R.INT);
          this.uvarint(((v << 1) ^ (v >> 31)) >>> 0);
        } else {
          this.tag(R.FLOAT);
          this.ensure(8);
          this.f64[0] = v;
          this.buf.set(this.f64Bytes, this.pos);
          this.pos += 8;
        }
        return;
      case 'string': {
        let i = this.stringIndex.get(v);
        if (i === undefined) {
          i = this.strings.length;
          this.strings.push(v);
          this.stringIndex.set(v, i);
        }
        this.tag(R.STRING);
        this.uvarint(i);
        return;
      }
    }
    if (v === null) {
      this.tag(R.NULL);
      return;
    }
    if (typeof v !== 'object') throw new NotAStateValue('', typeof v);
    this.writerOf(v).write(this, v, prev);
  }

  /** How `v`'s representation writes it, by its prototype (the last one kept: parts of one kind come in a row). */
  private writerOf(v: object): AtRest {
    const proto = Object.getPrototypeOf(v) as object | null;
    if (proto === this.lastProto) return this.lastWriter!;
    let w = this.writers.get(proto);
    if (w === undefined) {
      const r = representationOf(v);
      if (r === undefined) {
        throw new NotAStateValue('', 'a value that is not an immutable.js collection or Record, a plain array or a plain object');
      }
      w = r.atRest;
      this.writers.set(proto, w);
    }
    this.lastProto = proto;
    this.lastWriter = w;
    return w;
  }

  /**
   * The registry entry of `v`'s Record type (an immutable.js Record or a FlatRecord), registering
   * it when it is new: `nameOf` gives the type's name (undefined for a type given none, MC112),
   * `keysOf` its field names. One name stands for one type: a checkpoint rebuilds Records by name.
   */
  recordType(v: object, nameOf: (v: object) => string | undefined, keysOf: (v: object) => readonly string[]): RecordType {
    const ctor = (v as { constructor: object }).constructor;
    const known = this.typeIndex.get(ctor);
    if (known !== undefined) return known;
    const name = nameOf(v);
    const keys = keysOf(v);
    if (name === undefined) throw new UnnamedRecord(`a Record type with no name (fields ${keys.join(', ')})`);
    const other = this.typeByName.get(name);
    if (other !== undefined && other !== ctor) throw new UnnamedRecord(`two different Record types named ${name}`);
    // (With `new`: a Record type written as a class refuses a call without it, and a factory takes either.)
    const Make = ctor as unknown as new (values: Record<string, unknown>) => unknown;
    const type: RecordType = { index: this.types.length, name, keys, make: (values) => new Make(values), ctor };
    this.types.push(type);
    this.typeIndex.set(ctor, type);
    this.typeByName.set(name, ctor);
    return type;
  }

  /** The Record type registered at `index` (decoding). */
  recordTypeAt(index: number): RecordType {
    return this.types[index];
  }

  /** `o`'s index among the objects interned so far, interning it when it is new. */
  intern(o: object): number {
    let i = this.internIndex.get(o);
    if (i === undefined) {
      i = this.internedObjects.length;
      this.internedObjects.push(o);
      this.internIndex.set(o, i);
    }
    return i;
  }

  /** The object interned at `index` (decoding). */
  interned(index: number): object {
    return this.internedObjects[index];
  }

  readUvarint(): number {
    const b = this.in;
    let n = 0;
    let shift = 0;
    for (;;) {
      const x = b[this.at++];
      n += (x & 0x7f) * 2 ** shift;
      if (x < 0x80) return n;
      shift += 7;
    }
  }

  /** Reads one value against `prev` (see decode): for the representations' reads too. */
  read(prev: unknown): unknown {
    const t = this.in[this.at++];
    switch (t) {
      case R.SAME:
        return prev;
      case R.NULL:
        return null;
      case R.FALSE:
        return false;
      case R.TRUE:
        return true;
      case R.INT: {
        const z = this.readUvarint();
        return (z >>> 1) ^ -(z & 1);
      }
      case R.FLOAT: {
        this.f64Bytes.set(this.in.subarray(this.at, this.at + 8));
        this.at += 8;
        return this.f64[0];
      }
      case R.STRING:
        return this.strings[this.readUvarint()];
    }
    const reader = READERS[t];
    if (reader === undefined) throw new Error(`state codec: unknown tag ${t} at byte ${this.at - 1}`);
    return reader.read(this, t, prev);
  }
}
