// What changed between two states, as data: one entry per changed leaf, at the finest level
// the values allow (a Record field, a Map entry; a List or a Set is a leaf). Colouring and
// layout are the text reporter's job.
import { is } from 'immutable';
import { plainKeys } from '../engine/values/plainValue.ts';
import { sameValue, viewOf } from '../engine/values/representations/table.ts';

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

export function diff(before: unknown, after: unknown, path: string[] = []): Change[] {
  if (before === after || sameValue(before, after)) return [];
  // Each as the reports see it (a packed value as the immutable.js value it reads as: a record
  // field by field).
  const b = viewOf(before);
  const a = viewOf(after);
  if (b.kind === 'object' && a.kind === 'object') {
    // Field by field, as a Record's; a key only one of them has was added or removed. (Own keys
    // only: `in` would find `toString` on every object.)
    const bo = b.value;
    const ao = a.value;
    const out: Change[] = [];
    for (const k of Object.keys(bo)) {
      out.push(...(Object.hasOwn(ao, k) ? diff(bo[k], ao[k], [...path, k]) : [{ path: [...path, k], before: bo[k], after: undefined }]));
    }
    for (const k of Object.keys(ao)) if (!Object.hasOwn(bo, k)) out.push({ path: [...path, k], before: undefined, after: ao[k] });
    return out;
  }
  if ((b.kind === 'array' && a.kind === 'array') || (b.kind === 'list' && a.kind === 'list')) {
    return listChange(path, before, after, b.items, a.items);
  }
  if (b.kind === 'record' && a.kind === 'record') return b.fields.flatMap(([k, v]) => diff(v, a.get(k), [...path, k]));
  if (b.kind === 'map' && a.kind === 'map') {
    // In the order the new value lists its entries (a view's order), each removed entry where
    // it stood: after the entry that came before it.
    const rank = new globalThis.Map<unknown, number>();
    let i = 0;
    for (const [k] of a.entries) rank.set(k, i++);
    const out: { at: number; changes: Change[] }[] = [];
    let anchor = -0.5;
    let removedSeen = 0;
    for (const [k, v] of b.entries) {
      const key = formatKey(k);
      if (!a.has(k)) {
        removedSeen += 1e-6;
        out.push({ at: anchor + 0.5 + removedSeen, changes: [{ path: [...path, key], before: v, after: undefined }] });
      } else {
        anchor = rank.get(k)!;
        removedSeen = 0;
        out.push({ at: anchor, changes: diff(v, a.get(k), [...path, key]) });
      }
    }
    for (const [k, v] of a.entries) {
      if (!b.has(k)) out.push({ at: rank.get(k)!, changes: [{ path: [...path, formatKey(k)], before: undefined, after: v }] });
    }
    return out.sort((x, y) => x.at - y.at).flatMap((x) => x.changes);
  }
  return [{ path, before, after }];
}

/**
 * A change of a List or array, as a queue's edit if it is one (see Change.listEdit); none if
 * the two hold equal values (a List of plain values that immutable.js, comparing them by
 * identity, calls different).
 */
function listChange(path: string[], before: unknown, after: unknown, bs: readonly unknown[], as: readonly unknown[]): Change[] {
  const m = bs.length;
  const n = as.length;
  // The longest run of `before` that starts `after` once some front elements are gone.
  for (let k = 0; k <= m; k++) {
    const rest = m - k;
    if (rest > n) continue;
    let same = true;
    for (let i = 0; i < rest && same; i++) same = sameValue(bs[k + i], as[i]);
    if (same) {
      if (k === 0 && rest === n) return [];
      return [{ path, before, after, listEdit: { shifted: bs.slice(0, k), pushed: as.slice(rest) } }];
    }
  }
  return [{ path, before, after }];
}

export { sameValue };

/** Every leaf of a value, as changes from nothing: how an initial state is shown. */
export function leaves(value: unknown, path: string[] = []): Change[] {
  const v = viewOf(value);
  // (An empty object is a leaf of its own, as an empty Map is.)
  if (v.kind === 'object' && Object.keys(v.value).length > 0) return Object.keys(v.value).flatMap((k) => leaves(v.value[k], [...path, k]));
  if (v.kind === 'record') return v.fields.flatMap(([k, x]) => leaves(x, [...path, k]));
  if (v.kind === 'map' && v.entries.length > 0) return v.entries.flatMap(([k, x]) => leaves(x, [...path, formatKey(k)]));
  return [{ path, before: undefined, after: value }];
}

function formatKey(k: unknown): string {
  return typeof k === 'string' ? k : formatValue(k);
}

/** A compact, one-line rendering of a state value. */
export function formatValue(value: unknown): string {
  if (value === undefined) return '(none)';
  const v = viewOf(value);
  switch (v.kind) {
    case 'scalar': {
      const x = v.value;
      if (x === undefined) return '(none)';
      if (x === null) return 'null';
      if (typeof x === 'string') return x === '' ? '""' : x;
      return String(x);
    }
    case 'array':
    case 'list':
    case 'set':
      return `[${v.items.map(formatValue).join(', ')}]`;
    case 'object':
      return `{${plainKeys(v.value)
        .map((k) => `${k}: ${formatValue(v.value[k])}`)
        .join(', ')}}`;
    case 'map':
      return `{${v.entries.map(([k, x]) => `${formatKey(k)}: ${formatValue(x)}`).join(', ')}}`;
    case 'record': {
      // Only the fields that differ from the Record type's defaults (the rest is noise), unless
      // every field means something (a packed record's: ValueView's defaultOf).
      const defaultOf = v.defaultOf;
      const fields = defaultOf === undefined ? v.fields : v.fields.filter(([k, x]) => !is(x, defaultOf(k)));
      return `{${fields.map(([k, x]) => `${k}: ${formatValue(x)}`).join(', ')}}`;
    }
  }
}
