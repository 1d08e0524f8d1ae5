// Random simulation (--simulate): hand counts on counters (test/fixtures/counters.ts), the
// same result from the same seed, and never a proof. Its agreement with the exhaustive search
// on random systems is in safetyReference.test.ts.
import { describe, expect, it } from 'vitest';
import { action, eventually, invariant, liveness, type ModelError, simulateVariant, weakFairness, type Variant } from 'modelcheck';
import { settlingCounter, stoppingCounter } from '../fixtures/counters.ts';
import dieHard from '../fixtures/dieHard.ts';

describe('simulateVariant', () => {
  it('a counter with one path: every run walks it to the deadlock (hand count)', () => {
    // 0 -> 1 -> 2 -> 3, then no step. Five runs of at most 10 states: each takes the 3 steps
    // and stops at the deadlock. Generated: 1 initial state + 5 runs x 3 successors = 16.
    const r = simulateVariant(stoppingCounter(3), { runs: 5, depth: 10, seed: 42 });
    expect(r.verdict).toBe('violated');
    expect(r.incompleteReason).toBe('simulation');
    expect([r.stats.distinctStates, r.stats.statesGenerated, r.stats.depth]).toEqual([4, 16, 4]);
    expect(r.violations.map((x) => [x.property, x.trace.map((t) => t.state)])).toEqual([['Deadlock', [0, 1, 2, 3]]]);
    expect(r.simulation).toEqual({ runs: 5, depth: 10, seed: 42, runsDone: 5, foundIn: { Deadlock: 1 } });
    // Coverage over the runs' states: inc made the 15 successors, 3 of them new (1, 2, 3).
    expect(r.stats.coverage).toEqual([{ action: 'inc', enabled: 15, newStates: 3 }]);
  });

  it('a run is cut at its depth: a deadlock further on is not seen, and nothing is proved', () => {
    // Runs of at most 3 states: 0, 1, 2, and the last is not expanded (as TLC's -depth), so 3 is
    // never generated. 1 initial + 4 runs x 2 successors = 9 generated.
    const r = simulateVariant(stoppingCounter(3), { runs: 4, depth: 3, seed: 42 });
    expect(r.verdict).toBe('incomplete');
    expect([r.stats.distinctStates, r.stats.statesGenerated, r.stats.depth]).toEqual([3, 9, 3]);
    expect(r.properties.map((p) => [p.name, p.status])).toEqual([['Deadlock', 'unknown']]);
  });

  it('a run ends where every step stutters, and the state is checked as settled there', () => {
    // settlingCounter(2): inc to 2, idle everywhere; only 2 is settled. One run: 0, 1, 2 with
    // 2 + 2 + 1 successors, the run choosing inc or idle at random; it ends at 2 whatever.
    const r = simulateVariant(settlingCounter(2), { runs: 1, depth: 50, seed: 7 });
    expect(r.stats.distinctStates).toBe(3);
    expect(r.verdict).toBe('incomplete');
  });

  it('the same seed gives the same simulation; another seed another one', () => {
    const [v] = dieHard.variants;
    const a = simulateVariant(v, { runs: 200, depth: 30, seed: 1 });
    const b = simulateVariant(v, { runs: 200, depth: 30, seed: 1 });
    expect(b.violations).toEqual(a.violations);
    expect(b.simulation).toEqual(a.simulation);
    expect(b.stats.statesGenerated).toBe(a.stats.statesGenerated);
    // Every run is 30 states of 6 steps each: 1 + 200 x 29 x 6 generated, whatever the seed.
    expect(a.stats.statesGenerated).toBe(34_801);
    const c = simulateVariant(v, { runs: 200, depth: 30, seed: 2 });
    expect([c.simulation!.foundIn, c.violations[0].trace]).not.toEqual([a.simulation!.foundIn, a.violations[0].trace]);
    // Die Hard's NotSolved is found, by a real path of at least the shortest 7 states.
    expect(a.violations[0].property).toBe('NotSolved');
    expect(a.violations[0].trace.length).toBeGreaterThanOrEqual(7);
  });

  it('liveness properties are not checked, and say so', () => {
    const v = { ...settlingCounter(2), fairness: [weakFairness('counter', ['inc'])] };
    const r = simulateVariant(
      {
        ...v,
        properties: [
          liveness(
            'ReachesTwo',
            'It reaches 2.',
            eventually((n: number) => n === 2),
          ),
        ],
      },
      { runs: 3, depth: 10, seed: 1 },
    );
    expect(r.properties.map((p) => [p.name, p.status])).toEqual([
      ['ReachesTwo', 'unknown'],
      ['Deadlock', 'unknown'],
    ]);
    expect(r.warnings).toEqual([
      'liveness properties (ReachesTwo) are not checked by simulation: a finite random run says nothing about what happens for ever',
    ]);
  });

  it("a fault in the model is a ModelError naming the action or property, with the run's path to the state", () => {
    // A counter 0 -> 1 -> 2 -> 3: the first run walks it, so each fault below is met on it.
    const counter = (next: (s: number) => unknown, holds: (s: number) => unknown = () => true): Variant<number> => ({
      name: 'faulty',
      init: () => [0],
      actions: [action<number>('inc', { next: (s) => (s < 3 ? (next(s) as number) : undefined) })],
      properties: [invariant<number>('Check', 'A check.', holds as (s: number) => boolean)],
      checkDeadlock: false,
    });
    const fault = (v: Variant<number>) => {
      try {
        simulateVariant(v, { runs: 1, depth: 10, seed: 1 });
      } catch (e) {
        return e as ModelError;
      }
      throw new Error('no fault');
    };
    const threw = fault(
      counter((s) => {
        if (s === 2) throw new Error('two');
        return s + 1;
      }),
    );
    expect([threw.code, threw.message, threw.details.trace!.map((t) => t.state)]).toEqual([
      'MC101_ACTION_THREW',
      'action inc threw Error: two',
      [0, 1, 2],
    ]);
    const notBoolean = fault(
      counter(
        (s) => s + 1,
        (s) => (s === 1 ? 'yes' : true),
      ),
    );
    expect([notBoolean.code, notBoolean.message, notBoolean.details.trace!.map((t) => t.state)]).toEqual([
      'MC104_NOT_A_BOOLEAN',
      'property Check returned string, not a boolean',
      [0, 1],
    ]);
    const notAValue = fault(counter((s) => (s === 1 ? new Date(2) : s + 1)));
    expect([notAValue.code, notAValue.details.trace!.map((t) => t.state)]).toEqual(['MC102_NOT_A_STATE_VALUE', [0, 1]]);
    expect(notAValue.message).toMatch(/^the successor produced by inc holds /);
  });
});

describe('simulateVariant, avoiding actions (a swarm shard)', () => {
  // n counts up to 5; `fault` (once) marks the state faulted. Invariant: never faulted at 3 or
  // more. Hand reading: a run that avoids `fault` never takes it, but checks its successor in
  // every state it reaches, so the violation is found as the path 0, 1, 2, 3 then the fault
  // step; and the deadlock at (5, faulted) is never reached (a run ends at (5, unfaulted), whose
  // one step is avoided: that is no deadlock).
  interface S {
    readonly n: number;
    readonly faulted: boolean;
  }
  const variant: Variant<S> = {
    name: 'faulty-counter',
    init: () => [{ n: 0, faulted: false }],
    actions: [
      action<S>('inc', { next: (s) => (s.n < 5 ? { ...s, n: s.n + 1 } : undefined) }),
      action<S>('fault', { next: (s) => (s.faulted ? undefined : { ...s, faulted: true }) }),
    ],
    properties: [invariant<S>('NoLateFault', 'Never faulted at 3 or more.', (s) => !(s.faulted && s.n >= 3))],
    checkDeadlock: true,
  };

  it('never takes an avoided step, yet finds a violation one such step away; reaches no deadlock behind one', () => {
    const r = simulateVariant(variant, { runs: 50, depth: 20, seed: 7, avoid: ['fault'] });
    expect(r.violations.map((x) => x.property)).toEqual(['NoLateFault']);
    expect(r.violations[0].trace.map((t) => t.action)).toEqual([null, 'inc', 'inc', 'inc', 'fault']);
    expect(r.simulation?.avoid).toEqual(['fault']);
    // Without avoiding, runs take the fault and reach (5, faulted), a deadlock.
    const free = simulateVariant(variant, { runs: 50, depth: 20, seed: 7 });
    expect(free.violations.map((x) => x.property).sort()).toEqual(['Deadlock', 'NoLateFault']);
    expect(free.simulation?.avoid).toBeUndefined();
  });

  it('refuses an action the variant has not', () => {
    expect(() => simulateVariant(variant, { runs: 1, depth: 5, seed: 1, avoid: ['crash'] })).toThrow(
      'variant faulty-counter has no action crash to avoid',
    );
  });
});
