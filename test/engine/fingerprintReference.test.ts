// A Fingerprinter told that the states coming next are successors of a parent (reference(), as
// the successor loop tells it) writes a FlatRecord's fields that the parent's record of the same
// type holds too from the digests read there (CanonicalEncoder.reference, flatRecords.ts). The
// fingerprints must be the ones a Fingerprinter never told gives: for fields shared or not,
// primitives, plain objects (written in place each time, even carrying a digest slot copied by a
// spread), frozen parts (which carry no digest), parents kept or not, and references that are not
// records at all, parents digested only after they became the reference, and drafts (whose values
// change in place). Checked on random successors against a fresh Fingerprinter for each value.
import fc from 'fast-check';
import { List, Map, Set } from 'immutable';
import { describe, expect, it } from 'vitest';
import { Fingerprinter, FlatRecord } from 'modelcheck';

interface WorldProps {
  names: Set<string>;
  counts: Map<string, number>;
  log: List<number>;
  n: number;
  label: string;
  plain: { readonly a: number; readonly b: readonly string[] };
  frozen: Map<string, number>;
}
const World = FlatRecord<WorldProps>(
  { names: Set(), counts: Map(), log: List(), n: 0, label: '', plain: { a: 0, b: [] }, frozen: Map() },
  'RefWorld',
);
type World = ReturnType<typeof World>;
interface StateProps {
  world: World;
  other: World;
  step: number;
}
const State = FlatRecord<StateProps>({ world: World(), other: World(), step: 0 }, 'RefState');
type State = ReturnType<typeof State>;

/** One change to a world: which field, and a small number choosing its new value. */
const change = fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 3 }));

function changed(w: World, [field, x]: [number, number]): World {
  switch (field) {
    case 0:
      return w.set('names', w.names.add(`n${x}`));
    case 1:
      return w.set('counts', w.counts.set(`c${x}`, x));
    case 2:
      return w.set('log', w.log.push(x));
    case 3:
      return w.set('n', x);
    case 4:
      return w.set('label', `l${x}`);
    case 5:
      // A new plain object, equal or not to the one held, and one spread from a digested part
      // (which copies its digest slot along: it must not stand for the object).
      return w.set('plain', x === 0 ? { ...w.plain } : x === 1 ? { ...slotsOf(w.counts), a: 1, b: [] } : { a: x, b: [`b${x}`] });
    case 6:
      return w.set('frozen', Object.freeze(w.frozen.set(`f${x}`, x)));
    default:
      // Equal contents, another object.
      return w.set('names', Set([...w.names]));
  }
}

/** A part's own symbol-keyed properties (its digest slot, once kept), as a spread copies them. */
function slotsOf(part: object): object {
  const out: { [k: symbol]: unknown } = {};
  for (const k of Object.getOwnPropertySymbols(part)) out[k] = (part as { [k: symbol]: unknown })[k];
  return out;
}

const successor = fc.record({
  world: fc.array(change, { maxLength: 3 }),
  other: fc.array(change, { maxLength: 2 }),
  step: fc.boolean(),
});
type Successor = { world: [number, number][]; other: [number, number][]; step: boolean };

function apply(s: State, d: Successor): State {
  return State({
    world: d.world.reduce(changed, s.world),
    other: d.other.reduce(changed, s.other),
    step: d.step ? s.step + 1 : s.step,
  });
}

describe('fingerprints of successors written against their parent', () => {
  it('are the fingerprints of the same states written from scratch', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(successor, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (levels, keepAll) => {
          const f = new Fingerprinter();
          let parent = State();
          f.of(parent, { hi: 0, lo: 0 });
          f.keep();
          for (const level of levels) {
            f.reference(parent);
            let next = parent;
            for (const d of level) {
              const t = apply(parent, d);
              const got = f.hex(t);
              expect(got).toBe(new Fingerprinter().hex(t));
              // Kept or not, as a search keeps only new states.
              if (keepAll) f.keep();
              next = t;
            }
            parent = next;
            if (!keepAll) {
              f.of(parent, { hi: 0, lo: 0 });
              f.keep();
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('are the same for a parent whose parts are digested only after it became the reference', () => {
    const f = new Fingerprinter();
    const parent = State({ world: changed(changed(World(), [0, 2]), [2, 1]), step: 3 });
    f.reference(parent);
    const before = apply(parent, { world: [[1, 1]], other: [], step: false });
    expect(f.hex(before)).toBe(new Fingerprinter().hex(before));
    f.prime(parent);
    for (const d of [
      { world: [[3, 2]], other: [[0, 1]], step: true },
      { world: [], other: [], step: false },
    ] as Successor[]) {
      const t = apply(parent, d);
      expect(f.hex(t)).toBe(new Fingerprinter().hex(t));
    }
  });

  it('take no reference from a draft, whose values change in place (withMutations)', () => {
    const f = new Fingerprinter();
    const p = Set(['p']);
    const q = Set(['q']);
    f.prime(p);
    f.prime(q);
    const draft = World({ names: p }).asMutable();
    f.reference(draft);
    expect(f.hex(World({ names: p }))).toBe(new Fingerprinter().hex(World({ names: p })));
    draft.set('names', q);
    expect(f.hex(World({ names: q }))).toBe(new Fingerprinter().hex(World({ names: q })));
  });

  it('are unchanged by a reference that is not a record, or a record of another type', () => {
    const f = new Fingerprinter();
    const w = changed(changed(World(), [0, 1]), [1, 2]);
    const s = State({ world: w });
    for (const ref of [Map({ a: 1 }), 42, undefined, w, World()]) {
      f.reference(ref);
      expect(f.hex(s)).toBe(new Fingerprinter().hex(s));
      expect(f.hex(w.set('n', 3))).toBe(new Fingerprinter().hex(w.set('n', 3)));
    }
  });
});
