// Plain JavaScript values as state values: arrays (sequences, like a List) and plain objects
// (made by a literal or a spread, like a Record whose fields are its own keys). A model written
// with them builds each successor by copying a few small arrays and objects, which V8 does far
// faster than immutable.js's persistent structures (LamportMutex: bench/README.md, ninth run);
// immutable.js stays the better choice for large states whose steps change a little of them.

/** Whether `v` is a plain object: made by a literal, a spread or Object.create(null), not an instance of a class. */
export function isPlainObject(v: unknown): v is { readonly [key: string]: unknown } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** The canonical order of a plain object's keys: by their UTF-16 code units. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A plain object's own keys in the canonical order: `{ a, b }` and `{ b, a }` are one value, and the reports print them as one. */
export function plainKeys(v: object): string[] {
  return Object.keys(v).sort(compareKeys);
}
