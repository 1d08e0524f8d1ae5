// immutable.js values as state values: Lists, Maps, OrderedMaps, Sets, OrderedSets and Records
// (the default representation: docs/guide.md). immutable.js marks its kinds on their
// prototypes, so the encoder asks once per prototype and writes each kind by its tag. Where
// immutable.js's own arrays are read rather than walked (a small Map's entries), the reading is
// immutableInternals.ts's, for the one version it supports.
import {
  is,
  isImmutable,
  isList,
  isMap,
  isOrdered,
  isRecord,
  isSet,
  List,
  Map as ImmutableMap,
  OrderedMap,
  OrderedSet,
  Record as ImmutableRecord,
  Set as ImmutableSet,
} from 'immutable';
import type { CanonicalEncoder } from '../encoding.ts';
import { flatItems } from '../flatKind.ts';
import { isFlatList } from '../flatList.ts';
import { isFlatSet } from '../flatSet.ts';
import { mapEntries, setEntries } from '../immutableInternals.ts';
import { isPlainObject } from '../plainValue.ts';
import { showsAllFields } from '../presented.ts';
import type { StateCodec } from '../stateCodec.ts';
import { CanonicalPart, type AtRest, type Representation, type ValueView } from './representation.ts';
import { C, R } from './tags.ts';

/** The longest List written by index (get is a lookup in one node up to 32 elements). */
const SHORT_LIST = 32;

type AnyMap = ImmutableMap<unknown, unknown>;
type AnySet = ImmutableSet<unknown>;
type Fields = { get(k: string): unknown };

/** A Record's type name, or undefined for a type given none (the codec could not rebuild it: MC112). */
export function recordName(v: object, proto: object): string | undefined {
  if ((proto.constructor as { displayName?: string }).displayName === undefined) return undefined;
  return ImmutableRecord.getDescriptiveName(v as never);
}

function recordNameOf(v: object): string | undefined {
  return recordName(v, Object.getPrototypeOf(v) as object);
}

/** A Record's field names, in the order its factory declared them. */
export function recordKeys(v: object): string[] {
  return [...(v as unknown as { toSeq(): { keys(): Iterable<string> } }).toSeq().keys()].map(String);
}

function writeRecord(out: CanonicalEncoder, v: object, part: CanonicalPart): void {
  const layout = part.layout!;
  // Fields come in the order the Record's factory declared them.
  const keys = layout.keys;
  const r = v as unknown as Fields;
  if (out.digesting) {
    // The names once, then the values; the names' whole blocks are hashed already, so only
    // their tail is written (RecordLayout.prefixLanes).
    out.bytesOut(layout.digestTail);
    for (let i = 0; i < keys.length; i++) out.write(r.get(keys[i]));
    return;
  }
  const keyBytes = layout.keyBytes;
  out.bytesOut(layout.header);
  for (let i = 0; i < keys.length; i++) {
    out.bytesOut(keyBytes[i]);
    out.write(r.get(keys[i]));
  }
}

function writeCollection(out: CanonicalEncoder, v: object, part: CanonicalPart): void {
  switch (part.tag) {
    case C.LIST: {
      const list = v as List<unknown>;
      const n = list.size;
      // A short List by index: its forEach makes closures on each call (about 4% of what
      // bench case 6 allocated, its pending events' Lists), its get none.
      if (n > SHORT_LIST) {
        out.orderedItems(C.LIST, n, list);
        return;
      }
      out.byte(C.LIST);
      out.u32(n);
      for (let i = 0; i < n; i++) out.write(list.get(i));
      return;
    }
    case C.ORDERED_MAP:
      out.orderedEntries(C.ORDERED_MAP, (v as AnyMap).size, v as AnyMap);
      return;
    case C.ORDERED_SET:
      out.orderedItems(C.ORDERED_SET, (v as AnySet).size, v as AnySet);
      return;
    case C.MAP: {
      const n = (v as AnyMap).size;
      // (Read from immutable.js's own array where it has one: immutableInternals.ts.)
      if (out.smallSized(n) && out.small(v as AnyMap, n, true, mapEntries(v))) return;
      out.unorderedEntries(C.MAP, n, v as AnyMap);
      return;
    }
    case C.SET: {
      const n = (v as AnySet).size;
      if (out.smallSized(n) && out.small(v as AnySet, n, false, setEntries(v))) return;
      out.unorderedItems(C.SET, n, v as AnySet);
      return;
    }
  }
}

/** A FlatList (flatList.ts), as writeCollection writes a short List, from its array. */
function writeFlatList(out: CanonicalEncoder, v: object): void {
  const a = flatItems(v);
  out.byte(C.LIST);
  out.u32(a.length);
  for (let i = 0; i < a.length; i++) out.write(a[i]);
}

/** A FlatSet (flatSet.ts), as writeCollection writes a Set, from its array of members. */
function writeFlatSet(out: CanonicalEncoder, v: object): void {
  const m = flatItems(v);
  if (out.smallSized(m.length) && out.smallMembers(m, m.length)) return;
  out.unorderedItems(C.SET, m.length, m);
}

function canonicalPart(out: CanonicalEncoder, v: object, proto: object): CanonicalPart {
  if (isRecord(v)) return new CanonicalPart(writeRecord, true, out.recordLayout(proto, recordName(v, proto), recordKeys(v)), C.RECORD);
  // (FlatLists and FlatSets have prototypes of their own, so these are asked once each.)
  if (isFlatList(v)) return new CanonicalPart(writeFlatList, true, null, C.LIST);
  if (isFlatSet(v)) return new CanonicalPart(writeFlatSet, true, null, C.SET);
  const tag = isList(v) ? C.LIST : isMap(v) ? (isOrdered(v) ? C.ORDERED_MAP : C.MAP) : isOrdered(v) ? C.ORDERED_SET : C.SET;
  return new CanonicalPart(writeCollection, true, null, tag);
}

// ---- At rest (stateCodec.ts) ----

/**
 * Whether a Map key is a plain array or object. immutable.js finds such a key by identity, and a
 * decoded key is a new object: its entry is written whole, never against the previous state's.
 */
function plainKey(k: unknown): boolean {
  return Array.isArray(k) || isPlainObject(k);
}

/** Whether `prev` is a Record of `v`'s type. */
function sameType(v: object, prev: unknown): boolean {
  return (
    prev !== undefined && prev !== null && (prev as { constructor: unknown }).constructor === (v as { constructor: unknown }).constructor
  );
}

/** A Record (an immutable.js one or a FlatRecord: flatRecords.ts) at rest: its type's index, then its fields. */
export function writeRecordAtRest(out: StateCodec, v: object, prev: unknown): void {
  const t = out.recordType(v, recordNameOf, recordKeys);
  out.tag(R.RECORD);
  out.uvarint(t.index);
  const r = v as unknown as Fields;
  const p = sameType(v, prev) ? (prev as Fields) : undefined;
  for (const k of t.keys) out.write(r.get(k), p?.get(k));
}

function writeAtRest(out: StateCodec, v: object, prev: unknown): void {
  if (isRecord(v)) {
    writeRecordAtRest(out, v, prev);
    return;
  }
  if (isList(v)) {
    if (isList(prev) && prev.size === v.size) {
      listPatch(out, v, prev);
      return;
    }
    out.tag(R.LIST);
    out.uvarint(v.size);
    const p = isList(prev) ? prev : undefined;
    let i = 0;
    for (const x of v) out.write(x, p?.get(i++));
    return;
  }
  if (isMap(v)) {
    const ordered = isOrdered(v);
    const p = isMap(prev) && isOrdered(prev) === ordered ? (prev as AnyMap) : undefined;
    if (p !== undefined && p.size === v.size && mapPatch(out, v as AnyMap, p)) return;
    out.tag(ordered ? R.ORDERED_MAP : R.MAP);
    out.uvarint(v.size);
    for (const [k, x] of (v as AnyMap).entries()) {
      out.write(k, undefined);
      out.write(x, plainKey(k) ? undefined : p?.get(k));
    }
    return;
  }
  const s = v as AnySet;
  out.tag(isOrdered(s) ? R.ORDERED_SET : R.SET);
  out.uvarint(s.size);
  for (const x of s) out.write(x, undefined);
}

/**
 * Writes `v` as `p` with some values changed, if the two have the same keys in the same
 * order (then setting those values in `p` rebuilds `v`, order included); else writes nothing
 * and returns false.
 */
function mapPatch(out: StateCodec, v: AnyMap, p: AnyMap): boolean {
  const ours = v.entries();
  const theirs = p.entries();
  let changed = 0;
  for (;;) {
    const a = ours.next();
    if (a.done) break;
    const b = theirs.next();
    // (A plain key is found by identity, which a decoded key does not have: no patch.)
    if (plainKey(a.value[0])) return false;
    if (a.value[0] !== b.value![0] && !is(a.value[0], b.value![0])) return false;
    if (a.value[1] !== b.value![1]) changed++;
  }
  out.tag(R.MAP_PATCH);
  out.uvarint(changed);
  const bv = p.entries();
  for (const [k, x] of v.entries()) {
    const before = bv.next().value![1];
    if (x === before) continue;
    out.write(k, undefined);
    out.write(x, before);
  }
  return true;
}

/** Writes `v` as `p`, of the same size, with the elements that changed. */
function listPatch(out: StateCodec, v: List<unknown>, p: List<unknown>): void {
  let changed = 0;
  const bv = p.values();
  for (const x of v) if (x !== bv.next().value) changed++;
  out.tag(R.LIST_PATCH);
  out.uvarint(changed);
  const again = p.values();
  let i = 0;
  for (const x of v) {
    const before = again.next().value;
    if (x !== before) {
      out.uvarint(i);
      out.write(x, before);
    }
    i++;
  }
}

function readAtRest(input: StateCodec, t: number, prev: unknown): unknown {
  switch (t) {
    case R.MAP_PATCH: {
      let m = prev as AnyMap;
      const n = input.readUvarint();
      for (let i = 0; i < n; i++) {
        const k = input.read(undefined);
        m = m.set(k, input.read(m.get(k)));
      }
      return m;
    }
    case R.LIST_PATCH: {
      let l = prev as List<unknown>;
      const n = input.readUvarint();
      for (let i = 0; i < n; i++) {
        const at = input.readUvarint();
        l = l.set(at, input.read(l.get(at)));
      }
      return l;
    }
    case R.RECORD: {
      const type = input.recordTypeAt(input.readUvarint());
      const p =
        prev !== undefined && prev !== null && (prev as { constructor: unknown }).constructor === type.ctor ? (prev as Fields) : undefined;
      if (p !== undefined) {
        // The previous state's Record with the fields that changed set: cheaper than a new one,
        // and the same Record itself when nothing changed (equal, and already digested).
        let r = p as unknown as { get(k: string): unknown; set(k: string, x: unknown): typeof r };
        for (const k of type.keys) {
          const before = r.get(k);
          const x = input.read(before);
          if (x !== before) r = r.set(k, x);
        }
        return r;
      }
      const values: Record<string, unknown> = {};
      for (const k of type.keys) values[k] = input.read(undefined);
      return type.make(values);
    }
    case R.LIST: {
      const n = input.readUvarint();
      const p = isList(prev) ? prev : undefined;
      const items: unknown[] = new Array(n);
      for (let i = 0; i < n; i++) items[i] = input.read(p?.get(i));
      return List(items);
    }
    case R.MAP:
    case R.ORDERED_MAP: {
      const n = input.readUvarint();
      const ordered = t === R.ORDERED_MAP;
      const p = isMap(prev) && isOrdered(prev) === ordered ? (prev as AnyMap) : undefined;
      const m = (ordered ? OrderedMap<unknown, unknown>() : ImmutableMap<unknown, unknown>()).asMutable();
      for (let i = 0; i < n; i++) {
        const k = input.read(undefined);
        m.set(k, input.read(plainKey(k) ? undefined : p?.get(k)));
      }
      return m.asImmutable();
    }
    default: {
      const n = input.readUvarint();
      const s = (t === R.SET ? ImmutableSet<unknown>() : OrderedSet<unknown>()).asMutable();
      for (let i = 0; i < n; i++) s.add(input.read(undefined));
      return s.asImmutable();
    }
  }
}

const atRest: AtRest = {
  write: writeAtRest,
  read: readAtRest,
  // (A FlatRecord is written under RECORD too, and read here: its type rebuilds it.)
  tags: [R.RECORD, R.LIST, R.LIST_PATCH, R.MAP, R.ORDERED_MAP, R.MAP_PATCH, R.SET, R.ORDERED_SET],
};

// ---- For the reports ----

/** A Record as the reports see it (an immutable.js one or a FlatRecord). */
export function recordView(v: object, allFields: boolean): ValueView {
  const r = v as unknown as { toSeq(): { entries(): Iterable<[unknown, unknown]> }; get(k: string): unknown };
  let defaults: Fields | undefined;
  return {
    kind: 'record',
    fields: [...r.toSeq().entries()].map(([k, x]) => [String(k), x] as const),
    get: (k) => r.get(k),
    defaultOf: allFields
      ? undefined
      : (k) => {
          // With `new` (not called on the instance, which a Record factory would re-initialize):
          // a Record type written as a class refuses a call without it.
          defaults ??= new (v as unknown as { constructor: new () => Fields }).constructor();
          return defaults.get(k);
        },
  };
}

function view(v: object): ValueView {
  // (The Record a packed record unpacks to shows every field: presented.ts ALL_FIELDS.)
  if (isRecord(v)) return recordView(v, showsAllFields(v));
  if (isMap(v)) return { kind: 'map', ordered: isOrdered(v), entries: [...v.entries()], has: (k) => v.has(k), get: (k) => v.get(k) };
  if (isList(v)) return { kind: 'list', items: v.toArray() };
  return { kind: 'set', ordered: isOrdered(v), items: [...(v as AnySet)] };
}

export const immutableJs: Representation = {
  name: 'immutable.js',
  owns: (v) => isRecord(v) || isList(v) || isMap(v) || isSet(v),
  canonicalPart,
  atRest,
  view,
  equals: (a, b) => is(a, b),
  refusal: (v) => (isImmutable(v) ? 'an immutable.js Seq or Stack' : undefined),
};
