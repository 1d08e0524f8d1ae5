// A search shared among threads must find exactly what the one-thread search finds: the same
// distinct and generated counts, depth, verdicts, premise counts, coverage and counterexamples,
// state for state, whatever the number of threads. Here the other threads' expanders run in
// this thread (expanderInThisThread), so the coordinator's merge is tested without worker
// threads; the warm-up (every thread expands every state of a small level) is turned off for
// most cases, so that the work is split from the first level. test/e2e/parallel.test.ts runs
// the same search with real worker threads.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  action,
  actionProperty,
  checkVariant,
  checkVariantParallel,
  expanderInThisThread,
  invariant,
  type ModelError,
  settledInvariant,
  type Variant,
  type VariantResult,
} from 'modelcheck';
import { smallSystems, type SmallSystem } from '../helpers/safetyReference.ts';
import { twoPhase } from '../fixtures/classic/twoPhase.ts';
import { generate, variantOf as livenessVariantOf } from '../helpers/livenessReference.ts';
import liveness from '../fixtures/liveness.ts';
import tCommit from '../fixtures/tCommit.ts';
import peterson from '../fixtures/classic/peterson.ts';
import diningPhilosophers from '../fixtures/classic/diningPhilosophers.ts';

/** A random system with a property of every safety kind, each violated in some systems. */
function richVariant(sys: SmallSystem): Variant<number> {
  return {
    name: 'random',
    init: () => sys.init,
    actions: Array.from({ length: sys.actions }, (_, a) =>
      action<number, number>(`a${a}`, {
        params: (s) => sys.edges.filter((e) => e.action === a && e.from === s).map((e) => e.to),
        next: (_s, to) => to,
      }),
    ),
    properties: [
      invariant<number>('NotBad', 'The system never reaches a bad state.', (s) => !sys.bad[s]),
      invariant<number>('NotNineFromThrees', 'A multiple of three is not 9.', (s) => s !== 9, { premise: (s) => s % 3 === 0 }),
      actionProperty<number>('NoEvenToBad', 'No step from an even state to a bad one.', (s, t) => !(s % 2 === 0 && sys.bad[t])),
      settledInvariant<number>('SettlesEven', 'Below 10, a settled state is even.', (s) => s % 2 === 0, { premise: (s) => s < 10 }),
    ],
    checkDeadlock: true,
  };
}

const system = smallSystems(14);

/** Everything a result says except its timings and the number of threads. */
function summary(r: VariantResult<unknown>) {
  const { seconds: _s, statesPerSecond: _p, livenessSeconds: _l, threads: _t, ...stats } = r.stats;
  return JSON.parse(JSON.stringify({ ...r, stats }));
}

async function parallel<S>(v: Variant<S>, helpers: number, options: Parameters<typeof checkVariant>[1] = {}, warmUp = 0) {
  return checkVariantParallel(
    v,
    options,
    Array.from({ length: helpers }, () => expanderInThisThread(v, options)),
    { warmUp },
  );
}

describe('parallel search', () => {
  it('random systems: the same result with 2, 3 and 4 threads as with one, also under state and depth bounds', async () => {
    await fc.assert(
      fc.asyncProperty(
        system,
        fc.integer({ min: 1, max: 3 }),
        fc.option(fc.integer({ min: 1, max: 12 })),
        fc.option(fc.integer({ min: 1, max: 6 })),
        fc.integer({ min: 0, max: 2 }),
        async (sys, helpers, maxStates, maxDepth, warmUp) => {
          const options = { ...(maxStates !== null ? { maxStates } : {}), ...(maxDepth !== null ? { maxDepth } : {}) };
          const one = checkVariant(richVariant(sys), options);
          const many = await parallel(richVariant(sys), helpers, options, warmUp);
          expect(summary(many)).toEqual(summary(one));
          expect(many.stats.threads).toEqual({ used: helpers + 1 });
        },
      ),
      { numRuns: 1500, seed: 20261203 },
    );
  });

  it('the random systems cover violations of every kind, and cut searches', () => {
    const results = fc.sample(system, { numRuns: 500, seed: 20261203 }).map((sys) => checkVariant(richVariant(sys), { maxStates: 8 }));
    for (const name of ['NotBad', 'NotNineFromThrees', 'NoEvenToBad', 'SettlesEven', 'Deadlock']) {
      expect(results.filter((r) => r.violations.some((v) => v.property === name)).length, name).toBeGreaterThan(10);
    }
    expect(results.filter((r) => r.incompleteReason === 'maxStates').length).toBeGreaterThan(10);
  });

  it('TLC classics: TwoPhase (4 resource managers, also under symmetry), Peterson, dining philosophers', async () => {
    const cases: Variant<unknown>[] = [
      twoPhase(4).variants[0],
      twoPhase(4, { symmetric: true }).variants[0],
      ...peterson.variants,
      ...diningPhilosophers.variants,
    ] as Variant<unknown>[];
    for (const v of cases) {
      const one = checkVariant(v);
      for (const [helpers, warmUp] of [
        [1, 0],
        [2, 0],
        [1, 64],
      ]) {
        expect(summary(await parallel(v, helpers, {}, warmUp)), `${v.name}, ${helpers + 1} threads`).toEqual(summary(one));
      }
    }
    // 1,568 states for TwoPhase with 4 resource managers (TLC; test/engine/classicModels.test.ts).
    expect(checkVariant(cases[0]).stats.distinctStates).toBe(1568);
  });

  it('a fault in the model met by another thread is reported as the one-thread search reports it', async () => {
    const throwsAt = (bad: number): Variant<number> => ({
      name: 'faulty',
      init: () => [0],
      actions: [
        action<number, number>('step', {
          params: () => [1, 2],
          next: (s, d) => {
            if (s + d === bad) throw new Error(`no ${bad}`);
            return s + d < 20 ? s + d : undefined;
          },
        }),
      ],
      properties: [],
      checkDeadlock: false,
    });
    for (const bad of [3, 7, 12]) {
      const v = throwsAt(bad);
      let expected: ModelError | undefined;
      try {
        checkVariant(v);
      } catch (e) {
        expected = e as ModelError;
      }
      await expect(parallel(v, 2)).rejects.toMatchObject({ code: 'MC101_ACTION_THREW', message: expected!.message });
      const got = await parallel(v, 2).catch((e: ModelError) => e);
      expect((got as ModelError).details.trace!.map((t) => t.state)).toEqual(expected!.details.trace!.map((t) => t.state));
    }
  });

  it('liveness: random models with weak and strong fairness, per parameter too, give the same verdicts and lassos', async () => {
    for (let seed = 1; seed <= 600; seed++) {
      const m = generate(seed, { fairness: [0, 3], perParameter: 0.5, maxParams: 3, selfLoops: 0.2, maxInit: 3 });
      const v = livenessVariantOf(m);
      const one = checkVariant(v);
      const many = await parallel(v, 1 + (seed % 3), {}, seed % 2);
      expect(summary(many), `seed ${seed}`).toEqual(summary(one));
    }
  });

  it('the liveness fixture (counters, locks, Peterson under each fairness) and TCommit: the same with 2 threads', async () => {
    const cases = [...liveness.variants, ...tCommit.variants] as Variant<unknown>[];
    for (const v of cases) expect(summary(await parallel(v, 1)), v.name).toEqual(summary(checkVariant(v)));
  });

  it('threads that are still loading join at the first level split, and the result is the same; a small search never waits for them', async () => {
    /** An expander in this thread that says it is loading until `start()`, then ready. */
    const loading = <S>(v: Variant<S>) => {
      const link = expanderInThisThread(v, {});
      let ready = false;
      let start!: () => void;
      const readiness = new Promise<void>((resolve) => {
        start = () => {
          ready = true;
          resolve();
        };
      });
      const orders: string[] = [];
      return {
        start,
        orders,
        link: {
          ...link,
          send: (o: Parameters<typeof link.send>[0]) => {
            orders.push(o.kind);
            link.send(o);
          },
          isReady: () => ready,
          whenReady: () => readiness,
        },
      };
    };
    // TwoPhase with 4 resource managers: 1,568 states, levels up to a few hundred wide.
    const v = twoPhase(4).variants[0] as Variant<unknown>;
    const one = checkVariant(v, {});
    const late = [loading(v), loading(v)];
    const search = checkVariantParallel(
      v,
      {},
      late.map((l) => l.link),
      { warmUp: 8 },
    );
    // Ready only once the search is under way: they join it when it first splits a level.
    setTimeout(() => late[0].start(), 0);
    setTimeout(() => late[1].start(), 20);
    const many = await search;
    expect(summary(many)).toEqual(summary(one));
    for (const l of late) expect(l.orders[0]).toBe('resume');
    // A search whose levels never split (DieHard-sized: TwoPhase with 1 resource manager, 12
    // states) ends without the thread that never becomes ready, which gets only its close.
    const small = twoPhase(1).variants[0] as Variant<unknown>;
    const never = loading(small);
    const alone = await checkVariantParallel(small, {}, [never.link]);
    expect(summary(alone)).toEqual(summary(checkVariant(small, {})));
    expect(never.orders).toEqual(['close']);
  });

  it('--exact is searched by one thread, and the result says why', async () => {
    const v = twoPhase(3).variants[0] as Variant<unknown>;
    const r = await parallel(v, 1, { exact: true });
    expect(r.stats.threads).toEqual({ used: 1, why: '--exact compares whole states, kept in one thread' });
    expect(summary(r)).toEqual(summary(checkVariant(v, { exact: true })));
  });
});
