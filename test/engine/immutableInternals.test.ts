// mapEntries/setEntries (immutableInternals.ts) read immutable.js's internals for the encoder's small
// collections. They must give every entry, or decline (undefined) and leave the caller to
// forEach; and they must not decline the Maps the search meets most (built by set and delete
// while small), or the encoder silently loses their speed. And the digest of a collection must
// not depend on which path read it: a Map shrunk from a large one (its root a trie, read by
// forEach) digests as the same Map built small (read from its array).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Map, Set } from 'immutable';
import { Fingerprinter } from '../../src/engine/values/fingerprint.ts';
import { readFileSync } from 'node:fs';
import { IMMUTABLE_VERSION, immutableVersionProblem, mapEntries, setEntries } from '../../src/engine/values/immutableInternals.ts';

type Op = { set: true; key: number; value: number } | { set: false; key: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ set: fc.constant(true as const), key: fc.nat(24), value: fc.nat(3) }),
  fc.record({ set: fc.constant(false as const), key: fc.nat(24) }),
);

function build(ops: readonly Op[], drafts: boolean): Map<string, number> {
  const apply = (m: Map<string, number>) => {
    let x = m;
    for (const o of ops) x = o.set ? x.set(`k${o.key}`, o.value) : x.delete(`k${o.key}`);
    return x;
  };
  return drafts ? Map<string, number>().withMutations((m) => void apply(m)) : apply(Map<string, number>());
}

describe('mapEntries and setEntries', () => {
  it('give every entry of a Map or member of a Set, in forEach order, when they answer, whatever built it', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.boolean(), (ops, drafts) => {
        const m = build(ops, drafts);
        // Every entry, in forEach's order.
        const entries = mapEntries(m);
        if (entries !== undefined) expect(entries.map(([k, v]) => [k, v])).toEqual([...m.entries()]);
        const s = Set(m.keys());
        const members = setEntries(s);
        if (members !== undefined) expect(members.map(([k]) => k)).toEqual([...s]);
      }),
    );
  });

  it('answer for Maps and Sets of up to eight entries built by set and delete alone', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        // Keys from a pool of eight: never more than eight entries at once.
        const small = ops.map((o) => ({ ...o, key: o.key % 8 }));
        const m = build(small, false);
        expect(mapEntries(m)).toBeDefined();
        expect(setEntries(Set(m.keys()))).toBeDefined();
      }),
    );
    expect(mapEntries(Map())).toEqual([]);
    expect(mapEntries(Map({ a: 1 }).delete('a'))).toEqual([]);
  });

  it('decline a Map whose root is a trie (more than eight entries) rather than read part of it', () => {
    const big = Map(Array.from({ length: 20 }, (_, i) => [`k${i}`, i] as const));
    expect(mapEntries(big)).toBeUndefined();
  });

  it('leave the digest as it was: a Map shrunk from a large one digests as the one built small', () => {
    const f = new Fingerprinter();
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(30), { maxLength: 8 }), (keys) => {
        const small = Map(keys.map((k) => [`k${k}`, k] as const));
        let shrunk = Map(Array.from({ length: 40 }, (_, i) => [`x${i}`, -1] as const)).merge(small);
        for (let i = 0; i < 40; i++) shrunk = shrunk.delete(`x${i}`);
        expect(shrunk.equals(small)).toBe(true);
        expect(f.key(shrunk)).toBe(f.key(small));
        expect(f.key(Set(shrunk.keys()))).toBe(f.key(Set(small.keys())));
      }),
    );
  });
});

describe("immutable.js's version", () => {
  it('is the one whose internals are read, and another is refused with what to do', () => {
    expect(immutableVersionProblem(IMMUTABLE_VERSION, 'x')).toBeUndefined();
    // package.json pins it exactly, and the installed one is it (else this module would not load).
    const pinned = JSON.parse(readFileSync('package.json', 'utf8')).dependencies.immutable;
    expect(pinned).toBe(IMMUTABLE_VERSION);
    expect(immutableVersionProblem('5.3.0', '/p/node_modules/immutable/package.json')).toBe(
      "modelcheck needs immutable.js 5.2.0 exactly (it reads its Records', Maps' and Sets' internals), but version 5.3.0 is installed " +
        'at /p/node_modules/immutable/package.json. Install the supported one: npm install immutable@5.2.0',
    );
    expect(immutableVersionProblem(undefined, 'immutable')).toMatch(/but no version could be read at immutable\./);
  });
});
