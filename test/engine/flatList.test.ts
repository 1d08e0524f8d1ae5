// FlatList (src/engine/values/flatList.ts), the List a model gets for `List(array)` under the CLI,
// against immutable.js's List, operation by operation: fast-check runs the same sequence of
// operations on immutable.js's List of an array and on FlatList's, and after each compares what
// they give (values, errors, equality both ways, hash codes, iteration forward and back and its
// early stop, the List itself where immutable.js gives it back), over the
// methods a model calls on Lists: reads, writes inside and outside, pushes and pops, drafts,
// key paths, slices, sorts and the Collection methods made from iteration.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { is, List } from 'immutable';
import { FLAT_LIST_MAX, flatListOf, isFlatList } from '../../src/engine/values/flatList.ts';
import { expectParity, iterateOp, type Op as OpOn } from './collectionParity.ts';

type L = List<unknown>;
type Op = OpOn<L>;

const element = fc.oneof(
  fc.integer({ min: -2, max: 3 }),
  fc.constantFrom(undefined, Number.NaN, -0, 'a', 'b'),
  // Lists in Lists, for key paths (one object each, shared by both sides).
  fc.constantFrom<unknown>(flatListOf([1, flatListOf([2])]), List([3]), flatListOf([])),
);
const index = fc.oneof(fc.integer({ min: -36, max: 36 }), fc.constantFrom(1.5, -0.5, Number.NaN, '1', '03', 'x', -0));
const callback = fc.constantFrom<[string, (v: unknown, i: number) => unknown]>(
  ['same', (v) => v],
  ['plus one', (v) => (typeof v === 'number' ? v + 1 : 7)],
  ['undefined', () => undefined],
  ['odd places', (v, i) => (i % 2 === 0 ? v : 'odd')],
  ['truthy', (v) => v !== undefined && v !== 2],
  [
    'throws',
    () => {
      throw new Error('from the callback');
    },
  ],
);

const op: fc.Arbitrary<Op> = fc.oneof(
  index.map((i) => ({ name: `get(${String(i)})`, run: (l: L) => [l.get(i as number), l.get(i as number, 'unset'), l.has(i as number)] })),
  fc.tuple(index, element).map(([i, v]) => ({ name: `set(${String(i)}, ${String(v)})`, run: (l: L) => l.set(i as number, v) })),
  fc
    .tuple(fc.integer({ min: -4, max: 34 }), callback)
    .map(([i, [n, f]]) => ({ name: `update(${i}, ${n})`, run: (l: L) => l.update(i, f as never) })),
  fc.array(element, { maxLength: 3 }).map((vs) => ({ name: `push(${vs.length})`, run: (l: L) => l.push(...vs) })),
  fc.constantFrom<Op>(
    { name: 'pop', run: (l) => l.pop() },
    { name: 'shift', run: (l) => l.shift() },
    { name: 'clear', run: (l) => l.clear() },
    { name: 'first/last', run: (l) => [l.first(), l.last(), l.first('unset'), l.last('unset')] },
    { name: 'reverse', run: (l) => l.reverse() },
    { name: 'sort', run: (l) => l.sort() },
    { name: 'toArray/toJS/toString', run: (l) => [l.toArray(), l.toJS(), l.toString(), [...l], [...l.keys()], [...l.entries()]] },
    { name: 'hashCode/size/count', run: (l) => [l.hashCode(), l.size, l.count()] },
    { name: 'List(l) is l', run: (l) => List(l) === l },
    { name: 'withMutations, unchanged', run: (l) => l.withMutations(() => undefined) },
    { name: 'withMutations, set and push', run: (l) => l.withMutations((d) => d.set(0, 9).push(4)) },
    { name: 'asMutable then asImmutable', run: (l) => l.asMutable().push(1).asImmutable() },
    { name: 'asImmutable', run: (l) => l.asImmutable() },
    { name: 'wasAltered', run: (l) => l.wasAltered() },
    { name: 'includes/indexOf', run: (l) => [l.includes(1), l.indexOf(1), l.lastIndexOf(undefined), l.includes(Number.NaN)] },
    {
      name: 'reverse iteration',
      run: (l) => [l.findLast(() => true), l.findLastIndex((v) => typeof v === 'number'), l.reverse().toArray()],
    },
  ),
  fc.tuple(callback, fc.constantFrom(undefined, { the: 'context' })).map(([[n, f], ctx]) => ({
    name: `map(${n})`,
    run: (l: L, log: unknown[]) =>
      l.map(function (this: unknown, v, i, all) {
        log.push([v, i, all === l, this]);
        return f(v, i);
      }, ctx),
  })),
  fc.tuple(callback, fc.constantFrom(undefined, { the: 'context' })).map(([[n, f], ctx]) => ({
    name: `every(${n})`,
    run: (l: L, log: unknown[]) =>
      l.every(function (this: unknown, v, i, all) {
        log.push([v, i, all === l, this]);
        return Boolean(f(v, i));
      }, ctx),
  })),
  iterateOp<L>(6),
  fc.tuple(callback).map(([[n, f]]) => ({ name: `filter(${n})`, run: (l: L) => l.filter((v, i) => f(v, i)) })),
  fc.tuple(index, element).map(([i, v]) => ({ name: `insert(${String(i)})`, run: (l: L) => l.insert(i as number, v) })),
  fc.tuple(index).map(([i]) => ({ name: `remove(${String(i)})`, run: (l: L) => [l.remove(i as number), l.delete(i as number)] })),
  fc.tuple(element).map(([v]) => ({ name: 'unshift', run: (l: L) => l.unshift(v) })),
  fc.array(element, { maxLength: 3 }).map((vs) => ({ name: `concat(${vs.length})`, run: (l: L) => [l.concat(vs), l.merge(vs)] })),
  fc.tuple(fc.integer({ min: -4, max: 34 }), fc.option(fc.integer({ min: -4, max: 34 }))).map(([a, b]) => ({
    name: `slice(${a}, ${b})`,
    run: (l: L) => l.slice(a, b ?? undefined),
  })),
  fc.integer({ min: 0, max: 40 }).map((n) => ({ name: `setSize(${n})`, run: (l: L) => l.setSize(n) })),
  fc.tuple(fc.integer({ min: -3, max: 34 }), element).map(([i, v]) => ({
    name: `setIn/updateIn/removeIn(${i})`,
    run: (l: L) => [l.setIn([i], v), l.updateIn([i], () => v), l.removeIn([i])],
  })),
  // (Indexes mostly inside, so that paths reach down Lists in Lists; the rest as `index` draws them.)
  fc.tuple(fc.array(fc.oneof(fc.integer({ min: 0, max: 3 }), index), { minLength: 2, maxLength: 3 }), element).map(([path, v]) => ({
    name: `setIn([${path.map(String)}], ${String(v)})`,
    run: (l: L) => l.setIn(path, v),
  })),
  fc.tuple(fc.integer({ min: 0, max: 3 })).map(([i]) => ({
    name: `setIn([${i}, 0]) of what is there`,
    run: (l: L) => l.setIn([i, 0], (l.get(i) as L | undefined)?.get?.(0)),
  })),
);

describe('FlatList', () => {
  it('is made for no value or an array of up to 32 elements, and is an immutable.js List to every reader', () => {
    const l = flatListOf([1, 2, 3]);
    expect(isFlatList(l)).toBe(true);
    expect(List.isList(l) && l instanceof List && is(l, List([1, 2, 3]))).toBe(true);
    expect(String(l)).toBe('List [ 1, 2, 3 ]');
    // Empty, as immutable.js's empty Lists, a new one each time.
    const empties = [flatListOf([]), flatListOf(undefined), flatListOf([1]).pop(), flatListOf([1, 2]).clear()];
    for (const empty of empties) expect(isFlatList(empty) && empty.size === 0 && is(empty, List())).toBe(true);
    expect(new globalThis.Set(empties).size).toBe(empties.length);
    // Longer, or not an array: immutable.js's own List.
    expect(isFlatList(flatListOf(Array.from({ length: FLAT_LIST_MAX + 1 }, (_v, i) => i)))).toBe(false);
    expect(isFlatList(flatListOf(new Set([1])))).toBe(false);
    expect(flatListOf(l)).toBe(l);
  });

  it('sets down Lists in Lists by indexes: each List on the path copied, every other List the same object', () => {
    const leaf = flatListOf([1, 2]);
    const beside = flatListOf([9]);
    const l = flatListOf([0, flatListOf([beside, leaf]), beside]);
    const own = List([0, List([beside, leaf]), beside]);
    const set = l.setIn([1, 1, 0], 7);
    expect(is(set, own.setIn([1, 1, 0], 7))).toBe(true);
    expect([isFlatList(set), isFlatList(set.get(1)), isFlatList((set.get(1) as L).get(1))]).toEqual([true, true, true]);
    expect([set.get(2), (set.get(1) as L).get(0)]).toEqual([beside, beside]);
    expect([set.get(2) === beside, (set.get(1) as L).get(0) === beside, l.get(1) !== set.get(1)]).toEqual([true, true, true]);
    // The value already there: the List itself, as immutable.js gives its own.
    expect(l.setIn([1, 1, 0], 1)).toBe(l);
    expect(own.setIn([1, 1, 0], 1)).toBe(own);
  });

  it('gives what immutable.js gives, operation by operation: values, errors, the List itself where immutable.js keeps it', () => {
    fc.assert(
      fc.property(
        fc.array(element, { minLength: 0, maxLength: FLAT_LIST_MAX + 2 }),
        fc.array(op, { minLength: 1, maxLength: 8 }),
        (values, ops) => expectParity(flatListOf(values), List(values), ops, List.isList),
      ),
      { numRuns: 3000 },
    );
  });
});
