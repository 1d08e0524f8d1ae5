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
//
// This module owns the format: tags, numbers, strings, digests, the forms of unordered
// collections and Records. Which representation a part is, and how its values are walked, is
// the representations' (representations/): each prototype is asked of the table once.
import { DIGEST_OF, digestString, digestWord, type Digested } from './digestSlot.ts';
import { murmur3x86_128, murmur3x86_128Prefix, murmur3x86_128Resume } from './hash.ts';
import { PlainWriter } from './representations/plain.ts';
import type { CanonicalPart, RecordLayout } from './representations/representation.ts';
import { C } from './representations/tags.ts';
import { describe, locate, locateDeep, representationOf } from './representations/table.ts';
import { NotAStateValue, UnnamedRecord } from './valueErrors.ts';

export { NotAStateValue, UnnamedRecord } from './valueErrors.ts';

/** The tag of a part written as its digest; exported so that fingerprint.ts can take a top-level digest as it is. */
export const TAG_DIGEST = C.DIGEST;
/**
 * The most entries a collection may have to be written sorted in digest mode. (immutable.js
 * keeps Maps of up to 8 entries as one array; the insertion sort below is quadratic.)
 */
const SORTED_MAX = 8;

/** How many parts the full mode's memo keeps before it starts again. */
const MEMO_LIMIT = 1 << 20;
/** Unordered collections up to this size are sorted by insertion sort, without allocating. */
const SMALL = 24;

/** What an unordered collection is to the encoder: something to walk, as immutable.js's forEach walks. */
interface Walkable {
  forEach(f: (x: unknown, k: unknown) => unknown): unknown;
}

export type EncodingMode = 'digest' | 'full';

/**
 * The digest that digest mode writes for `v` as it is, if any: a part's, kept on it by
 * keepPending (not a plain object's or array's, which are written in place whatever they carry).
 */
export function keptDigest(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const proto = Object.getPrototypeOf(v);
  if (proto === Object.prototype || proto === null) return undefined;
  return (v as Digested)[DIGEST_OF];
}

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
  /** How each prototype's parts are written, asked of the representations once (see partOf). */
  private readonly parts = new Map<object, CanonicalPart>();
  private lastProto: object | null = null;
  private lastPart: CanonicalPart | null = null;
  /** Each Record type's name, to refuse two types with one name. */
  private readonly recordNames = new Map<string, object>();
  /** Plain arrays and objects, written in place before any digest is looked up (see write). */
  readonly plain = new PlainWriter();
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

  /** Digest mode: the state whose successors come next (see reference), and a count that moves when it changes. */
  private referenceRoot: object | null = null;
  referenceEpoch = 0;

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
    this.plain.depth = 0;
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

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  u32(n: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, n, true);
    this.pos += 4;
  }

  bytesOut(b: Uint8Array): void {
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
  str(s: string): void {
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

  /** Writes `v`, whatever it is, at the current position: for the representations' writes too. */
  write(v: unknown): void {
    switch (typeof v) {
      case 'boolean':
        this.byte(v ? C.TRUE : C.FALSE);
        return;
      case 'number':
        if ((v & 0xff) === v) {
          // (-0 & 0xff is 0: -0 and 0 are the same value to immutable.js.)
          this.ensure(2);
          this.buf[this.pos++] = C.BYTE;
          this.buf[this.pos++] = v;
          return;
        }
        if ((v | 0) === v) {
          this.ensure(5);
          this.buf[this.pos++] = C.INT;
          this.view.setInt32(this.pos, v, true);
          this.pos += 4;
          return;
        }
        if (Number.isNaN(v)) throw new NotAStateValue('', 'NaN');
        this.byte(C.NUMBER);
        this.ensure(8);
        // -0 and 0 are the same value to immutable.js.
        this.view.setFloat64(this.pos, v === 0 ? 0 : v, false);
        this.pos += 8;
        return;
      case 'string':
        this.byte(C.STRING);
        this.str(v);
        return;
      case 'undefined':
      case 'function':
      case 'bigint':
      case 'symbol':
        throw new NotAStateValue('', describe(v));
    }
    if (v === null) {
      this.byte(C.NULL);
      return;
    }
    // Immutable values never change, and a successor shares most of its parts with its
    // parent, so each part is encoded (or digested) once, by identity.
    const obj = v as object;
    // Plain values before the digest lookup: an object spread from an immutable.js value carries
    // that value's digest along (an enumerable own property), which must not stand for it. (The
    // plain representation's own test, plain.ts, made here without a lookup: most values are.)
    if (Array.isArray(obj)) {
      this.plain.writeArray(this, obj);
      return;
    }
    const proto = Object.getPrototypeOf(obj);
    if (proto === Object.prototype || proto === null) {
      this.plain.writeObject(this, obj as { readonly [key: string]: unknown });
      return;
    }
    if (this.mode === 'digest') {
      const known = (obj as Digested)[DIGEST_OF];
      if (known !== undefined) {
        this.digestWordsOut(digestWord(known, 0), digestWord(known, 1), digestWord(known, 2), digestWord(known, 3));
        return;
      }
      const part = this.partOf(obj, proto);
      // (A packed value is written in place, not as a digest.)
      if (!part.digested) {
        part.write(this, obj, part);
        return;
      }
      const start = this.pos;
      part.write(this, obj, part);
      // Replace the part's bytes by a reference to their digest.
      const digest = this.digest;
      const layout = part.layout;
      if (layout === null) murmur3x86_128(this.view, start, this.pos - start, digest);
      else murmur3x86_128Resume(this.view, start, this.pos - start, digest, layout.prefixLanes, layout.prefixLength);
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
    const part = this.partOf(obj, proto);
    if (!part.digested) {
      part.write(this, obj, part);
      return;
    }
    const start = this.pos;
    part.write(this, obj, part);
    if (this.memo.size >= this.memoLimit) this.memo.clear();
    this.memo.set(obj, this.buf.slice(start, this.pos));
  }

  /**
   * Digest mode: the values encoded next are successors of `parent` (in a search, a state
   * whose parts' digests were kept; a field whose digest is not kept on it is written as before).
   * A successor's record of the same type as `parent`, or as one of `parent`'s records, shares
   * most of its fields with it, by identity. writeFlat then writes a shared
   * field that is a part from the digest it read once from the reference (keptDigest), not from a
   * lookup on the part each time: the same bytes, without a load from each part (on the move
   * model's searches a world record has 13 fields, two or three of them new in a successor; bench
   * case 6 about 3% faster, bench/README.md). Any value may still be encoded: a record that
   * shares nothing with the reference is written as before.
   */
  reference(parent: unknown): void {
    if (parent === this.referenceRoot || this.mode !== 'digest') return;
    this.referenceRoot = typeof parent === 'object' ? parent : null;
    this.referenceEpoch++;
  }

  /** The reference state (see reference), or null. */
  get referenceState(): object | null {
    return this.referenceRoot;
  }

  /**
   * A digest's tag and its four words, little-endian, at the current position: how a part whose
   * digest is known is written (write(), and writeFlat from its reference's words). This runs for
   * most parts of every successor.
   */
  digestWordsOut(w0: number, w1: number, w2: number, w3: number): void {
    this.ensure(17);
    const p = this.pos;
    const view = this.view;
    this.buf[p] = C.DIGEST;
    view.setUint32(p + 1, w0, true);
    view.setUint32(p + 5, w1, true);
    view.setUint32(p + 9, w2, true);
    view.setUint32(p + 13, w3, true);
    this.pos = p + 17;
  }

  /** A new encoder in full mode, to encode a header once (a layout's) without touching this one's bytes. */
  fresh(): CanonicalEncoder {
    return new CanonicalEncoder('full');
  }

  /** Whether parts are written as their digests (the default mode), rather than in full. */
  get digesting(): boolean {
    return this.mode === 'digest';
  }

  /** Makes room for `n` bytes and returns where they start; the writer writes them in `bytes` and ends with `advanceTo`. */
  reserve(n: number): number {
    this.ensure(n);
    return this.pos;
  }

  /** Ends a write begun with `reserve`: the next byte goes at `p`. */
  advanceTo(p: number): void {
    this.pos = p;
  }

  /**
   * An unordered collection of `size` entries under `tag`, `v`'s forEach giving (value, key):
   * in digest mode its entries' digests summed lane by lane (the same in any order), in full
   * mode its entries' bytes (key, then value) sorted. (Four methods rather than one with flags,
   * so that each forEach call below sees one kind of collection.)
   */
  unorderedEntries(tag: number, size: number, v: Walkable): void {
    this.byte(tag);
    this.u32(size);
    if (this.mode === 'digest') {
      this.openSum();
      v.forEach(this.sumEntry);
      this.closeSum();
      return;
    }
    const base = this.starts.length;
    v.forEach(this.writeEntry);
    this.sortSegments(base);
  }

  /** An unordered collection of `size` members under `tag`, as unorderedEntries. */
  unorderedItems(tag: number, size: number, v: Walkable): void {
    this.byte(tag);
    this.u32(size);
    if (this.mode === 'digest') {
      this.openSum();
      v.forEach(this.sumMember);
      this.closeSum();
      return;
    }
    const base = this.starts.length;
    v.forEach(this.writeMember);
    this.sortSegments(base);
  }

  /** An ordered collection of `size` entries under `tag`, in `v`'s order, each key then value. */
  orderedEntries(tag: number, size: number, v: Walkable): void {
    this.byte(tag);
    this.u32(size);
    v.forEach(this.writeKeyed);
  }

  /** An ordered collection of `size` members under `tag`, in `v`'s order. */
  orderedItems(tag: number, size: number, v: Walkable): void {
    this.byte(tag);
    this.u32(size);
    v.forEach(this.writeItem);
  }

  /**
   * What a part is, known by its prototype: how its representation writes it. immutable.js
   * tells its kinds by marks on their prototypes (isRecord, isMap, isOrdered...), so one lookup
   * per part replaces up to four of those checks (each a load from one of many shapes), and a
   * packed value is found without walking its prototype chain.
   */
  private partOf(v: object, proto: object): CanonicalPart {
    // (Parts of one kind often come in a row, the Lists of a List say: the last one is kept.)
    if (proto === this.lastProto) return this.lastPart!;
    let part = this.parts.get(proto);
    if (part === undefined) {
      const r = representationOf(v);
      if (r === undefined) throw new NotAStateValue('', describe(v));
      part = r.canonicalPart(this, v, proto);
      this.parts.set(proto, part);
    }
    this.lastProto = proto;
    this.lastPart = part;
    return part;
  }

  /**
   * The layout of a Record type (once per type): `name` is undefined for a type given none,
   * which the codec could not rebuild (MC112), as is a second type of one name.
   */
  recordLayout(proto: object, name: string | undefined, keys: readonly string[]): RecordLayout {
    // Once per Record type: the frontier may keep states as bytes (stateCodec.ts) and
    // rebuilds Records by their type's name, so each type needs a name of its own.
    if (name === undefined) throw new UnnamedRecord(`a Record type with no name (fields ${keys.join(', ')})`);
    const other = this.recordNames.get(name);
    if (other !== undefined && other !== proto) throw new UnnamedRecord(`two different Record types named ${name}`);
    this.recordNames.set(name, proto);
    const enc = new CanonicalEncoder('full');
    enc.byte(C.RECORD);
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
    };
  }

  /** Whether a collection of `size` entries may take the sorted form of small ones (`small`): in digest mode, up to SORTED_MAX. */
  smallSized(size: number): boolean {
    return size <= SORTED_MAX && this.mode === 'digest';
  }

  /**
   * Digest mode: a small Map whose keys are all strings, its entries in the order of their
   * keys, or (`map` false) a small Set whose members are all strings, in their order. False,
   * with nothing written, if a key is not a string. `entries`, where the representation has
   * them at hand, are the [key, value] pairs (members as keys); else `v` is walked.
   */
  small(v: Walkable, size: number, map: boolean, entries: readonly (readonly [unknown, unknown])[] | undefined): boolean {
    const base = this.smallTop;
    const n = size;
    if (entries !== undefined) {
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
      v.forEach(map ? this.collectEntry : this.collectMember);
      if (this.smallTop - base !== n) {
        this.smallTop = base;
        return false;
      }
    }
    this.smallOut(base, n, map);
    return true;
  }

  /** small() for a Set whose members the representation has at hand in an array (FlatSet's). */
  smallMembers(members: readonly unknown[], size: number): boolean {
    const base = this.smallTop;
    const keys = this.smallKeys;
    for (let i = 0; i < size; i++) {
      const k = members[i];
      if (typeof k !== 'string') return false;
      keys[base + i] = k;
    }
    this.smallTop = base + size;
    this.smallOut(base, size, false);
    return true;
  }

  /** Writes the small collection collected at `base`, sorted, and pops it. */
  private smallOut(base: number, n: number, map: boolean): void {
    this.sortSmall(base, n, map);
    this.byte(map ? C.SMALL_MAP : C.SMALL_SET);
    this.u32(n);
    const keys = this.smallKeys;
    const values = this.smallValues;
    for (let i = base; i < base + n; i++) {
      this.str(keys[i]);
      if (map) this.write(values[i]);
    }
    this.smallTop = base;
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
