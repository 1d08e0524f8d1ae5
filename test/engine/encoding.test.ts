// The canonical encoding: equal values give equal bytes whatever order their unordered parts
// were built in; order-carrying collections keep their order; anything that is not an immutable
// value, a plain array or object or a primitive is refused with the path to it.
import { describe, expect, it } from 'vitest';
import { List, Map, OrderedMap, OrderedSet, Record, Set } from 'immutable';
import { CanonicalEncoder, NotAStateValue, UnnamedRecord } from '../../src/engine/values/encoding.ts';

const encoder = new CanonicalEncoder();

/** The encoding of `v`, copied out of the encoder's reused buffer. */
function bytesOf(v: unknown): number[] {
  const n = encoder.encode(v);
  return Array.from(encoder.bytes.subarray(0, n));
}

/** The NotAStateValue that encoding `v` throws. */
function refusal(v: unknown): NotAStateValue {
  try {
    encoder.encode(v);
  } catch (e) {
    if (e instanceof NotAStateValue) return e;
    throw e;
  }
  throw new Error('encoded without complaint');
}

const Point = Record({ x: 0, y: 0 }, 'Point');
const Holder = Record({ a: List<unknown>(), s: Set<unknown>(), m: Map<unknown, unknown>() }, 'Holder');

describe('unordered collections encode the same whatever their insertion order', () => {
  it('encodes a Set built in three orders to the same bytes', () => {
    const a = Set([1, 2, 3]);
    const b = Set([3, 1, 2]);
    const c = Set<number>().add(2).add(3).add(1);
    // Small immutable Sets iterate in insertion order, so the encoder really had to sort.
    expect(a.toArray()).not.toEqual(b.toArray());
    expect(bytesOf(b)).toEqual(bytesOf(a));
    expect(bytesOf(c)).toEqual(bytesOf(a));
  });

  it('encodes a Map built in two orders to the same bytes', () => {
    const a = Map([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    const b = Map([
      ['c', 3],
      ['a', 1],
      ['b', 2],
    ]);
    expect(a.keySeq().toArray()).not.toEqual(b.keySeq().toArray());
    expect(bytesOf(b)).toEqual(bytesOf(a));
  });

  it('encodes a Set that lost and regained a member like one that never changed', () => {
    const a = Set([1, 2, 3, 4, 5]);
    const b = a.remove(1).add(1); // iterates 2, 3, 4, 5, 1
    expect(bytesOf(b)).toEqual(bytesOf(a));
  });

  it('sorts Sets and Maps nested inside Records, Lists and each other', () => {
    const a = Holder({
      a: List([
        Set(['x', 'y']),
        Map([
          [Point({ x: 1 }), Set([1, 2])],
          [Point({ y: 1 }), Set<number>()],
        ]),
      ]),
      s: Set([Map({ k: 1, j: 2 }), Set([List([1]), List([2])])]),
      m: Map([
        [Set([1, 2]), 'one-two'],
        [Set([3]), 'three'],
      ]),
    });
    const b = Holder({
      a: List([
        Set(['y', 'x']),
        Map([
          [Point({ y: 1 }), Set<number>()],
          [Point({ x: 1 }), Set([2, 1])],
        ]),
      ]),
      s: Set([Set([List([2]), List([1])]), Map({ j: 2, k: 1 })]),
      m: Map([
        [Set([3]), 'three'],
        [Set([2, 1]), 'one-two'],
      ]),
    });
    expect(bytesOf(b)).toEqual(bytesOf(a));
  });

  it('encodes a Record the same whichever field was set first', () => {
    expect(bytesOf(Point().set('y', 2).set('x', 1))).toEqual(bytesOf(Point().set('x', 1).set('y', 2)));
  });

  it('encodes -0 and 0 the same, alone and inside collections', () => {
    expect(bytesOf(-0)).toEqual(bytesOf(0));
    expect(bytesOf(List([-0]))).toEqual(bytesOf(List([0])));
    expect(bytesOf(Point({ x: -0 }))).toEqual(bytesOf(Point({ x: 0 })));
  });
});

describe('small collections keyed by strings (written sorted by key in digest mode)', () => {
  const letters = ['h', 'b', 'g', 'a', 'f', 'c', 'e', 'd', 'i'];
  const mapOf = (keys: string[]) =>
    keys.reduce((m, k) => m.set(k, Map([[k, letters.indexOf(k) % 2 === 0 ? k : List([k])]])), Map<string, unknown>());
  const setOf = (keys: string[]) => keys.reduce((s, k) => s.add(k), Set<string>());

  it('encodes Maps and Sets of up to 8 strings, and of 9, the same in any insertion order', () => {
    for (const n of [0, 1, 2, 8, 9]) {
      const keys = letters.slice(0, n);
      const reversed = [...keys].reverse();
      // Built from different orders, with a nested small map per entry (the sort's stack).
      const value = (ks: string[]) =>
        Map<string, unknown>([
          [`m${n}`, mapOf(ks)],
          [`s${n}`, setOf(ks)],
        ]);
      expect(bytesOf(value(reversed)), `${n} entries`).toEqual(bytesOf(value(keys)));
      expect(bytesOf(setOf(reversed))).toEqual(bytesOf(setOf(keys)));
    }
  });

  it('falls back to the sum, in any order, where a key is not a string', () => {
    const a = Map<unknown, number>([
      ['a', 1],
      [2, 2],
      ['c', 3],
    ]);
    const b = Map<unknown, number>([
      ['c', 3],
      ['a', 1],
      [2, 2],
    ]);
    expect(bytesOf(b)).toEqual(bytesOf(a));
    expect(bytesOf(Set<unknown>(['x', 1, 'y']))).toEqual(bytesOf(Set<unknown>(['y', 'x', 1])));
  });

  it('tells apart small Maps and Sets that differ in a key, a value, a boundary or their kind', () => {
    const distinct = [
      Map({ a: 1, b: 2 }),
      Map({ a: 1, b: 3 }),
      Map({ a: 1, c: 2 }),
      Map({ ab: 'c' }),
      Map({ a: 'bc' }),
      Map({ a: 1 }),
      Map(),
      Set(['a', 'b']),
      Set(['ab']),
      Set(['a', 'bc']),
      Set(['ab', 'c']),
      Set(),
      OrderedMap({ a: 1, b: 2 }),
      OrderedSet(['a', 'b']),
      List(['a', 'b']),
    ];
    const seen = new globalThis.Map<string, number>();
    distinct.forEach((v, i) => {
      const key = bytesOf(v).join(',');
      expect(seen.get(key), `${String(v)} encodes like value ${seen.get(key)}`).toBeUndefined();
      seen.set(key, i);
    });
  });
});

describe('order-carrying and kind-carrying collections', () => {
  it('keeps the order of a List', () => {
    expect(bytesOf(List([1, 2]))).not.toEqual(bytesOf(List([2, 1])));
  });

  it('keeps the order of an OrderedSet', () => {
    expect(bytesOf(OrderedSet([1, 2]))).not.toEqual(bytesOf(OrderedSet([2, 1])));
  });

  it('keeps the order of an OrderedMap', () => {
    expect(
      bytesOf(
        OrderedMap([
          ['a', 1],
          ['b', 2],
        ]),
      ),
    ).not.toEqual(
      bytesOf(
        OrderedMap([
          ['b', 2],
          ['a', 1],
        ]),
      ),
    );
  });

  it('tells a Map from an OrderedMap with the same entries, as immutable.is does', () => {
    expect(bytesOf(Map([['a', 1]]))).not.toEqual(bytesOf(OrderedMap([['a', 1]])));
  });

  it('tells a Set from an OrderedSet and from a List with the same members', () => {
    expect(bytesOf(Set([1]))).not.toEqual(bytesOf(OrderedSet([1])));
    expect(bytesOf(Set([1]))).not.toEqual(bytesOf(List([1])));
  });

  it('tells kinds apart where one follows another in a value, in both modes (kinds are kept by prototype)', () => {
    // The encoder knows a part's kind by its prototype and keeps the last one it met: a kind
    // must not carry over to the next part. Each pair differs in one part's kind only.
    const pairs: [unknown, unknown][] = [
      [List([Set([1]), OrderedSet([1])]), List([Set([1]), Set([1])])],
      [List([OrderedSet([1]), Set([1])]), List([OrderedSet([1]), OrderedSet([1])])],
      [List([Map({ a: 1 }), OrderedMap({ a: 1 })]), List([Map({ a: 1 }), Map({ a: 1 })])],
      [List([List([1]), Set([1])]), List([List([1]), List([1])])],
      [List([Point(), Map({ x: 0, y: 0 })]), List([Point(), Point()])],
    ];
    for (const mode of ['digest', 'full'] as const) {
      const enc = new CanonicalEncoder(mode);
      const of = (v: unknown) => Array.from(enc.bytes.subarray(0, enc.encode(v))).join(',');
      for (const [a, b] of pairs) expect(of(a)).not.toBe(of(b));
    }
  });

  it('tells apart values that differ only in nesting or in string boundaries', () => {
    const values = [
      List(['ab']),
      List(['a', 'b']),
      List([List(['a']), 'b']),
      List(['a', List(['b'])]),
      Set(['ab']),
      Set(['a', 'b']),
      Map({ a: 'b' }),
      Map({ ab: '' }),
    ];
    const encodings = new globalThis.Set(values.map((v) => bytesOf(v).join(',')));
    // Eight values, pairwise unequal by immutable.is; hand-checked.
    expect(encodings.size).toBe(8);
  });

  it('tells apart Records of different shapes that carry the same values', () => {
    // Unequal by immutable.is (different names and keys, and a different number of fields), so
    // they must not share an encoding: two states with one encoding share a fingerprint, and
    // the search would silently drop one of them.
    const From = Record({ from: 0 }, 'From');
    const To = Record({ to: 0 }, 'To');
    expect(bytesOf(From())).not.toEqual(bytesOf(To()));

    const Pair = Record({ first: From(), second: 0 }, 'Pair');
    const Wide = Record({ only: Record({ a: 0, b: 0 }, 'AB')() }, 'Wide');
    // Pair{first: From{from: 0}, second: 0} and Wide{only: {a: 0, b: 0}} hold the same numbers
    // in the same order.
    expect(bytesOf(Pair())).not.toEqual(bytesOf(Wide()));
  });

  it('refuses a Record type made without a name, and a second type with a name already taken (MC112)', () => {
    // The frontier may keep states as bytes and rebuild Records by their type's name.
    expect(() => bytesOf(Record({ from: 0 })())).toThrow(new UnnamedRecord('a Record type with no name (fields from)'));
    const enc = new CanonicalEncoder();
    enc.encode(Record({ from: 0 }, 'Same')());
    expect(() => enc.encode(Record({ to: 0 }, 'Same')())).toThrow(new UnnamedRecord('two different Record types named Same'));
  });
});

describe('values that are not immutable values are refused with their path', () => {
  it('refuses NaN at the top level', () => {
    const e = refusal(NaN);
    expect(e.path).toBe('');
    expect(e.what).toBe('NaN');
  });

  it('refuses NaN inside a List inside a Record field, at .a[1]', () => {
    expect(refusal(Holder({ a: List([1, NaN]) })).path).toBe('.a[1]');
  });

  it('refuses undefined as a Map value, at [k]', () => {
    expect(refusal(Map({ k: undefined })).path).toBe('[k]');
  });

  it('refuses a function inside a Set, at .s{member}', () => {
    const e = refusal(Holder({ s: Set([() => 1]) }));
    expect(e.path).toBe('.s{member}');
    expect(e.what).toBe('a function');
  });

  it('refuses a Date in a Record field, at .x', () => {
    const e = refusal(Point({ x: new Date(0) as unknown as number }));
    expect(e.path).toBe('.x');
    expect(e.what).toMatch(/Date/);
  });

  it('refuses undefined in a plain object inside a List in a Record field, at .a[1].b', () => {
    const e = refusal(Holder({ a: List([1, { b: undefined }]) }));
    expect(e.path).toBe('.a[1].b');
    expect(e.what).toBe('undefined');
  });

  it('refuses a hole in a plain array, at [1]', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    expect(refusal([1, , 3]).path).toBe('[1]');
  });

  it('refuses a cycle through immutable collections with its path, in both modes, not with a stack overflow', () => {
    const a: unknown[] = [];
    a.push(List([a]));
    expect(refusal({ a })).toMatchObject({ path: '.a[0][0]', what: 'a value that holds itself (a cycle)' });
    const o: { m?: unknown } = {};
    o.m = Map({ k: o });
    const full = new CanonicalEncoder('full');
    expect(() => full.encode(o)).toThrow(/holds itself/);
  });

  it('refuses a JavaScript Map and Set, naming what to use instead', () => {
    expect(refusal({ m: new globalThis.Map() }).what).toMatch(/JavaScript Map \(use an immutable Map, or a plain object\)/);
    expect(refusal([new globalThis.Set()]).what).toMatch(/JavaScript Set/);
  });

  it('refuses a class instance and names its class', () => {
    class Jug {
      readonly gallons = 3;
    }
    const e = refusal(List([new Jug()]));
    expect(e.path).toBe('[0]');
    expect(e.what).toMatch(/Jug/);
  });

  it('refuses a value nested in a Record inside a Map, at [k].y', () => {
    expect(refusal(Map({ k: Point({ y: NaN }) })).path).toBe('[k].y');
  });
});
