// Classic models reproducing TLC's published figures exactly. The figures are TLC's own, as the
// TLA+ examples repository records them for each model in its manifest.json files
// (github.com/tlaplus/Examples at 32a32c7b0b97562da2dd4b2e55b7f81cd6fea2b9):
//   - specifications/locks_auxiliary_vars/Peterson.cfg: 42 distinct states, 77 total, depth 11, success;
//   - specifications/DiningPhilosophers/DiningPhilosophers.cfg (NP = 5, NobodyStarves under the
//     processes' weak fairness): 67 distinct, 336 total, depth 29, success;
//   - specifications/transaction_commit/TwoPhase.cfg (RM = {r1, r2, r3}): 288 distinct, 1146
//     total, depth 11, success.
// TLC's "total" counts every generated state, initial states included, as `statesGenerated`
// does. TCommit (34, 94, 7 in the same manifest) is test/engine/tCommit.test.ts, Die Hard
// test/engine/dieHard.test.ts.
import { describe, expect, it } from 'vitest';
import { check, checkVariant } from 'modelcheck';
import peterson from '../fixtures/classic/peterson.ts';
import diningPhilosophers from '../fixtures/classic/diningPhilosophers.ts';
import twoPhase from '../fixtures/classic/twoPhase.ts';
import twoPhasePlain from '../fixtures/classic/twoPhasePlain.ts';
import twoPhasePacked from '../fixtures/classic/twoPhasePacked.ts';
import twoPhaseRecord from '../fixtures/classic/twoPhaseRecord.ts';

const figures = (model: Parameters<typeof check>[0]) => {
  const [v] = check(model).variants;
  return { verdict: v.verdict, distinct: v.stats.distinctStates, generated: v.stats.statesGenerated, depth: v.stats.depth };
};

describe('classic models give the figures TLC publishes for them', () => {
  it("Peterson's mutex (two processes): 42 distinct states, 77 generated, depth 11, mutual exclusion holds", () => {
    expect(figures(peterson)).toEqual({ verdict: 'proved', distinct: 42, generated: 77, depth: 11 });
  });

  it('the dining philosophers (Chandy-Misra, five): 67 distinct states, 336 generated, depth 29, nobody starves', () => {
    expect(figures(diningPhilosophers)).toEqual({ verdict: 'proved', distinct: 67, generated: 336, depth: 29 });
  });

  it('two-phase commit (three resource managers): 288 distinct states, 1146 generated, depth 11', () => {
    expect(figures(twoPhase)).toEqual({ verdict: 'proved', distinct: 288, generated: 1146, depth: 11 });
  });

  it('two-phase commit written with plain objects and sorted arrays: the same 288 / 1146 / 11', () => {
    expect(figures(twoPhasePlain)).toEqual({ verdict: 'proved', distinct: 288, generated: 1146, depth: 11 });
  });

  it('two-phase commit with its state packed by hand into small integers: the same 288 / 1146 / 11', () => {
    expect(figures(twoPhasePacked)).toEqual({ verdict: 'proved', distinct: 288, generated: 1146, depth: 11 });
  });

  it('two-phase commit with its state declared as a packed record: the same 288 / 1146 / 11', () => {
    expect(figures(twoPhaseRecord)).toEqual({ verdict: 'proved', distinct: 288, generated: 1146, depth: 11 });
  });

  it('an exact search (--exact) gives the same figures, with no fingerprint collision met', () => {
    for (const [model, distinct, generated, depth] of [
      [peterson, 42, 77, 11],
      [diningPhilosophers, 67, 336, 29],
      [twoPhase, 288, 1146, 11],
      [twoPhasePlain, 288, 1146, 11],
      [twoPhasePacked, 288, 1146, 11],
      [twoPhaseRecord, 288, 1146, 11],
    ] as const) {
      const [v] = check(model, { exact: true }).variants;
      expect([v.verdict, v.stats.distinctStates, v.stats.statesGenerated, v.stats.depth]).toEqual(['proved', distinct, generated, depth]);
      expect(v.stats.exact?.collisions).toBe(0);
    }
  });

  it('the dining philosophers starve without fairness: a philosopher may simply stop', () => {
    const [v] = diningPhilosophers.variants;
    const r = checkVariant({
      ...v,
      fairness: [],
      expectedViolations: ['NobodyStarves1', 'NobodyStarves2', 'NobodyStarves3', 'NobodyStarves4', 'NobodyStarves5'],
    });
    expect(r.metExpectations).toBe(true);
    // With no fairness every behaviour may stutter for ever at once: the lasso is the initial state.
    for (const x of r.violations) expect(x.trace.length).toBe(1);
  });
});
