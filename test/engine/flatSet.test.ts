// FlatSet (src/engine/values/flatSet.ts), the Set a model gets for `Set(array)` under
// the CLI, against immutable.js's Set, operation by operation: fast-check runs the same sequence
// of operations on immutable.js's Set of an array and on FlatSet's, and after each compares what
// they give (values, iteration order, errors, equality both ways, hash codes, iteration forward
// and back and its early stop, the Set itself where immutable.js gives it back), over the methods
// a model calls on Sets: membership, adds and removes past immutable.js's 8 (where its order
// becomes a trie's), members that are not FlatSet's (objects whose valueOf equals a member, NaN,
// -0, null, value objects), set algebra, drafts and the Collection methods made from iteration.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { is, List, Map, Set } from 'immutable';
import { Fingerprinter } from 'modelcheck';
import { CanonicalEncoder } from '../../src/engine/values/encoding.ts';
import { FLAT_SET_MAX, flatSetOf, isFlatSet } from '../../src/engine/values/flatSet.ts';
import { flatListOf } from '../../src/engine/values/flatList.ts';
import { expectParity, iterateOp, type Op as OpOn } from './collectionParity.ts';
import { StateCodec } from '../../src/engine/values/stateCodec.ts';
import { formatValue } from '../../src/report/diff.ts';
import { stateToJson } from '../../src/report/stateJson.ts';

type S = Set<unknown>;
type Op = OpOn<S>;

/** Members: mostly FlatSet's kinds (numbers up to 11, so past 8 members), and some it leaves to immutable.js. */
const member = fc.oneof(
  { weight: 8, arbitrary: fc.oneof(fc.integer({ min: 0, max: 11 }), fc.constantFrom('a', 'b', '1', true, false)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(Number.NaN, -0, null, undefined, { valueOf: () => 1 }, List([1]), Object('a')),
  },
);
const callback = fc.constantFrom<[string, (v: unknown) => unknown]>(
  ['same', (v) => v],
  ['plus one', (v) => (typeof v === 'number' ? v + 1 : 7)],
  ['to one', () => 1],
  ['truthy', (v) => v !== 2 && v !== 'a'],
  [
    'throws',
    () => {
      throw new Error('from the callback');
    },
  ],
);

const op: fc.Arbitrary<Op> = fc.oneof(
  member.map((v) => ({ name: `has(${String(v)})`, run: (s: S) => [s.has(v), s.includes(v), s.contains(v)] })),
  fc.array(member, { minLength: 1, maxLength: 4 }).map((vs) => ({
    name: `add(${vs.map(String)})`,
    run: (s: S) => vs.reduce((t: S, v) => t.add(v), s),
  })),
  member.map((v) => ({ name: `add(${String(v)})`, run: (s: S) => s.add(v) })),
  member.map((v) => ({ name: `remove(${String(v)})`, run: (s: S) => [s.remove(v), s.delete(v)] })),
  member.map((v) => ({ name: `remove(${String(v)}), kept`, run: (s: S) => s.remove(v) })),
  fc.array(member, { maxLength: 3 }).map((vs) => ({
    name: `union/intersect/subtract(${vs.map(String)})`,
    run: (s: S) => [s.union(vs), s.merge(vs), s.concat(vs), s.intersect(vs), s.subtract(vs), s.isSubset(vs), s.isSuperset(vs)],
  })),
  // Each alone as well, so that whether the Set itself comes back is compared.
  fc.array(member, { maxLength: 3 }).map((vs) => ({ name: `union(${vs.map(String)}), kept`, run: (s: S) => s.union(vs) })),
  fc.array(member, { maxLength: 3 }).map((vs) => ({ name: `intersect(${vs.map(String)}), kept`, run: (s: S) => s.intersect(vs) })),
  fc.array(member, { maxLength: 3 }).map((vs) => ({ name: `subtract(${vs.map(String)}), kept`, run: (s: S) => s.subtract(vs) })),
  member.map((v) => ({ name: `delete(${String(v)}), kept`, run: (s: S) => s.delete(v) })),
  fc.constantFrom<Op>(
    { name: 'union of itself, kept', run: (s) => s.union(s) },
    { name: 'merge of the empty Set, kept', run: (s) => s.merge(Set()) },
    { name: 'toSet, kept', run: (s) => s.toSet() },
  ),
  fc.constantFrom<Op>(
    { name: 'clear', run: (s) => s.clear() },
    { name: 'first/last', run: (s) => [s.first(), s.last(), s.first('unset'), s.last('unset')] },
    { name: 'sort', run: (s) => s.sort() },
    {
      name: 'toArray/toJS/toString',
      run: (s) => [s.toArray(), s.toJS(), s.toString(), [...s], [...s.keys()], [...s.values()], [...s.entries()]],
    },
    { name: 'toList/toOrderedSet/toSeq', run: (s) => [s.toList(), s.toOrderedSet(), s.toSeq().toArray()] },
    { name: 'hashCode/size/count/isEmpty', run: (s) => [s.hashCode(), s.size, s.count(), s.isEmpty()] },
    { name: 'Set(s) is s', run: (s) => Set(s) === s },
    { name: 'withMutations, unchanged', run: (s) => s.withMutations(() => undefined) },
    { name: 'withMutations, add and remove', run: (s) => s.withMutations((d) => d.add(9).remove(1)) },
    { name: 'asMutable then asImmutable', run: (s) => s.asMutable().add('z').asImmutable() },
    { name: 'asImmutable', run: (s) => s.asImmutable() },
    { name: 'wasAltered', run: (s) => s.wasAltered() },
    { name: 'reverse iteration', run: (s) => [s.findLast(() => true), s.reverse().toArray()] },
    { name: 'equals a Set of the same members', run: (s) => [s.equals(Set(s.toArray())), is(s, Set(s.toArray().reverse()))] },
  ),
  fc.tuple(callback, fc.constantFrom(undefined, { the: 'context' })).map(([[n, f], ctx]) => ({
    name: `map(${n})`,
    run: (s: S, log: unknown[]) =>
      s.map(function (this: unknown, v, k, all) {
        log.push([v, k, all === s, this]);
        return f(v);
      }, ctx),
  })),
  fc.tuple(callback, fc.constantFrom(undefined, { the: 'context' })).map(([[n, f], ctx]) => ({
    name: `every/some/forEach(${n})`,
    run: (s: S, log: unknown[]) => [
      s.every(function (this: unknown, v, k, all) {
        log.push([v, k, all === s, this]);
        return Boolean(f(v));
      }, ctx),
      s.some((v) => Boolean(f(v))),
      // biome-ignore lint/suspicious/useIterableCallbackReturn: immutable.js's forEach stops where its callback gives false
      s.forEach((v) => f(v) !== 1),
    ],
  })),
  fc.tuple(callback).map(([[n, f]]) => ({ name: `filter(${n})`, run: (s: S) => s.filter((v) => f(v)) })),
  iterateOp<S>(9),
);

describe('FlatSet', () => {
  it('is made for an array of 1 to 8 strings, numbers or booleans, and is an immutable.js Set to every reader', () => {
    const s = flatSetOf([3, 'a', true, 3]);
    expect(isFlatSet(s)).toBe(true);
    expect(Set.isSet(s) && s instanceof Set && is(s, Set([true, 'a', 3]))).toBe(true);
    expect(String(s)).toBe('Set { 3, "a", true }');
    // Empty, immutable.js's one empty Set.
    for (const empty of [flatSetOf(), flatSetOf([]), flatSetOf([1]).remove(1), s.clear()]) expect(empty).toBe(Set());
    // Larger, or with other members, or not an array: immutable.js's own Set.
    for (const other of [flatSetOf(Array.from({ length: FLAT_SET_MAX + 1 }, (_v, i) => i)), flatSetOf([1, {}]), flatSetOf([Number.NaN])]) {
      expect(isFlatSet(other)).toBe(false);
      expect(Set.isSet(other)).toBe(true);
    }
    expect(isFlatSet(flatSetOf(new globalThis.Set([1])))).toBe(false);
    expect(flatSetOf(s)).toBe(s);
    // The ninth member: immutable.js's Set, in its order.
    const eight = Array.from({ length: FLAT_SET_MAX }, (_v, i) => `m${i}`);
    expect(flatSetOf(eight).add('m8').toArray()).toEqual(Set(eight).add('m8').toArray());
    // A removal moves the last member into the hole, as immutable.js's node does.
    expect(flatSetOf([1, 2, 3, 4]).remove(2).toArray()).toEqual([1, 4, 3]);
  });

  it('gives what immutable.js gives, operation by operation: values, order, errors, the Set itself where immutable.js keeps it', () => {
    fc.assert(
      fc.property(fc.array(member, { maxLength: FLAT_SET_MAX + 2 }), fc.array(op, { minLength: 1, maxLength: 8 }), (values, ops) =>
        expectParity(flatSetOf(values), Set(values), ops, Set.isSet),
      ),
      { numRuns: 3000 },
    );
  });
});

/** The canonical bytes of a value, in full (no digests). */
function bytes(v: unknown): string {
  const full = new CanonicalEncoder('full');
  return Buffer.from(full.bytes.subarray(0, full.encode(v))).toString('hex');
}

describe('the checker reads a FlatSet (and a FlatList, empty ones too) as the immutable.js collection of the same members', () => {
  // Strings (the encoder's sorted small form, read from FlatSet's array), numbers and mixed (the
  // sum of members' digests), in orders immutable.js would not keep, alone and inside collections.
  const members = [['b', 'a', 'c'], [3, 1, 2], ['a', 2, true], ['x'], Array.from({ length: FLAT_SET_MAX }, (_v, i) => `m${7 - i}`)];

  it('same canonical bytes and fingerprint as immutable.js, whatever the order the members came in', () => {
    for (const m of members) {
      const [fast, own, reversed] = [flatSetOf(m), Set(m), flatSetOf([...m].reverse())];
      expect(isFlatSet(fast)).toBe(true);
      expect(bytes(fast)).toBe(bytes(own));
      for (const wrap of [(x: unknown) => x, (x: unknown) => List([x, x]), (x: unknown) => Map({ k: x })]) {
        expect(new Fingerprinter().hex(wrap(fast))).toBe(new Fingerprinter().hex(wrap(own)));
        expect(new Fingerprinter().hex(wrap(reversed))).toBe(new Fingerprinter().hex(wrap(own)));
      }
    }
    expect(new Fingerprinter().hex(flatSetOf(['a']))).not.toBe(new Fingerprinter().hex(flatSetOf(['b'])));
    for (const l of [flatListOf([]), flatListOf(undefined), flatListOf([1]).pop()]) {
      expect(new Fingerprinter().hex(List([l]))).toBe(new Fingerprinter().hex(List([List()])));
      expect(bytes(l)).toBe(bytes(List()));
    }
    const elements = [1, 'a', -0, 300, 1.5, flatSetOf(['b']), List([2]), flatListOf([flatListOf([3])])];
    for (let n = 1; n <= elements.length; n++) {
      const [fast, own] = [flatListOf(elements.slice(0, n)), List(elements.slice(0, n))];
      expect(bytes(fast)).toBe(bytes(own));
      expect(new Fingerprinter().hex(Map({ k: fast }))).toBe(new Fingerprinter().hex(Map({ k: own })));
    }
  });

  it("the state codec rebuilds it, and the reports print it as immutable.js's", () => {
    const codec = new StateCodec();
    for (const m of members) {
      const [fast, own] = [flatSetOf(m), Set(m)];
      const n = codec.encode(fast, undefined);
      const back = codec.decode(codec.bytes.slice(0, n), 0, n, undefined) as S;
      expect(is(back, own)).toBe(true);
      expect(back.toArray()).toEqual(fast.toArray());
      expect(formatValue(fast)).toBe(formatValue(own));
      expect(stateToJson(fast)).toEqual(stateToJson(own));
    }
  });
});
