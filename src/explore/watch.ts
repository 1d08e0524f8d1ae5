// The explorer's watch expressions: a JavaScript expression over a state, evaluated at each
// state of the path shown (the TLA+ Toolbox's "expressions evaluated at every state"). It runs
// in the server's process, where the model's own code runs, behind the same guards as every API
// request (server.ts, foreign()): node:vm is no sandbox, and need not be, since only the page
// this server served can ask. What it must not do is change the state (the walk keeps its
// initial states, and parts of states carry cached digests) or hold the server: it sees the
// state through proxies that refuse writes, its answer is read into JSON within its time limit
// (a getter that never returns is stopped too), promise jobs run within it, and an answer too
// large to send is refused.
//
// One limit is Node's, not ours: a promise job stopped by the time limit while async hooks are on
// in the process (AsyncLocalStorage, async_hooks.createHook) aborts the whole process (an
// assertion on the async id stack, nodejs/node#38503, open; seen on Node 20, later versions not
// checked). The explorer's own process turns no hooks on; a model that imports a library that does
// would make a watch such as `Promise.resolve().then(() => { for (;;) {} })` end the explorer
// rather than answer its error.
import { Script, createContext } from 'node:vm';
import { stateToJson, type Json } from '../report/stateJson.ts';

/** An expression's value at one state: its JSON form, or why it has none. */
export type WatchValue = { readonly value: Json } | { readonly error: string };

/** How long an expression may run at one state, its answer read into JSON included. */
const LIMIT_MS = 1000;
/** The longest answer at one state, as JSON text. */
export const MAX_ANSWER = 100_000;
/** How long the expressions of one path may run in all: the server answers nothing else meanwhile. */
const PATH_LIMIT_MS = 5000;

export class WatchExpression {
  private readonly script: Script;

  /** Throws WatchSyntaxError when `source` is not an expression. */
  constructor(readonly source: string) {
    try {
      // Parenthesised: an object literal reads as one, and a statement list is refused. The
      // answer is handed to the host while the time limit still runs.
      this.script = new Script(`__answer((${source}\n))`, { filename: 'watch expression' });
    } catch (e) {
      throw new WatchSyntaxError(`the watch expression ${JSON.stringify(source)} cannot be read: ${messageOf(e)}`);
    }
  }

  /** The value at one state: `state` is the model's state, `view` what the page shows of it (its JSON). */
  at(state: unknown, view: Json): WatchValue {
    let answer: WatchValue = { error: 'it gave no answer' };
    const hand = (v: unknown) => {
      const value = toJson(v);
      const length = JSON.stringify(value)?.length ?? 0;
      answer =
        length > MAX_ANSWER ? { error: `its answer is ${length} characters of JSON; a watch shows at most ${MAX_ANSWER}` } : { value };
    };
    // microtaskMode: promise jobs the expression queues run before runInContext returns, within its limit.
    const context = createContext({ state: readOnly(state), view: readOnly(view), __answer: hand }, { microtaskMode: 'afterEvaluate' });
    try {
      this.script.runInContext(context, { timeout: LIMIT_MS });
      return answer;
    } catch (e) {
      return { error: messageOf(e) };
    }
  }

  /** The values along a path, each state with its view; past `limitMs` in all, the rest are not evaluated. */
  along(points: readonly { readonly state: unknown; readonly view: Json }[], limitMs = PATH_LIMIT_MS): WatchValue[] {
    const deadline = performance.now() + limitMs;
    return points.map((p) =>
      performance.now() > deadline
        ? { error: `not evaluated: the expression ran for more than ${limitMs} ms over the states before this one` }
        : this.at(p.state, p.view),
    );
  }
}

export class WatchSyntaxError extends Error {}

class AnswerTooLarge extends Error {}

/**
 * An answer as JSON. Objects and arrays the expression built are of the vm context's realm, whose
 * Object.prototype is not this one's: read here by their shape; the state's own values as the
 * page reads any state (stateToJson).
 */
function toJson(v: unknown): Json {
  // (Every item takes a character of JSON at least: a longer list is refused before a builtin
  // walks its length, which the time limit cannot stop.)
  const tooLarge = (n: number) => new AnswerTooLarge(`its answer has ${n} items; a watch shows at most ${MAX_ANSWER} characters`);
  if (Array.isArray(v)) {
    if (v.length > MAX_ANSWER) throw tooLarge(v.length);
    const out: Json[] = [];
    for (let i = 0; i < v.length; i++) out.push(toJson(v[i]));
    return out;
  }
  if (v !== null && typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    const foreignPlain =
      proto !== null && proto !== Object.prototype && Object.getPrototypeOf(proto) === null && proto.constructor?.name === 'Object';
    if (foreignPlain) {
      const keys = Object.keys(v);
      if (keys.length > MAX_ANSWER) throw tooLarge(keys.length);
      return Object.fromEntries(keys.map((k) => [k, toJson((v as { [k: string]: unknown })[k])]));
    }
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
 * `v` as the expression sees it: a proxy whose every read gives a read-only value and every write
 * is refused. The proxy stands on a shadow (an empty object or array of the same prototype), not
 * on `v`, so that a frozen state's properties can be answered wrapped. A plain object's or an
 * array's methods run on the proxy, so that `push` or `sort` meets the refusal; any other object's
 * (immutable.js, a model's class, Map, Set) run on the object itself, which their internal slots
 * and private fields need, with the callbacks they are given seeing read-only values, and what
 * they return read-only in turn. (A function is not wrapped: Array's species and a class's static
 * members need it as it is.)
 */
function readOnly<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  const target = v as unknown as object;
  const known = proxies.get(target);
  if (known !== undefined) return known as T;
  const proto = Object.getPrototypeOf(target);
  const plain = Array.isArray(target) || proto === Object.prototype || proto === null;
  const collection = target instanceof Map || target instanceof Set || target instanceof WeakMap || target instanceof WeakSet;
  const shadow = Array.isArray(target) ? [] : Object.create(proto);
  const proxy: object = new Proxy(shadow, {
    get(_, key) {
      const x = Reflect.get(target, key, plain ? proxy : target);
      if (typeof x !== 'function' || plain || key === 'constructor') return readOnly(x);
      if (collection && MUTATORS.has(key)) return refuse;
      return (...args: unknown[]) => readOnly(Reflect.apply(x, target, args.map(readOnlyCallback)));
    },
    has: (_, key) => Reflect.has(target, key),
    ownKeys: () => Reflect.ownKeys(target),
    getOwnPropertyDescriptor(_, key) {
      const d = Reflect.getOwnPropertyDescriptor(target, key);
      if (d === undefined) return undefined;
      // Reported as the shadow has it where it has it (an array's length), else configurable.
      const own = Reflect.getOwnPropertyDescriptor(shadow, key);
      const wrapped = 'value' in d ? { ...d, value: readOnly(d.value) } : d;
      return {
        ...wrapped,
        configurable: own?.configurable ?? true,
        ...(own !== undefined && 'writable' in own ? { writable: own.writable } : {}),
      };
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

/** A callback handed to a method of the state's: it is called with read-only values. */
function readOnlyCallback(a: unknown): unknown {
  if (typeof a !== 'function') return a;
  return function (this: unknown, ...args: unknown[]) {
    return Reflect.apply(a, readOnly(this), args.map(readOnly));
  };
}
