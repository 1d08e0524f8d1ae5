// The explorer's walk over a variant (src/explore/walk.ts): initial states, enabled steps, a path
// replayed from labels, and properties along it. Die Hard's figures are TLC's (DieHard.tla in the
// TLA+ examples): from the empty jugs six steps are enabled, of which EmptySmallJug, EmptyBigJug,
// SmallToBig and BigToSmall leave the state as it is; the shortest solution is the 7-state trace
// below, and its last step is the one that violates NotSolved.
import { describe, expect, it } from 'vitest';
import { Record } from 'immutable';
import { action, defineSingleModel, invariant, ModelError } from 'modelcheck';
import { Walk } from '../../src/explore/walk.ts';
import dieHard from '../fixtures/dieHard.ts';
import { DIE_HARD_JUGS, DIE_HARD_STEPS } from '../fixtures/dieHardSolution.ts';

const SOLUTION = DIE_HARD_STEPS;

describe('walking Die Hard by hand', () => {
  const walk = new Walk(dieHard.name, dieHard.variants[0]);

  it('offers every action in the initial state, marking those that change nothing', () => {
    const [s0] = walk.initialStates();
    const steps = walk.enabled([{ action: null, state: s0 }]);
    expect(steps.map((x) => [x.label, x.stutters])).toEqual([
      ['FillSmallJug', false],
      ['FillBigJug', false],
      ['EmptySmallJug', true],
      ['EmptyBigJug', true],
      ['SmallToBig', true],
      ['BigToSmall', true],
    ]);
  });

  it("follows TLC's shortest solution and marks NotSolved violated by its last step only", () => {
    const { trace, refusal } = walk.walk(0, SOLUTION);
    expect(refusal).toBeUndefined();
    const jugs = trace.map((t) => [(t.state as { small: number }).small, (t.state as { big: number }).big]);
    expect(jugs).toEqual(DIE_HARD_JUGS);
    const at = (n: number) => {
      const prefix = trace.slice(0, n);
      return walk.properties(prefix, walk.enabled(prefix));
    };
    expect(at(6).find((p) => p.name === 'NotSolved')).toMatchObject({ value: 'holds', justViolated: false });
    expect(at(7).find((p) => p.name === 'NotSolved')).toMatchObject({ value: 'violated', justViolated: true });
    // Die Hard checks deadlock; some step is always enabled.
    expect(at(7).find((p) => p.name === 'Deadlock')).toMatchObject({ value: 'holds' });
  });

  it('refuses a path at the step that is not enabled, saying which and what is', () => {
    const { trace, refusal } = walk.walk(0, ['FillBigJug', 'Fly', 'BigToSmall']);
    expect(trace.length).toBe(2);
    expect(refusal).toMatchObject({ at: 2, label: 'Fly', reason: 'variant default has no action Fly' });
    expect(refusal?.enabled).toContain('BigToSmall');
    expect(walk.walk(3, []).refusal).toMatchObject({ at: 0, reason: 'variant default has 1 initial state', enabled: ['init'] });
  });
});

describe('faults met while walking', () => {
  const S = Record({ n: 0 }, 'S');
  type S = ReturnType<typeof S>;
  const broken = defineSingleModel<S>({
    name: 'Broken',
    init: () => [S()],
    actions: [
      action<S, number>('bump', {
        params: () => [1, 2],
        next: (s, k) => {
          if (k === 2 && s.n === 1) throw new Error('no bumping by 2 here');
          return s.set('n', s.n + k);
        },
      }),
    ],
    properties: [invariant<S>('Small', 'n stays below 10.', (s) => s.n < 10)],
  });

  it("reports an action that throws as a search would, naming the model, the action and the path's last state", () => {
    const walk = new Walk(broken.name, broken.variants[0]);
    let error: unknown;
    try {
      walk.walk(0, ['bump(1)', 'bump(1)']);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelError);
    const e = error as ModelError;
    expect(e.code).toBe('MC101_ACTION_THREW');
    expect(e.message).toBe('action bump threw Error: no bumping by 2 here');
    expect(e.details).toMatchObject({ model: 'Broken', variant: 'default', subject: 'bump', depth: 2 });
    expect(e.details.trace?.map((t) => t.action)).toEqual([null, 'bump(1)']);
  });
});

describe('walking past the state constraint, and why a step is refused', () => {
  const C = Record({ n: 0 }, 'C');
  type C = ReturnType<typeof C>;
  const counter = defineSingleModel<C>({
    name: 'Counter',
    init: () => [C()],
    // A search stores n = 0 and 1, counts n = 2 without expanding it, and never reaches 3.
    constraint: (s) => s.n <= 1,
    actions: [action<C, number>('add', { params: () => [1, 2], next: (s, k) => (k === 1 ? s.set('n', s.n + 1) : undefined) })],
    properties: [invariant<C>('Small', 'n stays below 2.', (s) => s.n < 2)],
  });
  const walk = new Walk(counter.name, counter.variants[0]);
  const at = (steps: string[]) => {
    const { trace } = walk.walk(0, steps);
    return Object.fromEntries(walk.properties(trace, walk.enabled(trace)).map((p) => [p.name, p.value]));
  };

  it('judges the invariants of a state outside the constraint, as a search does, and nothing past it', () => {
    expect(at(['add(1)'])).toEqual({ Small: 'holds', Deadlock: 'holds' });
    // n = 2: outside; a search checks its invariants but never expands it, so it is never stuck.
    expect(at(['add(1)', 'add(1)'])).toEqual({ Small: 'violated', Deadlock: 'outside' });
    expect(at(['add(1)', 'add(1)', 'add(1)'])).toEqual({ Small: 'outside', Deadlock: 'outside' });
    const { trace } = walk.walk(0, ['add(1)']);
    expect(walk.enabled(trace).map((x) => [x.label, x.outsideConstraint])).toEqual([['add(1)', true]]);
  });

  it('tells a guard that is false from a parameter the action does not offer', () => {
    expect(walk.walk(0, ['add(2)']).refusal?.reason).toBe(
      'add(2) is not enabled in state 1 (after the initial state): its guard is false there (next() returned undefined)',
    );
    expect(walk.walk(0, ['add(3)']).refusal?.reason).toBe(
      'add(3) is not enabled in state 1 (after the initial state): add does not offer that parameter there',
    );
  });
});
