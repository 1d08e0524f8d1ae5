// Packed records: a named type with declared fields, read by name (`s.tmState`, `s.get('msgs')`)
// and written as an immutable.js Record is (`set`, `merge`, `update`, `setIn`, `updateIn`,
// `withMutations`), each write a new record whose words are a copy of the old with the fields
// changed. A state declared as one is a few small integers (packedType.ts).
import { Record as ImmutableRecord, isImmutable } from 'immutable';
import type { MapType, SeqType } from './collections.ts';
import {
  ALL_FIELDS,
  PackedValue,
  PackedValueError,
  at,
  show,
  typeId,
  zeros,
  type AnyType,
  type InputOf,
  type PackedType,
  type Primitive,
  type ValueOf,
} from './packedType.ts';

/** A record type's fields: each name's type. */
export type Fields = { readonly [name: string]: AnyType };

/** What a record (and a record type's factory) accepts: the record itself, or an object of some of its fields (the rest take their type's first value). */
export type RecordInput<F extends Fields> = PackedRecordOf<F> | { readonly [K in keyof F]?: InputOf<F[K]> };

/** A path step's keys below a type: a map's keys, a sequence's indices, a record's field names. */
type KeyOf<T> =
  T extends MapType<infer K, AnyType> ? K : T extends SeqType<AnyType> ? number : T extends RecordType<infer F> ? keyof F & string : never;
/** The type below `T` at key `K`. */
type ChildOf<T, K> =
  T extends MapType<Primitive, infer U>
    ? U
    : T extends SeqType<infer U>
      ? U
      : T extends RecordType<infer F>
        ? K extends keyof F
          ? F[K]
          : never
        : never;

/** A packed record's methods; its fields are read as properties too (PackedRecordOf). */
export interface PackedRecord<F extends Fields> extends PackedValue {
  readonly $type: RecordType<F>;
  get<K extends keyof F & string>(field: K): ValueOf<F[K]>;
  set<K extends keyof F & string>(field: K, value: InputOf<F[K]>): PackedRecordOf<F>;
  /** Several fields set at once (one copy). */
  merge(values: { readonly [K in keyof F]?: InputOf<F[K]> }): PackedRecordOf<F>;
  update<K extends keyof F & string>(field: K, f: (v: ValueOf<F[K]>) => InputOf<F[K]>): PackedRecordOf<F>;
  /** The value at a path of field names, map keys and sequence indices; undefined where the path leads nowhere. */
  getIn<K1 extends keyof F & string>(path: readonly [K1]): ValueOf<F[K1]>;
  getIn<K1 extends keyof F & string, K2 extends KeyOf<F[K1]>>(path: readonly [K1, K2]): ValueOf<ChildOf<F[K1], K2>>;
  getIn<K1 extends keyof F & string, K2 extends KeyOf<F[K1]>, K3 extends KeyOf<ChildOf<F[K1], K2>>>(
    path: readonly [K1, K2, K3],
  ): ValueOf<ChildOf<ChildOf<F[K1], K2>, K3>>;
  getIn(path: readonly unknown[]): unknown;
  /** The record with the value at a path (which must exist) replaced: one copy of the words, however deep. */
  setIn<K1 extends keyof F & string>(path: readonly [K1], value: InputOf<F[K1]>): PackedRecordOf<F>;
  setIn<K1 extends keyof F & string, K2 extends KeyOf<F[K1]>>(
    path: readonly [K1, K2],
    value: InputOf<ChildOf<F[K1], K2>>,
  ): PackedRecordOf<F>;
  setIn<K1 extends keyof F & string, K2 extends KeyOf<F[K1]>, K3 extends KeyOf<ChildOf<F[K1], K2>>>(
    path: readonly [K1, K2, K3],
    value: InputOf<ChildOf<ChildOf<F[K1], K2>, K3>>,
  ): PackedRecordOf<F>;
  updateIn<K1 extends keyof F & string>(path: readonly [K1], f: (v: ValueOf<F[K1]>) => InputOf<F[K1]>): PackedRecordOf<F>;
  updateIn<K1 extends keyof F & string, K2 extends KeyOf<F[K1]>>(
    path: readonly [K1, K2],
    f: (v: ValueOf<ChildOf<F[K1], K2>>) => InputOf<ChildOf<F[K1], K2>>,
  ): PackedRecordOf<F>;
  updateIn<K1 extends keyof F & string, K2 extends KeyOf<F[K1]>, K3 extends KeyOf<ChildOf<F[K1], K2>>>(
    path: readonly [K1, K2, K3],
    f: (v: ValueOf<ChildOf<ChildOf<F[K1], K2>, K3>>) => InputOf<ChildOf<ChildOf<F[K1], K2>, K3>>,
  ): PackedRecordOf<F>;
  /**
   * Several writes with one copy: `f` gets a draft whose set, merge, update, setIn and updateIn
   * write in place and return the draft; the draft, finished, is the result.
   */
  withMutations(f: (draft: PackedRecordOf<F>) => unknown): PackedRecordOf<F>;
}

/** A packed record: its methods, and each field as a read-only property. */
export type PackedRecordOf<F extends Fields> = PackedRecord<F> & { readonly [K in keyof F]: ValueOf<F[K]> };

export interface RecordType<F extends Fields> extends PackedType<PackedRecordOf<F>, RecordInput<F>> {
  readonly name: string;
  readonly fields: F;
}

/** A record type is also its values' factory: `State({ tmState: 'init' })`, `State()` for every field's first value. */
export interface RecordFactory<F extends Fields> extends RecordType<F> {
  (values?: RecordInput<F>): PackedRecordOf<F>;
}

/**
 * Names a field cannot have: the record's own methods, and those of the immutable.js Record the
 * reports print it as (a field named `toJS` or `__ownerID` would break that Record). Names
 * starting with `$` are the record's internals.
 */
const RESERVED = new Set([
  'get',
  'set',
  'merge',
  'update',
  'getIn',
  'setIn',
  'updateIn',
  'withMutations',
  'equals',
  'hashCode',
  'toImmutable',
  'toString',
  'toJSON',
  'words',
  'constructor',
  '__ownerID',
]);
for (let p = Object.getPrototypeOf(ImmutableRecord({})()); p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
  for (const name of Object.getOwnPropertyNames(p)) RESERVED.add(name);
}

interface FieldSlot {
  readonly name: string;
  readonly type: AnyType;
  readonly offset: number;
}

/** Records of at most this many fields find a field by comparing names (slotOf in record()). */
const SCANNED_FIELDS = 12;

let walkType: PackedType<unknown, unknown>;
let walkOffset = 0;

abstract class RecordView extends PackedValue {
  abstract override readonly $w: number[];
  abstract override readonly $o: number;
  /** A withMutations draft: writes go to its own words. (False on the prototype; only a draft has its own.) */
  declare $m: boolean;
  declare readonly $type: RecordType<Fields>;
  abstract $field(name: string): FieldSlot;

  /**
   * The value of type `t` at `offset` from the record's. From a withMutations draft, a copy of
   * its words: the draft's own words change with its next write, and a value read before must
   * not (as with immutable.js, whose values read from a mutable Record stay as they were read).
   */
  $readAt(t: PackedType<unknown, unknown>, offset: number): unknown {
    if (this.$m) return t.read(this.$w.slice(this.$o + offset, this.$o + offset + t.slots), 0);
    return t.read(this.$w, this.$o + offset);
  }

  get(name: string): unknown {
    const f = this.$field(name);
    return this.$readAt(f.type, f.offset);
  }

  /** Where a write goes: the draft's own words, or a copy. */
  private $target(): number[] {
    return this.$m ? this.$w : this.words();
  }

  private $result(w: number[]): this {
    return this.$m ? this : new (this.constructor as new (w: number[], o: number) => this)(w, 0);
  }

  private $base(): number {
    return this.$m ? this.$o : 0;
  }

  set(name: string, value: unknown): this {
    const f = this.$field(name);
    const w = this.$target();
    try {
      f.type.write(w, this.$base() + f.offset, value as never);
    } catch (e) {
      throw at(`${this.$type.name}.${name}`, e);
    }
    return this.$result(w);
  }

  merge(values: { readonly [name: string]: unknown }): this {
    const w = this.$target();
    const o = this.$base();
    if (values instanceof PackedValue) {
      // Another record of this type: all of its fields.
      try {
        this.$type.write(w, o, values as never);
      } catch (e) {
        throw at(this.$type.name, e);
      }
      return this.$result(w);
    }
    for (const name of Object.keys(values)) {
      const f = this.$field(name);
      try {
        f.type.write(w, o + f.offset, values[name] as never);
      } catch (e) {
        throw at(`${this.$type.name}.${name}`, e);
      }
    }
    return this.$result(w);
  }

  update(name: string, f: (v: unknown) => unknown): this {
    return this.set(name, f(this.get(name)));
  }

  /**
   * Walks `path` from the record: true with the type and offset (from the record's) in
   * walkType and walkOffset (module variables, so that a step's getIn allocates nothing), or
   * false where the path leads nowhere.
   */
  private $walk(path: readonly unknown[]): boolean {
    let type = this.$type as PackedType<unknown, unknown>;
    let offset = 0;
    for (let i = 0; i < path.length; i++) {
      const c = type.child(path[i], this.$w, this.$o + offset);
      if (c === undefined) return false;
      type = c.type;
      offset += c.offset;
    }
    walkType = type;
    walkOffset = offset;
    return true;
  }

  private $nowhere(path: readonly unknown[]): PackedValueError {
    let type = this.$type as PackedType<unknown, unknown>;
    let offset = 0;
    for (let i = 0; i < path.length; i++) {
      const c = type.child(path[i], this.$w, this.$o + offset);
      if (c === undefined)
        return new PackedValueError(`${this.$type.name}: nothing at ${pathText(path.slice(0, i + 1))} (${type.describe()})`);
      type = c.type;
      offset += c.offset;
    }
    return new PackedValueError(`${this.$type.name}: nothing at ${pathText(path)}`);
  }

  getIn(path: readonly unknown[]): unknown {
    return this.$walk(path) ? this.$readAt(walkType, walkOffset) : undefined;
  }

  setIn(path: readonly unknown[], value: unknown): this {
    if (!this.$walk(path)) throw this.$nowhere(path);
    return this.$writeAt(walkType, walkOffset, path, value);
  }

  updateIn(path: readonly unknown[], f: (v: unknown) => unknown): this {
    if (!this.$walk(path)) throw this.$nowhere(path);
    const type = walkType;
    const offset = walkOffset;
    return this.$writeAt(type, offset, path, f(this.$readAt(type, offset)));
  }

  private $writeAt(type: PackedType<unknown, unknown>, offset: number, path: readonly unknown[], value: unknown): this {
    const w = this.$target();
    try {
      type.write(w, this.$base() + offset, value as never);
    } catch (e) {
      throw at(`${this.$type.name}${pathText(path)}`, e);
    }
    return this.$result(w);
  }

  withMutations(f: (draft: this) => unknown): this {
    // Within a draft, the draft itself (as immutable.js does); a draft that throws is finished all the same.
    if (this.$m) {
      f(this);
      return this;
    }
    const draft = new (this.constructor as new (w: number[], o: number) => this)(this.words(), 0);
    draft.$m = true;
    try {
      f(draft);
    } finally {
      draft.$m = false;
    }
    return draft;
  }
}

RecordView.prototype.$m = false;

function pathText(path: readonly unknown[]): string {
  return path.map((k) => (typeof k === 'string' && /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${show(k)}]`)).join('');
}

/**
 * A record type named `name` with the fields given, in that order, e.g.
 * `record('TwoPhase', { tmState: oneOf('init', 'committed', 'aborted'), tmPrepared: setOf(RM) })`.
 * The name is what the reports print it as, and part of its identity: two record types with the
 * same fields and different names are different types.
 */
export function record<const F extends Fields>(name: string, fields: F): RecordFactory<F> {
  if (typeof name !== 'string' || name === '') throw new PackedValueError('record(): a record type needs a name');
  const slots: { [name: string]: FieldSlot } = Object.create(null);
  const list: FieldSlot[] = [];
  let offset = 0;
  for (const [field, type] of Object.entries(fields)) {
    if (RESERVED.has(field) || field.startsWith('$')) {
      throw new PackedValueError(`record ${name}: a field cannot be named ${field} (a record's own method, or an immutable.js Record's)`);
    }
    // (A record type is a function: its own factory.)
    const isType = (typeof type === 'object' || typeof type === 'function') && type !== null && typeof (type as AnyType).slots === 'number';
    if (!isType) {
      throw new PackedValueError(`record ${name}: field ${field} is not a packed type (oneOf, int, bool, setOf, mapOf, seqOf or a record)`);
    }
    const slot = { name: field, type, offset };
    slots[field] = slot;
    list.push(slot);
    offset += type.slots;
  }
  const size = offset;
  /**
   * A field's slot by its name, or undefined: what getIn, setIn and get ask at every step. The
   * names of a record of a few fields are compared in turn (for a literal, interned as the
   * fields' own names are, a pointer compare); a record of many is looked up in `slots`.
   */
  const slotOf =
    list.length <= SCANNED_FIELDS
      ? (k: unknown): FieldSlot | undefined => {
          for (let i = 0; i < list.length; i++) if (list[i].name === k) return list[i];
          return undefined;
        }
      : (k: unknown): FieldSlot | undefined => (typeof k === 'string' ? slots[k] : undefined);
  class View extends RecordView {
    declare readonly $type: RecordType<Fields>;
    readonly $w: number[];
    readonly $o: number;
    constructor(w: number[], o: number) {
      super();
      this.$w = w;
      this.$o = o;
    }
    $field(f: string): FieldSlot {
      const slot = slotOf(f);
      if (slot === undefined)
        throw new PackedValueError(`${name} has no field ${show(f)} (its fields: ${list.map((s) => s.name).join(', ')})`);
      return slot;
    }
  }
  for (const slot of list) {
    const { type: t, offset: off } = slot;
    Object.defineProperty(View.prototype, slot.name, {
      get(this: View) {
        return this.$readAt(t, off);
      },
      enumerable: true,
    });
  }
  let immutableFactory: ((values: object) => unknown) | undefined;
  const fillFrom = (w: number[], o: number, input: unknown) => {
    if (input instanceof View) {
      for (let i = 0; i < size; i++) w[o + i] = input.$w[input.$o + i];
      return;
    }
    if (input !== undefined && (input === null || typeof input !== 'object' || input instanceof PackedValue || isImmutable(input))) {
      throw new PackedValueError(`${show(input)} is not a ${name} (give a ${name}, or an object of its fields)`);
    }
    const given = (input ?? {}) as { readonly [field: string]: unknown };
    for (const k of Object.keys(given)) if (slots[k] === undefined) throw new PackedValueError(`${name} has no field ${show(k)}`);
    for (const s of list) {
      if (Object.hasOwn(given, s.name)) {
        try {
          s.type.write(w, o + s.offset, given[s.name] as never);
        } catch (e) {
          throw at(`${name}.${s.name}`, e);
        }
      } else s.type.writeDefault(w, o + s.offset);
    }
  };
  const make = (values?: RecordInput<F>) => {
    const w = zeros(size);
    fillFrom(w, 0, values);
    return new View(w, 0) as unknown as PackedRecordOf<F>;
  };
  const key = `record(${JSON.stringify(name)};${list.map((s) => `${JSON.stringify(s.name)}:${s.type.key}`).join(',')})`;
  const type: RecordType<F> = {
    name,
    fields,
    slots: size,
    byteSized: list.every((s) => s.type.byteSized),
    key,
    id: typeId(key),
    read: (w, o) => new View(w as number[], o) as unknown as PackedRecordOf<F>,
    write: (w, o, input) => fillFrom(w, o, input),
    writeDefault: (w, o) => {
      for (const s of list) s.type.writeDefault(w, o + s.offset);
    },
    toImmutable: (w, o) => {
      if (immutableFactory === undefined) {
        const defaults = zeros(size);
        type.writeDefault(defaults, 0);
        immutableFactory = ImmutableRecord(Object.fromEntries(list.map((s) => [s.name, s.type.toImmutable(defaults, s.offset)])), name);
        Object.defineProperty(immutableFactory.prototype, ALL_FIELDS, { value: true });
      }
      return immutableFactory(Object.fromEntries(list.map((s) => [s.name, s.type.toImmutable(w, o + s.offset)])));
    },
    child: slotOf as (k: unknown) => { type: PackedType<unknown, unknown>; offset: number } | undefined,
    describe: () => `a ${name}`,
  };
  // The factory is the type: `record(...)` can be a field's type, and `State(...)` makes values.
  // (Defined, not assigned: a function's own `name` is read-only to assignment.)
  const factory = Object.defineProperties(make, Object.getOwnPropertyDescriptors(type)) as unknown as RecordFactory<F>;
  Object.defineProperty(View.prototype, '$type', { value: factory });
  return factory;
}
