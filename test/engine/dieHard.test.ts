import { describe, expect, it } from 'vitest';
import { check } from 'modelcheck';
import dieHard from '../fixtures/dieHard.ts';
import { DIE_HARD_JUGS, DIE_HARD_STEPS } from '../fixtures/dieHardSolution.ts';

describe('Die Hard jugs (TLC figures: DieHard.tla in the TLA+ examples)', () => {
  const [v] = check(dieHard).variants;

  it('explores the whole graph with TLC counts: 16 distinct, 97 generated, depth 8', () => {
    expect(v.stats.distinctStates).toBe(16);
    expect(v.stats.statesGenerated).toBe(97);
    expect(v.stats.depth).toBe(8);
  });

  it('finds the shortest solution, 7 states long, as TLC does', () => {
    expect(v.verdict).toBe('violated');
    expect(v.metExpectations).toBe(true);
    const trace = v.violations[0].trace;
    expect(trace.map((s) => s.action)).toEqual([null, ...DIE_HARD_STEPS]);
    expect(trace.map((s) => [(s.state as { small: number }).small, (s.state as { big: number }).big])).toEqual(DIE_HARD_JUGS);
  });
});
