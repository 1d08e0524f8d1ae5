// What changed between two states, as data: one entry per changed leaf, at the finest level
// the values allow (a Record field, a Map entry; a List or a Set is a leaf). Colouring and
// layout are the text reporter's job.
import { isList, isMap, isRecord, isSet, is } from 'immutable';
import { isPlainObject, plainKeys } from '../engine/values/plainValue.ts';
import { showsAllFields, unpack } from '../engine/values/packed/packedType.ts';

export interface Change {
  /** Field names and map keys from the state's root to the changed value. */
  readonly path: readonly string[];
  /** `undefined` when the entry was added. */
  readonly before: unknown;
  /** `undefined` when the entry was removed. */
  readonly after: unknown;
  /**
   * For a List that only lost elements at its front and gained elements at its end (a queue):
   * those elements, so the report need not print both whole lists.
   */
  readonly listEdit?: { readonly shifted: readonly unknown[]; readonly pushed: readonly unknown[] };
}

export function diff(before0: unknown, after0: unknown, path: string[] = []): Change[] {
  if (before0 === after0 || same(before0, after0)) return [];
  // A packed value is compared as the immutable.js value it reads as: a record field by field.
  const before = unpack(before0);
  const after = unpack(after0);
  if (isPlainObject(before) && isPlainObject(after)) {
    // Field by field, as a Record's; a key only one of them has was added or removed. (Own keys
    // only: `in` would find `toString` on every object.)
    const out: Change[] = [];
    for (const k of Object.keys(before)) {
      out.push(
        ...(Object.hasOwn(after, k)
          ? diff(before[k], after[k], [...path, k])
          : [{ path: [...path, k], before: before[k], after: undefined }]),
      );
    }
    for (const k of Object.keys(after)) if (!Object.hasOwn(before, k)) out.push({ path: [...path, k], before: undefined, after: after[k] });
    return out;
  }
  if (Array.isArray(before) && Array.isArray(after)) return listChange(path, before, after, before.length, after.length, (l, i) => l[i]);
  if (isRecord(before) && isRecord(after)) {
    const out: Change[] = [];
    for (const [k, v] of before.toSeq().entries()) {
      out.push(...diff(v, (after as unknown as { get(k: string): unknown }).get(String(k)), [...path, String(k)]));
    }
    return out;
  }
  if (isMap(before) && isMap(after)) {
    // In the order the new value lists its entries (a view's order), each removed entry where
    // it stood: after the entry that came before it.
    const rank = new globalThis.Map<unknown, number>();
    let i = 0;
    for (const k of after.keys()) rank.set(k, i++);
    const out: { at: number; changes: Change[] }[] = [];
    let anchor = -0.5;
    let removedSeen = 0;
    for (const [k, v] of before.entries()) {
      const key = formatKey(k);
      if (!after.has(k)) {
        removedSeen += 1e-6;
        out.push({ at: anchor + 0.5 + removedSeen, changes: [{ path: [...path, key], before: v, after: undefined }] });
      } else {
        anchor = rank.get(k)!;
        removedSeen = 0;
        out.push({ at: anchor, changes: diff(v, after.get(k), [...path, key]) });
      }
    }
    for (const [k, v] of after.entries()) {
      if (!before.has(k)) out.push({ at: rank.get(k)!, changes: [{ path: [...path, formatKey(k)], before: undefined, after: v }] });
    }
    return out.sort((a, b) => a.at - b.at).flatMap((x) => x.changes);
  }
  if (isList(before) && isList(after)) return listChange(path, before, after, before.size, after.size, (l, i) => l.get(i));
  return [{ path, before, after }];
}

/**
 * A change of a List or array, as a queue's edit if it is one (see Change.listEdit); none if
 * the two hold equal values (a List of plain values that immutable.js, comparing them by
 * identity, calls different).
 */
function listChange<L>(path: string[], before: L, after: L, m: number, n: number, at: (l: L, i: number) => unknown): Change[] {
  // The longest run of `before` that starts `after` once some front elements are gone.
  for (let k = 0; k <= m; k++) {
    const rest = m - k;
    if (rest > n) continue;
    let same = true;
    for (let i = 0; i < rest && same; i++) same = sameValue(at(before, k + i), at(after, i));
    if (same) {
      if (k === 0 && rest === n) return [];
      const shifted = Array.from({ length: k }, (_, i) => at(before, i));
      const pushed = Array.from({ length: n - rest }, (_, i) => at(after, rest + i));
      return [{ path, before, after, listEdit: { shifted, pushed } }];
    }
  }
  return [{ path, before, after }];
}

/** Equal as state values: immutable.js's `is`, and plain arrays and objects by their contents. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return same(a, b);
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return is(a, b);
}

/** Every leaf of a value, as changes from nothing: how an initial state is shown. */
export function leaves(packedOrNot: unknown, path: string[] = []): Change[] {
  const value = unpack(packedOrNot);
  // (An empty object is a leaf of its own, as an empty Map is.)
  if (isPlainObject(value) && Object.keys(value).length > 0) return Object.keys(value).flatMap((k) => leaves(value[k], [...path, k]));
  if (isRecord(value)) {
    return [...value.toSeq().entries()].flatMap(([k, v]) => leaves(v, [...path, String(k)]));
  }
  if (isMap(value) && value.size > 0) {
    return [...value.entries()].flatMap(([k, v]) => leaves(v, [...path, formatKey(k)]));
  }
  return [{ path, before: undefined, after: value }];
}

function formatKey(k: unknown): string {
  return typeof k === 'string' ? k : formatValue(k);
}

/** A compact, one-line rendering of a state value. */
export function formatValue(packedOrNot: unknown): string {
  const v = unpack(packedOrNot);
  if (v === undefined) return '(none)';
  if (v === null) return 'null';
  if (typeof v === 'string') return v === '' ? '""' : v;
  if (typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return `[${v.map(formatValue).join(', ')}]`;
  if (isPlainObject(v))
    return `{${plainKeys(v)
      .map((k) => `${k}: ${formatValue(v[k])}`)
      .join(', ')}}`;
  if (isList(v) || isSet(v)) return `[${[...(v as Iterable<unknown>)].map(formatValue).join(', ')}]`;
  if (isMap(v)) {
    return `{${[...v.entries()].map(([k, x]) => `${formatKey(k)}: ${formatValue(x)}`).join(', ')}}`;
  }
  if (isRecord(v) && showsAllFields(v)) {
    // A packed record's: its defaults are only its types' first values, so every field is shown.
    return `{${[...v.toSeq().entries()].map(([k, x]) => `${String(k)}: ${formatValue(x)}`).join(', ')}}`;
  }
  if (isRecord(v)) {
    // Only the fields that differ from the Record type's defaults: the rest is noise.
    // With `new` (not called on the instance, which a Record factory would re-initialize): a
    // Record type written as a class refuses a call without it.
    const Factory = (v as unknown as { constructor: new () => { get(k: string): unknown } }).constructor;
    const defaults = new Factory();
    const fields = [...v.toSeq().entries()]
      .filter(([k, x]) => !is(x, defaults.get(String(k))))
      .map(([k, x]) => `${String(k)}: ${formatValue(x)}`);
    return `{${fields.join(', ')}}`;
  }
  return String(v);
}
