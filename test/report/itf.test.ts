// The ITF export (src/report/itf.ts), checked against the format's rules
// (https://apalache-mc.org/docs/adr/015adr-trace.html) and read back with Quint's own ITF reader
// (ofItf from @informalsystems/quint), which knows nothing of this project.
import { describe, expect, it } from 'vitest';
import { List, Map, OrderedMap, Record, Set } from 'immutable';
import { ofItf } from '@informalsystems/quint/dist/src/itf.js';
import { action, check, checkVariant, defineSingleModel, invariant } from 'modelcheck';
import { ACTION_TAKEN, toItfValue, violationToItf, type ItfTrace } from '../../src/report/itf.ts';
import dieHard from '../fixtures/dieHard.ts';
import { lock } from '../fixtures/liveness.ts';
import { DIE_HARD_JUGS, DIE_HARD_STEPS } from '../fixtures/dieHardSolution.ts';

/** The format's structural rules, as the ADR states them. */
function expectWellFormed(t: ItfTrace): void {
  expect(t['#meta'].format).toBe('ITF');
  expect(new globalThis.Set(t.vars).size).toBe(t.vars.length);
  t.states.forEach((s, i) => {
    expect(s['#meta'].index).toBe(i);
    // Every state assigns exactly the declared variables (#meta aside).
    expect(
      Object.keys(s)
        .filter((k) => k !== '#meta')
        .sort(),
    ).toEqual([...t.vars].sort());
  });
  if (t.loop !== undefined) {
    expect(Number.isInteger(t.loop)).toBe(true);
    expect(t.loop).toBeGreaterThanOrEqual(0);
    expect(t.loop).toBeLessThan(t.states.length);
  }
  // Plain JSON numbers only for integers ITF readers take losslessly.
  JSON.stringify(t, (_k, v) => {
    if (typeof v === 'number') expect(Number.isSafeInteger(v)).toBe(true);
    return v;
  });
}

describe('ITF values', () => {
  it('writes Sets, Maps, Lists and Records in the ITF encodings', () => {
    const R = Record({ a: 1, b: 'x' });
    expect(toItfValue(Set([3, 1, 2]))).toEqual({ '#set': [1, 2, 3] });
    expect(toItfValue(Map([['k', true]]))).toEqual({ '#map': [['k', true]] });
    expect(toItfValue(List([2, 1]))).toEqual([2, 1]);
    expect(toItfValue(R())).toEqual({ a: 1, b: 'x' });
    expect(
      toItfValue(
        OrderedMap([
          ['z', 1],
          ['a', 2],
        ]),
      ),
    ).toEqual({
      '#map': [
        ['z', 1],
        ['a', 2],
      ],
    });
  });

  it('writes integers beyond +-(2^53-1) as #bigint, and what ITF cannot hold as #unserializable', () => {
    expect(toItfValue(2 ** 53 - 1)).toBe(2 ** 53 - 1);
    expect(toItfValue(2 ** 53)).toEqual({ '#bigint': '9007199254740992' });
    expect(toItfValue(-(2 ** 60))).toEqual({ '#bigint': '-1152921504606846976' });
    expect(toItfValue(12345678901234567890n)).toEqual({ '#bigint': '12345678901234567890' });
    expect(toItfValue(null)).toEqual({ '#unserializable': 'null' });
    expect(toItfValue(0.5)).toEqual({ '#unserializable': '0.5' });
  });

  it('writes equal unordered Sets and Maps equally, whatever order they were built in', () => {
    const a = Set(['b', 'a', 'c']);
    const b = Set(['c', 'b']).add('a');
    expect(JSON.stringify(toItfValue(a))).toBe(JSON.stringify(toItfValue(b)));
    expect(
      JSON.stringify(
        toItfValue(
          Map([
            [2, 'x'],
            [1, 'y'],
          ]),
        ),
      ),
    ).toBe(
      JSON.stringify(
        toItfValue(
          Map([
            [1, 'y'],
            [2, 'x'],
          ]),
        ),
      ),
    );
  });
});

describe('ITF traces', () => {
  const [v] = check(dieHard).variants;
  const t = violationToItf(v, v.violations[0], 'test/fixtures/dieHard.ts');

  it("writes the Die Hard solution with TLC's states, one variable per Record field, and each step's action", () => {
    expectWellFormed(t);
    expect(t.vars).toEqual(['small', 'big', ACTION_TAKEN]);
    // TLC's shortest solution of DieHard.tla: (small, big) at each of the 7 states.
    expect(t.states.map((s) => [s.small, s.big])).toEqual(DIE_HARD_JUGS);
    expect(t.states.map((s) => s['#meta'].action)).toEqual(['init', ...DIE_HARD_STEPS]);
    expect(t.states.map((s) => s[ACTION_TAKEN])).toEqual(t.states.map((s) => s['#meta'].action));
    expect(t.loop).toBeUndefined();
    expect(t['#meta'].source).toBe('test/fixtures/dieHard.ts');
  });

  it("is read by Quint's ITF reader: 7 states, each a record of the three variables", () => {
    const states = ofItf(JSON.parse(JSON.stringify(t)));
    expect(states.length).toBe(7);
    const last = states[6] as { kind: string; opcode: string; args: { kind: string; value: unknown }[] };
    expect(last.kind).toBe('app');
    expect(last.opcode).toBe('Rec');
    // Rec args alternate field name and value.
    const fields = Object.fromEntries(
      Array.from({ length: last.args.length / 2 }, (_, i) => [last.args[2 * i].value, last.args[2 * i + 1].value]),
    );
    expect(fields).toEqual({ small: 3n, big: 4n, [ACTION_TAKEN]: 'BigToSmall' });
  });

  it('marks a lasso with loop: weak fairness lets process 0 take the lock for ever (1-step prefix, 3-state cycle)', () => {
    const r = checkVariant(lock('weak'));
    const x = r.violations[0];
    const lasso = violationToItf(r, x);
    expectWellFormed(lasso);
    // The lasso of test/engine/liveness.test.ts: request(1), then process 0 cycles through
    // request, acquire and release, back to the state after request(1).
    expect(lasso.loop).toBe(1);
    expect(lasso.states.map((s) => [s.pc0, s.pc1])).toEqual([
      ['idle', 'idle'],
      ['idle', 'waiting'],
      ['waiting', 'waiting'],
      ['critical', 'waiting'],
    ]);
    expect(lasso['#meta'].loopAction).toBe('release(0)');
    expect(ofItf(JSON.parse(JSON.stringify(lasso))).length).toBe(4);
  });
});

describe('ITF traces of plain states', () => {
  type S = { readonly n: number; readonly done?: boolean };
  const counter = (mark: boolean) =>
    defineSingleModel<S>({
      name: 'PlainCounter',
      // Keys written in another order than the next states': the same variables.
      init: () => [{ n: 0 }],
      actions: [action<S>('Step', { next: (s) => (s.n < 2 ? (mark && s.n === 1 ? { done: true, n: 2 } : { n: s.n + 1 }) : undefined) })],
      properties: [invariant<S>('Small', 'n stays below 2.', (s) => s.n < 2)],
    });

  it("takes a plain state's keys as its variables when every state has the same ones", () => {
    const r = checkVariant(counter(false).variants[0]);
    const t = violationToItf(r, r.violations[0]);
    expectWellFormed(t);
    expect(t.vars).toEqual(['n', ACTION_TAKEN]);
    expect(t.states.map((s) => s.n)).toEqual([0, 1, 2]);
  });

  it('writes the whole state as one variable when a key comes or goes, so that every state assigns every variable', () => {
    const r = checkVariant(counter(true).variants[0]);
    const t = violationToItf(r, r.violations[0]);
    expectWellFormed(t);
    expect(t.vars).toEqual(['state', ACTION_TAKEN]);
    expect(t.states.map((s) => s.state)).toEqual([{ n: 0 }, { n: 1 }, { done: true, n: 2 }]);
    expect(Object.keys(t.states[2].state as object)).toEqual(['done', 'n']);
  });
});
