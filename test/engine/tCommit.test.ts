// TCommit.tla (Lamport's transaction commit spec) with three resource managers, a model
// whose counts can be derived by hand; the derivation is below.
import { describe, expect, it } from 'vitest';
import { check } from 'modelcheck';
import tCommit from '../fixtures/tCommit.ts';

// Hand count. Let w, p, a, c be how many RMs are working, prepared, aborted, committed.
// Reachable states:
//   - no RM committed: each RM is working, prepared or aborted, all reachable: 3^3 = 27;
//   - some RM committed: Commit needs all prepared or committed, and Abort needs none
//     committed, so every RM is prepared or committed, at least one committed: 2^3 - 1 = 7.
//   34 distinct.
// Successors (each enabled (action, RM) pair gives one):
//   - Prepare: one per working RM, in the 27 no-commit states: 27 states * 3 RMs / 3 = 27;
//   - DecideAbort: one per working or prepared RM in the 27 no-commit states: 3 * 18 = 54;
//   - DecideCommit: 3 in the all-prepared state, plus one per prepared RM in the 7 states with
//     a commit (12 prepared RMs over all 8 prepared/committed assignments, less the 3 of
//     all-prepared): 3 + 9 = 12.
//   93 successors + 1 initial state = 94 generated.
// Depth: all-committed needs 3 Prepares and 3 Commits, the longest shortest path: depth 7.
describe('TCommit with three resource managers (hand count)', () => {
  const [v] = check(tCommit).variants;

  it('explores 34 distinct states, 94 generated, depth 7', () => {
    expect([v.stats.distinctStates, v.stats.statesGenerated, v.stats.depth]).toEqual([34, 94, 7]);
  });

  it('fires Prepare 27 times, DecideCommit 12 and DecideAbort 54, finding 33 new states in all', () => {
    expect(v.stats.coverage.map((c) => [c.action, c.enabled])).toEqual([
      ['Prepare', 27],
      ['DecideCommit', 12],
      ['DecideAbort', 54],
    ]);
    // Every distinct state but the initial one is new exactly once.
    expect(v.stats.coverage.reduce((n, c) => n + c.newStates, 0)).toBe(33);
  });

  it('proves TCConsistent', () => {
    expect(v.verdict).toBe('proved');
    expect(v.properties.map((p) => [p.name, p.status])).toEqual([['TCConsistent', 'holds']]);
  });
});
