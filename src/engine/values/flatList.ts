// FlatList: an immutable.js List of up to 32 elements held in one plain array, for the Lists a
// model makes when the CLI loads it (immutableForModels.ts: `List()`, `List(array)`). To every reader it is
// an immutable.js List: its prototype inherits List.prototype (isList, instanceof List, every
// Collection method, `is`, equals and hashCode, printing, the encoder's and codec's List), and
// immutable.js's own `List(flatList)` gives it back. immutable.js keeps such a List as a List
// object, a tail node and its array, and makes a draft and an owner for each push or map: on
// LamportMutex that was a fifth of the search, most of it the collector copying each new state's
// Lists (bench/README.md, thirty-first run).
//
// What FlatList does itself is what a model's steps do most: get, has, set of an index inside,
// push, pop and shift, map, every, first, last, setIn by indexes, and iteration (`__iterate`, `__iterator`), each
// with immutable.js's answer and its rule that writing what a place holds is not a change (the
// List itself comes back). Empty Lists are FlatLists too, a new one each time, as immutable.js 5.2
// makes a new empty List each time: a channel a model starts empty and pushes to stays flat
// (LamportMutex 0.88 of the time, bench/README.md, thirty-third run).
// Every other method works on an immutable.js List of the same elements, and where that gives
// its List back unchanged, FlatList gives itself back: the same identities as immutable.js
// (withMutations, asMutable, concat, slice, setSize, insert, unshift, clear...). Its results are
// then immutable.js Lists, equal to what they would be. test/engine/flatList.test.ts holds it to
// immutable.js operation by operation.
import { List } from 'immutable';
import { type Flat, flatKind } from './flatKind.ts';

/** The most elements a FlatList holds (immutable.js's node size): a longer List is immutable.js's. */
export const FLAT_LIST_MAX = 32;

type AnyList = List<unknown>;
type Callback = (value: unknown, index: number, list: unknown) => unknown;

const listPrototype = List.prototype as unknown as Record<string | symbol, unknown>;
/**
 * FlatList's prototype (List.prototype's methods, with the ones below in front of them) and
 * constructor. (immutable.js's List of the same elements, for what FlatList leaves to it, copies
 * the array it is given; a FlatList's is never written either.)
 */
const kind = flatKind(listPrototype, (items) => List(items));
const prototype = kind.prototype;

/** A FlatList of `array` (kept, not copied). */
function flat(array: unknown[]): AnyList {
  return kind.make(array) as unknown as AnyList;
}

/** Whether `v` is a FlatList. */
export const isFlatList: (v: unknown) => boolean = kind.is;

/** `List(value)` for a model: a FlatList for no value or an array of up to 32 elements, else immutable.js's List. */
export function flatListOf(value: unknown): AnyList {
  if (value === undefined || value === null) return flat([]);
  if (Array.isArray(value) && value.length <= FLAT_LIST_MAX) {
    // As immutable.js reads an array: a hole is an undefined element.
    const a = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) a[i] = value[i];
    return flat(a);
  }
  return List(value as Iterable<unknown>);
}

const { real, unchangedIsThis } = kind;

/** An index as immutable.js's wrapIndex reads it: a negative one from the end; NaN for one that is no index. */
function wrapIndex(l: Flat, index: unknown): number {
  let i = index as number;
  if (typeof index !== 'number') {
    // (immutable.js takes a string of an unsigned 32-bit integer as that index, anything else as NaN.)
    const u = (index as number) >>> 0;
    if (`${u}` !== index || u === 4294967295) return Number.NaN;
    i = u;
  }
  return i < 0 ? i + l.size : i;
}

function get(this: Flat, index: unknown, notSetValue?: unknown): unknown {
  const i = wrapIndex(this, index);
  // (immutable.js: index >= 0 && index < size; a fractional index reads the place it truncates to.)
  return i >= 0 && i < this.size ? this._a[i | 0] : notSetValue;
}

function has(this: Flat, index: unknown): boolean {
  const i = wrapIndex(this, index);
  return i >= 0 && i < this.size;
}

function set(this: Flat, index: unknown, value: unknown): unknown {
  const i = wrapIndex(this, index);
  if (Number.isInteger(i) && i >= 0 && i < this.size) {
    if (this._a[i] === value) return this;
    const a = this._a.slice();
    a[i] = value;
    return flat(a);
  }
  return unchangedIsThis(this, (r) => r.set(index as number, value));
}

function push(this: Flat, ...values: unknown[]): unknown {
  if (values.length === 0) return this;
  if (this.size + values.length > FLAT_LIST_MAX) return real(this).push(...values);
  return flat(this._a.concat(values));
}

function pop(this: Flat): unknown {
  if (this.size === 0) return this;
  return flat(this._a.slice(0, -1));
}

function shift(this: Flat): unknown {
  if (this.size === 0) return this;
  return flat(this._a.slice(1));
}

function clear(this: Flat): unknown {
  if (this.size === 0) return this;
  return flat([]);
}

function map(this: Flat, mapper: unknown, context?: unknown): unknown {
  if (typeof mapper !== 'function')
    return unchangedIsThis(this, (r) => (r.map as (...a: unknown[]) => unknown)(mapper, context) as AnyList);
  const f = mapper as Callback;
  const a = this._a;
  let changed: unknown[] | undefined;
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    const w = f.call(context, v, i, this);
    if (w === v) continue;
    changed ??= a.slice();
    changed[i] = w;
  }
  return changed === undefined ? this : flat(changed);
}

function every(this: Flat, predicate: unknown, context?: unknown): unknown {
  if (typeof predicate !== 'function') return (real(this).every as (...a: unknown[]) => unknown)(predicate, context);
  const f = predicate as Callback;
  const a = this._a;
  for (let i = 0; i < a.length; i++) if (!f.call(context, a[i], i, this)) return false;
  return true;
}

function first(this: Flat, notSetValue?: unknown): unknown {
  return this.size === 0 ? notSetValue : this._a[0];
}

function last(this: Flat, notSetValue?: unknown): unknown {
  return this.size === 0 ? notSetValue : this._a[this.size - 1];
}

const collectionSetIn = listPrototype.setIn as (this: AnyList, keyPath: unknown, value: unknown) => unknown;

/**
 * setIn down FlatLists by indexes inside them (a model's `req.setIn([p, q], c)`), as immutable.js's
 * updateIn walk ends there: a List with the one place written, each List on the path copied, or
 * the List itself where the place held the value already. Any other key path is immutable.js's.
 */
function setIn(this: Flat, keyPath: unknown, value: unknown): unknown {
  if (!Array.isArray(keyPath) || keyPath.length === 0) return collectionSetIn.call(this as unknown as AnyList, keyPath, value);
  // The Lists along the path, checked before anything is written.
  let at: Flat = this;
  for (let depth = 0; ; depth++) {
    const i = keyPath[depth];
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= at.size) break;
    if (depth === keyPath.length - 1) return setPath(this, keyPath, 0, value);
    const next = at._a[i];
    if (!isFlatList(next)) break;
    at = next as Flat;
  }
  return collectionSetIn.call(this as unknown as AnyList, keyPath, value);
}

/** `l` with `value` at `keyPath` from `depth` on (every step checked by setIn). */
function setPath(l: Flat, keyPath: readonly number[], depth: number, value: unknown): Flat {
  const i = keyPath[depth];
  const old = l._a[i];
  const next = depth === keyPath.length - 1 ? value : setPath(old as Flat, keyPath, depth + 1, value);
  if (next === old) return l;
  const a = l._a.slice();
  a[i] = next;
  return flat(a) as unknown as Flat;
}

/** As immutable.js's List.__iterate, its return value included (forward the calls made, reverse the size less them). */
function iterate(this: Flat, fn: Callback, reverse?: boolean): number {
  const a = this._a;
  const n = a.length;
  if (reverse) {
    let index = n;
    while (index > 0) if (fn(a[--index], index, this) === false) break;
    return index;
  }
  let index = 0;
  while (index < n) if (fn(a[index++], index - 1, this) === false) break;
  return index;
}

Object.assign(prototype, {
  get,
  has,
  set,
  push,
  pop,
  shift,
  clear,
  map,
  every,
  first,
  last,
  setIn,
  __iterate: iterate,
});
// The rest of List.prototype's own methods read immutable.js's List fields: run on its List.
for (const name of ['remove', 'delete', 'insert', 'unshift', 'shuffle', 'concat', 'merge', 'setSize', 'slice'] as const) {
  const own = listPrototype[name] as (this: AnyList, ...args: unknown[]) => unknown;
  prototype[name] = function (this: Flat, ...args: unknown[]) {
    return unchangedIsThis(this, (r) => own.apply(r, args));
  };
}
