// The table of representations, in the order they are asked: a FlatRecord is an immutable.js
// Record too, so it is asked first. The encoder and the codec ask `representationOf` once per
// prototype and keep the answer; the reports ask `viewOf` of each value they show.
import { is } from 'immutable';
import { isPresented, PRESENTED } from '../presented.ts';
import { NotAStateValue } from '../valueErrors.ts';
import { flatRecords } from './flatRecords.ts';
import { immutableJs } from './immutableJs.ts';
import { packed } from './packed.ts';
import { plainRepresentation } from './plain.ts';
import type { Representation, ValueView } from './representation.ts';

/** Equal as state values: immutable.js's `is` for its values, packed ones and scalars, plain arrays and objects by their contents. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'object' && a !== null) {
    const r = representationOf(a);
    if (r !== undefined) return r.equals(a, b);
  }
  return is(a, b);
}

const plain = plainRepresentation(sameValue);

export const REPRESENTATIONS: readonly Representation[] = [packed, flatRecords, immutableJs, plain];

/** The representation that owns `v`, an object; undefined for none (a Date, a class instance, a Seq). */
export function representationOf(v: object): Representation | undefined {
  const proto = Object.getPrototypeOf(v) as object | null;
  for (const r of REPRESENTATIONS) if (r.owns(v, proto)) return r;
  return undefined;
}

/**
 * A state value as the reports see it. A packed value shows as its immutable.js counterpart, and
 * a value that presents itself as another (presented.ts: the Kubernetes world) as that one.
 */
export function viewOf(value: unknown): ValueView {
  let v = value;
  for (;;) {
    if (typeof v !== 'object' || v === null) return { kind: 'scalar', value: v };
    if (isPresented(v)) {
      v = v[PRESENTED]();
      continue;
    }
    const r = representationOf(v);
    if (r === undefined) return { kind: 'scalar', value: v };
    if (r.presentAs !== undefined) {
      v = r.presentAs(v);
      continue;
    }
    return r.view(v);
  }
}

/** What `v`, which no representation owns, is: for the message that refuses it. */
export function describe(v: unknown): string {
  switch (typeof v) {
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'bigint':
    case 'symbol':
      return `a ${typeof v}`;
    case 'number':
      return 'NaN';
  }
  const o = v as object;
  for (const r of REPRESENTATIONS) {
    const said = r.refusal?.(o);
    if (said !== undefined) return said;
  }
  if (v instanceof Date) return 'a Date (use a number)';
  if (v instanceof globalThis.Map) return 'a JavaScript Map (use an immutable Map, or a plain object)';
  if (v instanceof globalThis.Set) return 'a JavaScript Set (use an immutable Set, or a sorted array)';
  const proto = Object.getPrototypeOf(v);
  return `an instance of ${proto?.constructor?.name ?? 'a class'}`;
}

/**
 * The first value in `v` that cannot be part of a state, in the order the encoder visits;
 * `within` holds the plain arrays and objects that enclose `v`, to find one that holds itself.
 * (After the encoder threw: paths are not built on its fast path.)
 */
export function locate(v: unknown, path: string, within: object[] = []): NotAStateValue | undefined {
  switch (typeof v) {
    case 'boolean':
    case 'string':
      return undefined;
    case 'number':
      return Number.isNaN(v) ? new NotAStateValue(path, 'NaN') : undefined;
    case 'undefined':
    case 'function':
    case 'bigint':
    case 'symbol':
      return new NotAStateValue(path, describe(v));
  }
  if (v === null) return undefined;
  const r = representationOf(v as object);
  if (r === undefined) return new NotAStateValue(path, describe(v));
  // (A packed value holds only what its type allows.)
  if (r === packed) return undefined;
  const view = r.view(v as object);
  const plainValue = view.kind === 'array' || view.kind === 'object';
  if (plainValue) {
    if (within.includes(v as object)) return new NotAStateValue(path, 'a value that holds itself (a cycle)');
    within.push(v as object);
  }
  const bad = locateIn(view, path, within);
  if (plainValue) within.pop();
  return bad;
}

function locateIn(view: ValueView, path: string, within: object[]): NotAStateValue | undefined {
  switch (view.kind) {
    case 'object':
      for (const k in view.value) {
        const bad = locate(view.value[k], `${path}.${k}`, within);
        if (bad) return bad;
      }
      return undefined;
    case 'record':
      for (const [k, x] of view.fields) {
        const bad = locate(x, `${path}.${k}`, within);
        if (bad) return bad;
      }
      return undefined;
    case 'array':
    case 'list':
      for (let i = 0; i < view.items.length; i++) {
        const bad = locate(view.items[i], `${path}[${i}]`, within);
        if (bad) return bad;
      }
      return undefined;
    case 'map':
      for (const [k, x] of view.entries) {
        const bad = locate(k, `${path}{key}`, within) ?? locate(x, `${path}[${String(k)}]`, within);
        if (bad) return bad;
      }
      return undefined;
    case 'set':
      for (const x of view.items) {
        const bad = locate(x, `${path}{member}`, within);
        if (bad) return bad;
      }
      return undefined;
    case 'scalar':
      return undefined;
  }
}

/** After a stack overflow: the cycle that caused it, with its path, or a value nested too deep to encode. */
export function locateDeep(v: unknown): NotAStateValue {
  try {
    const found = locate(v, '');
    if (found) return found;
  } catch {
    // locate() recurses too; a value too deep for the encoder may be too deep for it.
  }
  return new NotAStateValue('', 'a value nested too deep to encode');
}
