// Packed values (packed/) as state values: a declared type and a few small integers. They are
// written in place, never as a digest (as plain values are, and for the same reason: their words
// are what a successor copies), and their words are their canonical form already: a set is
// bits in its universe's order, a map values in its keys' order. The reports see each as the
// immutable.js value it reads as (`toImmutable`).
import { is } from 'immutable';
import type { CanonicalEncoder } from '../encoding.ts';
import { PackedValue, type PackedType } from '../packed/packedType.ts';
import type { StateCodec } from '../stateCodec.ts';
import { CanonicalPart, type Representation } from './representation.ts';
import { C, R } from './tags.ts';

/** Its type's id, then its words, each one byte below 255, else 255 and four bytes. */
function writePacked(out: CanonicalEncoder, value: object): void {
  const v = value as PackedValue;
  const t = v.$type;
  const n = t.slots;
  let p = out.reserve(5 + 5 * n);
  const buf = out.bytes;
  const view = out.dataView;
  buf[p++] = C.PACKED;
  view.setUint32(p, t.id, true);
  p += 4;
  const w = v.$w;
  const o = v.$o;
  if (t.byteSized) {
    // Every word one byte, as the loop below would write it, without its test.
    let i = 0;
    for (; i + 4 <= n; i += 4) {
      const k = o + i;
      view.setUint32(p + i, w[k] | (w[k + 1] << 8) | (w[k + 2] << 16) | (w[k + 3] << 24), true);
    }
    for (; i < n; i++) buf[p + i] = w[o + i];
    out.advanceTo(p + n);
    return;
  }
  for (let i = 0; i < n; i++) {
    const x = w[o + i];
    if (x >= 0 && x < 255) buf[p++] = x;
    else {
      buf[p++] = 255;
      view.setInt32(p, x, true);
      p += 4;
    }
  }
  out.advanceTo(p);
}

/** At rest: its type's index among the packed types this codec has met (types are objects of this thread), then its words as zigzag varints. */
function writeAtRest(out: StateCodec, value: object): void {
  const v = value as PackedValue;
  const type = v.$type;
  out.tag(R.PACKED);
  out.uvarint(out.intern(type));
  const w = v.$w;
  for (let i = v.$o, end = v.$o + type.slots; i < end; i++) {
    const x = w[i];
    out.uvarint(((x << 1) ^ (x >> 31)) >>> 0);
  }
}

function readAtRest(input: StateCodec, _tag: number, prev: unknown): unknown {
  const type = input.interned(input.readUvarint()) as PackedType<unknown, unknown>;
  const w: number[] = [];
  for (let i = 0; i < type.slots; i++) {
    const z = input.readUvarint();
    w.push((z >>> 1) ^ -(z & 1));
  }
  // Equal to the previous state's value: that value itself, already digested and shared.
  const v = type.read(w, 0) as PackedValue;
  return prev instanceof PackedValue && v.equals(prev) ? prev : v;
}

export const packed: Representation = {
  name: 'packed',
  owns: (v) => v instanceof PackedValue,
  canonicalPart: () => new CanonicalPart(writePacked, false, null, C.PACKED),
  atRest: { write: writeAtRest, read: readAtRest, tags: [R.PACKED] },
  // (The table shows a packed value as the value it unpacks to: presentAs.)
  view: () => ({ kind: 'scalar', value: undefined }),
  presentAs: (v) => (v as PackedValue).toImmutable(),
  equals: (a, b) => is(a, b),
};
