// FlatRecord: an immutable.js Record whose fields sit in one plain array. It is a drop-in for
// `Record(defaults, name)`: the same factory, the same methods (it inherits immutable.js's
// Record prototype, so `isRecord`, `instanceof Record`, `getIn`, `merge`, `withMutations`,
// `toJS`, `toString` and `is` all treat it as a Record, and the reports print it as one), the
// same encoding and so the same fingerprints. What differs is the cost: immutable.js keeps a
// Record's values in a List, so reading a field goes through the getter, `get`, `has` and the
// List's lookup, and writing one builds a List and a Record; here a field is one array load
// through a getter of its own, and a write copies the array. On the move model a third of
// immutable.js's time was its Records' reads (bench/README.md, thirteenth run).
import { is, isImmutable, isList, isMap, Record as ImmutableRecord, type RecordOf } from 'immutable';
import { DIGEST_OF } from './digestSlot.ts';
// Loaded for its check of immutable.js's version as well as for the internals' names.
import './immutableInternals.ts';
import type { RecordInternals } from './immutableInternals.ts';

/** What every FlatRecord type's prototype carries, beside immutable.js's Record methods. */
interface FlatType extends Pick<RecordInternals, '_keys' | '_defaultValues'> {
  /** Field name to its index in `_v`, without a prototype (so `toString` is no field). */
  readonly _slots: { readonly [field: string]: number };
  /** The type's own constructor of instances from a values array (no parsing). */
  readonly _make: new (
    values: unknown[],
    ownerID: unknown,
  ) => FlatInstance;
}

interface FlatInstance extends FlatType {
  /** The field values, in the order the defaults declared them. Never changed, except in a draft. */
  _v: unknown[];
  /** Set while the instance is a withMutations draft (immutable.js's owner; immutableInternals.ts). */
  __ownerID: RecordInternals['__ownerID'];
  /** Whether a draft has been written to (immutable.js's wasAltered). */
  _altered: boolean;
  set(k: unknown, v: unknown): FlatInstance;
}

const recordPrototype = ImmutableRecord.prototype as unknown as object;

/**
 * The methods that read or write the values; the rest (getIn, setIn, updateIn, merge, update,
 * withMutations, toSeq, toJS, toString, hashCode, ...) are immutable.js's own, written in terms
 * of these.
 */
const flatPrototype: ThisType<FlatInstance> & { [name: string]: unknown } = {
  has(k: unknown): boolean {
    return slotOf(this, k) !== undefined;
  },
  get(k: unknown, notSetValue?: unknown): unknown {
    const i = slotOf(this, k);
    return i === undefined ? notSetValue : this._v[i];
  },
  set(k: unknown, v: unknown): FlatInstance {
    const i = slotOf(this, k);
    // (As immutable.js: an unknown field is ignored.)
    return i === undefined ? this : setAt(this, i, v);
  },
  remove(k: unknown): FlatInstance {
    return this.set(k, undefined);
  },
  delete(k: unknown): FlatInstance {
    return this.set(k, undefined);
  },
  clear(): FlatInstance {
    const values = this._keys.map((k) => this._defaultValues[k]);
    if (this.__ownerID) {
      this._v = values;
      this._altered = true;
      return this;
    }
    return new this._make(values, undefined);
  },
  wasAltered(): boolean {
    return this._altered;
  },
  __ensureOwner(ownerID: unknown): FlatInstance {
    if (ownerID === this.__ownerID) return this;
    if (!ownerID) {
      // A draft finished: it becomes the immutable value.
      this.__ownerID = ownerID;
      this._altered = false;
      return this;
    }
    return new this._make(this._v.slice(), ownerID);
  },
  // The path methods, without immutable.js's generic walk (its own type tests at each level
  // were a tenth of the move model's search) where every level on the way is a Record, Map or
  // List that holds the next key; elsewhere (a missing level, which immutable.js fills with an
  // empty Map, a plain object, a Set) immutable.js's own, before any updater is called.
  getIn(keyPath: unknown, notSetValue?: unknown): unknown {
    if (!Array.isArray(keyPath)) return generic.getIn.call(this, keyPath, notSetValue);
    let v: unknown = this;
    for (let i = 0; i < keyPath.length; i++) {
      if (!walkable(v)) return generic.getIn.call(this, keyPath, notSetValue);
      v = v.get(keyPath[i], ABSENT);
      if (v === ABSENT) return notSetValue;
    }
    return v;
  },
  setIn(keyPath: unknown, value: unknown): unknown {
    const n = chain(this, keyPath);
    if (n < 0) return generic.setIn.call(this, keyPath, value);
    return rebuild(links, keyPath as unknown[], n, value);
  },
  updateIn(keyPath: unknown, notSetValue: unknown, updater?: unknown): unknown {
    const n = chain(this, keyPath);
    if (n < 0) return generic.updateIn.call(this, keyPath, notSetValue, updater);
    // (As immutable.js: a missing updater, or any falsy one, means the second argument is it.)
    const update = (updater ? updater : notSetValue) as (v: unknown) => unknown;
    const notSet = updater ? notSetValue : undefined;
    const path = keyPath as unknown[];
    const old = path.length === 0 ? this : (links[n - 1] as Walkable).get(path[n - 1], ABSENT);
    const existing = old === ABSENT ? notSet : old;
    // (The updater may walk other paths: the levels are kept apart from `links`.)
    const levels = links.slice(0, n);
    const next = update(existing);
    // (As immutable.js: an updater that gives back what it was given changes nothing.)
    if (next === existing) return path.length === 0 ? next : this;
    return rebuild(levels, path, n, next);
  },
  removeIn(keyPath: unknown): unknown {
    return removeIn(this, keyPath);
  },
  deleteIn(keyPath: unknown): unknown {
    return removeIn(this, keyPath);
  },
  // immutable.js's merge turns its argument into a Seq and sets each field on a draft (on the
  // move model a tenth of an API server's write, which merges the new resourceVersion and
  // generation); one plain object is set here in one copy, field by field in its key order as
  // immutable.js does, and anything else (a Map, several arguments, a draft) is left to it.
  merge(...iters: unknown[]): unknown {
    const o = iters[0];
    if (iters.length !== 1 || this.__ownerID || !isPlainObject(o)) return generic.merge.apply(this, iters);
    let values: unknown[] | undefined;
    for (const k of Object.keys(o)) {
      const i = slotOf(this, k);
      if (i === undefined) continue;
      const v = o[k];
      const value = v === undefined ? this._defaultValues[this._keys[i]] : v;
      if (values === undefined) {
        if (this._v[i] === value) continue;
        values = this._v.slice();
      }
      values[i] = value;
    }
    return values === undefined ? this : new this._make(values, undefined);
  },
  equals(other: unknown): boolean {
    if (this === other) return true;
    if (other !== null && typeof other === 'object' && Object.getPrototypeOf(other) === Object.getPrototypeOf(this)) {
      const a = this._v;
      const b = (other as FlatInstance)._v;
      for (let i = 0; i < a.length; i++) if (!is(a[i], b[i])) return false;
      return true;
    }
    // Another kind of Record: compared as immutable.js compares Records, field by field.
    return (recordPrototype as { equals(this: unknown, o: unknown): boolean }).equals.call(this, other);
  },
};
Object.setPrototypeOf(flatPrototype, recordPrototype);

const generic = recordPrototype as unknown as {
  getIn(this: unknown, path: unknown, notSetValue: unknown): unknown;
  setIn(this: unknown, path: unknown, value: unknown): unknown;
  updateIn(this: unknown, path: unknown, notSetValue: unknown, updater: unknown): unknown;
  removeIn(this: unknown, path: unknown): unknown;
  merge(this: unknown, ...iters: unknown[]): unknown;
};

function isPlainObject(v: unknown): v is { readonly [field: string]: unknown } {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
const ABSENT = Symbol('absent');

/** A level a path can go through: a FlatRecord, or an immutable.js Map or List. */
interface Walkable {
  get(k: unknown, notSetValue: unknown): unknown;
  set(k: unknown, v: unknown): unknown;
  remove(k: unknown): unknown;
}
function walkable(v: unknown): v is Walkable {
  return typeof v === 'object' && v !== null && ((v as FlatInstance)._slots !== undefined || isMap(v) || isList(v));
}

/** The levels of the last path walked by chain (module state: a path walk allocates nothing). */
const links: unknown[] = [];

/**
 * Fills `links` with the values along `keyPath` from `root`, every one but the last (which may
 * be absent) walkable and present; the path's length, or -1 where the fast path does not apply.
 */
function chain(root: unknown, keyPath: unknown): number {
  if (!Array.isArray(keyPath)) return -1;
  const n = keyPath.length;
  let v = root;
  for (let i = 0; i < n; i++) {
    if (!walkable(v)) return -1;
    links[i] = v;
    if (i < n - 1) {
      v = v.get(keyPath[i], ABSENT);
      if (v === ABSENT) return -1;
    }
  }
  return n;
}

/** `value` set at the end of the path chain walked, each level set in the one above it. */
function rebuild(levels: readonly unknown[], path: readonly unknown[], n: number, value: unknown): unknown {
  let v = value;
  for (let i = n - 1; i >= 0; i--) v = (levels[i] as Walkable).set(path[i], v);
  return v;
}

function removeIn(root: unknown, keyPath: unknown): unknown {
  const n = chain(root, keyPath);
  if (n <= 0) return generic.removeIn.call(root, keyPath);
  const path = keyPath as unknown[];
  const last = links[n - 1] as Walkable;
  if (last.get(path[n - 1], ABSENT) === ABSENT) return root;
  const v = last.remove(path[n - 1]);
  return n === 1 ? v : rebuild(links, path, n - 1, v);
}

/**
 * The field index of key `k`. A key is looked up as a property name, as immutable.js's Record
 * does (`get(0)` reads a field named "0"); a symbol names no field.
 */
function slotOf(r: FlatType, k: unknown): number | undefined {
  return typeof k === 'string' ? r._slots[k] : typeof k === 'symbol' ? undefined : r._slots[k as string];
}

/**
 * A subclass that defines its own `get`, `set`, `merge` (any method FlatRecord replaces, or a
 * field's property) would not be called where an immutable.js Record calls it: the fields' getters,
 * `merge` and the encoder read the values array. Refused when its first instance is made, rather
 * than run with other values than immutable.js would give.
 */
function refuseOverrides(sub: { name: string; prototype: object }, proto: object, name: string | undefined): void {
  const fields = (proto as FlatType)._keys;
  for (let p: object | null = sub.prototype; p !== null && p !== proto; p = Object.getPrototypeOf(p)) {
    const own = Object.getOwnPropertyNames(p).find((k) => k !== 'constructor' && (Object.hasOwn(flatPrototype, k) || fields.includes(k)));
    if (own !== undefined) {
      throw new TypeError(
        `FlatRecord${name ? ` ${name}` : ''}: the subclass ${sub.name || '(anonymous)'} defines ${own}, which FlatRecord's fields, merge ` +
          "and fingerprints do not call; extend immutable.js's own Record for it (for a model run by the CLI: MODELCHECK_RECORDS=immutable)",
      );
    }
  }
}

/** The internals every FlatRecord type's prototype or instances carry, beside the inherited methods. */
const INTERNALS = ['_v', '_altered', '_slots', '_make', '_keys', '_indices', '_defaultValues', '_name', '__ownerID'];

/** Names a field cannot have: the Record's own methods and internals (immutable.js warns of the methods). */
function reserved(name: string): boolean {
  return name in flatPrototype || INTERNALS.includes(name);
}

/**
 * A field's index in a FlatRecord's values, for code that reads and writes one field of many
 * records of one type and looks its name up once (`valueAt`, `withValueAt`); -1 for a name the
 * type does not have, or a value that is not a FlatRecord.
 */
export function fieldIndex(r: object, name: string): number {
  const slots = (r as Partial<FlatType>)._slots;
  if (slots === undefined || !isFlatRecord(r)) return -1;
  return slots[name] ?? -1;
}

/** The value of field `index` (from fieldIndex) of a FlatRecord of that type. */
export function valueAt(r: object, index: number): unknown {
  return (r as FlatInstance)._v[index];
}

/** `r` with field `index` (from fieldIndex) set to `value`, as `r.set(name, value)` gives it. */
export function withValueAt<R extends object>(r: R, index: number, value: unknown): R {
  return setAt(r as unknown as FlatInstance, index, value) as unknown as R;
}

/** `set` of field `i`: undefined stands for the default; a draft is written in place; the same value gives `r` back. */
function setAt(r: FlatInstance, i: number, v: unknown): FlatInstance {
  const value = v === undefined ? r._defaultValues[r._keys[i]] : v;
  if (r.__ownerID) {
    if (r._v[i] !== value) {
      r._v[i] = value;
      r._altered = true;
    }
    return r;
  }
  if (r._v[i] === value) return r;
  const values = r._v.slice();
  values[i] = value;
  return new r._make(values, undefined);
}

/**
 * A copy of a FlatRecord's values, to set several fields by index (from fieldIndex) in one copy
 * and make the record with `withValues`. (Not for a withMutations draft.)
 */
export function valuesOf(r: object): unknown[] {
  return (r as FlatInstance)._v.slice();
}

/** `r`'s type with `values` (from valuesOf, edited); `r` itself where no value changed. */
export function withValues<R extends object>(r: R, values: unknown[]): R {
  const f = r as unknown as FlatInstance;
  const old = f._v;
  for (let i = 0; i < old.length; i++) if (old[i] !== values[i]) return new f._make(values, undefined) as unknown as R;
  return r;
}

/** Whether `v` is a FlatRecord (of any type): for the encoder, which reads its values array. */
export function isFlatRecord(v: object): boolean {
  return Object.prototype.isPrototypeOf.call(flatPrototype, v);
}

/** A constructor of instances with prototype `proto` from a values array, compiled apart (see FlatRecord). */
function compileMake(proto: object, name: string | undefined): FlatType['_make'] {
  const make = new Function(
    'D',
    'return function FlatRecord(v, o) { this._v = v; this.__ownerID = o; this._altered = false; this[D] = undefined; };',
  )(DIGEST_OF) as FlatType['_make'];
  if (name) Object.defineProperty(make, 'name', { value: name });
  make.prototype = proto as FlatInstance;
  return make;
}

/**
 * Whether FlatRecord takes `defaultValues` as a type's defaults, as immutable.js's Record takes
 * them: a plain object of fields, none named as a Record method or internal. (immutable.js
 * refuses a Record or collection for defaults, and keeps a field named as a method unreachable,
 * with a warning; immutableForModels.ts leaves those to it.)
 */
export function flatRecordTakes(defaultValues: unknown): boolean {
  if (defaultValues === null || typeof defaultValues !== 'object' || Array.isArray(defaultValues) || isImmutable(defaultValues))
    return false;
  // A field named `length`: immutable.js reads `{ length: 0 }`, given to build or merge one, as
  // an empty array of entries, not as that field's value; FlatRecord would set the field.
  return !Object.keys(defaultValues).some((k) => reserved(k) || k === 'length');
}

/**
 * A Record type with the given fields and defaults, named `name` (the name a trace prints and
 * the checker needs to rebuild a state kept as bytes), e.g.
 * `const Pod = FlatRecord({ name: '', phase: 'Pending' }, 'Pod')`. Use it as immutable.js's
 * `Record`: `Pod({ name: 'p' })`, `p.phase`, `p.set('phase', 'Running')`, `RecordOf<...>`.
 */
export function FlatRecord<TProps extends object>(defaultValues: TProps, name?: string): ImmutableRecord.Factory<TProps> {
  if (defaultValues === null || typeof defaultValues !== 'object' || Array.isArray(defaultValues)) {
    throw new TypeError(`FlatRecord${name ? ` ${name}` : ''}: the defaults must be a plain object of fields`);
  }
  const keys = Object.keys(defaultValues);
  const defaults = defaultValues as { readonly [field: string]: unknown };
  const slots: { [field: string]: number } = Object.create(null);
  const indices: { [field: string]: number } = {};
  for (let i = 0; i < keys.length; i++) {
    if (reserved(keys[i])) {
      throw new TypeError(`FlatRecord${name ? ` ${name}` : ''}: a field cannot be named ${keys[i]} (a Record method or internal)`);
    }
    slots[keys[i]] = i;
    indices[keys[i]] = i;
  }

  const proto = Object.create(flatPrototype) as { [k: string]: unknown };
  // Each type gets its own constructor and getters, compiled apart (new Function), so that each
  // has feedback of its own: one shared closure would see every type's objects and go megamorphic.
  const make = compileMake(proto, name);

  const factory = function (this: unknown, values?: unknown): unknown {
    if (values instanceof factory) return values;
    // A subclass (`class Pod extends FlatRecord(...)`) gets instances, and copies, of its own.
    const sub = new.target as { prototype: { _make?: FlatType['_make'] } } | undefined;
    if (sub !== undefined && sub !== (factory as unknown)) {
      if (!Object.hasOwn(sub.prototype, '_make')) {
        refuseOverrides(sub as unknown as { name: string; prototype: object }, proto, name);
        Object.defineProperty(sub.prototype, '_make', { value: compileMake(sub.prototype, name) });
      }
      return new sub.prototype._make!(fieldValues(values), undefined);
    }
    return new make(fieldValues(values), undefined);
  } as unknown as ImmutableRecord.Factory<TProps> & { prototype: object; displayName?: string };
  // (Named as immutable.js's factories are: an unnamed type prints, and is refused, as "Record".)
  Object.defineProperty(factory, 'name', { value: 'Record' });

  let reader: ImmutableRecord.Factory<{ readonly [field: string]: unknown }> | undefined;
  function fieldValues(values: unknown): unknown[] {
    const out = new Array<unknown>(keys.length);
    for (let i = 0; i < keys.length; i++) out[i] = defaults[keys[i]];
    if (values === undefined || values === null) return out;
    if (typeof values === 'object' && Object.getPrototypeOf(values) === Object.prototype) {
      for (const k of Object.keys(values)) {
        const i = slots[k];
        const v = (values as { [k: string]: unknown })[k];
        if (i !== undefined && v !== undefined) out[i] = v;
      }
      return out;
    }
    // Any keyed collection immutable.js would take (a Map, another Record, a list of entries).
    reader ??= ImmutableRecord(defaults);
    // biome-ignore lint/suspicious/noExplicitAny: immutable.js's own Record constructor reads it
    const read = reader(values as any) as unknown as { get(k: string): unknown };
    for (let i = 0; i < keys.length; i++) out[i] = read.get(keys[i]);
    return out;
  }

  proto.constructor = factory;
  proto._keys = keys;
  proto._indices = indices;
  proto._slots = slots;
  proto._defaultValues = defaults;
  proto._name = name;
  proto._make = make;
  for (let i = 0; i < keys.length; i++) {
    const field = keys[i];
    const get = new Function(`return function () { return this._v[${i}]; };`)() as () => unknown;
    Object.defineProperty(proto, field, {
      get,
      set(this: FlatInstance, v: unknown) {
        if (!this.__ownerID) throw new Error('Cannot set on an immutable record.');
        this.set(field, v);
      },
      enumerable: false,
      configurable: false,
    });
  }
  (factory as { prototype: object }).prototype = proto;
  if (name) factory.displayName = name;
  return factory;
}

export type FlatRecordOf<TProps extends object> = RecordOf<TProps>;
