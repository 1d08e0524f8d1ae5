// What flatList.test.ts and flatSet.test.ts share: running one random sequence of operations on
// immutable.js's collection and on the stand-in for it (FlatList, FlatSet), and comparing every
// answer: values, order, errors, the callback's calls, and the collection itself coming back
// exactly where immutable.js gives its own back.
import { expect } from 'vitest';
import fc from 'fast-check';
import { is, isCollection } from 'immutable';

/** An operation: what it gives, and the calls it saw its callback make (into `log`). */
export type Op<C> = { name: string; run: (c: C, log: unknown[]) => unknown };

type Iterable3 = { __iterate(f: (v: unknown, k: unknown, c: unknown) => unknown, reverse: boolean): number };

/** `__iterate` forward and back, its callback stopping it at some call: the calls made and what it returns. */
export function iterateOp<C>(maxStop: number): fc.Arbitrary<Op<C>> {
  return fc.tuple(fc.integer({ min: 0, max: maxStop }), fc.boolean()).map(([stopAt, reverse]) => ({
    name: `__iterate stopping at call ${stopAt}${reverse ? ', reversed' : ''}`,
    run: (c: C) => {
      const calls: unknown[] = [];
      const n = (c as unknown as Iterable3).__iterate((v, k, inside) => {
        calls.push([v, k, inside === c]);
        return calls.length - 1 !== stopAt;
      }, reverse);
      return [n, calls];
    },
  }));
}

/** Two answers compared: collections by value (`is` both ways, equals), kind, size, hash code and order; anything else by identity or deep equality. */
export function expectSame(fast: unknown, own: unknown, where: string): void {
  if (isCollection(own)) {
    expect(isCollection(fast), where).toBe(true);
    const [a, b] = [fast as unknown as Coll, own as unknown as Coll];
    // (A stand-in's prototype inherits its kind's.)
    expect(Object.getPrototypeOf(Object.getPrototypeOf(a)) === Object.getPrototypeOf(b) || a.constructor === b.constructor, where).toBe(
      true,
    );
    expect(is(a, b), where).toBe(true);
    expect(is(b, a), where).toBe(true);
    expect(a.equals(b) && b.equals(a), where).toBe(true);
    expect([a.size, a.hashCode()], where).toEqual([b.size, b.hashCode()]);
    expectSame(a.toArray(), b.toArray(), `${where} (its order)`);
    return;
  }
  if (Array.isArray(own)) {
    expect(Array.isArray(fast), where).toBe(true);
    expect((fast as unknown[]).length, where).toBe(own.length);
    for (let i = 0; i < own.length; i++) expectSame((fast as unknown[])[i], own[i], `${where} [${i}]`);
    return;
  }
  // (An element object is the same object; toJS copies it, each side its own copy.)
  if (typeof own === 'object' && own !== null) {
    if (fast !== own) expect(fast, where).toEqual(own);
    return;
  }
  // (-0 apart from 0: immutable.js keeps the one it was given.)
  expect(Object.is(fast, own), where).toBe(true);
}
type Coll = { size: number; equals(o: unknown): boolean; hashCode(): number; toArray(): unknown[]; constructor: unknown };

function outcome<C>(c: C, o: Op<C>, log: unknown[]): { value: unknown } | { error: string } {
  try {
    return { value: o.run(c, log) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/**
 * Runs `ops` on `fast` and `own` in turn, comparing each answer; where an operation gives a
 * collection of the kind (`isKind`), the next runs on that, and it must be the one it ran on
 * exactly where immutable.js's is.
 */
export function expectParity<C>(fast: C, own: C, ops: readonly Op<C>[], isKind: (v: unknown) => boolean): void {
  for (const o of ops) {
    const [fastCalls, ownCalls]: unknown[][] = [[], []];
    const a = outcome(fast, o, fastCalls);
    const b = outcome(own, o, ownCalls);
    expectSame(fastCalls, ownCalls, `${o.name}: the callback's calls`);
    expect('error' in a ? a.error : undefined, o.name).toBe('error' in b ? b.error : undefined);
    if (!('value' in a && 'value' in b)) continue;
    expectSame(a.value, b.value, o.name);
    if (isKind(b.value)) {
      expect(a.value === fast, `${o.name}: unchanged`).toBe(b.value === own);
      [fast, own] = [a.value as C, b.value as C];
    }
  }
}
