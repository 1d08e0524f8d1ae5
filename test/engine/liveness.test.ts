// Liveness on small models whose answers are counted by hand (test/fixtures/liveness.ts).
// Semantics as in TLA+: behaviours may stutter for ever unless fairness forbids it, and a step
// counts for fairness only when it changes the state.
import { describe, expect, it } from 'vitest';
import { checkVariant, type VariantResult } from '../../src/index.ts';
import { counter, lock, peterson } from '../fixtures/liveness.ts';

function status(r: VariantResult, name: string) {
  return r.properties.find((p) => p.name === name)?.status;
}

function lasso(r: VariantResult, name: string) {
  const v = r.violations.find((x) => x.property === name);
  if (!v) throw new Error(`${name} is not violated`);
  return { actions: v.trace.map((t) => t.action), states: v.trace.map((t) => t.state), loop: v.loop, loopAction: v.loopAction };
}

describe('stuttering: a counter that counts to 3 and stops', () => {
  it('with no fairness, every behaviour may stop at once: each property fails by stuttering in a first state, with a warning', () => {
    const r = checkVariant(counter({ fair: false }));
    expect(r.stats.distinctStates).toBe(4);
    for (const name of ['ReachesFive', 'ReachesThree', 'EndsAtThree']) {
      // The initial state 0 repeated for ever: prefix 0 steps, cycle 1 state, no step back.
      expect(lasso(r, name)).toEqual({ actions: [null], states: [0], loop: 0, loopAction: null });
    }
    // []<>(x = 0): stutter in any state other than 0; state 1 is the nearest.
    expect(lasso(r, 'ZeroInfinitelyOften')).toEqual({ actions: [null, 'inc'], states: [0, 1], loop: 1, loopAction: null });
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain('no fairness at all');
  });

  it('with weak fairness the counter reaches 3 and stays there; the state with no successor stutters for ever', () => {
    const r = checkVariant(counter({ fair: true }));
    expect(status(r, 'ReachesThree')).toBe('holds');
    expect(status(r, 'EndsAtThree')).toBe('holds');
    const stuckAtThree = { actions: [null, 'inc', 'inc', 'inc'], states: [0, 1, 2, 3], loop: 3, loopAction: null };
    expect(lasso(r, 'ReachesFive')).toEqual(stuckAtThree);
    expect(lasso(r, 'ZeroInfinitelyOften')).toEqual(stuckAtThree);
    expect(r.warnings).toEqual([]);
    expect(r.stats.livenessSeconds).toBeGreaterThanOrEqual(0);
  });

  it('a state whose only successor is itself is the same stuttering cycle: that step is not a step of the action', () => {
    const r = checkVariant(counter({ fair: true, selfLoop: true }));
    expect(status(r, 'ReachesThree')).toBe('holds');
    expect(lasso(r, 'ReachesFive')).toEqual({ actions: [null, 'inc', 'inc', 'inc'], states: [0, 1, 2, 3], loop: 3, loopAction: null });
  });
});

describe('a lock shared by two processes: weak fairness is not enough, strong fairness is', () => {
  it('has 8 states, 15 generated, depth 4 (3 x 3 program counters, both critical excluded; counted by hand)', () => {
    const r = checkVariant(lock('none'));
    expect(r.stats).toMatchObject({ distinctStates: 8, statesGenerated: 15, depth: 4 });
  });

  it('with no fairness, process 1 waits and nothing ever happens again', () => {
    const r = checkVariant(lock('none'));
    const l = lasso(r, 'WaitingProcess1Enters');
    expect(l.actions).toEqual([null, 'request(1)']);
    expect(l.loop).toBe(1);
    expect(l.loopAction).toBeNull();
  });

  it('under weak fairness process 0 takes the lock again and again: its acquire is disabled once a round, so WF allows it', () => {
    const r = checkVariant(lock('weak'));
    expect(r.verdict).toBe('violated');
    const l = lasso(r, 'WaitingProcess1Enters');
    // Prefix of 1 step to (idle, waiting); cycle of 3 states: (idle, waiting) -> (waiting,
    // waiting) -> (critical, waiting) -> back by release(0). Process 1's acquire is disabled in
    // (critical, waiting), so weak fairness of it is kept without taking it.
    expect(l.actions).toEqual([null, 'request(1)', 'request(0)', 'acquire(0)']);
    expect(l.loop).toBe(1);
    expect(l.loopAction).toBe('release(0)');
    expect(l.states.map((s) => `${(s as { pc0: string }).pc0}/${(s as { pc1: string }).pc1}`)).toEqual([
      'idle/idle',
      'idle/waiting',
      'waiting/waiting',
      'critical/waiting',
    ]);
  });

  it('under strong fairness of acquire the waiting process gets the lock', () => {
    const r = checkVariant(lock('strong'));
    expect(status(r, 'WaitingProcess1Enters')).toBe('holds');
    expect(r.verdict).toBe('proved');
  });
});

describe("Peterson's mutual exclusion: no starvation under weak fairness per process", () => {
  it('without fairness, process 0 raises its flag and stops', () => {
    const r = checkVariant(peterson('none'));
    const l = lasso(r, 'NoStarvation');
    expect(l.actions).toEqual([null, 'step(0)']);
    expect(l.loop).toBe(1);
    expect(l.loopAction).toBeNull();
  });

  it('with weak fairness of each process it holds', () => {
    const r = checkVariant(peterson('weak'));
    expect(status(r, 'NoStarvation')).toBe('holds');
    expect(r.verdict).toBe('proved');
  });

  it('even with the two processes as one weakly fair group: once process 0 has its flag up, process 1 can pass at most once before it must wait', () => {
    // Process 1 sets turn := 0 before it waits, and waits while flag0 /\ turn = 0, so it can
    // never run on alone; the group's fairness then has to move process 0.
    const base = peterson('weak');
    const r = checkVariant({ ...base, fairness: [{ ...base.fairness![0], perParameter: false }] });
    expect(status(r, 'NoStarvation')).toBe('holds');
  });
});

describe('checking liveness needs the whole graph', () => {
  it('a search stopped by --max-states leaves liveness unknown, never holds', () => {
    const r = checkVariant(lock('strong'), { maxStates: 3 });
    expect(r.verdict).toBe('incomplete');
    expect(status(r, 'WaitingProcess1Enters')).toBe('unknown');
    expect(r.stats.livenessSeconds).toBe(0);
  });
});
