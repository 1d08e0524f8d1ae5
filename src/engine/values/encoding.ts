// Canonical byte encoding of state values. Equal values encode to equal bytes, whatever order
// their Sets and Maps were built in (Records also by their name, which immutable.js `is`
// ignores: that can only split states, never merge different ones). Unordered collections are
// encoded with their entries sorted by their own encodings.
//
// Two modes. `full` writes every byte of every part. `digest` (the default, for fingerprints)
// writes each collection or Record as the 128-bit MurmurHash3 digest of its own canonical
// encoding, a Merkle tree: immutable values never change and a successor shares most of its
// parts with its parent, so each part is digested once, by identity, and a new state costs
// only the parts on the path that changed. In digest mode an unordered collection is not
// sorted: it is written as its tag, its size and the lane-wise sum (mod 2^32) of its entries'
// digests, which is the same in any order (a Set's members and a Map's keys are distinct, so
// the sum is over a set). Sorting the entries' bytes took a sixth of a search's time. But a
// small one whose keys (a Set's members) are all strings, most of a model's maps by name, is
// written with its entries in the order of their keys, compared as strings, under a tag of its
// own: a few string comparisons cost less than a digest per entry. Which form a collection takes
// depends only on its value (its size and its keys' types), so equal values still encode
// equally. A Record's field names come once, before its values, rather than each before its value.
//
// Plain arrays and objects (plainValue.ts) are written in place in either mode, an object's
// keys sorted, so that `{ a, b }` and `{ b, a }` are one value.
import {
  isImmutable,
  isList,
  isMap,
  isOrdered,
  isRecord,
  isSet,
  Record as ImmutableRecord,
  type List as ImmutableList,
  type Map as ImmutableMap,
  type Set as ImmutableSet,
} from 'immutable';
import { DIGEST_OF, digestString, type Digested } from './digestSlot.ts';
import { isFlatRecord } from './flatRecord.ts';
import { murmur3x86_128, murmur3x86_128Prefix, murmur3x86_128Resume } from './hash.ts';
import { compareKeys, isPlainObject } from './plainValue.ts';
import { mapEntries, setEntries } from './immutableInternals.ts';
import { PackedValue } from './packed/packedType.ts';

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
/** A plain array: its length, then its elements, in place (never as a digest: see writeObject). */
const TAG_ARRAY = 14;
/** A plain object: its keys, sorted, then its values in that order, in place. */
const TAG_OBJECT = 15;
/** A number that is a 32-bit integer (most are): four bytes rather than a double's eight. */
const TAG_INT = 13;
/** A whole number from 0 to 255 (counters, clocks, indices): one byte. */
const TAG_BYTE = 16;
/** A packed value (packed/): its type's id, then its words, each one byte below 255, else 255 and four bytes. */
const TAG_PACKED = 17;
/** The tag of a part written as its digest; exported so that fingerprint.ts can take a top-level digest as it is. */
export const TAG_DIGEST = 12;
/** Digest mode: a Map or Set of at most SORTED_MAX entries, every key a string, sorted by key. */
const TAG_SMALL_MAP = 18;
const TAG_SMALL_SET = 19;
/**
 * The most entries a collection may have to be written sorted in digest mode. (immutable.js
 * keeps Maps of up to 8 entries as one array; the insertion sort below is quadratic.)
 */
const SORTED_MAX = 8;

/** The longest List written by index (get is a lookup in one node up to 32 elements). */
const SHORT_LIST = 32;

/** How many parts the full mode's memo keeps before it starts again. */
const MEMO_LIMIT = 1 << 20;
/** Unordered collections up to this size are sorted by insertion sort, without allocating. */
const SMALL = 24;

/** A Record type's layout, computed once per type: its name and field names, encoded. */
interface RecordLayout {
  readonly keys: readonly string[];
  readonly header: Uint8Array;
  readonly keyBytes: readonly Uint8Array[];
  /**
   * Digest mode: a part is written as the header followed by every field name, once, then the
   * values alone. A Record's field names are its type's, so they say nothing a value does not:
   * one copy per part rather than one per field (a part's bytes are hashed, and a KubeObject's
   * names were about half of its). That header's whole 16-byte blocks are hashed once per type
   * (`prefixLanes`, over `prefixLength` bytes) and each part resumes the hash from there, writing
   * only the rest (`digestTail`): the digest is the same as hashing the whole header with each
   * part, and the move model's world record (13 fields, about 340 bytes of names, a third of the
   * bytes its successors hashed) no longer reads its names each time.
   */
  readonly prefixLanes: Int32Array;
  readonly prefixLength: number;
  readonly digestTail: Uint8Array;
  /** A FlatRecord type (flatRecord.ts): its values are read from its array, in the same order. */
  readonly flat: boolean;
}

/** The kinds of collection a prototype can mark; a Record type is known by its layout instead. */
const KIND_LIST = 0;
const KIND_MAP = 1;
const KIND_ORDERED_MAP = 2;
const KIND_SET = 3;
const KIND_ORDERED_SET = 4;
const KIND_PACKED = 5;
type PartKind = RecordLayout | number;

/**
 * A plain object's keys as for-in lists them (the order it was built in), and how to write it
 * canonically: the header (tag, count, keys sorted) and, per sorted key, its index in `keys`.
 */
interface ObjectLayout {
  readonly keys: readonly string[];
  readonly sorted: readonly string[];
  readonly header: Uint8Array;
}

/**
 * How deep plain arrays and objects may nest. A plain value can hold itself (an array pushed
 * into itself); past this depth the encoder stops and locate() looks for the cycle.
 */
const PLAIN_DEPTH_LIMIT = 1000;

type PlainObject = { readonly [key: string]: unknown };

/** Layouts kept per key count; past this many of one count (objects used as maps) a layout is made each time. */
const OBJECT_LAYOUTS_PER_SIZE = 64;

/** Why a value cannot be part of a state; the path says where in the state it sits. */
export class NotAStateValue extends Error {
  constructor(
    readonly path: string,
    readonly what: string,
  ) {
    super(`${what} at ${path || 'the top level'}`);
  }
}

/** A Record type with no name, or two with one name: MC112 (the codec needs names to rebuild Records). */
export class UnnamedRecord extends Error {}

export type EncodingMode = 'digest' | 'full';

export class CanonicalEncoder {
  private buf = new Uint8Array(1024);
  private view = new DataView(this.buf.buffer);
  private pos = 0;
  /**
   * Full mode: per immutable part, by identity, its bytes. A plain Map, emptied when full, rather
   * than a WeakMap: with millions of entries a WeakMap's ephemerons made garbage collection take
   * most of the search's time. (Digest mode keeps a part's digest on the part: DIGEST_OF.)
   */
  private readonly memo = new Map<object, Uint8Array>();
  private digests: Uint32Array;
  private digestCount = 0;
  private readonly digest = new Uint32Array(4);
  /**
   * Parts digested by the last encode(), their digests not yet kept on them: part i has digest
   * i of `digests`, for i below digestCount (slots past that are stale, and overwritten). Most
   * successors are states seen before, whose new parts are garbage at once; the search keeps
   * the digests (keepPending) only for a state that turned out to be new.
   */
  private readonly pendingParts: object[] = [];
  /** Each immutable.js or packed part's kind, by its prototype (see kindOf). */
  private readonly kinds = new Map<object, PartKind>();
  private lastProto: object | null = null;
  private lastKind: PartKind = KIND_LIST;
  /** Each Record type's name, to refuse two types with one name. */
  private readonly recordNames = new Map<string, object>();
  /** Plain objects' layouts, by key count (see objectLayout). */
  private readonly objectLayouts: ObjectLayout[][] = [];
  private readonly keyScratch: string[] = [];
  /** How many plain arrays and objects enclose the value being written. */
  private plainDepth = 0;
  /** Segment starts of the unordered collections being written, innermost last. */
  private readonly starts: number[] = [];
  private scratch = new Uint8Array(256);
  private readonly order: number[] = [];
  /** Where the segments being sorted start in `starts` (see compareSegments). */
  private sortBase = 0;

  // Callbacks made once, not per collection: unordered entries, each a segment to sort.
  private readonly writeEntry = (x: unknown, k: unknown): void => {
    this.starts.push(this.pos);
    this.write(k);
    this.write(x);
  };
  /** An ordered collection's element, in place. (forEach, unlike an iterator, allocates nothing per element.) */
  private readonly writeItem = (x: unknown): void => {
    this.write(x);
  };
  /** An ordered map's entry, key then value. */
  private readonly writeKeyed = (x: unknown, k: unknown): void => {
    this.write(k);
    this.write(x);
  };
  private readonly writeMember = (x: unknown): void => {
    this.starts.push(this.pos);
    this.write(x);
  };
  /** Digest mode: the sum of the entries' digests so far, lane by lane (see addEntryDigest). */
  private sum0 = 0;
  private sum1 = 0;
  private sum2 = 0;
  private sum3 = 0;
  private readonly sumStack: number[] = [];
  private readonly entryDigest = new Uint32Array(4);
  private readonly sumEntry = (x: unknown, k: unknown): void => {
    const start = this.pos;
    this.write(k);
    this.write(x);
    this.addEntryDigest(start);
  };
  private readonly sumMember = (x: unknown): void => {
    const start = this.pos;
    this.write(x);
    this.addEntryDigest(start);
  };
  /**
   * Digest mode: the keys and values of the small collections being written sorted, a stack
   * (a value written holds collections of its own); `smallTop` is its height.
   */
  private readonly smallKeys: string[] = [];
  private readonly smallValues: unknown[] = [];
  private smallTop = 0;
  /** Collects one entry; stops the walk (false) at a key that is not a string. */
  private readonly collectEntry = (x: unknown, k: unknown): boolean => {
    if (typeof k !== 'string') return false;
    const top = this.smallTop++;
    this.smallKeys[top] = k;
    this.smallValues[top] = x;
    return true;
  };
  private readonly collectMember = (x: unknown): boolean => {
    if (typeof x !== 'string') return false;
    this.smallKeys[this.smallTop++] = x;
    return true;
  };
  private readonly compareSegments = (a: number, b: number): number => {
    const starts = this.starts;
    const buf = this.buf;
    const base = this.sortBase;
    const a0 = starts[base + a];
    const b0 = starts[base + b];
    const la = starts[base + a + 1] - a0;
    const lb = starts[base + b + 1] - b0;
    // biome-ignore lint/complexity/useMathMinMax: a comparator on the hot path of --exact's sort
    const l = la < lb ? la : lb;
    for (let i = 0; i < l; i++) {
      const d = buf[a0 + i] - buf[b0 + i];
      if (d !== 0) return d;
    }
    return la - lb;
  };

  /** How many parts the full mode's memo keeps before it starts again. */
  memoLimit = MEMO_LIMIT;

  constructor(readonly mode: EncodingMode = 'digest') {
    // Grown as parts come (growDigests): a small model's search should not pay for a big pool.
    this.digests = new Uint32Array(mode === 'digest' ? 4 * 4096 : 0);
  }

  /**
   * Encodes `v`; the bytes (`bytes`, from 0) are valid until the next call. Returns their
   * length. Throws NotAStateValue, with the path to the first offending value.
   */
  encode(v: unknown): number {
    this.forgetPending();
    this.pos = 0;
    this.plainDepth = 0;
    // (Emptied only if not: setting an array's length costs a call into the runtime.)
    if (this.starts.length !== 0) this.starts.length = 0;
    if (this.sumStack.length !== 0) this.sumStack.length = 0;
    this.smallTop = 0;
    try {
      this.write(v);
    } catch (e) {
      // Paths are not built on the fast path; find the offending value again, with its path.
      if (e instanceof NotAStateValue) throw locate(v, '') ?? e;
      // A cycle through immutable.js collections (a plain array in a List in itself) exhausts
      // the stack before the plain depth limit: find it the same way.
      if (e instanceof RangeError && /call stack/.test(e.message)) throw locateDeep(v);
      throw e;
    }
    return this.pos;
  }

  /** Keeps the digests of the last encoded value's parts on the parts, for the values that share them. */
  keepPending(): void {
    if (this.mode !== 'digest') return;
    const parts = this.pendingParts;
    const n = this.digestCount;
    const d = this.digests;
    for (let i = 0; i < n; i++) {
      const p = parts[i] as Digested;
      // (A part the model froze cannot carry one: it is digested each time it is met.)
      if (!Object.isExtensible(p)) continue;
      const w0 = d[4 * i];
      const w1 = d[4 * i + 1];
      const w2 = d[4 * i + 2];
      const w3 = d[4 * i + 3];
      p[DIGEST_OF] = digestString(w0, w1, w2, w3);
    }
    this.digestCount = 0;
  }

  /** Drops the digests of the last encoded value's parts: their slots are reused. */
  forgetPending(): void {
    this.digestCount = 0;
  }

  /** The buffer holding the last encoding, as a DataView (for hashing it: hash.ts). */
  get dataView(): DataView {
    return this.view;
  }

  /** The buffer holding the last encoding. */
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

  private bytesOut(b: Uint8Array): void {
    const n = b.length;
    this.ensure(n);
    const buf = this.buf;
    const p = this.pos;
    // (Headers and names are short: a loop beats TypedArray.set's call into the runtime.)
    if (n <= 64) for (let i = 0; i < n; i++) buf[p + i] = b[i];
    else buf.set(b, p);
    this.pos = p + n;
  }

  /**
   * A string: a word holding twice its length, plus 1 if it is written wide, then its code units,
   * one byte each when all fit in one (most names), else two, big-endian. Equal strings get
   * equal bytes, and the word tells both forms apart.
   */
  private str(s: string): void {
    const n = s.length;
    this.ensure(4 + 2 * n);
    const buf = this.buf;
    const p0 = this.pos + 4;
    let p = p0;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 0xff) break;
      buf[p++] = c;
    }
    if (i < n) {
      p = p0;
      for (let j = 0; j < n; j++) {
        const c = s.charCodeAt(j);
        buf[p++] = c >>> 8;
        buf[p++] = c & 0xff;
      }
    }
    this.view.setUint32(this.pos, 2 * n + (i < n ? 1 : 0), true);
    this.pos = p;
  }

  private write(v: unknown): void {
    switch (typeof v) {
      case 'boolean':
        this.byte(v ? TAG_TRUE : TAG_FALSE);
        return;
      case 'number':
        if ((v & 0xff) === v) {
          // (-0 & 0xff is 0: -0 and 0 are the same value to immutable.js.)
          this.ensure(2);
          this.buf[this.pos++] = TAG_BYTE;
          this.buf[this.pos++] = v;
          return;
        }
        if ((v | 0) === v) {
          this.ensure(5);
          this.buf[this.pos++] = TAG_INT;
          this.view.setInt32(this.pos, v, true);
          this.pos += 4;
          return;
        }
        if (Number.isNaN(v)) throw new NotAStateValue('', 'NaN');
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
      case 'function':
      case 'bigint':
      case 'symbol':
        throw new NotAStateValue('', describe(v));
    }
    if (v === null) {
      this.byte(TAG_NULL);
      return;
    }
    // Immutable values never change, and a successor shares most of its parts with its
    // parent, so each part is encoded (or digested) once, by identity.
    const obj = v as object;
    // Plain values before the digest lookup: an object spread from an immutable.js value carries
    // that value's digest along (an enumerable own property), which must not stand for it.
    if (Array.isArray(obj)) {
      this.writeArray(obj);
      return;
    }
    const proto = Object.getPrototypeOf(obj);
    if (proto === Object.prototype || proto === null) {
      this.writeObject(obj as PlainObject);
      return;
    }
    if (this.mode === 'digest') {
      const known = (obj as Digested)[DIGEST_OF];
      if (known !== undefined) {
        // The tag, then the four words little-endian (each two code units, the low half first:
        // digestString), written in place: this runs for most parts of every successor.
        this.ensure(17);
        const p = this.pos;
        const view = this.view;
        this.buf[p] = TAG_DIGEST;
        view.setUint32(p + 1, known.charCodeAt(0) | (known.charCodeAt(1) << 16), true);
        view.setUint32(p + 5, known.charCodeAt(2) | (known.charCodeAt(3) << 16), true);
        view.setUint32(p + 9, known.charCodeAt(4) | (known.charCodeAt(5) << 16), true);
        view.setUint32(p + 13, known.charCodeAt(6) | (known.charCodeAt(7) << 16), true);
        this.pos = p + 17;
        return;
      }
      const kind = this.kindOf(obj, proto);
      // (A packed value is written in place, not as a digest.)
      if (kind === KIND_PACKED) {
        this.writePacked(obj as PackedValue);
        return;
      }
      const start = this.pos;
      this.writeCollection(obj, kind);
      // Replace the part's bytes by a reference to their digest.
      const digest = this.digest;
      if (typeof kind === 'number') murmur3x86_128(this.view, start, this.pos - start, digest);
      else murmur3x86_128Resume(this.view, start, this.pos - start, digest, kind.prefixLanes, kind.prefixLength);
      if (this.digestCount * 4 + 4 > this.digests.length) this.growDigests();
      const index = this.digestCount++;
      const digests = this.digests;
      digests[4 * index] = digest[0];
      digests[4 * index + 1] = digest[1];
      digests[4 * index + 2] = digest[2];
      digests[4 * index + 3] = digest[3];
      this.pendingParts[index] = obj;
      this.pos = start;
      this.digestOut(this.digest);
      return;
    }
    const cached = this.memo.get(obj);
    if (cached !== undefined) {
      this.bytesOut(cached);
      return;
    }
    const kind = this.kindOf(obj, proto);
    if (kind === KIND_PACKED) {
      this.writePacked(obj as PackedValue);
      return;
    }
    const start = this.pos;
    this.writeCollection(obj, kind);
    if (this.memo.size >= this.memoLimit) this.memo.clear();
    this.memo.set(obj, this.buf.slice(start, this.pos));
  }

  /**
   * A plain object, in place. A plain value (this, or an array) is never digested on its own: it
   * cannot carry its digest (a spread would copy it to the next state, and a frozen value takes
   * none), so it is written whole each time, as TLC writes its values, and hashed as part of the
   * nearest immutable.js part or state that holds it.
   */
  private writeObject(v: PlainObject): void {
    const layout = this.objectLayout(v);
    this.bytesOut(layout.header);
    const sorted = layout.sorted;
    if (++this.plainDepth > PLAIN_DEPTH_LIMIT) this.tooDeep();
    for (let i = 0; i < sorted.length; i++) this.write(v[sorted[i]]);
    this.plainDepth--;
  }

  /**
   * A packed value, in place and never as a digest (as a plain value, and for the same reason:
   * its words are what a successor copies): its type's id, then its words. Its words are its
   * canonical form already: a set is bits in its universe's order, a map values in its keys'.
   */
  private writePacked(v: PackedValue): void {
    const t = v.$type;
    const n = t.slots;
    this.ensure(5 + 5 * n);
    const buf = this.buf;
    let p = this.pos;
    buf[p++] = TAG_PACKED;
    this.view.setUint32(p, t.id, true);
    p += 4;
    const w = v.$w;
    const o = v.$o;
    if (t.byteSized) {
      // Every word one byte, as the loop below would write it, without its test.
      const view = this.view;
      let i = 0;
      for (; i + 4 <= n; i += 4) {
        const k = o + i;
        view.setUint32(p + i, w[k] | (w[k + 1] << 8) | (w[k + 2] << 16) | (w[k + 3] << 24), true);
      }
      for (; i < n; i++) buf[p + i] = w[o + i];
      this.pos = p + n;
      return;
    }
    for (let i = 0; i < n; i++) {
      const x = w[o + i];
      if (x >= 0 && x < 255) buf[p++] = x;
      else {
        buf[p++] = 255;
        this.view.setInt32(p, x, true);
        p += 4;
      }
    }
    this.pos = p;
  }

  private tooDeep(): never {
    throw new NotAStateValue('', `plain arrays and objects nested more than ${PLAIN_DEPTH_LIMIT} deep`);
  }

  private writeArray(v: readonly unknown[]): void {
    const n = v.length;
    this.ensure(5);
    this.buf[this.pos++] = TAG_ARRAY;
    this.view.setUint32(this.pos, n, true);
    this.pos += 4;
    if (++this.plainDepth > PLAIN_DEPTH_LIMIT) this.tooDeep();
    for (let i = 0; i < n; i++) this.write(v[i]);
    this.plainDepth--;
  }

  /**
   * The layout of a plain object's keys. Objects built by one literal or spread list their keys
   * in one order, so a model has a few layouts; a layout is found by comparing keys (interned
   * strings: compared by identity) with those of the same count, without allocating.
   */
  private objectLayout(o: object): ObjectLayout {
    const scratch = this.keyScratch;
    let n = 0;
    for (const k in o) scratch[n++] = k;
    let bucket = this.objectLayouts[n];
    if (bucket === undefined) {
      bucket = [];
      this.objectLayouts[n] = bucket;
    }
    outer: for (let j = 0; j < bucket.length; j++) {
      const keys = bucket[j].keys;
      for (let i = 0; i < n; i++) if (keys[i] !== scratch[i]) continue outer;
      return bucket[j];
    }
    const keys = scratch.slice(0, n);
    const sorted = [...keys].sort(compareKeys);
    const enc = new CanonicalEncoder('full');
    enc.byte(TAG_OBJECT);
    enc.u32(n);
    for (const k of sorted) enc.str(k);
    const layout: ObjectLayout = { keys, sorted, header: enc.buf.slice(0, enc.pos) };
    if (bucket.length < OBJECT_LAYOUTS_PER_SIZE) bucket.push(layout);
    return layout;
  }

  private growDigests(): void {
    const next = new Uint32Array(this.digests.length * 2);
    next.set(this.digests);
    this.digests = next;
  }

  private digestOut(d: Uint32Array): void {
    this.ensure(17);
    const p = this.pos;
    const view = this.view;
    this.buf[p] = TAG_DIGEST;
    view.setUint32(p + 1, d[0], true);
    view.setUint32(p + 5, d[1], true);
    view.setUint32(p + 9, d[2], true);
    view.setUint32(p + 13, d[3], true);
    this.pos = p + 17;
  }

  /**
   * What a part is, known by its prototype: a Record type's layout, or a collection's kind.
   * immutable.js tells its kinds by marks on their prototypes (isRecord, isMap, isOrdered...),
   * so one lookup per part replaces up to four of those checks (each a load from one of many
   * shapes), and a packed value is found without walking its prototype chain.
   */
  private kindOf(v: object, proto: object): PartKind {
    // (Parts of one kind often come in a row, the Lists of a List say: the last one is kept.)
    if (proto === this.lastProto) return this.lastKind;
    const known = this.kinds.get(proto);
    if (known !== undefined) {
      this.lastProto = proto;
      this.lastKind = known;
      return known;
    }
    let kind: PartKind;
    if (isRecord(v)) kind = this.newLayout(v, proto);
    else if (isList(v)) kind = KIND_LIST;
    else if (isMap(v)) kind = isOrdered(v) ? KIND_ORDERED_MAP : KIND_MAP;
    else if (isSet(v)) kind = isOrdered(v) ? KIND_ORDERED_SET : KIND_SET;
    else if (v instanceof PackedValue) kind = KIND_PACKED;
    else throw new NotAStateValue('', describe(v));
    this.kinds.set(proto, kind);
    return kind;
  }

  private newLayout(v: object, proto: object): RecordLayout {
    const keys = [...(v as unknown as { toSeq(): { keys(): Iterable<string> } }).toSeq().keys()].map(String);
    // Once per Record type: the frontier may keep states as bytes (stateCodec.ts) and
    // rebuilds Records by their type's name, so each type needs a name of its own.
    const name = ImmutableRecord.getDescriptiveName(v as never);
    if ((proto.constructor as { displayName?: string }).displayName === undefined) {
      throw new UnnamedRecord(`a Record type with no name (fields ${keys.join(', ')})`);
    }
    const other = this.recordNames.get(name);
    if (other !== undefined && other !== proto) throw new UnnamedRecord(`two different Record types named ${name}`);
    this.recordNames.set(name, proto);
    const enc = new CanonicalEncoder('full');
    enc.byte(TAG_RECORD);
    // The name and the field names too: two Record types with the same values are not the same state.
    enc.str(name);
    enc.u32(keys.length);
    const header = enc.buf.slice(0, enc.pos);
    const keyBytes = keys.map((k) => {
      enc.pos = 0;
      enc.str(k);
      return enc.buf.slice(0, enc.pos);
    });
    const digestHeader = new Uint8Array(header.length + keyBytes.reduce((n, b) => n + b.length, 0));
    digestHeader.set(header);
    let at = header.length;
    for (const b of keyBytes) {
      digestHeader.set(b, at);
      at += b.length;
    }
    const prefixLength = digestHeader.length & ~15;
    return {
      keys,
      header,
      keyBytes,
      prefixLanes: murmur3x86_128Prefix(digestHeader),
      prefixLength,
      digestTail: digestHeader.slice(prefixLength),
      flat: isFlatRecord(v),
    };
  }

  /** Writes an immutable.js value of kind `kind` (not a packed one: writePacked). */
  private writeCollection(v: object, kind: PartKind): void {
    if (typeof kind !== 'number') {
      // Fields come in the order the Record's factory declared them.
      const keys = kind.keys;
      if (this.mode === 'digest') {
        // The names once, then the values; the names' whole blocks are hashed already, so only
        // their tail is written (RecordLayout.prefixLanes).
        this.bytesOut(kind.digestTail);
        if (kind.flat) {
          const flat = (v as unknown as { _v: unknown[] })._v;
          for (let i = 0; i < keys.length; i++) this.write(flat[i]);
          return;
        }
        const r = v as unknown as { get(k: string): unknown };
        for (let i = 0; i < keys.length; i++) this.write(r.get(keys[i]));
        return;
      }
      const keyBytes = kind.keyBytes;
      this.bytesOut(kind.header);
      // A FlatRecord keeps its fields in one array, in the same order. (Known by its type, not by
      // a field named `_v`, which an immutable.js Record may have.)
      if (kind.flat) {
        const flat = (v as unknown as { _v: unknown[] })._v;
        for (let i = 0; i < keys.length; i++) {
          this.bytesOut(keyBytes[i]);
          this.write(flat[i]);
        }
        return;
      }
      const r = v as unknown as { get(k: string): unknown };
      for (let i = 0; i < keys.length; i++) {
        this.bytesOut(keyBytes[i]);
        this.write(r.get(keys[i]));
      }
      return;
    }
    switch (kind) {
      case KIND_LIST: {
        const list = v as ImmutableList<unknown>;
        const n = list.size;
        this.byte(TAG_LIST);
        this.u32(n);
        // A short List by index: its forEach makes closures on each call (about 4% of what
        // bench case 6 allocated, its pending events' Lists), its get none.
        if (n <= SHORT_LIST) for (let i = 0; i < n; i++) this.write(list.get(i));
        else list.forEach(this.writeItem);
        return;
      }
      case KIND_ORDERED_MAP:
        this.byte(TAG_ORDERED_MAP);
        this.u32((v as ImmutableMap<unknown, unknown>).size);
        (v as ImmutableMap<unknown, unknown>).forEach(this.writeKeyed);
        return;
      case KIND_ORDERED_SET:
        this.byte(TAG_ORDERED_SET);
        this.u32((v as ImmutableSet<unknown>).size);
        (v as ImmutableSet<unknown>).forEach(this.writeItem);
        return;
      case KIND_MAP: {
        if (
          this.mode === 'digest' &&
          (v as ImmutableMap<unknown, unknown>).size <= SORTED_MAX &&
          this.writeSmall(v as ImmutableMap<unknown, unknown>, true)
        )
          return;
        this.byte(TAG_MAP);
        this.u32((v as ImmutableMap<unknown, unknown>).size);
        if (this.mode === 'digest') {
          this.openSum();
          (v as ImmutableMap<unknown, unknown>).forEach(this.sumEntry);
          this.closeSum();
          return;
        }
        const base = this.starts.length;
        (v as ImmutableMap<unknown, unknown>).forEach(this.writeEntry);
        this.sortSegments(base);
        return;
      }
      case KIND_SET: {
        if (this.mode === 'digest' && (v as ImmutableSet<unknown>).size <= SORTED_MAX && this.writeSmall(v as ImmutableSet<unknown>, false))
          return;
        this.byte(TAG_SET);
        this.u32((v as ImmutableSet<unknown>).size);
        if (this.mode === 'digest') {
          this.openSum();
          (v as ImmutableSet<unknown>).forEach(this.sumMember);
          this.closeSum();
          return;
        }
        const base = this.starts.length;
        (v as ImmutableSet<unknown>).forEach(this.writeMember);
        this.sortSegments(base);
        return;
      }
    }
  }

  /**
   * Digest mode: a small Map whose keys are all strings, its entries in the order of their
   * keys, or (`map` false) a small Set whose members are all strings, in their order. False,
   * with nothing written, if a key is not a string.
   */
  private writeSmall(v: ImmutableMap<unknown, unknown> | ImmutableSet<unknown>, map: boolean): boolean {
    const base = this.smallTop;
    const n = v.size;
    const entries = map ? mapEntries(v) : setEntries(v);
    if (entries !== undefined) {
      // (Read from immutable.js's own array: immutableInternals.ts.)
      const keys = this.smallKeys;
      const values = this.smallValues;
      for (let i = 0; i < n; i++) {
        const e = entries[i];
        const k = e[0];
        if (typeof k !== 'string') {
          this.smallTop = base;
          return false;
        }
        keys[base + i] = k;
        if (map) values[base + i] = e[1];
      }
      this.smallTop = base + n;
    } else {
      (v as ImmutableMap<unknown, unknown>).forEach(map ? this.collectEntry : this.collectMember);
      if (this.smallTop - base !== n) {
        this.smallTop = base;
        return false;
      }
    }
    this.sortSmall(base, n, map);
    this.byte(map ? TAG_SMALL_MAP : TAG_SMALL_SET);
    this.u32(n);
    const keys = this.smallKeys;
    const values = this.smallValues;
    for (let i = base; i < base + n; i++) {
      this.str(keys[i]);
      if (map) this.write(values[i]);
    }
    this.smallTop = base;
    return true;
  }

  /** Sorts the `n` collected keys from `base` (and their values, with `values`): an insertion sort, for at most SORTED_MAX. */
  private sortSmall(base: number, n: number, values: boolean): void {
    const keys = this.smallKeys;
    const vals = this.smallValues;
    for (let i = base + 1; i < base + n; i++) {
      const k = keys[i];
      if (keys[i - 1] <= k) continue;
      const x = values ? vals[i] : undefined;
      let j = i - 1;
      while (j >= base && keys[j] > k) {
        keys[j + 1] = keys[j];
        if (values) vals[j + 1] = vals[j];
        j--;
      }
      keys[j + 1] = k;
      if (values) vals[j + 1] = x;
    }
  }

  /**
   * Digest mode: starts summing the digests of the entries written until closeSum. The sums of
   * an enclosing collection are saved, since an entry may itself hold an unordered collection.
   */
  private openSum(): void {
    this.sumStack.push(this.sum0, this.sum1, this.sum2, this.sum3);
    this.sum0 = this.sum1 = this.sum2 = this.sum3 = 0;
  }

  /** Writes the sums begun by openSum and restores the enclosing collection's. */
  private closeSum(): void {
    this.u32(this.sum0);
    this.u32(this.sum1);
    this.u32(this.sum2);
    this.u32(this.sum3);
    const stack = this.sumStack;
    this.sum3 = stack.pop()!;
    this.sum2 = stack.pop()!;
    this.sum1 = stack.pop()!;
    this.sum0 = stack.pop()!;
  }

  /** Adds the digest of the bytes from `start` to the sums, and drops the bytes. */
  private addEntryDigest(start: number): void {
    const d = this.entryDigest;
    murmur3x86_128(this.view, start, this.pos - start, d);
    this.sum0 = (this.sum0 + d[0]) >>> 0;
    this.sum1 = (this.sum1 + d[1]) >>> 0;
    this.sum2 = (this.sum2 + d[2]) >>> 0;
    this.sum3 = (this.sum3 + d[3]) >>> 0;
    this.pos = start;
  }

  /**
   * Rewrites the segments whose starts are starts[base..], ending at this.pos, in sorted byte
   * order, then pops them.
   */
  private sortSegments(base: number): void {
    const starts = this.starts;
    const n = starts.length - base;
    if (n < 2) {
      starts.length = base;
      return;
    }
    const start = starts[base];
    const end = this.pos;
    starts.push(end); // segment i is [starts[base + i], starts[base + i + 1])
    const buf = this.buf;
    this.sortBase = base;
    const cmp = this.compareSegments;
    const order = this.order;
    order.length = n;
    for (let i = 0; i < n; i++) order[i] = i;
    if (n <= SMALL) {
      for (let i = 1; i < n; i++) {
        const x = order[i];
        let j = i - 1;
        while (j >= 0 && cmp(order[j], x) > 0) {
          order[j + 1] = order[j];
          j--;
        }
        order[j + 1] = x;
      }
    } else {
      order.sort(cmp);
    }
    const len = end - start;
    if (this.scratch.length < len) this.scratch = new Uint8Array(Math.max(len, 2 * this.scratch.length));
    const copy = this.scratch;
    copy.set(buf.subarray(start, end));
    let p = start;
    for (let k = 0; k < n; k++) {
      const i = order[k];
      const s = starts[base + i] - start;
      const e = starts[base + i + 1] - start;
      buf.set(copy.subarray(s, e), p);
      p += e - s;
    }
    starts.length = base;
  }
}

function describe(v: unknown): string {
  switch (typeof v) {
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'bigint':
    case 'symbol':
      return `a ${typeof v}`;
    case 'number':
      return 'NaN';
  }
  if (isImmutable(v)) return 'an immutable.js Seq or Stack';
  if (v instanceof Date) return 'a Date (use a number)';
  if (v instanceof globalThis.Map) return 'a JavaScript Map (use an immutable Map, or a plain object)';
  if (v instanceof globalThis.Set) return 'a JavaScript Set (use an immutable Set, or a sorted array)';
  const proto = Object.getPrototypeOf(v);
  return `an instance of ${proto?.constructor?.name ?? 'a class'}`;
}

/**
 * The first value in `v` that cannot be part of a state, in the order the encoder visits;
 * `within` holds the plain arrays and objects that enclose `v`, to find one that holds itself.
 */
function locate(v: unknown, path: string, within: object[] = []): NotAStateValue | undefined {
  if (Array.isArray(v) || isPlainObject(v)) {
    if (within.includes(v)) return new NotAStateValue(path, 'a value that holds itself (a cycle)');
    within.push(v);
    const bad = locatePlain(v, path, within);
    within.pop();
    return bad;
  }
  return locateOther(v, path, within);
}

/** After a stack overflow: the cycle that caused it, with its path, or a value nested too deep to encode. */
function locateDeep(v: unknown): NotAStateValue {
  try {
    const found = locate(v, '');
    if (found) return found;
  } catch {
    // locate() recurses too; a value too deep for the encoder may be too deep for it.
  }
  return new NotAStateValue('', 'a value nested too deep to encode');
}

function locatePlain(v: object, path: string, within: object[]): NotAStateValue | undefined {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const bad = locate(v[i], `${path}[${i}]`, within);
      if (bad) return bad;
    }
    return undefined;
  }
  const o = v as { readonly [key: string]: unknown };
  for (const k in o) {
    const bad = locate(o[k], `${path}.${k}`, within);
    if (bad) return bad;
  }
  return undefined;
}

function locateOther(v: unknown, path: string, within: object[]): NotAStateValue | undefined {
  switch (typeof v) {
    case 'boolean':
    case 'string':
      return undefined;
    case 'number':
      return Number.isNaN(v) ? new NotAStateValue(path, 'NaN') : undefined;
    case 'undefined':
    case 'function':
    case 'bigint':
    case 'symbol':
      return new NotAStateValue(path, describe(v));
  }
  if (v === null || v instanceof PackedValue) return undefined;
  if (isRecord(v)) {
    for (const [k, x] of v.toSeq().entries()) {
      const bad = locate(x, `${path}.${String(k)}`, within);
      if (bad) return bad;
    }
    return undefined;
  }
  if (isList(v)) {
    let i = 0;
    for (const x of v) {
      const bad = locate(x, `${path}[${i++}]`, within);
      if (bad) return bad;
    }
    return undefined;
  }
  if (isMap(v)) {
    for (const [k, x] of v.entries()) {
      const bad = locate(k, `${path}{key}`, within) ?? locate(x, `${path}[${String(k)}]`, within);
      if (bad) return bad;
    }
    return undefined;
  }
  if (isSet(v)) {
    for (const x of v) {
      const bad = locate(x, `${path}{member}`, within);
      if (bad) return bad;
    }
    return undefined;
  }
  return new NotAStateValue(path, describe(v));
}
