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
import {
  List,
  Map as ImmutableMap,
  OrderedMap,
  OrderedSet,
  Set as ImmutableSet,
  Record as ImmutableRecord,
  isList,
  isMap,
  isOrdered,
  isRecord,
  isSet,
  is,
} from 'immutable';
import { NotAStateValue, UnnamedRecord } from './encoding.ts';
import { isPlainObject } from './plainValue.ts';
import { PackedValue, type PackedType } from './packed/packedType.ts';

const TAG_NULL = 0;
const TAG_FALSE = 1;
const TAG_TRUE = 2;
/** A whole number in [-2^31, 2^31), zigzag varint. */
const TAG_INT = 3;
const TAG_FLOAT = 4;
const TAG_STRING = 5;
const TAG_LIST = 6;
const TAG_MAP = 7;
const TAG_ORDERED_MAP = 8;
const TAG_SET = 9;
const TAG_ORDERED_SET = 10;
const TAG_RECORD = 11;
/** The same value as the corresponding part of the previous state (by identity). */
const TAG_SAME = 12;
/** A Map or List with the same keys (indices), in the same order, as the previous state's: the changed entries only. */
const TAG_MAP_PATCH = 13;
const TAG_LIST_PATCH = 14;
/** A plain array: its length and elements; FROZEN also marks one that was frozen, to rebuild it so. */
const TAG_ARRAY = 15;
/** A plain object: its key count, then each key (a string index) and value, in its own key order. */
const TAG_OBJECT = 16;
/** A packed value: its type's index among the packed types met so far, then its words (zigzag varints). */
const TAG_PACKED = 17;
const FROZEN = 0x80;

/** A Record type as the registry knows it. */
interface RecordType {
  readonly name: string;
  readonly keys: readonly string[];
  readonly make: (values: Record<string, unknown>) => unknown;
  /** The type's constructor, as its instances name it (`constructor`). */
  readonly ctor: object;
}

/**
 * Whether a Map key is a plain array or object. immutable.js finds such a key by identity, and a
 * decoded key is a new object: its entry is written whole, never against the previous state's.
 */
function plainKey(k: unknown): boolean {
  return Array.isArray(k) || isPlainObject(k);
}

/** Whether `prev` is a Record of `v`'s type. */
function sameType(v: object, prev: unknown): boolean {
  return (
    prev !== undefined && prev !== null && (prev as { constructor: unknown }).constructor === (v as { constructor: unknown }).constructor
  );
}

export class StateCodec {
  private buf = new Uint8Array(4096);
  private pos = 0;
  private readonly f64 = new Float64Array(1);
  private readonly f64Bytes = new Uint8Array(this.f64.buffer);
  private readonly stringIndex = new Map<string, number>();
  private readonly strings: string[] = [];
  private readonly typeIndex = new Map<object, number>();
  private readonly types: RecordType[] = [];
  private readonly typeByName = new Map<string, object>();
  /** Packed types by identity: states stay in the thread that wrote them, so the type objects themselves are the registry. */
  private readonly packedIndex = new Map<PackedType<unknown, unknown>, number>();
  private readonly packedTypes: PackedType<unknown, unknown>[] = [];
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

  private uvarint(n: number): void {
    this.ensure(5);
    const b = this.buf;
    while (n >= 0x80) {
      b[this.pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    b[this.pos++] = n;
  }

  private tag(t: number): void {
    this.ensure(1);
    this.buf[this.pos++] = t;
  }

  private write(v: unknown, prev: unknown): void {
    if (v === prev && typeof v === 'object' && v !== null) {
      this.tag(TAG_SAME);
      return;
    }
    switch (typeof v) {
      case 'boolean':
        this.tag(v ? TAG_TRUE : TAG_FALSE);
        return;
      case 'number':
        if ((v | 0) === v && !Object.is(v, -0)) {
          this.tag(TAG_INT);
          this.uvarint(((v << 1) ^ (v >> 31)) >>> 0);
        } else {
          this.tag(TAG_FLOAT);
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
        this.tag(TAG_STRING);
        this.uvarint(i);
        return;
      }
    }
    if (v === null) {
      this.tag(TAG_NULL);
      return;
    }
    if (typeof v !== 'object') throw new NotAStateValue('', typeof v);
    if (v instanceof PackedValue) {
      const type = v.$type;
      let t = this.packedIndex.get(type);
      if (t === undefined) {
        t = this.packedTypes.length;
        this.packedTypes.push(type);
        this.packedIndex.set(type, t);
      }
      this.tag(TAG_PACKED);
      this.uvarint(t);
      const w = v.$w;
      for (let i = v.$o, end = v.$o + type.slots; i < end; i++) {
        const x = w[i];
        this.uvarint(((x << 1) ^ (x >> 31)) >>> 0);
      }
      return;
    }
    if (isRecord(v)) {
      const t = this.typeOf(v);
      this.tag(TAG_RECORD);
      this.uvarint(t);
      const r = v as unknown as { get(k: string): unknown };
      const p = sameType(v, prev) ? (prev as { get(k: string): unknown }) : undefined;
      for (const k of this.types[t].keys) this.write(r.get(k), p?.get(k));
      return;
    }
    if (isList(v)) {
      if (isList(prev) && prev.size === v.size) {
        this.listPatch(v, prev);
        return;
      }
      this.tag(TAG_LIST);
      this.uvarint(v.size);
      const p = isList(prev) ? prev : undefined;
      let i = 0;
      for (const x of v) this.write(x, p?.get(i++));
      return;
    }
    if (isMap(v)) {
      const ordered = isOrdered(v);
      const p = isMap(prev) && isOrdered(prev) === ordered ? (prev as ImmutableMap<unknown, unknown>) : undefined;
      if (p !== undefined && p.size === v.size && this.mapPatch(v as ImmutableMap<unknown, unknown>, p)) return;
      this.tag(ordered ? TAG_ORDERED_MAP : TAG_MAP);
      this.uvarint(v.size);
      for (const [k, x] of (v as ImmutableMap<unknown, unknown>).entries()) {
        this.write(k, undefined);
        this.write(x, plainKey(k) ? undefined : p?.get(k));
      }
      return;
    }
    if (isSet(v)) {
      this.tag(isOrdered(v) ? TAG_ORDERED_SET : TAG_SET);
      this.uvarint(v.size);
      for (const x of v as ImmutableSet<unknown>) this.write(x, undefined);
      return;
    }
    if (Array.isArray(v)) {
      this.tag(Object.isFrozen(v) ? TAG_ARRAY | FROZEN : TAG_ARRAY);
      this.uvarint(v.length);
      const p = Array.isArray(prev) ? prev : undefined;
      for (let i = 0; i < v.length; i++) this.write(v[i], p?.[i]);
      return;
    }
    if (isPlainObject(v)) {
      this.tag(Object.isFrozen(v) ? TAG_OBJECT | FROZEN : TAG_OBJECT);
      const p = isPlainObject(prev) ? prev : undefined;
      let n = 0;
      for (const _ in v) n++;
      this.uvarint(n);
      for (const k in v) {
        this.write(k, undefined);
        this.write(v[k], p !== undefined && Object.hasOwn(p, k) ? p[k] : undefined);
      }
      return;
    }
    throw new NotAStateValue('', 'a value that is not an immutable.js collection or Record, a plain array or a plain object');
  }

  /**
   * Writes `v` as `p` with some values changed, if the two have the same keys in the same
   * order (then setting those values in `p` rebuilds `v`, order included); else writes nothing
   * and returns false.
   */
  private mapPatch(v: ImmutableMap<unknown, unknown>, p: ImmutableMap<unknown, unknown>): boolean {
    const ours = v.entries();
    const theirs = p.entries();
    let changed = 0;
    for (;;) {
      const a = ours.next();
      if (a.done) break;
      const b = theirs.next();
      // (A plain key is found by identity, which a decoded key does not have: no patch.)
      if (plainKey(a.value[0])) return false;
      if (a.value[0] !== b.value![0] && !is(a.value[0], b.value![0])) return false;
      if (a.value[1] !== b.value![1]) changed++;
    }
    this.tag(TAG_MAP_PATCH);
    this.uvarint(changed);
    const bv = p.entries();
    for (const [k, x] of v.entries()) {
      const before = bv.next().value![1];
      if (x === before) continue;
      this.write(k, undefined);
      this.write(x, before);
    }
    return true;
  }

  /** Writes `v` as `p`, of the same size, with the elements that changed. */
  private listPatch(v: List<unknown>, p: List<unknown>): void {
    let changed = 0;
    const bv = p.values();
    for (const x of v) if (x !== bv.next().value) changed++;
    this.tag(TAG_LIST_PATCH);
    this.uvarint(changed);
    const again = p.values();
    let i = 0;
    for (const x of v) {
      const before = again.next().value;
      if (x !== before) {
        this.uvarint(i);
        this.write(x, before);
      }
      i++;
    }
  }

  /** The registry index of `v`'s Record type, registering it when it is new. */
  private typeOf(v: object): number {
    const ctor = (v as { constructor: object }).constructor;
    const known = this.typeIndex.get(ctor);
    if (known !== undefined) return known;
    const name = ImmutableRecord.getDescriptiveName(v as never);
    const keys = [...(v as unknown as { toSeq(): { keys(): Iterable<string> } }).toSeq().keys()].map(String);
    if (name === 'Record' && (ctor as { displayName?: string }).displayName === undefined) {
      throw new UnnamedRecord(`a Record type with no name (fields ${keys.join(', ')})`);
    }
    const other = this.typeByName.get(name);
    if (other !== undefined && other !== ctor) throw new UnnamedRecord(`two different Record types named ${name}`);
    // (With `new`: a Record type written as a class refuses a call without it, and a factory takes either.)
    const Make = ctor as unknown as new (values: Record<string, unknown>) => unknown;
    const i = this.types.length;
    this.types.push({ name, keys, make: (values) => new Make(values), ctor });
    this.typeIndex.set(ctor, i);
    this.typeByName.set(name, ctor);
    return i;
  }

  private readUvarint(): number {
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

  private read(prev: unknown): unknown {
    const t = this.in[this.at++];
    switch (t) {
      case TAG_SAME:
        return prev;
      case TAG_MAP_PATCH: {
        let m = prev as ImmutableMap<unknown, unknown>;
        const n = this.readUvarint();
        for (let i = 0; i < n; i++) {
          const k = this.read(undefined);
          m = m.set(k, this.read(m.get(k)));
        }
        return m;
      }
      case TAG_LIST_PATCH: {
        let l = prev as List<unknown>;
        const n = this.readUvarint();
        for (let i = 0; i < n; i++) {
          const at = this.readUvarint();
          l = l.set(at, this.read(l.get(at)));
        }
        return l;
      }
      case TAG_NULL:
        return null;
      case TAG_FALSE:
        return false;
      case TAG_TRUE:
        return true;
      case TAG_INT: {
        const z = this.readUvarint();
        return (z >>> 1) ^ -(z & 1);
      }
      case TAG_FLOAT: {
        this.f64Bytes.set(this.in.subarray(this.at, this.at + 8));
        this.at += 8;
        return this.f64[0];
      }
      case TAG_STRING:
        return this.strings[this.readUvarint()];
      case TAG_PACKED: {
        const type = this.packedTypes[this.readUvarint()];
        const w: number[] = [];
        for (let i = 0; i < type.slots; i++) {
          const z = this.readUvarint();
          w.push((z >>> 1) ^ -(z & 1));
        }
        // Equal to the previous state's value: that value itself, already digested and shared.
        const v = type.read(w, 0) as PackedValue;
        return prev instanceof PackedValue && v.equals(prev) ? prev : v;
      }
      case TAG_RECORD: {
        const type = this.types[this.readUvarint()];
        const p =
          prev !== undefined && prev !== null && (prev as { constructor: unknown }).constructor === type.ctor
            ? (prev as { get(k: string): unknown })
            : undefined;
        if (p !== undefined) {
          // The previous state's Record with the fields that changed set: cheaper than a new one,
          // and the same Record itself when nothing changed (equal, and already digested).
          let r = p as unknown as { get(k: string): unknown; set(k: string, x: unknown): typeof r };
          for (const k of type.keys) {
            const before = r.get(k);
            const x = this.read(before);
            if (x !== before) r = r.set(k, x);
          }
          return r;
        }
        const values: Record<string, unknown> = {};
        for (const k of type.keys) values[k] = this.read(undefined);
        return type.make(values);
      }
      case TAG_LIST: {
        const n = this.readUvarint();
        const p = isList(prev) ? prev : undefined;
        const items: unknown[] = new Array(n);
        for (let i = 0; i < n; i++) items[i] = this.read(p?.get(i));
        return List(items);
      }
      case TAG_MAP:
      case TAG_ORDERED_MAP: {
        const n = this.readUvarint();
        const ordered = t === TAG_ORDERED_MAP;
        const p = isMap(prev) && isOrdered(prev) === ordered ? (prev as ImmutableMap<unknown, unknown>) : undefined;
        const m = (ordered ? OrderedMap<unknown, unknown>() : ImmutableMap<unknown, unknown>()).asMutable();
        for (let i = 0; i < n; i++) {
          const k = this.read(undefined);
          m.set(k, this.read(plainKey(k) ? undefined : p?.get(k)));
        }
        return m.asImmutable();
      }
      case TAG_SET:
      case TAG_ORDERED_SET: {
        const n = this.readUvarint();
        const s = (t === TAG_SET ? ImmutableSet<unknown>() : OrderedSet<unknown>()).asMutable();
        for (let i = 0; i < n; i++) s.add(this.read(undefined));
        return s.asImmutable();
      }
      case TAG_ARRAY:
      case TAG_ARRAY | FROZEN: {
        const n = this.readUvarint();
        const p = Array.isArray(prev) ? prev : undefined;
        const items: unknown[] = new Array(n);
        for (let i = 0; i < n; i++) items[i] = this.read(p?.[i]);
        return t === TAG_ARRAY ? items : Object.freeze(items);
      }
      case TAG_OBJECT:
      case TAG_OBJECT | FROZEN: {
        const n = this.readUvarint();
        const p = isPlainObject(prev) ? prev : undefined;
        const o: { [key: string]: unknown } = {};
        for (let i = 0; i < n; i++) {
          const k = this.read(undefined) as string;
          const x = this.read(p !== undefined && Object.hasOwn(p, k) ? p[k] : undefined);
          // (An own key named __proto__ would set the prototype by assignment.)
          if (k === '__proto__') Object.defineProperty(o, k, { value: x, writable: true, enumerable: true, configurable: true });
          else o[k] = x;
        }
        return t === TAG_OBJECT ? o : Object.freeze(o);
      }
    }
    throw new Error(`state codec: unknown tag ${t} at byte ${this.at - 1}`);
  }
}
