// Plain JavaScript values as state values: arrays (sequences, like a List) and plain objects
// (made by a literal, a spread or Object.create(null): like a Record whose fields are its own
// keys). A model written with them builds each successor by copying a few small arrays and
// objects, which V8 does far faster than immutable.js's persistent structures (LamportMutex:
// bench/README.md, ninth run); immutable.js stays the better choice for large states whose steps
// change a little of them (docs/guide.md).
//
// Canonically a plain value is written in place in either mode, never as a digest: it cannot
// carry its digest (a spread would copy it to the next state, and a frozen value takes none),
// so it is written whole each time, as TLC writes its values, and hashed as part of the nearest
// immutable.js part or state that holds it. An object's keys are written sorted, so that
// `{ a, b }` and `{ b, a }` are one value. At rest it keeps its own key order, and whether it
// was frozen.
import type { CanonicalEncoder } from '../encoding.ts';
import { compareKeys, isPlainObject } from '../plainValue.ts';
import type { StateCodec } from '../stateCodec.ts';
import { NotAStateValue } from '../valueErrors.ts';
import { CanonicalPart, type Representation, type ValueView } from './representation.ts';
import { C, R } from './tags.ts';

type PlainObject = { readonly [key: string]: unknown };

/**
 * How deep plain arrays and objects may nest. A plain value can hold itself (an array pushed
 * into itself); past this depth the encoder stops and locate() looks for the cycle.
 */
const PLAIN_DEPTH_LIMIT = 1000;

/** Layouts kept per key count; past this many of one count (objects used as maps) a layout is made each time. */
const OBJECT_LAYOUTS_PER_SIZE = 64;

/**
 * A plain object's keys as for-in lists them (the order it was built in), and how to write it
 * canonically: the header (tag, count, keys sorted) and its keys sorted.
 */
interface ObjectLayout {
  readonly keys: readonly string[];
  readonly sorted: readonly string[];
  readonly header: Uint8Array;
}

/** One encoder's canonical writes of plain values, with what it keeps between them (object layouts). */
export class PlainWriter {
  /** How many plain arrays and objects enclose the value being written (reset by the encoder for each value). */
  depth = 0;
  /** Plain objects' layouts, by key count (see objectLayout). */
  private readonly objectLayouts: ObjectLayout[][] = [];
  private readonly keyScratch: string[] = [];

  writeArray(out: CanonicalEncoder, v: readonly unknown[]): void {
    const n = v.length;
    const p = out.reserve(5);
    out.bytes[p] = C.ARRAY;
    out.dataView.setUint32(p + 1, n, true);
    out.advanceTo(p + 5);
    if (++this.depth > PLAIN_DEPTH_LIMIT) tooDeep();
    for (let i = 0; i < n; i++) out.write(v[i]);
    this.depth--;
  }

  writeObject(out: CanonicalEncoder, v: PlainObject): void {
    const layout = this.objectLayout(out, v);
    out.bytesOut(layout.header);
    const sorted = layout.sorted;
    if (++this.depth > PLAIN_DEPTH_LIMIT) tooDeep();
    for (let i = 0; i < sorted.length; i++) out.write(v[sorted[i]]);
    this.depth--;
  }

  /**
   * The layout of a plain object's keys. Objects built by one literal or spread list their keys
   * in one order, so a model has a few layouts; a layout is found by comparing keys (interned
   * strings: compared by identity) with those of the same count, without allocating.
   */
  private objectLayout(out: CanonicalEncoder, o: object): ObjectLayout {
    const scratch = this.keyScratch;
    let n = 0;
    for (const k in o) scratch[n++] = k;
    let bucket = this.objectLayouts[n];
    if (bucket === undefined) {
      bucket = [];
      this.objectLayouts[n] = bucket;
    }
    outer: for (let j = 0; j < bucket.length; j++) {
      const keys = bucket[j].keys;
      for (let i = 0; i < n; i++) if (keys[i] !== scratch[i]) continue outer;
      return bucket[j];
    }
    const keys = scratch.slice(0, n);
    const sorted = [...keys].sort(compareKeys);
    const enc = out.fresh();
    enc.byte(C.OBJECT);
    enc.u32(n);
    for (const k of sorted) enc.str(k);
    const layout: ObjectLayout = { keys, sorted, header: enc.bytes.slice(0, enc.length) };
    if (bucket.length < OBJECT_LAYOUTS_PER_SIZE) bucket.push(layout);
    return layout;
  }
}

function tooDeep(): never {
  throw new NotAStateValue('', `plain arrays and objects nested more than ${PLAIN_DEPTH_LIMIT} deep`);
}

const writeArrayPart = (out: CanonicalEncoder, v: object): void => out.plain.writeArray(out, v as unknown[]);
const writeObjectPart = (out: CanonicalEncoder, v: object): void => out.plain.writeObject(out, v as PlainObject);

function writeAtRest(out: StateCodec, v: object, prev: unknown): void {
  if (Array.isArray(v)) {
    out.tag(Object.isFrozen(v) ? R.ARRAY | R.FROZEN : R.ARRAY);
    out.uvarint(v.length);
    const p = Array.isArray(prev) ? prev : undefined;
    for (let i = 0; i < v.length; i++) out.write(v[i], p?.[i]);
    return;
  }
  const o = v as PlainObject;
  out.tag(Object.isFrozen(o) ? R.OBJECT | R.FROZEN : R.OBJECT);
  const p = isPlainObject(prev) ? prev : undefined;
  let n = 0;
  for (const _ in o) n++;
  out.uvarint(n);
  for (const k in o) {
    out.write(k, undefined);
    out.write(o[k], p !== undefined && Object.hasOwn(p, k) ? p[k] : undefined);
  }
}

function readAtRest(input: StateCodec, t: number, prev: unknown): unknown {
  if ((t & ~R.FROZEN) === R.ARRAY) {
    const n = input.readUvarint();
    const p = Array.isArray(prev) ? prev : undefined;
    const items: unknown[] = new Array(n);
    for (let i = 0; i < n; i++) items[i] = input.read(p?.[i]);
    return t === R.ARRAY ? items : Object.freeze(items);
  }
  const n = input.readUvarint();
  const p = isPlainObject(prev) ? prev : undefined;
  const o: { [key: string]: unknown } = {};
  for (let i = 0; i < n; i++) {
    const k = input.read(undefined) as string;
    const x = input.read(p !== undefined && Object.hasOwn(p, k) ? p[k] : undefined);
    // (An own key named __proto__ would set the prototype by assignment.)
    if (k === '__proto__') Object.defineProperty(o, k, { value: x, writable: true, enumerable: true, configurable: true });
    else o[k] = x;
  }
  return t === R.OBJECT ? o : Object.freeze(o);
}

/** Equal as state values: arrays element by element, objects by their own keys, whatever their order. */
function equals(a: object, b: unknown, same: (x: unknown, y: unknown) => boolean): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (!isPlainObject(b)) return false;
  const o = a as PlainObject;
  const ka = Object.keys(o);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && same(o[k], b[k]));
}

/** Plain arrays and objects. `sameValue` is the table's equality, for their elements. */
export function plainRepresentation(sameValue: (x: unknown, y: unknown) => boolean): Representation {
  return {
    name: 'plain',
    owns: (v, proto) => Array.isArray(v) || proto === Object.prototype || proto === null,
    canonicalPart: (_out, v) => new CanonicalPart(Array.isArray(v) ? writeArrayPart : writeObjectPart, false, null, 0),
    atRest: { write: writeAtRest, read: readAtRest, tags: [R.ARRAY, R.ARRAY | R.FROZEN, R.OBJECT, R.OBJECT | R.FROZEN] },
    view: (v): ValueView => (Array.isArray(v) ? { kind: 'array', items: v } : { kind: 'object', value: v as PlainObject }),
    equals: (a, b) => equals(a, b, sameValue),
  };
}
