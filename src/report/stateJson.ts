// States and step events as JSON, shared by the --json document and the record the generated
// docs keep of each run (manifest.ts), which must not depend on the rest of the document.
import { isList, isMap, isOrdered, isRecord, isSet } from 'immutable';
import type { StepEvent } from '../engine/model.ts';
import { isPlainObject, plainKeys } from '../engine/values/plainValue.ts';
import { unpack } from '../engine/values/packed/packedType.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A state value as JSON: Records, Maps and plain objects become objects (keys as strings),
 * Lists, Sets and plain arrays arrays. Unordered Sets and Maps are written in sorted order, so equal states print equally.
 */
export function stateToJson(packedOrNot: unknown): Json {
  const v = unpack(packedOrNot);
  if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
  if (isRecord(v)) {
    const out: { [key: string]: Json } = {};
    for (const [k, x] of v.toSeq().entries()) out[String(k)] = stateToJson(x);
    return out;
  }
  if (isMap(v)) {
    const entries = [...v.entries()].map(([k, x]) => [typeof k === 'string' ? k : JSON.stringify(stateToJson(k)), stateToJson(x)] as const);
    if (!isOrdered(v)) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries);
  }
  if (isList(v)) return [...v].map(stateToJson);
  if (isSet(v)) {
    const items = [...v].map(stateToJson);
    if (!isOrdered(v)) items.sort((a, b) => cmp(JSON.stringify(a), JSON.stringify(b)));
    return items;
  }
  if (Array.isArray(v)) return v.map(stateToJson);
  if (isPlainObject(v)) {
    // Keys in the canonical order, so that equal states print alike; built by fromEntries, which
    // keeps a key named __proto__ a key.
    return Object.fromEntries(plainKeys(v).map((k) => [k, stateToJson(v[k])]));
  }
  return String(v);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What a step told of itself: requests with their answers, and notes. */
export function eventsToJson(events: readonly StepEvent[] | undefined): Json {
  return (events ?? []).map(
    (e): Json =>
      e.kind === 'request'
        ? { kind: 'request', from: e.from ?? null, to: e.to, request: e.request, answer: e.answer, ok: e.ok }
        : { kind: 'note', over: e.over ? [...e.over] : null, text: e.text },
  );
}
