// Breadth-first search on hand-countable counters (test/fixtures/counters.ts): counts,
// deadlock, settled states, step properties, labels, limits and expectations. Every number
// below is a hand count on the fixture named in the test.
import { describe, expect, it } from 'vitest';
import { Record } from 'immutable';
import { ModelError, action, actionProperty, checkVariant, invariant, settledInvariant, type Variant } from 'modelcheck';
import { jumps, settlingCounter, stoppingCounter } from '../fixtures/counters.ts';

const labels = (trace: readonly { action: string | null }[]) => trace.map((s) => s.action);
const states = (trace: readonly { state: unknown }[]) => trace.map((s) => s.state);
const statusOf = (r: ReturnType<typeof checkVariant>) => Object.fromEntries(r.properties.map((p) => [p.name, p.status]));

describe('counts', () => {
  it('counts the stopping counter 0..3: 4 distinct, 4 generated, depth 4', () => {
    const r = checkVariant(stoppingCounter(3));
    // Hand count: states 0, 1, 2, 3; 1 initial + 3 inc steps generated; 3 is 4 states from init.
    expect([r.stats.distinctStates, r.stats.statesGenerated, r.stats.depth]).toEqual([4, 4, 4]);
  });

  it('counts self-loops as generated states but not as distinct ones: 4 distinct, 8 generated', () => {
    const r = checkVariant(settlingCounter(3));
    // Hand count: 1 initial; 0, 1 and 2 have inc and idle (6); 3 has only idle (1).
    expect([r.stats.distinctStates, r.stats.statesGenerated, r.stats.depth]).toEqual([4, 8, 4]);
  });

  it('counts the parameterized jumps: 5 distinct, 8 generated, depth 3', () => {
    const r = checkVariant({ ...jumps(), checkDeadlock: false });
    // Hand count in counters.ts: 0 | 1, 2 | 3, 4; successors 2 + 2 + 2 + 1 + 0, plus 1 initial.
    expect([r.stats.distinctStates, r.stats.statesGenerated, r.stats.depth]).toEqual([5, 8, 3]);
  });

  it('reports per-action coverage: inc 3 enabled / 3 new, idle 4 enabled / 0 new', () => {
    const r = checkVariant(settlingCounter(3));
    // Hand count: inc fires in 0, 1, 2 and each time finds a new state; idle fires in all four
    // states and only ever finds its own source.
    expect(r.stats.coverage).toEqual([
      { action: 'inc', enabled: 3, newStates: 3 },
      { action: 'idle', enabled: 4, newStates: 0 },
    ]);
  });

  it('reports coverage of a parameterized action summed over its parameters: 7 enabled, 4 new', () => {
    const r = checkVariant({ ...jumps(), checkDeadlock: false });
    // Hand count in counters.ts: 7 successors; 1, 2, 3, 4 are new (0 is initial).
    expect(r.stats.coverage).toEqual([{ action: 'inc', enabled: 7, newStates: 4 }]);
  });

  it('computes the collision estimate n*(g-n)/2^64', () => {
    // settlingCounter(3): n = 4, g = 8, so 4 * 4 / 2^64 = 2^-60.
    expect(checkVariant(settlingCounter(3)).stats.collisionProbability).toBe(2 ** -60);
    // jumps: n = 5, g = 8, so 15 / 2^64.
    expect(checkVariant({ ...jumps(), checkDeadlock: false }).stats.collisionProbability).toBe(15 / 2 ** 64);
  });

  it('puts every initial state at depth 1 and counts duplicate initial states as generated', () => {
    // Initial states 0, 10, 20 and 10 again; inc adds 1 while the last digit is below 2.
    // Hand count: 9 distinct (0-2, 10-12, 20-22); 4 initial + 6 inc steps = 10 generated; depth 3.
    const v: Variant<number> = {
      name: 'threeStarts',
      init: () => [0, 10, 20, 10],
      actions: [action<number>('inc', { next: (s) => (s % 10 < 2 ? s + 1 : undefined) })],
      properties: [
        invariant<number>('Not20', 'The counter is never 20.', (s) => s !== 20),
        invariant<number>('Not21', 'The counter is never 21.', (s) => s !== 21),
      ],
      checkDeadlock: false,
    };
    const r = checkVariant(v);
    expect([r.stats.distinctStates, r.stats.statesGenerated, r.stats.depth]).toEqual([9, 10, 3]);
    const [not20, not21] = r.violations;
    // 20 is an initial state: a one-state trace. 21 is one step from it: two states.
    expect(labels(not20.trace)).toEqual([null]);
    expect(states(not20.trace)).toEqual([20]);
    expect(labels(not21.trace)).toEqual([null, 'inc']);
    expect(states(not21.trace)).toEqual([20, 21]);
  });

  it('counts two states of two Record types as two', () => {
    // init From{from: 0}; flip goes to To{to: 0} and back. Hand count: 2 distinct, 3 generated.
    const From = Record({ from: 0 }, 'From');
    const To = Record({ to: 0 }, 'To');
    const v: Variant<unknown> = {
      name: 'flip',
      init: () => [From()],
      actions: [action<unknown>('flip', { next: (s) => (s instanceof From ? To() : From()) })],
      properties: [],
    };
    const r = checkVariant(v);
    expect([r.stats.distinctStates, r.stats.statesGenerated]).toEqual([2, 3]);
  });
});

describe('Record types must be named (the frontier holds states as bytes, and rebuilds Records by name)', () => {
  const flip = (From: () => unknown, To: () => unknown, isFrom: (s: unknown) => boolean): Variant<unknown> => ({
    name: 'flip',
    init: () => [From()],
    actions: [action<unknown>('flip', { next: (s) => (isFrom(s) ? To() : From()) })],
    properties: [],
  });

  it('refuses an unnamed Record in the first state with MC112, naming its fields and the fix', () => {
    const From = Record({ from: 0 });
    const e = (() => {
      try {
        checkVariant(
          flip(From, From, () => true),
          { modelName: 'flip.ts' },
        );
      } catch (e) {
        return e as ModelError;
      }
    })();
    expect(e).toBeInstanceOf(ModelError);
    expect(e!.code).toBe('MC112_UNNAMED_RECORD');
    expect(e!.message).toBe('an initial state holds a Record type with no name (fields from)');
    expect(e!.details.hint).toContain("Record({ ... }, 'Name')");
  });

  it('refuses two Record types with one name where the second is made, with the trace to the state whose step made it', () => {
    const From = Record({ from: 0 }, 'Same');
    const To = Record({ to: 0 }, 'Same');
    const e = (() => {
      try {
        checkVariant(flip(From, To, (s) => s instanceof From));
      } catch (e) {
        return e as ModelError;
      }
    })();
    expect(e!.code).toBe('MC112_UNNAMED_RECORD');
    expect(e!.message).toBe('the successor produced by flip holds two different Record types named Same');
    expect(e!.details.trace?.map((s) => s.action)).toEqual([null]);
  });
});

describe('deadlock', () => {
  it('reports a deadlock at 3 with the 4-state trace 0, 1, 2, 3', () => {
    const r = checkVariant(stoppingCounter(3));
    expect(r.verdict).toBe('violated');
    expect(r.violations.map((v) => [v.property, v.kind])).toEqual([['Deadlock', 'deadlock']]);
    expect(labels(r.violations[0].trace)).toEqual([null, 'inc', 'inc', 'inc']);
    expect(states(r.violations[0].trace)).toEqual([0, 1, 2, 3]);
  });

  it('reports no deadlock, and lists no Deadlock property, when checkDeadlock is false', () => {
    const r = checkVariant({ ...stoppingCounter(3), checkDeadlock: false });
    expect(r.verdict).toBe('proved');
    expect(r.violations).toEqual([]);
    expect(r.properties).toEqual([]);
  });

  it('does not call a state with only a self-loop deadlocked', () => {
    const r = checkVariant(settlingCounter(3));
    expect(r.verdict).toBe('proved');
    expect(statusOf(r)).toEqual({ Deadlock: 'holds' });
  });
});

describe('settled invariants', () => {
  it('checks a settled invariant only where every successor is the state itself', () => {
    // settlingCounter(3): 0, 1, 2 have an idle self-loop but also inc, so only 3 is settled.
    // "The counter is 3" is false in 0, 1, 2, so it holds only if they are skipped.
    const r = checkVariant(settlingCounter(3, [settledInvariant<number>('AtTop', 'Settles at 3.', (s) => s === 3)]));
    expect(statusOf(r)).toEqual({ AtTop: 'holds', Deadlock: 'holds' });
  });

  it('reports a settled invariant broken in the settled state, with the trace to it', () => {
    const r = checkVariant(settlingCounter(3, [settledInvariant<number>('BelowTop', 'Settles below 3.', (s) => s < 3)]));
    expect(r.violations.map((v) => [v.property, v.kind])).toEqual([['BelowTop', 'settled']]);
    expect(labels(r.violations[0].trace)).toEqual([null, 'inc', 'inc', 'inc']);
  });

  it('counts a state with no successor as settled', () => {
    const r = checkVariant({
      ...stoppingCounter(3, [settledInvariant<number>('BelowTop', 'Settles below 3.', (s) => s < 3)]),
      checkDeadlock: false,
    });
    expect(r.violations.map((v) => v.property)).toEqual(['BelowTop']);
    expect(states(r.violations[0].trace)).toEqual([0, 1, 2, 3]);
  });
});

describe('action properties', () => {
  const noStep2to3 = actionProperty<number>('NoStepFrom2To3', 'Never steps from 2 to 3.', (s, t) => !(s === 2 && t === 3));

  it('reports the violating step itself: the trace to its source plus that step', () => {
    const r = checkVariant({ ...jumps([noStep2to3]), checkDeadlock: false });
    expect(r.violations.map((v) => [v.property, v.kind])).toEqual([['NoStepFrom2To3', 'action']]);
    // Hand count: 2 is reached by inc(2) from 0 (2 states), then the step inc(1) to 3: 3 states.
    // The shortest path to 3 itself is 0, 1, 3, so the trace is not just the path to the target.
    expect(labels(r.violations[0].trace)).toEqual([null, 'inc(2)', 'inc(1)']);
    expect(states(r.violations[0].trace)).toEqual([0, 2, 3]);
  });

  it('checks stuttering steps too', () => {
    const moves = actionProperty<number>('AlwaysMoves', 'Every step changes the counter.', (s, t) => s !== t);
    const r = checkVariant(settlingCounter(3, [moves]));
    // The first state expanded is 0, and its idle step stutters: trace 0, then idle back to 0.
    expect(labels(r.violations[0].trace)).toEqual([null, 'idle']);
    expect(states(r.violations[0].trace)).toEqual([0, 0]);
  });
});

describe('parameterized actions', () => {
  it('labels steps name(param), using String by default', () => {
    const r = checkVariant(jumps());
    // The deadlock is at 4; BFS first reaches 4 by inc(2) from 2, and 2 by inc(2) from 0.
    expect(labels(r.violations[0].trace)).toEqual([null, 'inc(2)', 'inc(2)']);
  });

  it('labels steps with formatParam when given', () => {
    const r = checkVariant(jumps([], (p) => `+${p}`));
    expect(labels(r.violations[0].trace)).toEqual([null, 'inc(+2)', 'inc(+2)']);
  });
});

describe('violations and expectations', () => {
  const notOne = invariant<number>('NotOne', 'The counter is never 1.', (s) => s !== 1);
  const notThree = invariant<number>('NotThree', 'The counter is never 3.', (s) => s !== 3);
  const belowTen = invariant<number>('BelowTen', 'The counter stays below 10.', (s) => s < 10);

  it('keeps searching after a violation and reports every violated property', () => {
    const r = checkVariant(settlingCounter(3, [notOne, notThree]));
    // The whole graph is still explored (4 distinct, 8 generated, as without properties).
    expect([r.stats.distinctStates, r.stats.statesGenerated]).toEqual([4, 8]);
    expect(r.violations.map((v) => v.property)).toEqual(['NotOne', 'NotThree']);
    expect(r.violations.map((v) => v.trace.length)).toEqual([2, 4]);
  });

  it('meets expectations when exactly the expected properties are violated', () => {
    const r = checkVariant({ ...settlingCounter(3, [notOne, belowTen]), expectedViolations: ['NotOne'] });
    expect(r.verdict).toBe('violated');
    expect(r.metExpectations).toBe(true);
    expect(r.properties.map((p) => [p.name, p.status, p.expectedViolated])).toEqual([
      ['NotOne', 'violated', true],
      ['BelowTen', 'holds', false],
      ['Deadlock', 'holds', false],
    ]);
  });

  it('does not meet expectations when a violation was not expected', () => {
    const r = checkVariant(settlingCounter(3, [notOne, belowTen]));
    expect(r.metExpectations).toBe(false);
  });

  it('does not meet expectations when an expected violation does not happen', () => {
    const both = checkVariant({ ...settlingCounter(3, [notOne, belowTen]), expectedViolations: ['NotOne', 'BelowTen'] });
    expect(both.metExpectations).toBe(false);
    const wrong = checkVariant({ ...settlingCounter(3, [notOne, belowTen]), expectedViolations: ['BelowTen'] });
    expect(wrong.metExpectations).toBe(false);
  });

  it('meets an expected deadlock', () => {
    const r = checkVariant({ ...stoppingCounter(3), expectedViolations: ['Deadlock'] });
    expect(r.metExpectations).toBe(true);
  });

  it('meets expectations of no violation with a proof', () => {
    const r = checkVariant(settlingCounter(3, [belowTen]));
    expect(r.verdict).toBe('proved');
    expect(r.metExpectations).toBe(true);
  });
});

describe('limits', () => {
  const belowHundred = invariant<number>('BelowHundred', 'The counter stays below 100.', (s) => s < 100);

  it('stops at maxStates with verdict incomplete and unviolated properties unknown', () => {
    // settlingCounter(9) has 10 states; the limit is 5.
    const r = checkVariant(settlingCounter(9, [belowHundred]), { maxStates: 5 });
    expect(r.verdict).toBe('incomplete');
    expect(r.incompleteReason).toBe('maxStates');
    expect(r.metExpectations).toBe(false);
    expect(r.stats.distinctStates).toBe(5);
    expect(statusOf(r)).toEqual({ BelowHundred: 'unknown', Deadlock: 'unknown' });
  });

  it('reports the depth of the deepest state stored when stopped by maxStates', () => {
    // States 0..4 are stored, at depths 1..5 (Stats.depth: the longest shortest path).
    const r = checkVariant(settlingCounter(9), { maxStates: 5 });
    expect(r.stats.depth).toBe(5);
  });

  it('keeps a violation found before maxStates, but does not meet expectations', () => {
    const notOne = invariant<number>('NotOne', 'The counter is never 1.', (s) => s !== 1);
    const r = checkVariant({ ...settlingCounter(9, [notOne, belowHundred]), expectedViolations: ['NotOne'] }, { maxStates: 5 });
    expect(r.verdict).toBe('violated');
    expect(r.metExpectations).toBe(false);
    expect(statusOf(r)).toEqual({ NotOne: 'violated', BelowHundred: 'unknown', Deadlock: 'unknown' });
  });

  it('completes a search of exactly maxStates states', () => {
    // settlingCounter(3) has exactly 4 states, so maxStates 4 stores no fewer than it needs.
    const r = checkVariant(settlingCounter(3, [belowHundred]), { maxStates: 4 });
    expect(r.verdict).toBe('proved');
    expect(r.incompleteReason).toBeUndefined();
    expect(r.metExpectations).toBe(true);
    expect([r.stats.distinctStates, r.stats.statesGenerated, r.stats.depth]).toEqual([4, 8, 4]);
  });

  it('applies maxStates to initial states too', () => {
    // Three initial states 0, 10, 20 and no action; a limit of 2 cannot hold them all.
    const v: Variant<number> = { name: 'starts', init: () => [0, 10, 20], actions: [], properties: [], checkDeadlock: false };
    const r = checkVariant(v, { maxStates: 2 });
    expect(r.verdict).toBe('incomplete');
    expect(r.stats.distinctStates).toBe(2);
  });

  it('stops at maxDepth with verdict incomplete and unviolated properties unknown', () => {
    // settlingCounter(9) reaches depth 10; with maxDepth 3 only 0, 1, 2 are stored.
    const r = checkVariant(settlingCounter(9, [belowHundred]), { maxDepth: 3 });
    expect(r.verdict).toBe('incomplete');
    expect(r.incompleteReason).toBe('maxDepth');
    expect(r.metExpectations).toBe(false);
    expect([r.stats.distinctStates, r.stats.depth]).toEqual([3, 3]);
    expect(statusOf(r)).toEqual({ BelowHundred: 'unknown', Deadlock: 'unknown' });
  });

  it('completes a search whose graph is exactly maxDepth deep', () => {
    // settlingCounter(3) is 4 deep; no state lies deeper than maxDepth 4.
    const r = checkVariant(settlingCounter(3, [belowHundred]), { maxDepth: 4 });
    expect(r.verdict).toBe('proved');
    expect(r.metExpectations).toBe(true);
    expect([r.stats.distinctStates, r.stats.depth]).toEqual([4, 4]);
  });

  it('finds a deadlock in a state at exactly maxDepth', () => {
    // stoppingCounter(3) deadlocks at 3, at depth 4.
    const r = checkVariant(stoppingCounter(3), { maxDepth: 4 });
    expect(r.violations.map((v) => v.property)).toEqual(['Deadlock']);
    expect(states(r.violations[0].trace)).toEqual([0, 1, 2, 3]);
  });
});

describe('onFinding', () => {
  it('tells of a counterexample while the search goes on, with the trace the result holds', () => {
    // The stopping counter 0..5000, one state a level: Below10 is broken at state 10 (11 states
    // deep); the search goes on to 5000, and the driver's progress point after its 1,024th
    // state is where findings are told.
    const told: { property: string; states: unknown[] }[] = [];
    const r = checkVariant(stoppingCounter(5000, [invariant<number>('Below10', 'The counter stays below 10.', (s) => s < 10)]), {
      onFinding: (x) => told.push({ property: x.property, states: states(x.trace) }),
    });
    expect(told.map((t) => t.property)).toEqual(['Below10']);
    expect(told[0].states).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(r.stats.distinctStates).toBe(5001);
    // The same trace as the result's.
    expect(states(r.violations.find((v) => v.property === 'Below10')!.trace)).toEqual(told[0].states);
    // The deadlock at 5000 is found at the end: the result has it, onFinding was not told.
    expect(r.violations.map((v) => v.property)).toEqual(['Below10', 'Deadlock']);
  });

  it('tells nothing of a search that ends before its first progress point: the result holds it', () => {
    const told: string[] = [];
    const r = checkVariant(stoppingCounter(3, [invariant<number>('Below2', 'Below 2.', (s) => s < 2)]), {
      onFinding: (x) => told.push(x.property),
    });
    expect(told).toEqual([]);
    expect(r.violations.map((v) => v.property)).toEqual(['Below2', 'Deadlock']);
  });
});
