// Packed sets, maps and sequences (packedType.ts says how packed values are laid out). Each
// reads like its immutable.js counterpart (has/add/delete, get/set/update, push/shift), and
// each write returns a new value whose words are a copy: the words a value is read from are
// never written.
import { List, OrderedMap, OrderedSet } from 'immutable';
import {
  PackedValue,
  PackedValueError,
  at,
  indexOf,
  show,
  typeId,
  unpack,
  zeros,
  type AnyType,
  type InputOf,
  MAX_BYTE,
  type PackedType,
  type Primitive,
  type ValueOf,
} from './packedType.ts';

/** Bits of a set kept per word: 30, so that every word is a small integer (V8's Smi). */
const BITS = 30;

function isIterable(v: unknown): v is Iterable<unknown> {
  return v !== null && typeof v === 'object' && typeof (v as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}

/** Copies `from`'s words into `w` at `o`, if `from` is a value of `type`; else returns false. */
function copyIfSame(type: PackedType<unknown, never>, w: number[], o: number, from: unknown): boolean {
  if (!(from instanceof PackedValue) || from.$type !== type) return false;
  const n = type.slots;
  const src = from.$w;
  const s = from.$o;
  for (let i = 0; i < n; i++) w[o + i] = src[s + i];
  return true;
}

/**
 * The index of each of `universe` (distinct packed values of one type), found from a value's
 * words without allocating: each word's offset from the least the universe has in that slot,
 * read as the digits of one number (mixed radix), looked up in a Map. A value with a word
 * outside the universe's range is not a member.
 */
function packedIndexOf(universe: readonly PackedValue[]): (x: unknown) => number | undefined {
  const type = universe[0].$type;
  if (!universe.every((x) => x instanceof PackedValue && x.$type === type)) {
    throw new PackedValueError('setOf: a universe of packed values must hold values of one type only');
  }
  const n = type.slots;
  const min: number[] = [];
  const size: number[] = [];
  for (let i = 0; i < n; i++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const x of universe) {
      const v = x.$w[x.$o + i];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    min.push(lo);
    size.push(hi - lo + 1);
  }
  if (size.reduce((a, b) => a * b, 1) > Number.MAX_SAFE_INTEGER)
    throw new PackedValueError('setOf: a universe of values this wide is not supported');
  const code = (w: readonly number[], o: number): number => {
    let c = 0;
    for (let i = 0; i < n; i++) {
      const d = w[o + i] - min[i];
      if (d < 0 || d >= size[i]) return -1;
      c = c * size[i] + d;
    }
    return c;
  };
  const byCode = new Map<number, number>();
  universe.forEach((x, i) => {
    const c = code(x.$w, x.$o);
    if (byCode.has(c)) throw new PackedValueError(`setOf: ${show(x)} is listed twice`);
    byCode.set(c, i);
  });
  return (x) => {
    if (!(x instanceof PackedValue)) {
      // A plain description of a member (`{ type: '1a', bal: 0 }`): written as the type would, then found.
      if (x === null || typeof x !== 'object') return undefined;
      const w = zeros(n);
      try {
        type.write(w, 0, x as never);
      } catch {
        return undefined;
      }
      return byCode.get(code(w, 0));
    }
    if (x.$type !== type) return undefined;
    return byCode.get(code(x.$w, x.$o));
  };
}

function bitCount(x: number): number {
  let c = 0;
  for (let y = x; y !== 0; y &= y - 1) c++;
  return c;
}

/** What a set's universe may hold: primitives, or packed values of one type (a record of a message's fields, say). */
export type Member = Primitive | PackedValue;

/** A set of members of a fixed universe. */
export interface SetType<E extends Member> extends PackedType<PackedSet<E>, PackedSet<E> | Iterable<E>> {
  readonly universe: readonly E[];
  /** A member's index in the universe. */
  readonly index: (x: unknown) => number | undefined;
}

export class PackedSet<E extends Member> extends PackedValue implements Iterable<E> {
  readonly $type: SetType<E>;
  readonly $w: number[];
  readonly $o: number;
  constructor(type: SetType<E>, w: number[], o: number) {
    super();
    this.$type = type;
    this.$w = w;
    this.$o = o;
  }

  private indexOf(x: unknown): number | undefined {
    return this.$type.index(x);
  }

  has(x: E): boolean {
    const i = this.indexOf(x);
    if (i === undefined) return false;
    return ((this.$w[this.$o + ((i / BITS) | 0)] >>> (i % BITS)) & 1) === 1;
  }

  /** Alias of has, as immutable.js has both. */
  includes(x: E): boolean {
    return this.has(x);
  }

  get size(): number {
    let c = 0;
    const n = this.$type.slots;
    for (let k = 0; k < n; k++) c += bitCount(this.$w[this.$o + k]);
    return c;
  }

  isEmpty(): boolean {
    const n = this.$type.slots;
    for (let k = 0; k < n; k++) if (this.$w[this.$o + k] !== 0) return false;
    return true;
  }

  add(x: E): this {
    return this.withBit(x, true);
  }

  delete(x: E): this {
    return this.withBit(x, false);
  }

  /** Alias of delete, as immutable.js has both. */
  remove(x: E): this {
    return this.delete(x);
  }

  private withBit(x: E, on: boolean): this {
    const i = this.indexOf(x);
    if (i === undefined) throw new PackedValueError(`${show(x)} is not in the set's universe (${this.$type.describe()})`);
    const k = (i / BITS) | 0;
    const word = this.$w[this.$o + k];
    const bit = 1 << (i % BITS);
    const next = on ? word | bit : word & ~bit;
    if (next === word) return this;
    const w = this.words();
    w[k] = next;
    return new PackedSet(this.$type, w, 0) as this;
  }

  /**
   * The index of the first member (in the universe's order) for which `p` is `stop`, or -1. Bit by bit over the set words only (lowest set bit first), with no iterator:
   * the loops below are a model's set comprehensions, run for every state.
   */
  private scan(p: (x: E) => boolean, stop: boolean): number {
    const u = this.$type.universe;
    const n = this.$type.slots;
    const w = this.$w;
    for (let k = 0; k < n; k++) {
      let word = w[this.$o + k];
      while (word !== 0) {
        const bit = word & -word;
        const i = k * BITS + 31 - Math.clz32(bit);
        if (p(u[i]) === stop) return i;
        word ^= bit;
      }
    }
    return -1;
  }

  [Symbol.iterator](): Iterator<E> {
    return this.toArray()[Symbol.iterator]();
  }

  toArray(): E[] {
    const out: E[] = [];
    this.scan((x) => {
      out.push(x);
      return false;
    }, true);
    return out;
  }

  forEach(f: (x: E) => void): void {
    this.scan((x) => {
      f(x);
      return false;
    }, true);
  }

  every(p: (x: E) => boolean): boolean {
    return this.scan(p, false) === -1;
  }

  some(p: (x: E) => boolean): boolean {
    return this.scan(p, true) !== -1;
  }

  /** The members for which `p` holds, as an array (a set comprehension's result, to read, not to store). */
  filter(p: (x: E) => boolean): E[] {
    const out: E[] = [];
    this.scan((x) => {
      if (p(x)) out.push(x);
      return false;
    }, true);
    return out;
  }
}

/**
 * A set of members of `universe`, a bit each: distinct primitives (`setOf(RM)`), or distinct
 * packed values of one type (`setOf(MESSAGES)`, every message a model can send, as TLA+'s
 * `msgs \subseteq Message`). Iteration gives the universe's own values, in its order.
 */
export function setOf<const E extends Member>(given: readonly E[]): SetType<E> {
  // A copy: the layout must not change with the array the model passed.
  const universe: readonly E[] = [...given];
  const index = universe.some((x) => x instanceof PackedValue)
    ? packedIndexOf(universe as readonly PackedValue[])
    : indexOf(universe as readonly Primitive[], 'setOf');
  const slots = Math.max(1, Math.ceil(universe.length / BITS));
  const setKey = `setOf(${universe.map((v) => (v instanceof PackedValue ? `${v.$type.key}:${v.words().join(' ')}` : JSON.stringify(v))).join(',')})`;
  const type: SetType<E> = {
    universe,
    index,
    slots,
    // (Seven members at most: a word is then below 2^7, never 255.)
    byteSized: universe.length < 8,
    key: setKey,
    id: typeId(setKey),
    read: (w, o) => new PackedSet(type, w as number[], o),
    write: (w, o, input) => {
      if (copyIfSame(type, w, o, input)) return;
      if (!isIterable(input)) throw new PackedValueError(`${show(input)} is not a set (give an array, a Set or a value of this setOf)`);
      for (let k = 0; k < slots; k++) w[o + k] = 0;
      for (const x of input) {
        const i = index(x);
        if (i === undefined) throw new PackedValueError(`${show(x)} is not in the set's universe (${type.describe()})`);
        w[o + ((i / BITS) | 0)] |= 1 << (i % BITS);
      }
    },
    writeDefault: (w, o) => {
      for (let k = 0; k < slots; k++) w[o + k] = 0;
    },
    toImmutable: (w, o) => OrderedSet([...new PackedSet(type, w as number[], o)].map(unpack)),
    child: () => undefined,
    describe: () => `a set of ${universe.map(show).join(', ')}`,
  };
  return type;
}

/** A total function from a fixed list of keys to values of one type. */
export interface MapType<K extends Primitive, T extends AnyType>
  extends PackedType<PackedMap<K, T>, PackedMap<K, T> | Iterable<readonly [K, InputOf<T>]> | { readonly [key: string]: InputOf<T> }> {
  readonly keys: readonly K[];
  readonly value: T;
  /** A key's index in `keys`. */
  readonly index: (k: unknown) => number | undefined;
}

export class PackedMap<K extends Primitive, T extends AnyType> extends PackedValue implements Iterable<[K, ValueOf<T>]> {
  readonly $type: MapType<K, T>;
  readonly $w: number[];
  readonly $o: number;
  constructor(type: MapType<K, T>, w: number[], o: number) {
    super();
    this.$type = type;
    this.$w = w;
    this.$o = o;
  }

  private indexOf(k: unknown): number | undefined {
    return this.$type.index(k);
  }

  /** The value at `k`; undefined for a key the map's type does not list. */
  get(k: K): ValueOf<T> {
    const i = this.indexOf(k);
    if (i === undefined) return undefined as ValueOf<T>;
    const t = this.$type.value;
    return t.read(this.$w, this.$o + i * t.slots) as ValueOf<T>;
  }

  has(k: K): boolean {
    return this.indexOf(k) !== undefined;
  }

  get size(): number {
    return this.$type.keys.length;
  }

  set(k: K, v: InputOf<T>): this {
    const i = this.indexOf(k);
    if (i === undefined)
      throw new PackedValueError(`${show(k)} is not a key of this map (its keys: ${this.$type.keys.map(show).join(', ')})`);
    const w = this.words();
    const t = this.$type.value;
    try {
      t.write(w, i * t.slots, v as never);
    } catch (e) {
      throw at(`[${show(k)}]`, e);
    }
    return new PackedMap(this.$type, w, 0) as this;
  }

  update(k: K, f: (v: ValueOf<T>) => InputOf<T>): this {
    return this.set(k, f(this.get(k)));
  }

  *keys(): IterableIterator<K> {
    yield* this.$type.keys;
  }

  *values(): IterableIterator<ValueOf<T>> {
    for (const k of this.$type.keys) yield this.get(k);
  }

  *entries(): IterableIterator<[K, ValueOf<T>]> {
    for (const k of this.$type.keys) yield [k, this.get(k)];
  }

  [Symbol.iterator](): IterableIterator<[K, ValueOf<T>]> {
    return this.entries();
  }

  /** Whether some key maps to `v` (immutable.js's Map.includes). */
  includes(v: ValueOf<T>): boolean {
    const keys = this.$type.keys;
    for (let i = 0; i < keys.length; i++) {
      const x = this.get(keys[i]);
      if (x === v || (x instanceof PackedValue && x.equals(v))) return true;
    }
    return false;
  }

  forEach(f: (v: ValueOf<T>, k: K) => void): void {
    for (const k of this.$type.keys) f(this.get(k), k);
  }

  every(p: (v: ValueOf<T>, k: K) => boolean): boolean {
    for (const k of this.$type.keys) if (!p(this.get(k), k)) return false;
    return true;
  }

  some(p: (v: ValueOf<T>, k: K) => boolean): boolean {
    for (const k of this.$type.keys) if (p(this.get(k), k)) return true;
    return false;
  }

  count(p: (v: ValueOf<T>, k: K) => boolean): number {
    let c = 0;
    for (const k of this.$type.keys) if (p(this.get(k), k)) c++;
    return c;
  }
}

/** A map from each of `keys` (distinct primitives) to a value of `value`'s type, e.g. `mapOf(RM, oneOf(...))`. */
export function mapOf<const K extends Primitive, T extends AnyType>(given: readonly K[], value: T): MapType<K, T> {
  // A copy: the layout must not change with the array the model passed.
  const keys: readonly K[] = [...given];
  // An object's keys are strings: each key by its text, for a map written from an object.
  const byText = new Map(keys.map((k) => [String(k), k] as const));
  const textsDistinct = byText.size === keys.length;
  const index = indexOf(keys, 'mapOf');
  const vs = value.slots;
  const keyList = keys.map(show).join(', ');
  // Made once: getIn and setIn walk through them on every step, and should not allocate.
  const children = keys.map((_, i) => ({ type: value as PackedType<unknown, unknown>, offset: i * vs }));
  const writeEntry = (w: number[], o: number, k: unknown, x: unknown, seen: boolean[]) => {
    const i = index(k);
    if (i === undefined) throw new PackedValueError(`${show(k)} is not a key of this map (its keys: ${keyList})`);
    try {
      value.write(w, o + i * vs, x as never);
    } catch (e) {
      throw at(`[${show(k)}]`, e);
    }
    seen[i] = true;
  };
  const type: MapType<K, T> = {
    keys,
    value,
    index,
    slots: keys.length * vs,
    byteSized: value.byteSized,
    key: `mapOf(${keys.map((v) => JSON.stringify(v)).join(',')};${value.key})`,
    id: typeId(`mapOf(${keys.map((v) => JSON.stringify(v)).join(',')};${value.key})`),
    read: (w, o) => new PackedMap(type, w as number[], o),
    write: (w, o, input) => {
      if (copyIfSame(type, w, o, input)) return;
      const seen: boolean[] = [];
      if (isIterable(input)) {
        for (const entry of input) {
          if (!Array.isArray(entry) || entry.length !== 2) throw new PackedValueError(`${show(entry)} is not a [key, value] entry`);
          writeEntry(w, o, entry[0], entry[1], seen);
        }
      } else if (input !== null && typeof input === 'object') {
        if (!textsDistinct)
          throw new PackedValueError(`keys ${keyList} are not told apart as an object's keys (give a Map or [key, value] entries)`);
        for (const k of Object.keys(input))
          writeEntry(w, o, byText.has(k) ? byText.get(k) : k, (input as { [key: string]: unknown })[k], seen);
      } else {
        throw new PackedValueError(`${show(input)} is not a map (give a Map, an object or [key, value] entries)`);
      }
      const missing = keys.filter((_, i) => !seen[i]);
      if (missing.length > 0) throw new PackedValueError(`no value for ${missing.map(show).join(', ')} (a mapOf gives every key a value)`);
    },
    writeDefault: (w, o) => {
      for (let i = 0; i < keys.length; i++) value.writeDefault(w, o + i * vs);
    },
    toImmutable: (w, o) => OrderedMap(keys.map((k, i) => [k, value.toImmutable(w, o + i * vs)] as const)),
    child: (k) => {
      const i = index(k);
      return i === undefined ? undefined : children[i];
    },
    describe: () => `a map from ${keyList} to ${value.describe()}`,
  };
  return type;
}

/** A sequence of at most a fixed number of values of one type. */
export interface SeqType<T extends AnyType> extends PackedType<PackedSeq<T>, PackedSeq<T> | Iterable<InputOf<T>>> {
  readonly element: T;
  readonly maxLength: number;
}

export class PackedSeq<T extends AnyType> extends PackedValue implements Iterable<ValueOf<T>> {
  readonly $type: SeqType<T>;
  readonly $w: number[];
  readonly $o: number;
  constructor(type: SeqType<T>, w: number[], o: number) {
    super();
    this.$type = type;
    this.$w = w;
    this.$o = o;
  }

  get size(): number {
    return this.$w[this.$o];
  }

  isEmpty(): boolean {
    return this.$w[this.$o] === 0;
  }

  /** The element at `i` (from 0; a negative `i` counts from the end, as immutable.js's List does); undefined outside. */
  get(index: number): ValueOf<T> {
    const n = this.$w[this.$o];
    const i = index < 0 ? index + n : index;
    if (!Number.isInteger(i) || i < 0 || i >= n) return undefined as ValueOf<T>;
    const t = this.$type.element;
    return t.read(this.$w, this.$o + 1 + i * t.slots) as ValueOf<T>;
  }

  first(): ValueOf<T> {
    return this.get(0);
  }

  last(): ValueOf<T> {
    return this.get(this.$w[this.$o] - 1);
  }

  /** The sequence with `x` appended; a PackedValueError past the declared bound. */
  push(x: InputOf<T>): this {
    const n = this.$w[this.$o];
    const { element: t, maxLength } = this.$type;
    if (n === maxLength) throw new PackedValueError(`a sequence declared with at most ${maxLength} elements would have ${n + 1}`);
    const w = this.words();
    try {
      t.write(w, 1 + n * t.slots, x as never);
    } catch (e) {
      throw at(`[${n}]`, e);
    }
    w[0] = n + 1;
    return new PackedSeq(this.$type, w, 0) as this;
  }

  /** The sequence without its first element (immutable.js's List.shift); itself when empty. */
  shift(): this {
    const n = this.$w[this.$o];
    if (n === 0) return this;
    const es = this.$type.element.slots;
    const slots = this.$type.slots;
    const w = this.words();
    w[0] = n - 1;
    // The rest moves to the front; the freed slots are zero, so equal sequences have equal words.
    for (let k = 1; k < slots - es; k++) w[k] = w[k + es];
    for (let k = slots - es; k < slots; k++) w[k] = 0;
    return new PackedSeq(this.$type, w, 0) as this;
  }

  /** The sequence with the element at `i` (an existing index; a negative one counts from the end) replaced. */
  set(index: number, x: InputOf<T>): this {
    const n = this.$w[this.$o];
    const i = index < 0 ? index + n : index;
    if (!Number.isInteger(i) || i < 0 || i >= n) throw new PackedValueError(`index ${index} is outside a sequence of ${n}`);
    const t = this.$type.element;
    const w = this.words();
    try {
      t.write(w, 1 + i * t.slots, x as never);
    } catch (e) {
      throw at(`[${i}]`, e);
    }
    return new PackedSeq(this.$type, w, 0) as this;
  }

  *[Symbol.iterator](): Iterator<ValueOf<T>> {
    const n = this.$w[this.$o];
    for (let i = 0; i < n; i++) yield this.get(i);
  }

  toArray(): ValueOf<T>[] {
    return [...this];
  }

  includes(v: ValueOf<T>): boolean {
    const n = this.$w[this.$o];
    for (let i = 0; i < n; i++) {
      const x = this.get(i);
      if (x === v || (x instanceof PackedValue && x.equals(v))) return true;
    }
    return false;
  }

  forEach(f: (x: ValueOf<T>, i: number) => void): void {
    const n = this.$w[this.$o];
    for (let i = 0; i < n; i++) f(this.get(i), i);
  }

  every(p: (x: ValueOf<T>, i: number) => boolean): boolean {
    const n = this.$w[this.$o];
    for (let i = 0; i < n; i++) if (!p(this.get(i), i)) return false;
    return true;
  }

  some(p: (x: ValueOf<T>, i: number) => boolean): boolean {
    const n = this.$w[this.$o];
    for (let i = 0; i < n; i++) if (p(this.get(i), i)) return true;
    return false;
  }
}

/**
 * A sequence of at most `maxLength` values of `element`'s type (TLA+'s Seq(S) under a bound the
 * model states): its length, then its elements. Pushing past the bound is an error in the step
 * that does it, never a silent truncation.
 */
export function seqOf<T extends AnyType>(element: T, maxLength: number): SeqType<T> {
  if (!Number.isInteger(maxLength) || maxLength < 0) throw new PackedValueError(`seqOf: the bound ${maxLength} is not a whole number`);
  const es = element.slots;
  const slots = 1 + maxLength * es;
  const children = Array.from({ length: maxLength }, (_, i) => ({ type: element as PackedType<unknown, unknown>, offset: 1 + i * es }));
  const type: SeqType<T> = {
    element,
    maxLength,
    slots,
    byteSized: maxLength <= MAX_BYTE && element.byteSized,
    key: `seqOf(${maxLength};${element.key})`,
    id: typeId(`seqOf(${maxLength};${element.key})`),
    read: (w, o) => new PackedSeq(type, w as number[], o),
    write: (w, o, input) => {
      if (copyIfSame(type, w, o, input)) return;
      if (!isIterable(input))
        throw new PackedValueError(`${show(input)} is not a sequence (give an array, a List or a value of this seqOf)`);
      let n = 0;
      for (const x of input) {
        if (n === maxLength) throw new PackedValueError(`a sequence declared with at most ${maxLength} elements would have more`);
        try {
          element.write(w, o + 1 + n * es, x as never);
        } catch (e) {
          throw at(`[${n}]`, e);
        }
        n++;
      }
      w[o] = n;
      for (let k = 1 + n * es; k < slots; k++) w[o + k] = 0;
    },
    writeDefault: (w, o) => {
      for (let k = 0; k < slots; k++) w[o + k] = 0;
    },
    toImmutable: (w, o) => List(Array.from({ length: w[o] }, (_, i) => element.toImmutable(w, o + 1 + i * es))),
    // Only an element the sequence has: setIn cannot write past its end.
    child: (index, w, o) => {
      if (typeof index !== 'number') return undefined;
      const i = index < 0 ? index + w[o] : index;
      return Number.isInteger(i) && i >= 0 && i < w[o] ? children[i] : undefined;
    },
    describe: () => `a sequence of at most ${maxLength} of ${element.describe()}`,
  };
  return type;
}
