// States and step events as JSON, shared by the --json document and the record the generated
// docs keep of each run (manifest.ts), which must not depend on the rest of the document.
import type { StepEvent } from '../engine/model.ts';
import { plainKeys } from '../engine/values/plainValue.ts';
import { viewOf } from '../engine/values/representations/table.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A state value as JSON: Records, Maps and plain objects become objects (keys as strings),
 * Lists, Sets and plain arrays arrays. Unordered Sets and Maps are written in sorted order, so equal states print equally.
 */
export function stateToJson(value: unknown): Json {
  const v = viewOf(value);
  switch (v.kind) {
    case 'scalar': {
      const x = v.value;
      if (x === null || typeof x === 'boolean' || typeof x === 'number' || typeof x === 'string') return x;
      return String(x);
    }
    case 'record': {
      const out: { [key: string]: Json } = {};
      for (const [k, x] of v.fields) out[k] = stateToJson(x);
      return out;
    }
    case 'map': {
      const entries = v.entries.map(([k, x]) => [typeof k === 'string' ? k : JSON.stringify(stateToJson(k)), stateToJson(x)] as const);
      if (!v.ordered) entries.sort(([a], [b]) => cmp(a, b));
      return Object.fromEntries(entries);
    }
    case 'list':
    case 'array':
      return v.items.map(stateToJson);
    case 'set': {
      const items = v.items.map(stateToJson);
      if (!v.ordered) items.sort((a, b) => cmp(JSON.stringify(a), JSON.stringify(b)));
      return items;
    }
    case 'object':
      // Keys in the canonical order, so that equal states print alike; built by fromEntries, which
      // keeps a key named __proto__ a key.
      return Object.fromEntries(plainKeys(v.value).map((k) => [k, stateToJson(v.value[k])]));
  }
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
