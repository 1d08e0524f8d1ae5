// What FlatList (flatList.ts) and FlatSet (flatSet.ts) share: a kind of immutable.js collection
// held in one plain array, its prototype in front of immutable.js's own, its instances made by one
// constructor that sets every field, the encoder's digest slot among them, so that all have one
// shape with their fields inside the object (as FlatRecord's compileMake does: made with
// Object.create and given the slot later, each took a second shape and a separate store for the
// fields past V8's four in-object ones). Not immutable.js's __ownerID (never a draft), __altered
// nor __hash (hashCode adds it when asked): a collection is part of many states, and each field is
// bytes in each (LamportMutex 0.97 of the time without them, bench/README.md, thirty-fourth run).
import { DIGEST_OF, type Digested } from './digestSlot.ts';

/** An instance: its size, and its elements or members (never written once it is made). */
export interface Flat {
  readonly size: number;
  readonly _a: unknown[];
}

export interface FlatKind<C> {
  /** The kind's prototype, inheriting immutable.js's: the kind's own methods go on it. */
  readonly prototype: Record<string, unknown>;
  /** An instance holding `items` (kept, not copied). */
  make(items: unknown[]): Flat;
  /** Whether `v` is an instance of this kind. */
  is(v: unknown): boolean;
  /** immutable.js's collection of the same items in the same order, to run a method the kind leaves to it. */
  real(f: Flat): C;
  /** Runs `method` on immutable.js's collection of the same items: that collection back unchanged is `f`. */
  unchangedIsThis(f: Flat, method: (r: C) => unknown): unknown;
}

/** A flat collection's elements or members, in its order (for the encoder, which reads them rather than iterating). */
export function flatItems(v: object): readonly unknown[] {
  return (v as Flat)._a;
}

/**
 * A kind of flat collection in front of immutable.js's `parent` prototype, `own` making
 * immutable.js's collection of some items. What every kind does alike goes on its prototype here:
 * it is never a draft (wasAltered is false, a draft is immutable.js's collection's draft), and its
 * `__iterator` is immutable.js's collection's (only for iterators: the rest iterates `__iterate`).
 */
export function flatKind<C>(parent: object, own: (items: unknown[]) => C): FlatKind<C> {
  const prototype = Object.create(parent) as Record<string, unknown>;
  function FlatCollection(this: Flat & Digested, items: unknown[]) {
    (this as { size: number }).size = items.length;
    (this as { _a: unknown[] })._a = items;
    this[DIGEST_OF] = undefined;
  }
  FlatCollection.prototype = prototype;
  const Make = FlatCollection as unknown as new (items: unknown[]) => Flat;
  const real = (f: Flat): C => own(f._a);
  type Internals = { __iterator(type: number, reverse?: boolean): unknown; __ensureOwner(o: unknown): unknown };
  Object.assign(prototype, {
    wasAltered: () => false,
    __iterator(this: Flat, type: number, reverse?: boolean): unknown {
      return (real(this) as Internals).__iterator(type, reverse);
    },
    __ensureOwner(this: Flat, ownerID: unknown): unknown {
      return ownerID ? (real(this) as Internals).__ensureOwner(ownerID) : this;
    },
  });
  return {
    prototype,
    make: (items) => new Make(items),
    is: (v) => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === prototype,
    real,
    unchangedIsThis(f, method) {
      const r = real(f);
      const out = method(r);
      return out === r ? f : out;
    },
  };
}
