// immutable.js's `List.update(index, updater)` without its generic path. immutable.js 5.2 runs
// every `update` of one key through `updateIn(this, [index], ...)`: a key path array, a walk that
// asks at each level whether the value is immutable and a data structure, then `get` and `set`.
// For an index inside the List that walk ends where this does: the updater called with the
// value there, the List itself if the updater gave that value back, else `set(index, value)`.
// Installed on immutable.js's List prototype by immutableForModels.ts, that is only in a process
// where the CLI loaded a model; LamportMutex, whose steps update Lists of Lists, searches about a
// tenth faster for it (bench/README.md, thirtieth run). Any other call (a negative, fractional,
// string or out-of-range index, no updater, the one-argument form) is immutable.js's own.
import { List } from 'immutable';

type Update = (this: List<unknown>, ...args: unknown[]) => unknown;

/** immutable.js's own `List.prototype.update`, as it was before install(). */
export const immutableListUpdate = List.prototype.update as unknown as Update;

/** `list.update(index, updater)` or `list.update(index, notSetValue, updater)`, as immutable.js gives it. */
function update(this: List<unknown>, index: unknown, notSetValue?: unknown, updater?: unknown): unknown {
  // (As immutable.js's updateIn: a missing or falsy updater means the second argument is it.)
  const fn = arguments.length === 2 || !updater ? notSetValue : updater;
  // (Called with one argument, `fn` is undefined: immutable.js's own then calls it with the List.)
  if (typeof index === 'number' && typeof fn === 'function' && Number.isInteger(index) && index >= 0 && index < this.size) {
    const old = this.get(index);
    const next = (fn as (v: unknown) => unknown)(old);
    return next === old ? this : this.set(index, next);
  }
  return immutableListUpdate.apply(this, arguments as unknown as unknown[]);
}

/** Puts the fast path on immutable.js's List prototype (once; for every List of the process). */
export function installListUpdate(): void {
  (List.prototype as unknown as { update: Update }).update = update as Update;
}
