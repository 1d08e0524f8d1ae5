// State constraints (Variant.constraint), with TLC's CONSTRAINT semantics (tlc2/tool/Worker.java
// addElement, ModelChecker doInit): a state outside the constraint is counted as generated and
// checked against the invariants and action properties, but not stored nor expanded; deadlock
// is judged before it. The counts below are hand counts on counters small enough to list.
import { describe, expect, it } from 'vitest';
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

  it('gives the one-thread result when more threads are offered, and says why it kept to one', async () => {
    const one = checkVariant(counter({ never: 4 }));
    const split = await checkVariantParallel(counter({ never: 4 }), {}, [expanderInThisThread(counter({ never: 4 }), {})], {
      warmUp: 0,
    });
    expect(split.stats.distinctStates).toBe(one.stats.distinctStates);
    expect(split.stats.statesGenerated).toBe(one.stats.statesGenerated);
    expect(split.violations.map((v) => v.trace.length)).toEqual(one.violations.map((v) => v.trace.length));
  });

  it('simulation never takes a step outside it, but checks it, and does not call its end a deadlock', () => {
    const r = simulateVariant(counter({ never: 4 }), { runs: 5, depth: 20, seed: 1 });
    expect(r.violations.map((v) => v.property)).toEqual(['NeverThere']);
    expect(r.violations[0].trace.map((s) => s.state)).toEqual([0, 1, 2, 3, 4]);
    const quiet = simulateVariant(counter(), { runs: 5, depth: 20, seed: 1 });
    expect(quiet.violations).toEqual([]);
  });
});
