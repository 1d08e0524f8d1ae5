// Counterexamples in the Informal Trace Format (ITF), the JSON trace format that Apalache writes
// and Quint reads (https://apalache-mc.org/docs/adr/015adr-trace.html): `vars`, `states` (each
// with `#meta.index`), `loop` for a lasso. Records become JSON objects, Sets `{"#set": [...]}`,
// Maps `{"#map": [[k, v], ...]}`, Lists arrays, and integers beyond +-(2^53-1) `{"#bigint"}`.
// The action of each step is recorded twice: in the state's `#meta.action`, and in the variable
// `mbt::actionTaken`, Quint's convention for model-based testing.
import { plainKeys } from '../engine/values/plainValue.ts';
import { viewOf } from '../engine/values/representations/table.ts';
import type { VariantResult, Violation } from '../engine/result.ts';

export type ItfValue =
  | boolean
  | string
  | number
  | ItfValue[]
  | { '#bigint': string }
  | { '#tup': ItfValue[] }
  | { '#set': ItfValue[] }
  | { '#map': [ItfValue, ItfValue][] }
  | { '#unserializable': string }
  | { [field: string]: ItfValue };

export interface ItfState {
  '#meta': { index: number; action: string };
  [variable: string]: ItfValue | { index: number; action: string };
}

export interface ItfTrace {
  '#meta': { [key: string]: string | number };
  vars: string[];
  states: ItfState[];
  loop?: number;
}

/** Quint's variable for the action that produced a state. */
export const ACTION_TAKEN = 'mbt::actionTaken';

/**
 * A state value in ITF. Unordered Sets and Maps are written in a canonical order (by the JSON
 * of their converted elements), so equal states are written equally. `null` and `undefined`
 * have no ITF value: they are written as `{"#unserializable": "null"}`.
 */
export function toItfValue(value: unknown): ItfValue {
  const v = viewOf(value);
  switch (v.kind) {
    case 'scalar': {
      const x = v.value;
      if (typeof x === 'boolean' || typeof x === 'string') return x;
      if (typeof x === 'number') {
        if (!Number.isInteger(x)) return { '#unserializable': String(x) };
        return Number.isSafeInteger(x) ? x : { '#bigint': BigInt(x).toString() };
      }
      if (typeof x === 'bigint') {
        return x <= BigInt(Number.MAX_SAFE_INTEGER) && x >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : { '#bigint': x.toString() };
      }
      if (x === null || x === undefined) return { '#unserializable': 'null' };
      return { '#unserializable': String(x) };
    }
    case 'record': {
      const out: { [field: string]: ItfValue } = {};
      for (const [k, x] of v.fields) out[k] = toItfValue(x);
      return out;
    }
    case 'map': {
      const entries = v.entries.map(([k, x]) => [toItfValue(k), toItfValue(x)] as [ItfValue, ItfValue]);
      if (!v.ordered) entries.sort((a, b) => compare(JSON.stringify(a[0]), JSON.stringify(b[0])));
      return { '#map': entries };
    }
    case 'set': {
      const items = v.items.map(toItfValue);
      if (!v.ordered) items.sort((a, b) => compare(JSON.stringify(a), JSON.stringify(b)));
      return { '#set': items };
    }
    case 'list':
    case 'array':
      return v.items.map(toItfValue);
    case 'object':
      // Keys in the canonical order (equal values, equal records); fromEntries keeps `__proto__` a key.
      return Object.fromEntries(plainKeys(v.value).map((k) => [k, toItfValue(v.value[k])]));
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A state's variables: a Record's or plain object's fields, or the whole state as `state`. */
export function variables(state: unknown): [string, unknown][] {
  const v = viewOf(state);
  if (v.kind === 'record') return v.fields.map(([k, x]) => [k, x]);
  if (v.kind === 'object') return plainKeys(v.value).map((k) => [k, v.value[k]]);
  return [['state', state]];
}

/** One counterexample as an ITF trace. */
export function violationToItf(v: VariantResult, x: Violation, source?: string): ItfTrace {
  // ITF has every state assign every variable: a plain state whose keys differ from step to step
  // is written as the one variable `state`.
  const first = variables(x.trace[0].state).map(([name]) => name);
  const sameNames = x.trace.every((step) => {
    const names = variables(step.state).map(([name]) => name);
    return names.length === first.length && names.every((n, i) => n === first[i]);
  });
  const variablesOf = sameNames ? variables : (state: unknown): [string, unknown][] => [['state', state]];
  const names = sameNames ? first : ['state'];
  const states = x.trace.map((step, index): ItfState => {
    const action = step.action ?? 'init';
    const state: ItfState = { '#meta': { index, action } };
    for (const [name, value] of variablesOf(step.state)) state[name] = toItfValue(value);
    state[ACTION_TAKEN] = action;
    return state;
  });
  const meta: ItfTrace['#meta'] = {
    format: 'ITF',
    'format-description': 'https://apalache-mc.org/docs/adr/015adr-trace.html',
    ...(source !== undefined ? { source } : {}),
    description: `modelcheck: ${v.model}, variant ${v.variant}, ${x.property} (${x.kind}) is violated: ${x.statement}`,
    model: v.model,
    variant: v.variant,
    property: x.property,
    kind: x.kind,
  };
  if (x.loop !== undefined) meta.loopAction = x.loopAction ?? 'stuttering';
  return { '#meta': meta, vars: [...names, ACTION_TAKEN], states, ...(x.loop !== undefined ? { loop: x.loop } : {}) };
}

/** A file name for one counterexample: `<variant>-<property><suffix>`, safe on every file system. */
export function counterexampleFileName(variant: string, property: string, suffix: string): string {
  return `${variant}-${property}`.replace(/[^A-Za-z0-9._-]+/g, '_') + suffix;
}
