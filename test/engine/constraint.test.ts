// State constraints (Variant.constraint), with TLC's CONSTRAINT semantics (tlc2/tool/Worker.java
// addElement, ModelChecker doInit): a state outside the constraint is counted as generated and
// checked against the invariants and action properties, but not stored nor expanded; deadlock
// is judged before it. The counts below are hand counts on counters small enough to list.
import { describe, expect, it } from 'vitest';
import { List } from 'immutable';
import { action, actionProperty, checkVariant, invariant, simulateVariant, type Variant } from 'modelcheck';
import { checkVariantParallel, expanderInThisThread } from '../../src/index.ts';

/** x counts up from each initial value while below `top`; the constraint keeps x at most 3. */
function counter(o: { init?: number[]; top?: number; never?: number; constraint?: boolean } = {}): Variant<number> {
  return {
    name: 'counter',
    init: () => o.init ?? [0],
    actions: [action<number>('inc', { next: (x) => (x < (o.top ?? 100) ? x + 1 : undefined) })],
    properties: [
      invariant<number>('NeverThere', `x is never ${o.never ?? 99}.`, (x) => x !== (o.never ?? 99)),
      actionProperty<number>('UpByOne', 'Each step adds one.', (x, y) => y === x + 1),
    ],
    constraint: o.constraint === false ? undefined : (x) => x <= 3,
  };
}

describe('a state constraint (TLC CONSTRAINT)', () => {
  it('stores the states within it and counts the ones beyond as generated: 0..3 stored, 4 generated too', () => {
    const r = checkVariant(counter());
    // Stored: 0, 1, 2, 3. Generated: the initial 0 and one successor of each stored state (1, 2, 3, 4).
    expect(r.stats.distinctStates).toBe(4);
    expect(r.stats.statesGenerated).toBe(5);
    expect(r.stats.depth).toBe(4);
    // State 3's only successor is outside the constraint: not a deadlock.
    expect(r.verdict).toBe('proved');
    expect(r.bounds.stateConstraint).toBe(true);
  });

  it('judges deadlock before the constraint, as TLC does: a state with no step at all is one', () => {
    const r = checkVariant(counter({ top: 2 }));
    expect(r.stats.distinctStates).toBe(3);
    expect(r.violations.map((v) => v.property)).toEqual(['Deadlock']);
    expect(r.violations[0].trace.map((s) => s.state)).toEqual([0, 1, 2]);
  });

  it('checks the invariants in a state outside it, with the trace to it', () => {
    const r = checkVariant(counter({ never: 4 }));
    expect(r.verdict).toBe('violated');
    const v = r.violations.find((x) => x.property === 'NeverThere')!;
    expect(v.trace.map((s) => s.state)).toEqual([0, 1, 2, 3, 4]);
    expect(v.trace.map((s) => s.action)).toEqual([null, 'inc', 'inc', 'inc', 'inc']);
    expect(r.stats.distinctStates).toBe(4);
  });

  it('checks an initial state outside it without storing it', () => {
    const r = checkVariant(counter({ init: [0, 7], never: 7 }));
    expect(r.stats.distinctStates).toBe(4);
    expect(r.stats.statesGenerated).toBe(6);
    const v = r.violations.find((x) => x.property === 'NeverThere')!;
    expect(v.trace.map((s) => s.state)).toEqual([7]);
  });

  it('without the constraint, the same counter is searched to its top', () => {
    const r = checkVariant(counter({ top: 6, constraint: false }));
    expect(r.stats.distinctStates).toBe(7);
    expect(r.bounds.stateConstraint).toBeUndefined();
  });

  it('a constraint that throws is an MC error naming it and the state', () => {
    const v: Variant<number> = {
      ...counter(),
      constraint: (x) => {
        if (x === 2) throw new Error('no twos');
        return true;
      },
    };
    expect(() => checkVariant(v)).toThrowError(/the state constraint threw Error: no twos on the successor produced by inc/);
  });

  it('split among threads, finds what one thread finds', async () => {
    // A grid: x and y step up by 1 or 2; the constraint keeps x + y <= 6; the invariant is
    // broken inside the constraint at x = 4 and outside it at y = 6 (x = 1).
    const grid = (): Variant<List<number>> => ({
      name: 'grid',
      init: () => [List([0, 0]), List([9, 9])],
      actions: [0, 1].flatMap((axis) =>
        [1, 2].map((by) => action<List<number>>(`${axis === 0 ? 'x' : 'y'}+${by}`, { next: (s) => s.update(axis, (v) => v! + by) })),
      ),
      properties: [
        invariant<List<number>>(
          'NotFourOrSeven',
          'x is not 4, and y is not 6 where x is 1.',
          (s) => s.get(0) !== 4 && !(s.get(0) === 1 && s.get(1) === 6),
        ),
        invariant<List<number>>('Small', 'Both below 9.', (s) => s.get(0)! < 9),
      ],
      constraint: (s) => s.get(0)! + s.get(1)! <= 6,
    });
    const one = checkVariant(grid());
    const split = await checkVariantParallel(
      grid(),
      {},
      [0, 1, 2].map(() => expanderInThisThread(grid(), {})),
      { warmUp: 0 },
    );
    const facts = (r: typeof one) => ({
      states: r.stats.distinctStates,
      generated: r.stats.statesGenerated,
      depth: r.stats.depth,
      violations: r.violations.map((v) => [v.property, v.trace.map((t) => t.state.toArray().join(','))]),
    });
    expect(facts(split)).toEqual(facts(one));
    // Hand count: 28 pairs with x + y <= 6 are stored, the initial (9, 9) is outside.
    expect(one.stats.distinctStates).toBe(28);
    // At depth 3, (4, 0) inside the constraint is preferred to (1, 6)'s depth 4 anyway; Small is
    // broken only by the initial state outside the constraint.
    expect(facts(one).violations).toEqual([
      ['NotFourOrSeven', ['0,0', '2,0', '4,0']],
      ['Small', ['9,9']],
    ]);
  });

  it('at one depth, prefers a violation inside the constraint to one outside it, however the threads split', async () => {
    const v = (): Variant<number> => ({
      name: 'two ways',
      init: () => [0],
      // The step out of the constraint comes first.
      actions: [
        action<number>('far', { next: (x) => (x === 0 ? 10 : undefined) }),
        action<number>('near', { next: (x) => (x === 0 ? 1 : undefined) }),
      ],
      properties: [invariant<number>('Zero', 'x stays 0.', (x) => x === 0)],
      checkDeadlock: false,
      constraint: (x) => x <= 5,
    });
    const one = checkVariant(v());
    expect(one.violations[0].trace.map((t) => t.state)).toEqual([0, 1]);
    const split = await checkVariantParallel(
      v(),
      {},
      [0, 1].map(() => expanderInThisThread(v(), {})),
      { warmUp: 0 },
    );
    expect(split.violations[0].trace.map((t) => t.state)).toEqual([0, 1]);
  });

  it('simulation never takes a step outside it, but checks it, and does not call its end a deadlock', () => {
    const r = simulateVariant(counter({ never: 4 }), { runs: 5, depth: 20, seed: 1 });
    expect(r.violations.map((v) => v.property)).toEqual(['NeverThere']);
    expect(r.violations[0].trace.map((s) => s.state)).toEqual([0, 1, 2, 3, 4]);
    const quiet = simulateVariant(counter(), { runs: 5, depth: 20, seed: 1 });
    expect(quiet.violations).toEqual([]);
  });
});
