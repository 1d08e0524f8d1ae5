// Liveness under a state constraint (issue 52), against TLC 2.20's verdicts and figures: a fair
// action whose only steps leave the constraint is enabled, as TLC reads ENABLED on the spec
// (Specifying Systems 14.3.5), so a behaviour that stops there is unfair. The report says when a
// verdict rests on that, and a lasso's closing sentence says what is true of its last states.
import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { action, always, checkVariant, eventually, k8s, liveness, weakFairness, type Variant, type VariantResult } from 'modelcheck';
import { PC, producerConsumer } from '../fixtures/producerConsumer.ts';
import { TinyState, THING, FINALIZER, tinyWorld } from '../fixtures/k8s/tiny.ts';
import { formatViolation } from '../../src/report/text.ts';

const text = (r: VariantResult, property: string) =>
  formatViolation(r.violations.find((v) => v.property === property)!, { chalk: new Chalk({ level: 0 }), trace: 'changes' });

describe('a producer and a consumer, bounded at two items (test/fixtures/producerConsumer.ts, TLC 2.20)', () => {
  it('bounded by a state constraint: KeepsTaking holds vacuously, as in TLC, and the report says why', () => {
    const r = checkVariant(producerConsumer('constraint'));
    // TLC: 19 states generated, 12 distinct states found, depth 9; "No error has been found."
    expect([r.stats.distinctStates, r.stats.statesGenerated, r.stats.depth]).toEqual([12, 19, 9]);
    expect(r.verdict).toBe('proved');
    expect(r.violations).toEqual([]);
    expect(r.properties[0]).toMatchObject({ name: 'KeepsTaking', status: 'holds', vacuous: true, vacuity: 'noFairBehaviour' });
    // At made = 2, prod = make, buf = 0, cons = take, the only step is make, out of the bound.
    expect(r.warnings).toEqual([
      'KeepsTaking holds only vacuously: no fair behaviour stays inside the state constraint. In the state reached by ' +
        'make, put, make, take, put, use, take, use, make is enabled, but its only steps leave the state constraint, and ' +
        'fairness requires it: a behaviour may not stop there and cannot go on inside the constraint. TLC judges so too ' +
        '(ENABLED is read on the spec). To check the behaviours that stop at the bound, write the bound as a guard of the ' +
        'action instead of a state constraint (docs/guide.md, "Liveness under a state constraint").',
    ]);
  });

  it("bounded by a guard: KeepsTaking is violated by TLC's behaviour, stuttering where every fair action is disabled", () => {
    const r = checkVariant(producerConsumer('guard'));
    // TLC: 15 states generated, 12 distinct states found, depth 9; its counterexample is the
    // same 9 states (Make, Put, Make, Take, Put, Use, Take, Use), then "State 10: Stuttering".
    expect([r.stats.distinctStates, r.stats.statesGenerated, r.stats.depth]).toEqual([12, 15, 9]);
    expect(r.verdict).toBe('violated');
    const [x] = r.violations;
    expect(x.trace.map((t) => t.action)).toEqual([null, 'make', 'put', 'make', 'take', 'put', 'use', 'take', 'use']);
    expect(x.trace[8].state).toEqual(PC({ made: 2, prod: 'make', buf: 0, cons: 'take' }));
    expect([x.loop, x.loopAction]).toEqual([8, null]);
    expect(x.cycleFairness).toEqual({
      taken: [],
      idle: ['make', 'put', 'take', 'use'].map((step) => ({ step, how: 'disabled', state: 8 })),
    });
    expect(text(r, 'KeepsTaking')).toContain(
      '  ↺ state 9 repeats for ever (stuttering); fairness allows it: make, put, take and use are disabled\n    in it',
    );
    expect(r.warnings).toEqual([]);
  });
});

// A counter that counts up and may go back to 0 from 2, both weakly fair; []<>(x = 0).
// TLC 2.20 (spec in the comment below): with CONSTRAINT x <= 3 the property holds (6 states
// generated, 4 distinct, depth 4); with the bound as a guard x < 3 of Inc it is violated by
// x = 0, 1, 2, 3 then stuttering (5 generated, 4 distinct, depth 4).
//   Inc == x' = x + 1    Reset == x = 2 /\ x' = 0
//   Spec == x = 0 /\ [][Inc \/ Reset]_x /\ WF_x(Inc) /\ WF_x(Reset)
function resettingCounter(bound: 'constraint' | 'guard'): Variant<number> {
  const inc = action<number>('inc', { next: (x) => (bound === 'constraint' || x < 3 ? x + 1 : undefined) });
  const reset = action<number>('reset', { next: (x) => (x === 2 ? 0 : undefined) });
  return {
    name: `reset-${bound}`,
    init: () => [0],
    actions: [inc, reset],
    properties: [liveness('ReturnsToZero', 'The counter is 0 again and again.', always(eventually((x: number) => x === 0)))],
    fairness: [weakFairness('inc', [inc]), weakFairness('reset', [reset])],
    checkDeadlock: false,
    ...(bound === 'constraint' ? { constraint: (x: number) => x <= 3 } : {}),
  };
}

describe('a verdict that rests on the constraint, while fair behaviours remain inside it', () => {
  it('holds as in TLC (a behaviour stopping at 3 is unfair to inc), with a warning that names the state and the step', () => {
    const r = checkVariant(resettingCounter('constraint'));
    expect([r.stats.distinctStates, r.stats.statesGenerated, r.stats.depth]).toEqual([4, 6, 4]);
    expect(r.properties[0]).toMatchObject({ status: 'holds', vacuous: false });
    expect(r.warnings).toEqual([
      'ReturnsToZero holds only because of the state constraint: in the state reached by inc, inc, inc, inc is enabled, ' +
        'but its only steps leave the state constraint, and fairness requires it, so a behaviour that stops there is not ' +
        'fair, as TLC judges too; read on the constrained graph alone, it would violate ReturnsToZero. To check the ' +
        'behaviours that stop at the bound, write the bound as a guard of the action instead of a state constraint ' +
        '(docs/guide.md, "Liveness under a state constraint").',
    ]);
  });

  it('with the bound as a guard, is violated by stopping at 3, as in TLC', () => {
    const r = checkVariant(resettingCounter('guard'));
    expect([r.stats.distinctStates, r.stats.statesGenerated, r.stats.depth]).toEqual([4, 5, 4]);
    const [x] = r.violations;
    expect([x.trace.map((t) => t.state), x.loop, x.loopAction]).toEqual([[0, 1, 2, 3], 3, null]);
    expect(x.cycleFairness?.idle).toEqual([
      { step: 'inc', how: 'disabled', state: 3 },
      { step: 'reset', how: 'disabled', state: 3 },
    ]);
    expect(r.warnings).toEqual([]);
  });
});

describe('the closing sentence says what is true of the last states', () => {
  // A controller that waits for a finalizer someone else should add, requeueing while it waits:
  // its reconcile is enabled in every state, and changes nothing (the key leaves the queue and
  // comes back). Nobody adds the finalizer, so "eventually it has one" fails by stuttering.
  const kube = k8s.kubernetes<TinyState>({
    world: tinyWorld,
    servers: ['main'],
    managers: [{ name: 'manager', server: 'main', kinds: ['Thing'] }],
    controllers: [
      {
        name: 'waiter',
        manager: 'manager',
        watches: [{ kind: 'Thing' }],
        reconcile: (r) => {
          const o = r.cached(r.key);
          return o !== undefined && !k8s.hasFinalizer(o, FINALIZER) ? r.requeue() : r.done();
        },
        steps: {},
      },
    ],
  });
  const worlds = kube.initialWorlds(
    { main: [{ versions: [k8s.object({ kind: 'Thing', name: 'o' })], reconciled: false }] },
    { cacheLag: 'none' },
  );
  const variant: Variant<TinyState> = {
    name: 'waiter',
    init: () => worlds.map((w) => TinyState({ kube: w })),
    actions: kube.actions,
    properties: [
      liveness(
        'EventuallyFinalized',
        'The Thing eventually has the finalizer.',
        eventually((s: TinyState) => {
          const o = k8s.worldMaps(s.kube).servers.get('main')?.objects.get(THING);
          return o !== undefined && k8s.hasFinalizer(o, FINALIZER);
        }),
      ),
    ],
    fairness: kube.fairness,
    checkDeadlock: false,
  };

  it('a fair reconcile that only requeues is "enabled only as a step that changes nothing", not disabled', () => {
    const r = checkVariant(variant);
    expect(r.stats.distinctStates).toBe(1);
    const [x] = r.violations;
    expect([x.trace.length, x.loop, x.loopAction]).toEqual([1, 0, null]);
    expect(x.cycleFairness?.idle).toContainEqual({ step: 'waiter.reconcile(Thing/o)', how: 'unchanging', state: 0 });
    expect(x.cycleFairness?.idle.filter((i) => i.how !== 'disabled')).toHaveLength(1);
    const said = text(r, 'EventuallyFinalized').replace(/\n\s+/g, ' ');
    expect(said).toContain('↺ state 1 repeats for ever (stuttering); fairness allows it:');
    expect(said).toContain('waiter.reconcile(Thing/o) is enabled only as a step that changes nothing in it');
    expect(said).not.toContain('no step that fairness requires is enabled');
  });
});
