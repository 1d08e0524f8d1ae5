// Faults in a model come out as ModelError with a code, naming what went wrong and where;
// one small model per code.
import { describe, expect, it } from 'vitest';
import { Map } from 'immutable';
import {
  action,
  actionProperty,
  check,
  checkVariant,
  defineModel,
  invariant,
  ModelError,
  type ModelErrorCode,
  type Variant,
} from 'modelcheck';
import { settlingCounter, stoppingCounter } from '../fixtures/counters.ts';

/** The ModelError that `run` throws. */
function modelError(run: () => unknown): ModelError {
  try {
    run();
  } catch (e) {
    if (e instanceof ModelError) return e;
    throw e;
  }
  throw new Error('no ModelError was thrown');
}

const codeOf = (run: () => unknown): ModelErrorCode => modelError(run).code;

describe('ModelError codes', () => {
  it('MC100: a variant whose init() yields nothing', () => {
    const e = modelError(() => checkVariant({ ...stoppingCounter(3), init: () => [] }));
    expect(e.code).toBe('MC100_NO_INIT_STATE');
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('ModelError');
  });

  it('MC101: an action that throws, named in the message, with the trace to the state it threw in', () => {
    const v: Variant<number> = {
      name: 'boom',
      init: () => [0],
      actions: [
        action<number>('inc', { next: (s) => s + 1 }),
        action<number>('explode', {
          next: (s) => {
            if (s === 2) throw new TypeError('no fuse');
            return undefined;
          },
        }),
      ],
      properties: [],
    };
    const e = modelError(() => checkVariant(v));
    expect(e.code).toBe('MC101_ACTION_THREW');
    expect(e.message).toMatch(/action explode threw TypeError: no fuse/);
    expect(e.details.subject).toBe('explode');
    expect(e.details.cause).toBeInstanceOf(TypeError);
    // explode first runs in 2 after inc, inc from 0: a 3-state trace ending at 2, depth 3.
    expect(e.details.trace?.map((s) => s.state)).toEqual([0, 1, 2]);
    expect(e.details.trace?.map((s) => s.action)).toEqual([null, 'inc', 'inc']);
    expect(e.details.depth).toBe(3);
  });

  it('MC101: an action whose params() throws', () => {
    const v: Variant<number> = {
      ...stoppingCounter(3),
      actions: [
        action<number, number>('pick', {
          params: () => {
            throw new Error('no choices');
          },
          next: (s) => s,
        }),
      ],
    };
    const e = modelError(() => checkVariant(v));
    expect(e.code).toBe('MC101_ACTION_THREW');
    expect(e.message).toMatch(/action pick threw/);
  });

  it('MC101: an init() that throws', () => {
    const e = modelError(() =>
      checkVariant({
        ...stoppingCounter(3),
        init: () => {
          throw new Error('bad start');
        },
      }),
    );
    expect(e.code).toBe('MC101_ACTION_THREW');
    expect(e.message).toMatch(/init\(\) threw Error: bad start/);
  });

  it('MC102: a successor holding a JavaScript Map, with the path in the message', () => {
    const v: Variant<unknown> = {
      name: 'jsMap',
      init: () => [Map({ n: 0 })],
      actions: [action<unknown>('wrap', { next: () => Map({ n: { count: new globalThis.Map() } }) })],
      properties: [],
    };
    const e = modelError(() => checkVariant(v));
    expect(e.code).toBe('MC102_NOT_A_STATE_VALUE');
    expect(e.message).toMatch(/the successor produced by wrap holds a JavaScript Map .* at \[n\]\.count/);
    expect(e.details.subject).toBe('wrap');
  });

  it('MC102: an initial state that is a Date', () => {
    const e = modelError(() => checkVariant({ name: 'dateInit', init: () => [new Date(0)], actions: [], properties: [] }));
    expect(e.code).toBe('MC102_NOT_A_STATE_VALUE');
    expect(e.message).toMatch(/an initial state holds a Date/);
  });

  it('MC103: a predicate that throws', () => {
    const v = settlingCounter(3, [
      invariant<number>('Picky', 'Throws on 2.', (s) => {
        if (s === 2) throw new RangeError('two');
        return true;
      }),
    ]);
    const e = modelError(() => checkVariant(v));
    expect(e.code).toBe('MC103_PREDICATE_THREW');
    expect(e.message).toMatch(/property Picky threw RangeError: two/);
    expect(e.details.trace?.map((s) => s.state)).toEqual([0, 1, 2]);
  });

  it('MC104: a predicate that returns a number', () => {
    const v = settlingCounter(3, [invariant<number>('Numeric', 'Returns the counter.', (s) => s as unknown as boolean)]);
    const e = modelError(() => checkVariant(v));
    expect(e.code).toBe('MC104_NOT_A_BOOLEAN');
    expect(e.message).toMatch(/property Numeric returned number, not a boolean/);
  });

  it('MC104: an action property that returns undefined', () => {
    const v = settlingCounter(3, [actionProperty<number>('Silent', 'Returns nothing.', () => undefined as unknown as boolean)]);
    expect(codeOf(() => checkVariant(v))).toBe('MC104_NOT_A_BOOLEAN');
  });

  it('MC105: two actions with one name', () => {
    const v: Variant<number> = {
      ...stoppingCounter(3),
      actions: [action<number>('inc', { next: (s) => s + 1 }), action<number>('inc', { next: (s) => s + 2 })],
    };
    const e = modelError(() => checkVariant(v));
    expect(e.code).toBe('MC105_DUPLICATE_NAME');
    expect(e.details.subject).toBe('inc');
  });

  it('MC105: two properties with one name', () => {
    const p = invariant<number>('Same', 'Holds.', () => true);
    expect(codeOf(() => checkVariant(settlingCounter(3, [p, p])))).toBe('MC105_DUPLICATE_NAME');
  });

  it('MC105: a property named Deadlock while deadlock is checked', () => {
    const p = invariant<number>('Deadlock', 'Shadows the built-in.', () => true);
    expect(codeOf(() => checkVariant(settlingCounter(3, [p])))).toBe('MC105_DUPLICATE_NAME');
  });

  it('MC105: two variants with one name', () => {
    const m = defineModel({ name: 'twins', variants: [settlingCounter(3), settlingCounter(3)] });
    expect(codeOf(() => check(m))).toBe('MC105_DUPLICATE_NAME');
  });

  it('MC106: expectedViolations naming an unknown property', () => {
    const e = modelError(() => checkVariant({ ...settlingCounter(3), expectedViolations: ['NoSuchThing'] }));
    expect(e.code).toBe('MC106_UNKNOWN_EXPECTATION');
    expect(e.details.subject).toBe('NoSuchThing');
  });

  it('MC106: expecting a deadlock while deadlock is not checked', () => {
    const v = { ...stoppingCounter(3), checkDeadlock: false, expectedViolations: ['Deadlock'] };
    expect(codeOf(() => checkVariant(v))).toBe('MC106_UNKNOWN_EXPECTATION');
  });

  it('MC004: check() asked for a variant the model does not have', () => {
    const m = defineModel({ name: 'one', variants: [settlingCounter(3)] });
    const e = modelError(() => check(m, { variant: 'nope' }));
    expect(e.code).toBe('MC004_UNKNOWN_VARIANT');
    expect(e.details.subject).toBe('nope');
  });

  it('MC107: an action that gives a different successor when its state is expanded twice', () => {
    // tick reads a counter outside the state: expanding 0 gives 1, expanding it again 2. The
    // first 64 states are all expanded twice, so the search itself finds it, at state 0.
    let calls = 0;
    const v: Variant<number> = {
      name: 'nondeterministic',
      init: () => [0],
      actions: [action<number>('tick', { next: (s) => (s === 0 ? ++calls : undefined) })],
      properties: [invariant<number>('NotOne', 'The counter is never 1.', (s) => s !== 1)],
      checkDeadlock: false,
    };
    const e = modelError(() => checkVariant(v));
    expect(e.code).toBe('MC107_NOT_DETERMINISTIC');
    expect(e.details.subject).toBe('tick');
    expect(e.message).toBe('action tick is not deterministic: called twice on the same state, it gave different successors');
    expect(e.details.trace?.map((t) => t.state)).toEqual([0]);
  });

  it('MC107: an action that gives a different successor when replayed for the trace (a state outside the sample)', () => {
    // Nondeterministic only at 100 (state id 100: neither among the first 64 nor a multiple
    // of 64), so only the replay of NotAbove100's trace through it finds it.
    let calls = 0;
    const v: Variant<number> = {
      name: 'nondeterministicLate',
      init: () => [0],
      actions: [action<number>('tick', { next: (s) => (s < 100 ? s + 1 : s === 100 ? 101 + (++calls % 2) : undefined) })],
      properties: [invariant<number>('NotAbove100', 'The counter never passes 100.', (s) => s <= 100)],
      checkDeadlock: false,
    };
    const e = modelError(() => checkVariant(v));
    expect(e.code).toBe('MC107_NOT_DETERMINISTIC');
    expect(e.details.subject).toBe('NotAbove100');
  });

  it('MC107: an init() that yields a different state when replayed', () => {
    let calls = 0;
    const v: Variant<number> = {
      name: 'movingStart',
      init: () => [++calls],
      actions: [],
      properties: [invariant<number>('NotOne', 'The counter is never 1.', (s) => s !== 1)],
      checkDeadlock: false,
    };
    expect(codeOf(() => checkVariant(v))).toBe('MC107_NOT_DETERMINISTIC');
  });
});

describe('ModelError for liveness models', () => {
  it('MC108: a fairness constraint that names no action of the variant', () => {
    const v: Variant<number> = {
      ...stoppingCounter(3),
      fairness: [{ kind: 'weak', name: 'typo', actions: ['incremnt'], perParameter: false }],
    };
    const e = modelError(() => checkVariant(v));
    expect(e.code).toBe('MC108_UNKNOWN_FAIRNESS_ACTION');
    expect(e.message).toContain('fairness typo of variant');
    expect(e.message).toContain('names incremnt, which is not an action of the variant');
    expect(e.details.hint).toMatch(/^its actions: /);
  });

  it('MC103: a liveness predicate that throws names the property and the state', () => {
    const v: Variant<number> = {
      ...stoppingCounter(3),
      properties: [
        {
          kind: 'liveness',
          name: 'Breaks',
          statement: 'x',
          formula: {
            op: 'eventually',
            p: (x: number) => {
              if (x === 2) throw new Error('boom');
              return false;
            },
          },
        },
      ],
    };
    const e = modelError(() => checkVariant(v));
    expect(e.code).toBe('MC103_PREDICATE_THREW');
    expect(e.message).toBe('property Breaks threw Error: boom');
    expect(e.details.trace?.map((t) => t.state)).toEqual([0, 1, 2]);
  });
});
