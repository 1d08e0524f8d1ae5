// Partial-order reduction (src/engine/reduction.ts) on models small enough to count by hand.
// n counters, each stepped from 0 to k by its own action parameter, touch nothing of each
// other's: the whole graph is the grid of (k+1)^n states, and one order of the steps, n*k + 1
// states, is all a stubborn set needs to keep (each step's footprint is its own counter, so
// each step is a stubborn set alone). Every figure below is that count, or the grid's.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { List } from 'immutable';
import {
  action,
  checkVariant,
  checkVariantParallel,
  expanderInThisThread,
  invariant,
  settledInvariant,
  type ModelError,
  type Property,
  type Variant,
} from 'modelcheck';

type Counters = List<number>;

/** What a search found, without its timings and thread count. */
function comparableResult(r: ReturnType<typeof checkVariant>) {
  const { seconds: _s, statesPerSecond: _r, threads: _t, frontier: _f, storedBytes: _b, ...stats } = r.stats;
  return {
    verdict: r.verdict,
    properties: r.properties,
    stats,
    traces: r.violations.map((x) => [x.property, x.trace.map((t) => t.action)]),
  };
}

function counters(n: number, k: number, properties: Property<Counters>[] = [], more: Partial<Variant<Counters>> = {}): Variant<Counters> {
  const ids = Array.from({ length: n }, (_, i) => i);
  return {
    name: `counters-${n}-${k}`,
    init: () => [List(ids.map(() => 0))],
    actions: [
      action<Counters, number>('step', {
        params: (s) => ids.filter((i) => s.get(i)! < k),
        next: (s, i) => (s.get(i)! < k ? s.set(i, s.get(i)! + 1) : undefined),
        domain: () => ids,
        footprint: (i) => ({ reads: [`x/${i}`], writes: [`x/${i}`] }),
      }),
    ],
    properties,
    checkDeadlock: false,
    ...more,
  };
}

describe('partial-order reduction on independent counters', () => {
  it('keeps one order of independent steps: n*k + 1 states of the (k+1)^n (3 counters to 2: 7 of 27)', () => {
    const reduced = checkVariant(counters(3, 2));
    const whole = checkVariant(counters(3, 2), { partialOrder: false });
    expect(whole.stats.distinctStates).toBe(27);
    expect(reduced.stats.distinctStates).toBe(7);
    expect(reduced.stats.depth).toBe(7);
    expect(reduced.stats.reduction).toEqual({ transitions: 3, reducedStates: 4 });
    expect(whole.stats.reduction).toBeUndefined();
  });

  it('still finds the deadlock, by a path as short (4 counters to 3: 13 states, the deadlock at depth 13 of 256 states)', () => {
    const v = counters(4, 3, [], { checkDeadlock: true, expectedViolations: ['Deadlock'] });
    const reduced = checkVariant(v);
    const whole = checkVariant(v, { partialOrder: false });
    expect(whole.stats.distinctStates).toBe(256);
    expect(reduced.stats.distinctStates).toBe(13);
    expect(reduced.violations.map((x) => [x.property, x.trace.length])).toEqual([['Deadlock', 13]]);
    expect(whole.violations.map((x) => [x.property, x.trace.length])).toEqual([['Deadlock', 13]]);
    // The same trace as the whole search's, not only as long: found again by it (shortestTraces).
    expect(reduced.violations[0].trace.map((t) => t.action)).toEqual(whole.violations[0].trace.map((t) => t.action));
  });

  it('takes a visible step only when it must, and reports the shortest trace a whole search reports', () => {
    const x0 = invariant<Counters>('FirstBelowTwo', 'the first counter stays below 2', (s) => s.get(0)! < 2, { reads: ['x/0'] });
    const v = counters(3, 2, [x0]);
    const reduced = checkVariant(v);
    const whole = checkVariant(v, { partialOrder: false });
    // The invisible counters go first (2 + 2 steps), then the first: 7 states, the violation last.
    expect(reduced.stats.distinctStates).toBe(7);
    expect(reduced.violations.map((x) => x.trace.map((t) => t.action))).toEqual(whole.violations.map((x) => x.trace.map((t) => t.action)));
    expect(reduced.violations[0].trace).toHaveLength(3);
  });

  it('an invariant that does not say what it reads sees every step: nothing is reduced', () => {
    const all = invariant<Counters>('SumBelowSeven', 'the counters sum to less than 7', (s) => s.reduce((a, b) => a + b, 0) < 7);
    const r = checkVariant(counters(3, 2, [all]));
    expect(r.stats.distinctStates).toBe(27);
    expect(r.verdict).toBe('proved');
  });

  it('keeps every settled state (a settled-state property needs no visibility)', () => {
    // The settled state is the last one, (2, 2, 2): found by both searches.
    const p = settledInvariant<Counters>('EndsAtTwo', 'a settled state has every counter at 2', (s) => s.every((c) => c === 2));
    const reduced = checkVariant(counters(3, 2, [p]));
    expect(reduced.verdict).toBe('proved');
    expect(reduced.properties.find((q) => q.name === 'EndsAtTwo')).toMatchObject({ status: 'holds', premiseStates: 1 });
  });
});

describe('guards and queues', () => {
  // Three counters stepped from 0 to 1, and a reporter that reads them all but can only run
  // once a flag is up, which no step raises. Whole: 2^3 = 8 states. The reporter, disabled,
  // conflicts with every counter (it reads them): with its guard left to default (everything
  // it reads), every counter step may enable it, so nothing is reduced; with its guard declared
  // (the flag), none can, and one order of the steps is kept: 3 + 1 = 4 states.
  type S = List<number>;
  const withReporter = (guard: readonly string[] | undefined): Variant<S> => ({
    name: 'reporter',
    init: () => [List([0, 0, 0, 0])],
    actions: [
      action<S, number>('step', {
        params: (s) => [0, 1, 2].filter((i) => s.get(i) === 0),
        next: (s, i) => (s.get(i) === 0 ? s.set(i, 1) : undefined),
        domain: () => [0, 1, 2],
        footprint: (i) => ({ reads: [`x/${i}`], writes: [`x/${i}`] }),
      }),
      action<S>('report', {
        next: (s) => (s.get(3) === 1 ? s.set(3, 2 + s.get(0)! + s.get(1)! + s.get(2)!) : undefined),
        footprint: () => ({ reads: ['x/*', 'flag'], writes: ['flag'], ...(guard ? { guard } : {}) }),
      }),
    ],
    properties: [],
    checkDeadlock: false,
  });

  it('a declared guard lets a disabled step that reads everything stay out of the set (4 of 8 states; 8 without it)', () => {
    expect(checkVariant(withReporter(undefined), { partialOrder: false }).stats.distinctStates).toBe(8);
    expect(checkVariant(withReporter(undefined)).stats.distinctStates).toBe(8);
    expect(checkVariant(withReporter(['flag'])).stats.distinctStates).toBe(4);
  });

  it('an append and a take of one queue commute: a producer of 2 items and its consumer, 5 of the 6 states', () => {
    // State: [produced, consumed, ...queue]. Whole: consumed <= produced <= 2, 6 states; the
    // reduced search produces both items first, then consumes them.
    const v: Variant<S> = {
      name: 'queue',
      init: () => [List([0, 0])],
      actions: [
        action<S>('produce', {
          next: (s) => (s.get(0)! < 2 ? s.set(0, s.get(0)! + 1).push(s.get(0)! + 1) : undefined),
          footprint: () => ({ reads: ['produced'], writes: ['produced'], commuting: { queue: 'append' } }),
        }),
        action<S>('consume', {
          next: (s) => (s.size > 2 ? s.set(1, s.get(2)!).delete(2) : undefined),
          footprint: () => ({ reads: ['consumed'], writes: ['consumed'], commuting: { queue: 'take' } }),
        }),
      ],
      properties: [],
      checkDeadlock: false,
    };
    expect(checkVariant(v, { partialOrder: false }).stats.distinctStates).toBe(6);
    expect(checkVariant(v).stats.distinctStates).toBe(5);
  });

  it('a guard that leaves out what enables the step is caught (MC114)', () => {
    // The reporter's flag is raised by step 2, whose footprint does not say so.
    const v = withReporter(['flag']);
    const liar: Variant<S> = {
      ...v,
      actions: [
        action<S, number>('step', {
          params: (s) => [0, 1, 2].filter((i) => s.get(i) === 0),
          next: (s, i) => (s.get(i) === 0 ? (i === 2 ? s.set(i, 1).set(3, 1) : s.set(i, 1)) : undefined),
          domain: () => [0, 1, 2],
          footprint: (i) => ({ reads: [`x/${i}`], writes: [`x/${i}`] }),
        }),
        v.actions[1],
      ],
    };
    expect(() => checkVariant(liar)).toThrow(/after step\(2\), report takes a step it could not take before/);
  });
});

describe('the footprints are checked, not trusted', () => {
  it('a false claim of independence is MC114, naming both steps', () => {
    // A shared total written by every step, not declared: two steps reach different states.
    const v: Variant<List<number>> = {
      name: 'liar',
      init: () => [List([0, 0, 0])],
      actions: [
        action<List<number>, number>('step', {
          params: (s) => [0, 1].filter((i) => s.get(i)! < 1),
          next: (s, i) => s.set(i, 1).set(2, s.get(2)! * 2 + i + 1),
          domain: () => [0, 1],
          footprint: (i) => ({ reads: [`x/${i}`], writes: [`x/${i}`] }),
        }),
      ],
      properties: [],
      checkDeadlock: false,
    };
    expect(() => checkVariant(v)).toThrow(/MC114|step\(0\) then step\(1\) and step\(1\) then step\(0\) reach different states/);
  });

  it('a parameter outside the declared domain is MC113', () => {
    const v = counters(2, 1);
    const lying = { ...v, actions: [{ ...v.actions[0], domain: () => [0] }] };
    expect(() => checkVariant(lying)).toThrow(/domain\(\) does not list/);
  });
});

describe('reduced and whole searches agree on random models (fast-check)', () => {
  // Random models over a few shared cells: each action raises one cell while every cell it
  // reads is even. With truthful footprints (what it reads and writes) the reduction must keep
  // every verdict: the invariant's (reading one cell), deadlock's and settled states'. With
  // footprints that leave the guard's reads out, the sample must catch every lie that matters.
  const cells = 4;
  const arbAction = fc.record({
    reads: fc.uniqueArray(fc.integer({ min: 0, max: cells - 1 }), { maxLength: 2 }),
    write: fc.integer({ min: 0, max: cells - 1 }),
    add: fc.integer({ min: 1, max: 2 }),
    limit: fc.integer({ min: 1, max: 3 }),
  });
  type RandomAction = { reads: number[]; write: number; add: number; limit: number };
  const model = (acts: RandomAction[], watched: number, bound: number, truthful: boolean): Variant<List<number>> => ({
    name: 'random',
    init: () => [List(Array.from({ length: cells }, () => 0))],
    actions: acts.map((a, i) =>
      action<List<number>>(`a${i}`, {
        next: (s) =>
          s.get(a.write)! < a.limit && a.reads.every((r) => s.get(r)! % 2 === 0)
            ? s.set(a.write, Math.min(a.limit, s.get(a.write)! + a.add))
            : undefined,
        footprint: () => ({ reads: [...(truthful ? a.reads : []).map((r) => `c/${r}`), `c/${a.write}`], writes: [`c/${a.write}`] }),
      }),
    ),
    properties: [
      invariant<List<number>>('Bounded', 'the watched cell stays under the bound', (s) => s.get(watched)! < bound, {
        reads: [`c/${watched}`],
      }),
      settledInvariant<List<number>>('SettlesEven', 'settled states have an even first cell', (s) => s.get(0)! % 2 === 0),
    ],
    checkDeadlock: true,
  });
  const verdicts = (r: ReturnType<typeof checkVariant>) => r.properties.map((p) => [p.name, p.status]);
  const traces = (r: ReturnType<typeof checkVariant>) => r.violations.map((x) => [x.property, x.trace.length]);
  const args = [
    fc.array(arbAction, { minLength: 1, maxLength: 4 }),
    fc.integer({ min: 0, max: cells - 1 }),
    fc.integer({ min: 1, max: 4 }),
  ] as const;

  it('on 300 random models with truthful footprints', () => {
    let reducedSome = 0;
    let violatedSome = 0;
    fc.assert(
      fc.property(...args, (acts, watched, bound) => {
        const v = model(acts, watched, bound, true);
        const reduced = checkVariant(v);
        const whole = checkVariant(v, { partialOrder: false });
        expect(verdicts(reduced)).toEqual(verdicts(whole));
        expect(traces(reduced)).toEqual(traces(whole));
        expect(reduced.stats.distinctStates).toBeLessThanOrEqual(whole.stats.distinctStates);
        if (reduced.stats.distinctStates < whole.stats.distinctStates) reducedSome++;
        if (whole.violations.some((x) => x.property === 'Bounded')) violatedSome++;
      }),
      { numRuns: 300, seed: 20261205 },
    );
    // The runs exercised the reduction, and violations found through it.
    expect(reducedSome).toBeGreaterThan(30);
    expect(violatedSome).toBeGreaterThan(30);
  });

  it('with threads as with one: 100 random models, searched by three expanders splitting every level', async () => {
    const samples = fc.sample(fc.tuple(...args), { numRuns: 100, seed: 20261207 });
    let reducedSome = 0;
    for (const [acts, watched, bound] of samples) {
      const v = model(acts, watched, bound, true);
      const one = checkVariant(v);
      const split = await checkVariantParallel(v, {}, [expanderInThisThread(v, {}), expanderInThisThread(v, {})], { warmUp: 0 });
      expect(comparableResult(split)).toEqual(comparableResult(one));
      if ((one.stats.reduction?.reducedStates ?? 0) > 0) reducedSome++;
    }
    expect(reducedSome).toBeGreaterThan(10);
  });

  it('on 300 random models whose footprints leave reads out: MC114, or the verdicts of the whole search', () => {
    let caught = 0;
    fc.assert(
      fc.property(...args, (acts, watched, bound) => {
        const v = model(acts, watched, bound, false);
        const whole = checkVariant(v, { partialOrder: false });
        let reduced: ReturnType<typeof checkVariant>;
        try {
          reduced = checkVariant(v);
        } catch (e) {
          expect((e as ModelError).code).toBe('MC114_NOT_INDEPENDENT');
          caught++;
          return;
        }
        // The verdicts, not the traces: a lie the reduced search never meets in a sampled state
        // can still change which path it takes (a step that disables another, taken only in
        // states the reduced search skips, makes a settled state one step further away).
        expect(verdicts(reduced)).toEqual(verdicts(whole));
      }),
      { numRuns: 300, seed: 20261206 },
    );
    expect(caught).toBeGreaterThan(30);
  });
});
