// The encoder's field memo (encoding.ts, FieldMemo): a FlatRecord field whose value is the one
// written last time for that type is copied, not written again. Whatever was written before,
// a fingerprint must be the one a fresh encoder gives: checked here over random sequences of
// records that share parts, nest records of their own type, hold plain values and change.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { List, Map } from 'immutable';
import { Fingerprinter, FlatRecord } from 'modelcheck';

interface LeafProps {
  a: number;
  b: string;
  c: List<number>;
}
const Leaf = FlatRecord<LeafProps>({ a: 0, b: '', c: List<number>() }, 'MemoLeaf');
type Leaf = ReturnType<typeof Leaf>;

interface NodeProps {
  x: Leaf;
  y: Leaf | null;
  z: number;
  plain: { n: number } | readonly number[] | null;
  inner: unknown;
  byKey: Map<string, Leaf>;
}
const Node = FlatRecord<NodeProps>({ x: Leaf(), y: null, z: 0, plain: null, inner: null, byKey: Map<string, Leaf>() }, 'MemoNode');

type Op =
  | { op: 'leaf'; a: number; b: number }
  | { op: 'set'; field: 'x' | 'y' | 'z' | 'plain' | 'inner' | 'byKey'; pick: number; n: number }
  | { op: 'keep' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('leaf' as const), a: fc.nat(3), b: fc.nat(2) }),
  fc.record({
    op: fc.constant('set' as const),
    field: fc.constantFrom('x' as const, 'y' as const, 'z' as const, 'plain' as const, 'inner' as const, 'byKey' as const),
    pick: fc.nat(50),
    n: fc.nat(3),
  }),
  fc.record({ op: fc.constant('keep' as const) }),
);

describe('the field memo', () => {
  it('gives every value the fingerprint a fresh encoder gives, after any values before it', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 40 }), (ops) => {
        const long = new Fingerprinter();
        const leaves: Leaf[] = [Leaf()];
        const nodes = [Node()];
        for (const o of ops) {
          if (o.op === 'keep') {
            long.keep();
            continue;
          }
          if (o.op === 'leaf') {
            leaves.push(Leaf({ a: o.a, b: 'b'.repeat(o.b), c: List(Array.from({ length: o.a }, (_, i) => i)) }));
          } else {
            const from = nodes[o.pick % nodes.length];
            const leaf = leaves[o.pick % leaves.length];
            const values: { [K in typeof o.field]: unknown } = {
              x: leaf,
              y: o.n === 0 ? null : leaf,
              z: o.n,
              plain: o.n === 0 ? null : o.n === 1 ? { n: o.pick } : [o.pick, o.n],
              // A record of its own type inside: written while the outer one is.
              inner: o.n === 0 ? null : nodes[(o.pick + 1) % nodes.length],
              byKey: from.byKey.set(`k${o.n}`, leaf),
            };
            nodes.push(from.set(o.field, values[o.field] as never));
          }
          const v = nodes[nodes.length - 1];
          expect(long.hex(v)).toBe(new Fingerprinter().hex(v));
          expect(long.hex(List([v, leaves[leaves.length - 1]]))).toBe(new Fingerprinter().hex(List([v, leaves[leaves.length - 1]])));
        }
      }),
      { numRuns: 300, seed: 20261206 },
    );
  });

  it('writes a plain value again each time, so a plain object changed in place is written as it is now', () => {
    // (A model should not change a state's values; the encoder does not rely on it for plain values.)
    const f = new Fingerprinter();
    const plain = { n: 1 };
    const a = Node({ plain });
    f.hex(a);
    plain.n = 2;
    const b = a.set('z', 5);
    expect(f.hex(b)).toBe(new Fingerprinter().hex(Node({ plain: { n: 2 }, z: 5 })));
  });

  it('is not misled by a draft written, then changed', () => {
    const f = new Fingerprinter();
    const leaf = Leaf({ a: 1 });
    let during = '';
    const done = Node().withMutations((d) => {
      d.set('x', leaf);
      during = f.hex(d);
      d.set('x', Leaf({ a: 2 }));
      d.set('z', 3);
    });
    expect(during).toBe(new Fingerprinter().hex(Node({ x: leaf })));
    expect(f.hex(done)).toBe(new Fingerprinter().hex(Node({ x: Leaf({ a: 2 }), z: 3 })));
  });
});
