// The explorer's watch expressions: a JavaScript expression over a state, evaluated at each
// state of the path shown (the TLA+ Toolbox's "expressions evaluated at every state"). It runs
// in the server's process, where the model's own code runs, behind the same guards as every API
// request (server.ts, foreign()): node:vm is no sandbox, and need not be, since only the page
// this server served can ask. It reads the state and never changes it: plain objects and
// arrays are seen through a proxy that refuses writes, a Map or a Set refuses its mutators, and
// the expression runs with a time limit, so a loop that never ends is an error, not a hung server.
import { Script, createContext } from 'node:vm';
import { stateToJson, type Json } from '../report/stateJson.ts';

/** An expression's value at one state: its JSON form, or why it has none. */
export type WatchValue = { readonly value: Json } | { readonly error: string };

/** How long an expression may run at one state. */
const LIMIT_MS = 1000;

export class WatchExpression {
  private readonly script: Script;

  /** Throws WatchSyntaxError when `source` is not an expression. */
  constructor(readonly source: string) {
    try {
      // Parenthesised: an object literal reads as one, and a statement list is refused.
      this.script = new Script(`(${source}\n)`, { filename: 'watch expression' });
    } catch (e) {
      throw new WatchSyntaxError(`the watch expression ${JSON.stringify(source)} cannot be read: ${messageOf(e)}`);
    }
  }

  /** The value at one state: `state` is the model's state, `view` what the page shows of it (its JSON). */
  at(state: unknown, view: Json): WatchValue {
    const context = createContext({ state: readOnly(state), view: readOnly(view) });
    try {
      return { value: toJson(this.script.runInContext(context, { timeout: LIMIT_MS })) };
    } catch (e) {
      return { error: messageOf(e) };
    }
  }
}

export class WatchSyntaxError extends Error {}

/**
 * An answer as JSON. Objects and arrays the expression built are of the vm context's realm, whose
 * Object.prototype is not this one's: read here by their shape; the state's own values as the
 * page reads any state (stateToJson).
 */
function toJson(v: unknown): Json {
  if (Array.isArray(v)) return v.map(toJson);
  if (v !== null && typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    const foreignPlain =
      proto !== null && proto !== Object.prototype && Object.getPrototypeOf(proto) === null && proto.constructor?.name === 'Object';
    if (foreignPlain) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x)]));
  }
  return v === undefined ? 'undefined' : stateToJson(v);
}

function messageOf(e: unknown): string {
  if (e !== null && typeof e === 'object' && 'code' in e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
    return `it ran for more than ${LIMIT_MS} ms`;
  }
  return e instanceof Error || (e !== null && typeof e === 'object' && 'message' in e) ? String((e as Error).message) : String(e);
}

const MUTATORS = new Set<PropertyKey>(['set', 'add', 'delete', 'clear']);
const proxies = new WeakMap<object, object>();

function refuse(): never {
  throw new TypeError('a watch expression reads the state and cannot change it');
}

/**
 * `v` as the expression sees it. A plain object's or an array's methods run on the proxy, so
 * that `push` meets the refusal; any other object's (immutable.js, a model's class, Map, Set)
 * run on the object itself, which their internal slots and private fields need, and what they
 * return is read-only in turn. A method of a plain object's that writes (`push`, `sort`) meets
 * the refusal of the proxy it runs on.
 */
function readOnly<T>(v: T): T {
  // (A function is not wrapped: Array's species and a class's static members need it as it is.)
  if (v === null || typeof v !== 'object') return v;
  const target = v as unknown as object;
  const known = proxies.get(target);
  if (known !== undefined) return known as T;
  const proto = Object.getPrototypeOf(target);
  const plain = Array.isArray(target) || proto === Object.prototype || proto === null;
  const collection = target instanceof Map || target instanceof Set || target instanceof WeakMap || target instanceof WeakSet;
  const proxy = new Proxy(target, {
    get(t, key) {
      const x = Reflect.get(t, key, plain ? proxy : t);
      if (typeof x !== 'function' || plain || key === 'constructor') return readOnly(x);
      if (collection && MUTATORS.has(key)) return refuse;
      return (...args: unknown[]) => readOnly(Reflect.apply(x, t, args));
    },
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
    setPrototypeOf: refuse,
    preventExtensions: refuse,
  });
  proxies.set(target, proxy);
  return proxy as T;
}
