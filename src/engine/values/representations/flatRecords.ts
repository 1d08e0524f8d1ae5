// FlatRecords (flatRecord.ts) as state values: immutable.js Records to every reader (the
// reports, `is`, the codec, which rebuilds them by their type as it does any Record), but
// written for fingerprints from their one values array rather than field by field through
// `get`. Equal to the immutable.js Record of the same name and fields, byte for byte.
import { is } from 'immutable';
import { digestWord } from '../digestSlot.ts';
import { keptDigest, type CanonicalEncoder } from '../encoding.ts';
import { isFlatRecord } from '../flatRecord.ts';
import { CanonicalPart, type Representation } from './representation.ts';
import { C } from './tags.ts';
import { recordKeys, recordName, recordView, writeRecordAtRest } from './immutableJs.ts';

/**
 * Digest mode: the record of one FlatRecord type in the encoder's reference state (the state
 * itself, or one of its fields: CanonicalEncoder.reference), with the digests of its fields.
 * One per prototype and encoder (CanonicalPart.kept), brought up to date in place at the first
 * write of the type after the reference moves.
 */
class FieldsReference {
  /** The encoder's referenceEpoch this is for. */
  epoch = -1;
  /** The reference record's values, or null where the reference state has no record of the type. */
  values: readonly unknown[] | null = null;
  /** Per field: 1 where its value's digest is known (the four words in `words`), else 0 (written each time). */
  readonly known: Uint8Array;
  readonly words: Uint32Array;
  constructor(fields: number) {
    this.known = new Uint8Array(fields);
    this.words = new Uint32Array(4 * fields);
  }
}

/** A FlatRecord's values: one array, in the order its factory declared the fields. */
function valuesOf(v: object): unknown[] {
  // (Known by its type, not by a field named `_v`, which an immutable.js Record may have.)
  return (v as unknown as { _v: unknown[] })._v;
}

/** `ref` made the reference of `v`'s type for the encoder's current reference state. */
function aim(out: CanonicalEncoder, v: object, ref: FieldsReference): void {
  ref.epoch = out.referenceEpoch;
  const root = out.referenceState;
  const proto = Object.getPrototypeOf(v) as object;
  let record: object | undefined;
  if (root !== null && Object.getPrototypeOf(root) === proto) record = root;
  else if (root !== null && isFlatRecord(root)) {
    const fields = valuesOf(root);
    for (let i = 0; i < fields.length; i++) {
      const x = fields[i];
      if (typeof x === 'object' && x !== null && Object.getPrototypeOf(x) === proto) {
        record = x;
        break;
      }
    }
  }
  // (A draft, inside withMutations, changes its values in place: it is no reference.)
  if (record === undefined || (record as { __ownerID?: unknown }).__ownerID !== undefined) {
    ref.values = null;
    return;
  }
  const values = valuesOf(record);
  const before = ref.values;
  ref.values = values;
  const { known, words } = ref;
  // (Over the type's fields, not the array's length: a field past its end is written each time.)
  known.fill(0, values.length);
  for (let i = 0; i < values.length && i < known.length; i++) {
    // The states expanded one after another share most parts: a field the last reference held
    // too keeps the words read for it then.
    if (before !== null && values[i] === before[i] && known[i] === 1) continue;
    const d = keptDigest(values[i]);
    known[i] = d === undefined ? 0 : 1;
    if (d === undefined) continue;
    for (let w = 0; w < 4; w++) words[4 * i + w] = digestWord(d, w);
  }
}

function writeFlat(out: CanonicalEncoder, v: object, part: CanonicalPart): void {
  const layout = part.layout!;
  const keys = layout.keys;
  const flat = valuesOf(v);
  if (out.digesting) {
    out.bytesOut(layout.digestTail);
    let ref = part.kept as FieldsReference | undefined;
    if (ref === undefined) part.kept = ref = new FieldsReference(keys.length);
    if (ref.epoch !== out.referenceEpoch) aim(out, v, ref);
    const values = ref.values;
    if (values === null) {
      for (let i = 0; i < keys.length; i++) out.write(flat[i]);
      return;
    }
    // A field the reference holds too (by identity) is written from the digest read there.
    const { known, words } = ref;
    for (let i = 0; i < keys.length; i++) {
      const x = flat[i];
      if (x === values[i] && known[i] === 1) out.digestWordsOut(words[4 * i], words[4 * i + 1], words[4 * i + 2], words[4 * i + 3]);
      else out.write(x);
    }
    return;
  }
  const keyBytes = layout.keyBytes;
  out.bytesOut(layout.header);
  for (let i = 0; i < keys.length; i++) {
    out.bytesOut(keyBytes[i]);
    out.write(flat[i]);
  }
}

export const flatRecords: Representation = {
  name: 'FlatRecord',
  owns: (v) => isFlatRecord(v),
  canonicalPart: (out, v, proto) =>
    new CanonicalPart(writeFlat, true, out.recordLayout(proto, recordName(v, proto), recordKeys(v)), C.RECORD),
  // Written under the codec's RECORD tag, which immutableJs.ts reads: the type's registry entry rebuilds a FlatRecord.
  atRest: { write: writeRecordAtRest, read: () => undefined, tags: [] },
  view: (v) => recordView(v, false),
  equals: (a, b) => is(a, b),
};
