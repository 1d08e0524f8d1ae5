// FlatSet: an immutable.js Set of 1 to 8 strings, numbers or booleans held in one plain array,
// for the Sets a model makes when the CLI loads it (immutableForModels.ts: `Set(array)`), as
// FlatList (flatList.ts) is for its Lists. To every reader it is an immutable.js Set: its
// prototype inherits Set.prototype (isSet, instanceof Set, every Collection method, `is`, equals
// and hashCode, printing, the encoder's and codec's Set), and immutable.js's own `Set(flatSet)`
// gives it back. immutable.js keeps such a Set as a Set object, a Map object, a node, its entries
// array and a [member, member] array per member, and copies the node, the array and the Map for
// each add or remove.
//
// The order is immutable.js's: up to 8 members it keeps them in one array (ArrayMapNode), in the
// order they came, a removal moving the last one into the hole; FlatSet does the same, so that
// iteration, printing and every order-dependent answer are the same. A ninth member makes
// immutable.js hash them into a trie whose order is its own: there the Set becomes immutable.js's
// (the same Set immutable.js would have, built from the same members in the same order).
// Members are compared as immutable.js compares them (`is`), which for these primitives other
// than NaN is `===`; a Set given anything else (objects, NaN, null, undefined) is immutable.js's,
// and so is the answer to a question about anything else (has, add or remove of an object, whose
// valueOf may make it equal to a member).
//
// What FlatSet does itself: has, add, remove/delete, clear, wasAltered and iteration (`__iterate`);
// Collection's methods made of those (filter, every, find, toArray, hashCode, equals, sort...) run
// on the FlatSet. What reads immutable.js's Set fields (`__iterator`, map, drafts and so
// withMutations, union, intersect and subtract, and a question about a member FlatSet does not
// hold) runs on immutable.js's Set of the same members, in the same order, and where that gives
// its Set back unchanged, FlatSet gives itself back: the same identities as immutable.js.
// The empty Set is immutable.js's (one object, which every emptied Set is): a Set a model starts
// empty is immutable.js's until it is made again from an array.
// test/engine/flatSet.test.ts holds it to immutable.js operation by operation.
import { Set } from 'immutable';
import { type Flat, flatKind } from './flatKind.ts';

/** The most members a FlatSet holds (immutable.js's MAX_ARRAY_MAP_SIZE): a larger Set is immutable.js's. */
export const FLAT_SET_MAX = 8;

type AnySet = Set<unknown>;
type Callback = (value: unknown, key: unknown, set: unknown) => unknown;

const setPrototype = Set.prototype as unknown as Record<string | symbol, unknown>;
/** FlatSet's prototype (Set.prototype's methods, with the ones below in front of them) and constructor. */
const kind = flatKind(setPrototype, (items) => Set(items));
const prototype = kind.prototype;

/** A FlatSet of `members` (kept, not copied); none, immutable.js's empty Set (one object, which its emptied Sets are). */
function flat(members: unknown[]): AnySet {
  return members.length === 0 ? Set() : (kind.make(members) as unknown as AnySet);
}

/** Whether `v` is a member FlatSet holds: a string, a boolean or a number other than NaN, which immutable.js's `is` compares as `===`. */
function flatMember(v: unknown): boolean {
  const t = typeof v;
  return t === 'string' || t === 'boolean' || (t === 'number' && !Number.isNaN(v));
}

/** Whether `v` is a FlatSet. */
export const isFlatSet: (v: unknown) => boolean = kind.is;

/**
 * `Set(value)` for a model: a FlatSet where immutable.js's Set would hold up to 8 such members,
 * else immutable.js's Set. (A Set that is not ordered comes back itself, as immutable.js gives it.)
 */
export function flatSetOf(value?: unknown): AnySet {
  if (Array.isArray(value)) {
    // As immutable.js adds an array's elements, one by one, a member already there kept.
    const members: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (!flatMember(v)) return Set(value);
      if (members.includes(v)) continue;
      if (members.length === FLAT_SET_MAX) return Set(value);
      members.push(v);
    }
    return flat(members);
  }
  return Set(value as Iterable<unknown>);
}

const { real, unchangedIsThis } = kind;

function has(this: Flat, value: unknown): boolean {
  if (!flatMember(value)) return real(this).has(value);
  return this._a.includes(value);
}

function add(this: Flat, value: unknown): unknown {
  if (!flatMember(value)) return unchangedIsThis(this, (r) => r.add(value));
  const m = this._a;
  if (m.includes(value)) return this;
  if (m.length === FLAT_SET_MAX) return real(this).add(value);
  return flat(m.concat([value]));
}

function remove(this: Flat, value: unknown): unknown {
  if (!flatMember(value)) return unchangedIsThis(this, (r) => r.remove(value));
  const m = this._a;
  const i = m.indexOf(value);
  if (i < 0) return this;
  // As immutable.js's node: the last member into the hole.
  const rest = m.slice(0, -1);
  if (i < rest.length) rest[i] = m[m.length - 1];
  return flat(rest);
}

function clear(this: Flat): unknown {
  return Set();
}

/** As immutable.js's Set.__iterate: the members, the Set as the third argument; returns the calls made. */
function iterate(this: Flat, fn: Callback, reverse?: boolean): number {
  const m = this._a;
  const n = m.length;
  let calls = 0;
  while (calls < n) {
    const v = m[reverse ? n - 1 - calls : calls];
    calls++;
    if (fn(v, v, this) === false) break;
  }
  return calls;
}

Object.assign(prototype, {
  has,
  add,
  remove,
  delete: remove,
  clear,
  __iterate: iterate,
});

/**
 * map runs on immutable.js's Set (its result, a Set of what the mapper gives, is immutable.js's
 * to order), the mapper seeing this Set as immutable.js's would see itself.
 */
const ownMap = setPrototype.map as (this: AnySet, mapper: unknown, context?: unknown) => unknown;
prototype.map = function map(this: Flat, mapper: unknown, context?: unknown): unknown {
  if (typeof mapper !== 'function') return unchangedIsThis(this, (r) => ownMap.call(r, mapper, context));
  const self = this;
  const f = mapper as Callback;
  return unchangedIsThis(this, (r) =>
    ownMap.call(
      r,
      function (this: unknown, v: unknown, k: unknown) {
        return f.call(this, v, k, self);
      },
      context,
    ),
  );
};
