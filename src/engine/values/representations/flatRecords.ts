// FlatRecords (flatRecord.ts) as state values: immutable.js Records to every reader (the
// reports, `is`, the codec, which rebuilds them by their type as it does any Record), but
// written for fingerprints from their one values array rather than field by field through
// `get`. Equal to the immutable.js Record of the same name and fields, byte for byte.
import { is } from 'immutable';
import type { CanonicalEncoder } from '../encoding.ts';
import { isFlatRecord } from '../flatRecord.ts';
import { CanonicalPart, type Representation } from './representation.ts';
import { C } from './tags.ts';
import { recordKeys, recordName, recordView, writeRecordAtRest } from './immutableJs.ts';

function writeFlat(out: CanonicalEncoder, v: object, part: CanonicalPart): void {
  const layout = part.layout!;
  const keys = layout.keys;
  // A FlatRecord keeps its fields in one array, in the order its factory declared them. (Known by
  // its type, not by a field named `_v`, which an immutable.js Record may have.)
  const flat = (v as unknown as { _v: unknown[] })._v;
  if (out.digesting) {
    out.bytesOut(layout.digestTail);
    for (let i = 0; i < keys.length; i++) out.write(flat[i]);
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
