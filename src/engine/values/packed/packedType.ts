// Packed values: state values of a declared finite type, stored as a few small integers (its
// "words") rather than as an object graph. A model declares a state's shape once, as in TLA+'s
// TypeOK (`record('TwoPhase', { tmState: oneOf('init', 'committed', 'aborted'), ... })`), and
// reads and writes fields by name as it would an immutable.js Record's. What it buys is the
// search's cost per state: a successor is a copy of a short array of small integers, and the
// canonical encoding writes those integers without walking anything (encoding.ts), where an
// immutable.js state costs its reads, writes and garbage, and a plain one a walk of its strings,
// arrays and objects (docs/architecture.md, "What a state costs").
//
// Every type lays its value out in `slots` consecutive words of a plain array of small
// integers (V8 keeps such an array unboxed): a scalar in one word (the index of its value, or
// the integer itself), a set as bit masks, a map as its values in key order, a sequence as its
// length and then its elements, a record as its fields in declared order. A value is a view,
// (words, offset), on the array it was read from; arrays are never written once a value holds
// them (withMutations aside, before it returns), so a view stays valid for as long as it lives.

/** A value a oneOf, a set's universe or a map's keys can hold: compared by ===. */
import { isPresented, PRESENTED } from '../presented.ts';

export { ALL_FIELDS, showsAllFields } from '../presented.ts';
export type Primitive = string | number | boolean | null;

/** A value outside its declared type, or a sequence past its bound: the message says which, and where. */
export class PackedValueError extends Error {
  override name = 'PackedValueError';
}

/** Prefixes the place a write failed at (a field, a key) to a PackedValueError's message. */
export function at(where: string, e: unknown): unknown {
  if (!(e instanceof PackedValueError)) return e;
  // An index or key the inner write named joins the path: `Node.channel[0]: ...`.
  return new PackedValueError(/^\[[^\]]*\]: /.test(e.message) ? `${where}${e.message}` : `${where}: ${e.message}`);
}

/**
 * A declared type. `read` gives the value stored at `o` in `w` (a view, for a compound type);
 * `write` stores `input` there, after checking that it belongs to the type. `V` is the type of a
 * value read, `I` what a write accepts.
 */
export interface PackedType<V = unknown, I = V> {
  /** How many words a value takes. */
  readonly slots: number;
  /**
   * Whether every word of every value is from 0 to 254: the canonical encoding, which writes such
   * a word as one byte (and any other as an escape and four), then copies the words as they are.
   */
  readonly byteSized: boolean;
  /** The type's structure as text: equal types have equal keys (the canonical encoding's type id comes from it). */
  readonly key: string;
  /** A 32-bit hash of `key`: what the canonical encoding writes for the type (typeId). */
  readonly id: number;
  read(w: readonly number[], o: number): V;
  write(w: number[], o: number, input: I): void;
  /** Stores the type's first value (the first of a oneOf, the minimum, empty): a record field left out. */
  writeDefault(w: number[], o: number): void;
  /** The value at `o` as plain data for the reports: an immutable.js value of the same shape, or the primitive. */
  toImmutable(w: readonly number[], o: number): unknown;
  /** The child type at `key` and its offset from the value's own (a map's key, a sequence's index, a record's field); getIn/setIn walk these. */
  child(
    key: unknown,
    w: readonly number[],
    o: number,
  ): { readonly type: PackedType<unknown, unknown>; readonly offset: number } | undefined;
  /** A short description for messages, e.g. `one of init, committed, aborted`. */
  describe(): string;
}

/** Any packed type, as a field's or an element's type (never: what it accepts is its own business). */
export type AnyType = PackedType<unknown, never>;

/** What a type reads as. */
export type ValueOf<T> = T extends PackedType<infer V, unknown> ? V : never;
/** What a type accepts when written. */
export type InputOf<T> = T extends PackedType<unknown, infer I> ? I : never;

/**
 * The class every packed value (a view) belongs to. The encoder, the state codec and the reports
 * find packed values by it; `type` (on each type's own prototype) tells them the layout.
 */
export abstract class PackedValue {
  // No fields here: each concrete class (PackedSet, PackedMap, PackedSeq, each record type's)
  // defines its own. One field initializer shared by instances of many classes is megamorphic,
  // and V8 then defines each field through the runtime: it took more than half of a search's time.
  /** The words the value sits in, from `$o`. Never written while a value other than a withMutations draft holds them. */
  abstract readonly $w: number[];
  abstract readonly $o: number;
  abstract readonly $type: PackedType<unknown, unknown>;

  /** The value's own words, in a new array (for a value to be stored elsewhere). */
  words(): number[] {
    const n = this.$type.slots;
    return this.$o === 0 && this.$w.length === n ? this.$w.slice() : this.$w.slice(this.$o, this.$o + n);
  }

  /** Equal when of the same type with the same words (immutable.js's `is` uses this). */
  equals(other: unknown): boolean {
    if (!(other instanceof PackedValue) || other.$type !== this.$type) return false;
    const n = this.$type.slots;
    for (let i = 0; i < n; i++) if (this.$w[this.$o + i] !== other.$w[other.$o + i]) return false;
    return true;
  }

  /** A hash of the words (immutable.js's collections use it). */
  hashCode(): number {
    let h = 0x811c9dc5;
    const n = this.$type.slots;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ this.$w[this.$o + i], 0x01000193);
    return h | 0;
  }

  /** The value as an immutable.js value of the same shape: what the reports print. */
  toImmutable(): unknown {
    return this.$type.toImmutable(this.$w, this.$o);
  }

  toString(): string {
    return String(this.toImmutable());
  }

  /** As JSON, the immutable.js value's plain form (a record an object, a set an array), not the words. */
  toJSON(): unknown {
    const v = this.toImmutable() as { toJS?: () => unknown };
    return typeof v.toJS === 'function' ? v.toJS() : v;
  }

  /** What console.log prints: the immutable.js value's text. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

/** Whether `v` is a packed value. */
export function isPacked(v: unknown): v is PackedValue {
  return v instanceof PackedValue;
}

/**
 * The state as the frontier may keep it, as its words (search/stateQueue.ts): a packed value of
 * at least one word, or undefined for any other (a record without fields has nothing to copy).
 * The search asks this rather than test a value's representation itself.
 */
export function heldAsWords(s: unknown): PackedValue | undefined {
  return s instanceof PackedValue && s.$type.slots > 0 ? s : undefined;
}

/** For the reports: a packed value as its immutable.js counterpart, a presented one as what it presents (presented.ts), anything else as it is. */
export function unpack(v: unknown): unknown {
  if (v instanceof PackedValue) return v.toImmutable();
  return isPresented(v) ? v[PRESENTED]() : v;
}

/** A type's id: FNV-1a of its key, 32 bits. Two types whose keys collide would write alike: states of the one could be taken for the other's (as a fingerprint collision can). */
export function typeId(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** n zero words, in an array V8 keeps packed (`new Array(n)` would be holey for good). */
export function zeros(n: number): number[] {
  const w: number[] = [];
  for (let i = 0; i < n; i++) w.push(0);
  return w;
}

export function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v) || (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)) {
    try {
      return JSON.stringify(v);
    } catch {
      return String(v);
    }
  }
  return String(v);
}

const NO_CHILD = (): undefined => undefined;

/** The largest word the canonical encoding writes as one byte (255 marks a word written in four). */
export const MAX_BYTE = 254;

/** A finite set of primitive values, each stored as its index. */
export interface OneOfType<V extends Primitive> extends PackedType<V, V> {
  readonly values: readonly V[];
}

/** One of the values given, e.g. `oneOf('working', 'prepared', 'committed', 'aborted')`. */
export function oneOf<const V extends readonly Primitive[]>(...values: V): OneOfType<V[number]> {
  // (values is the rest parameter: a fresh array, the model holds no reference to it.)
  if (values.length === 0) throw new PackedValueError('oneOf() needs at least one value');
  const index = indexOf(values, 'oneOf');
  const list = values.map(show).join(', ');
  const key = `oneOf(${values.map((v) => JSON.stringify(v)).join(',')})`;
  return {
    values,
    slots: 1,
    byteSized: values.length <= MAX_BYTE + 1,
    key,
    id: typeId(key),
    read: (w, o) => values[w[o]],
    write: (w, o, v) => {
      const i = index(v);
      if (i === undefined) throw new PackedValueError(`${show(v)} is not one of ${list}`);
      w[o] = i;
    },
    writeDefault: (w, o) => {
      w[o] = 0;
    },
    toImmutable: (w, o) => values[w[o]],
    child: NO_CHILD,
    describe: () => `one of ${list}`,
  };
}

/** An integer from `min` to `max`, both included, stored as itself. */
export function int(min: number, max: number): PackedType<number> {
  if (!Number.isInteger(min) || !Number.isInteger(max) || min > max || min < -(2 ** 30) || max >= 2 ** 30) {
    throw new PackedValueError(`int(${min}, ${max}): the bounds must be integers with min <= max, from -2^30 to 2^30 - 1`);
  }
  const key = `int(${min},${max})`;
  return {
    slots: 1,
    byteSized: min >= 0 && max <= MAX_BYTE,
    key,
    id: typeId(key),
    read: (w, o) => w[o],
    write: (w, o, v) => {
      if (!Number.isInteger(v) || v < min || v > max) throw new PackedValueError(`${show(v)} is not an integer from ${min} to ${max}`);
      // (+ 0: -0 is 0, and is stored as 0.)
      w[o] = v + 0;
    },
    writeDefault: (w, o) => {
      w[o] = min;
    },
    toImmutable: (w, o) => w[o],
    child: NO_CHILD,
    describe: () => `an integer from ${min} to ${max}`,
  };
}

/** false or true. */
export const bool: OneOfType<boolean> = oneOf(false, true);

/**
 * The index of each of `values` (distinct primitives): by the value itself when they are
 * 0 .. n-1 in order (process numbers), else through a Map.
 */
export function indexOf<V extends Primitive>(values: readonly V[], what: string): (v: unknown) => number | undefined {
  const byValue = new Map<unknown, number>();
  values.forEach((v, i) => {
    if (v !== null && typeof v === 'object') throw new PackedValueError(`${what}: ${show(v)} is not a string, number, boolean or null`);
    if (typeof v === 'number' && !Number.isFinite(v)) throw new PackedValueError(`${what}: ${v} is not a finite number`);
    if (byValue.has(v)) throw new PackedValueError(`${what}: ${show(v)} is listed twice`);
    byValue.set(v, i);
  });
  if (values.every((v, i) => v === i)) {
    const n = values.length;
    return (v) => (typeof v === 'number' && v >= 0 && v < n && Number.isInteger(v) ? v + 0 : undefined);
  }
  return (v) => byValue.get(v);
}
