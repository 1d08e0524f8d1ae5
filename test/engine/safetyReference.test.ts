// The safety search compared with a deliberately simple reference (test/helpers/safetyReference.ts)
// on random small transition systems that fast-check generates: the same reachable set, distinct
// states, generated states and depth; the same verdicts for the invariant and for deadlock; and
// each counterexample a real path from an initial state, of the reference's shortest length,
// ending where the property fails. fast-check runs a fixed seed, so every run checks the same
// systems; a failure prints the shrunk system that breaks the property.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkVariant, simulateVariant, type VariantResult } from 'modelcheck';
import {
  referenceSearch,
  smallSystems,
  successors,
  variantOf,
  type ReferenceResult,
  type SmallSystem,
} from '../helpers/safetyReference.ts';

/** Systems of 1 to 12 states, 1 to 3 actions, up to three edges a state, one state in eight bad. */
const system = smallSystems(12);

const RUNS = { numRuns: 2000, seed: 20261203 };

/** Checks that `trace` is a path of `sys` from an initial state; returns its last state. */
function walk(sys: SmallSystem, trace: readonly { action: string | null; state: number }[]): number {
  expect(trace[0].action).toBeNull();
  expect(sys.init).toContain(trace[0].state);
  for (let i = 1; i < trace.length; i++) {
    const step = successors(sys, trace[i - 1].state).find((x) => `a${x.action}(${x.to})` === trace[i].action && x.to === trace[i].state);
    expect(step, `step ${i} (${trace[i].action}) is an edge`).toBeDefined();
  }
  return trace[trace.length - 1].state;
}

/**
 * `property` is violated exactly when one of `targets` is reachable, by a real path of the
 * reference's shortest length to one of them; returns where that path ends (none: not violated).
 */
function expectShortest(
  r: VariantResult<number>,
  property: string,
  ref: ReferenceResult,
  targets: readonly number[],
  sys: SmallSystem,
): number | undefined {
  const x = r.violations.find((v) => v.property === property);
  if (targets.length === 0) {
    expect(x).toBeUndefined();
    return undefined;
  }
  expect(x!.trace.length).toBe(Math.min(...targets.map((s) => ref.distance.get(s)!)));
  return walk(sys, x!.trace);
}

describe('the safety search agrees with a textbook breadth-first search on random small systems', () => {
  it('the systems generated cover the cases: bad states reachable or not, deadlocks or not, larger graphs', () => {
    const refs = fc.sample(system, RUNS).map((sys) => ({ sys, ref: referenceSearch(sys) }));
    const share = (f: (x: (typeof refs)[number]) => boolean) => refs.filter(f).length / refs.length;
    const badReachable = share(({ sys, ref }) => [...ref.reachable].some((s) => sys.bad[s]));
    const deadlocked = share(({ ref }) => ref.deadlocks.length > 0);
    for (const x of [badReachable, 1 - badReachable, deadlocked, 1 - deadlocked]) expect(x).toBeGreaterThan(0.1);
    expect(share(({ ref }) => ref.reachable.size >= 6)).toBeGreaterThan(0.1);
    expect(share(({ ref }) => ref.depth >= 5)).toBeGreaterThan(0.05);
  });

  it('the same reachable states, distinct and generated counts, and depth', () => {
    fc.assert(
      fc.property(system, (sys) => {
        const seen = new Set<number>();
        const r = checkVariant(variantOf(sys, seen, false));
        const ref = referenceSearch(sys);
        expect([...seen].sort((a, b) => a - b)).toEqual([...ref.reachable].sort((a, b) => a - b));
        expect({ distinct: r.stats.distinctStates, generated: r.stats.statesGenerated, depth: r.stats.depth }).toEqual({
          distinct: ref.reachable.size,
          generated: ref.generated,
          depth: ref.depth,
        });
      }),
      RUNS,
    );
  });

  it('the invariant is violated exactly when a bad state is reachable, by a shortest path to one', () => {
    fc.assert(
      fc.property(system, (sys) => {
        const r = checkVariant(variantOf(sys, new Set(), false));
        const ref = referenceSearch(sys);
        const last = expectShortest(
          r,
          'NotBad',
          ref,
          [...ref.reachable].filter((s) => sys.bad[s]),
          sys,
        );
        expect(r.verdict).toBe(last === undefined ? 'proved' : 'violated');
        if (last !== undefined) expect(sys.bad[last]).toBe(true);
      }),
      RUNS,
    );
  });

  it('a deadlock is reported exactly when a reachable state has no step out, by a shortest path to one', () => {
    fc.assert(
      fc.property(system, (sys) => {
        const r = checkVariant(variantOf(sys, new Set(), true));
        const ref = referenceSearch(sys);
        const last = expectShortest(r, 'Deadlock', ref, ref.deadlocks, sys);
        if (last !== undefined) expect(successors(sys, last)).toEqual([]);
      }),
      RUNS,
    );
  });

  it('the same counts and the same counterexamples on every run (determinism)', () => {
    fc.assert(
      fc.property(system, (sys) => {
        const once = checkVariant(variantOf(sys, new Set(), true));
        const again = checkVariant(variantOf(sys, new Set(), true));
        const summary = (r: typeof once) => ({
          stats: [r.stats.distinctStates, r.stats.statesGenerated, r.stats.depth],
          violations: r.violations.map((v) => [v.property, v.trace.map((t) => t.action)]),
        });
        expect(summary(again)).toEqual(summary(once));
      }),
      { numRuns: 300, seed: 20261203 },
    );
  });

  it('random simulation reports only real violations, never a proof, and never a path shorter than the shortest', () => {
    fc.assert(
      fc.property(system, fc.nat(2 ** 32 - 1), (sys, seed) => {
        const r = simulateVariant(variantOf(sys, new Set(), true), { runs: 20, depth: 8, seed });
        const ref = referenceSearch(sys);
        expect(r.verdict).not.toBe('proved');
        expect(r.incompleteReason).toBe('simulation');
        expect(r.stats.distinctStates).toBeLessThanOrEqual(ref.reachable.size);
        for (const x of r.violations) {
          const last = walk(sys, x.trace);
          const targets = x.property === 'NotBad' ? [...ref.reachable].filter((q) => sys.bad[q]) : ref.deadlocks;
          expect(targets).toContain(last);
          expect(x.trace.length).toBeGreaterThanOrEqual(Math.min(...targets.map((q) => ref.distance.get(q)!)));
        }
        // The same seed, the same simulation.
        const again = simulateVariant(variantOf(sys, new Set(), true), { runs: 20, depth: 8, seed });
        expect(again.violations).toEqual(r.violations);
        expect(again.stats.statesGenerated).toBe(r.stats.statesGenerated);
      }),
      { numRuns: 500, seed: 20261203 },
    );
  });

  it('an exact search (--exact: full encodings, no fingerprints) gives the same results as the normal one', () => {
    fc.assert(
      fc.property(system, (sys) => {
        const normal = checkVariant(variantOf(sys, new Set(), true));
        const exact = checkVariant(variantOf(sys, new Set(), true), { exact: true });
        const summary = (r: typeof normal) => ({
          verdict: r.verdict,
          stats: [r.stats.distinctStates, r.stats.statesGenerated, r.stats.depth],
          violations: r.violations.map((v) => [v.property, v.trace.map((t) => [t.action, t.state])]),
        });
        expect(summary(exact)).toEqual(summary(normal));
        expect(exact.stats.exact?.collisions).toBe(0);
        expect(exact.stats.collisionProbability).toBe(0);
      }),
      { numRuns: 300, seed: 20261203 },
    );
  });
});
