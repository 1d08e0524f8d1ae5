// What a model's `import ... from 'immutable'` gets when the CLI loads it (bin/resolveHook.js):
// immutable.js itself, the same module instance, but for `Record`, whose types are FlatRecords
// (flatRecord.ts), `List`, whose Lists of up to 32 elements are FlatLists, one plain array each
// (flatList.ts: LamportMutex a fifth faster again, the thirty-second run), and `Set`, whose Sets of
// 1 to 8 strings, numbers or booleans are FlatSets (flatSet.ts; both, a fifth again: the
// thirty-third run). A
// FlatRecord is an immutable.js Record to every reader (the same prototype
// chain, methods, printed form, equality, hash and canonical bytes, so the same fingerprints,
// counts and traces: test/engine/flatRecord.test.ts holds it to immutable.js operation by
// operation), with its fields in one array: a field read is one load where immutable.js goes
// through `get`, `has` and a List, and a write copies one small array where immutable.js builds
// a List and a Record. On LamportMutex, written with immutable.js Records, Lists and Sets, that
// is a fifth of the search (bench/README.md, twenty-ninth run). As TLC runs the standard
// modules' operators as Java code of its own (its overrides) rather than as their TLA+
// definitions, the model's text is unchanged and so is what it means.
//
// Where FlatRecord does not take the defaults (a field named as a Record method, which
// immutable.js keeps unreachable with a warning, or as a FlatRecord internal; a field named
// `length`, which makes immutable.js read `{ length: 0 }` as an array; a collection for defaults,
// which it refuses), the type is immutable.js's own, with its own warning or error. A subclass
// that defines a method FlatRecord replaces is refused at its first instance (flatRecord.ts,
// refuseOverrides); the other differences left are in docs/guide.md ('States').
//
// `MODELCHECK_RECORDS=immutable` in the environment turns the substitution off (layout.js), Records,
// Lists and Sets, for an A/B or to rule it out.
import * as immutable from 'immutable';
import { FlatRecord, flatRecordTakes } from './flatRecord.ts';
import { flatListOf } from './flatList.ts';
import { flatSetOf } from './flatSet.ts';
import { installListUpdate } from './listUpdate.ts';

// And List.update of one index without immutable.js's generic key-path walk (listUpdate.ts).
installListUpdate();

export {
  Collection,
  Map,
  OrderedMap,
  OrderedSet,
  PairSorting,
  Range,
  Repeat,
  Seq,
  Stack,
  fromJS,
  get,
  getIn,
  has,
  hasIn,
  hash,
  is,
  isAssociative,
  isCollection,
  isImmutable,
  isIndexed,
  isKeyed,
  isList,
  isMap,
  isOrdered,
  isOrderedMap,
  isOrderedSet,
  isRecord,
  isSeq,
  isSet,
  isStack,
  isValueObject,
  merge,
  mergeDeep,
  mergeDeepWith,
  mergeWith,
  remove,
  removeIn,
  set,
  setIn,
  update,
  updateIn,
} from 'immutable';

// (Exported by immutable.js, absent from its declarations.)
const untyped = immutable as unknown as { Iterable: unknown; isPlainObject: unknown; version: string };
export const Iterable = untyped.Iterable;
export const isPlainObject = untyped.isPlainObject;
export const version = untyped.version;

type RecordFunction = typeof immutable.Record;

/** immutable.js's `Record(defaultValues, name)`, making FlatRecord types where FlatRecord takes the defaults. */
export const Record = function Record(defaultValues: object, name?: string) {
  return flatRecordTakes(defaultValues) ? FlatRecord(defaultValues, name) : immutable.Record(defaultValues, name);
} as unknown as RecordFunction;
// `x instanceof Record`, Record.isRecord and Record.getDescriptiveName, as immutable.js's.
Record.prototype = immutable.Record.prototype;
Record.isRecord = immutable.Record.isRecord;
Record.getDescriptiveName = immutable.Record.getDescriptiveName;

/**
 * A stand-in for immutable.js's collection function `own` that makes its values with `make`: to
 * every reader the same function (`x instanceof List`, the statics `own` has and inherits, such as
 * List.isList, Set.fromKeys or List.Indexed), but `of`, which calls `this` as immutable.js's does
 * and is given an array, so that `List.of(1, 2)` is made by `make` too.
 */
function standIn<F extends (...args: never[]) => unknown>(own: F, make: (value?: unknown) => unknown): F {
  // (A function, not an arrow: `new List(array)` works on immutable.js's, and `prototype` is then not enumerable.)
  function collection(value?: unknown) {
    return make(value);
  }
  const f = collection as unknown as F & { of: unknown };
  Object.defineProperty(f, 'name', { value: own.name });
  f.prototype = own.prototype;
  Object.setPrototypeOf(f, Object.getPrototypeOf(own) as object);
  for (const k of Object.getOwnPropertyNames(own)) {
    if (k !== 'length' && k !== 'name' && k !== 'prototype' && k !== 'of')
      (f as unknown as Record<string, unknown>)[k] = (own as unknown as Record<string, unknown>)[k];
  }
  f.of = function of(this: (values: unknown[]) => unknown, ...values: unknown[]) {
    return this(values);
  };
  return f;
}

/** immutable.js's `List(value)`, making a FlatList of no value or an array of up to 32 elements (flatList.ts). */
export const List = standIn(immutable.List, flatListOf);
/**
 * immutable.js's `Set(value)`, making a FlatSet of an array of 1 to 8 strings, numbers or booleans
 * (flatSet.ts). (Set.union and Set.intersect are immutable.js's: a new Set they make is its own.)
 */
export const Set = standIn(immutable.Set, flatSetOf);

/** `import Immutable from 'immutable'`: immutable.js's exports, with this Record, List and Set. */
const { default: _module, ...named } = immutable as typeof immutable & { default?: unknown };
export default { ...named, Record, List, Set };
