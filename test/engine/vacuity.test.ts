// Coverage and vacuity: actions never enabled, and properties that hold only because their
// premise never did. Counts are by hand on a counter that goes 0, 1, 2, 3 and stops.
import { describe, expect, it } from 'vitest';
import { action, checkVariant, eventually, invariant, leadsTo, liveness, settledInvariant, weakFairness, type Variant } from 'modelcheck';

const inc = action<number>('inc', { next: (x) => (x < 3 ? x + 1 : undefined) });
const jump = action<number>('jump', { next: (x) => (x > 10 ? 0 : undefined) });

function counter(extra: Partial<Variant<number>>): Variant<number> {
  return { name: 'counter', init: () => [0], actions: [inc, jump], properties: [], checkDeadlock: false, ...extra };
}

describe('coverage', () => {
  it('counts per action the successors it produced and the new states among them, and warns of one never enabled', () => {
    const r = checkVariant(counter({}));
    // inc: 0->1, 1->2, 2->3, all new; jump: never.
    expect(r.stats.coverage).toEqual([
      { action: 'inc', enabled: 3, newStates: 3 },
      { action: 'jump', enabled: 0, newStates: 0 },
    ]);
    expect(r.warnings).toEqual(['action jump is never enabled in any reachable state']);
  });

  it('says nothing about actions when the search stopped early: they may be enabled further on', () => {
    const r = checkVariant(counter({}), { maxDepth: 2 });
    expect(r.verdict).toBe('incomplete');
    expect(r.warnings).toEqual([]);
  });
});

describe('vacuity', () => {
  it("counts the states where an invariant's premise held, and checks holds only there", () => {
    const r = checkVariant(
      counter({
        actions: [inc],
        properties: [
          // Checked only in 2 and 3; in 0 and 1 it would be false.
          invariant<number>('AtLeastTwoFromTwo', 'From 2 on, the counter is at least 2.', (x) => x >= 2, { premise: (x) => x >= 2 }),
          invariant<number>('NeverSeven', 'At 7 the counter is odd.', (x) => x % 2 === 1, { premise: (x) => x === 7 }),
        ],
      }),
    );
    expect(r.verdict).toBe('proved');
    expect(r.properties.map((p) => [p.name, p.status, p.premiseStates, p.vacuous])).toEqual([
      ['AtLeastTwoFromTwo', 'holds', 2, false],
      ['NeverSeven', 'holds', 0, true],
    ]);
    expect(r.warnings).toEqual(['NeverSeven holds only vacuously: its premise never holds']);
  });

  it('warns of a settled-state invariant when no settled state is reachable', () => {
    // 0 -> 1 -> 0 for ever: no state is settled.
    const flip = action<number>('flip', { next: (x) => 1 - x });
    const r = checkVariant({
      name: 'flip',
      init: () => [0],
      actions: [flip],
      properties: [settledInvariant<number>('SettlesAtZero', 'A settled counter shows 0.', (x) => x === 0)],
    });
    expect(r.properties[0]).toMatchObject({ status: 'holds', premiseStates: 0, vacuous: true });
    expect(r.warnings).toEqual(['SettlesAtZero holds only vacuously: no settled state is reachable']);
  });

  it('counts settled states (the counter settles at 3 only) and is not vacuous there', () => {
    const r = checkVariant(
      counter({ actions: [inc], properties: [settledInvariant<number>('SettlesAtThree', 'It settles at 3.', (x) => x === 3)] }),
    );
    expect(r.properties[0]).toMatchObject({ status: 'holds', premiseStates: 1, vacuous: false });
  });

  it('warns of a leadsTo whose left side never holds, and counts it where it does', () => {
    const r = checkVariant(
      counter({
        actions: [inc],
        properties: [
          liveness<number>(
            'FiveLeadsToZero',
            'Whenever it shows 5, it shows 0 later.',
            leadsTo(
              (x) => x === 5,
              (x) => x === 0,
            ),
          ),
          liveness<number>(
            'OneLeadsToThree',
            'Whenever it shows 1, it shows 3 later.',
            leadsTo(
              (x) => x === 1,
              (x) => x === 3,
            ),
          ),
          liveness<number>(
            'ReachesThree',
            'It reaches 3.',
            eventually((x) => x === 3),
          ),
        ],
        fairness: [weakFairness('inc', [inc])],
      }),
    );
    expect(r.properties.map((p) => [p.name, p.status, p.premiseStates, p.vacuous])).toEqual([
      ['FiveLeadsToZero', 'holds', 0, true],
      ['OneLeadsToThree', 'holds', 1, false],
      ['ReachesThree', 'holds', undefined, false],
    ]);
    expect(r.warnings).toEqual(['FiveLeadsToZero holds only vacuously: the left side of its leadsTo never holds']);
  });
});
