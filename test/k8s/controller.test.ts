// Reconcile steps (src/k8s/controller.ts, run by kubernetes.ts): one API request per step, and
// the outcomes goto, done and requeue, on one Thing watched by one manager.
import { describe, expect, it } from 'vitest';
import { List, Map } from 'immutable';
import { check, defineSingleModel, k8s, ModelError } from 'modelcheck';
import { THING, TinyState, actionNamed, created, tinyWorld, step } from '../fixtures/k8s/tiny.ts';

/** A world where `main` stores the Thing, the manager's cache shows it and its key is queued. */
function queued(kube: k8s.Kubernetes<TinyState>): TinyState {
  const [w] = kube.initialWorlds({ main: [{ versions: [created], reconciled: false }] }, { cacheLag: 'none' });
  return TinyState({ kube: w });
}

const kubeWith = (...controllers: k8s.ControllerConfig<TinyState>[]) =>
  k8s.kubernetes<TinyState>({
    world: tinyWorld,
    servers: ['main'],
    managers: [{ name: 'manager', server: 'main', kinds: ['Thing'] }],
    controllers,
  });

const inFlight = (s: TinyState, controller: string) => k8s.worldMaps(s.kube).reconciles.get(controller)?.get(THING);
const queueOf = (s: TinyState, controller: string) => k8s.worldMaps(s.kube).queues.get(controller)?.toArray();

describe('reconcile steps', () => {
  // controller.ts: "Each step is atomic and makes at most one API request."
  const twoRequests: k8s.ControllerConfig<TinyState> = {
    name: 'greedy',
    manager: 'manager',
    watches: [{ kind: 'Thing' }],
    reconcile: (r) => {
      r.mergePatch(r.key, { annotations: { a: '1' } });
      r.mergePatch(r.key, { annotations: { b: '1' } });
      return r.done();
    },
    steps: {},
  };

  it('a step that makes two API requests throws', () => {
    const kube = kubeWith(twoRequests);
    expect(() => actionNamed(kube, 'greedy.reconcile').next(queued(kube), THING)).toThrow(/second API request/);
  });

  it('a step that makes two API requests is reported by check as MC101_ACTION_THREW', () => {
    const kube = kubeWith(twoRequests);
    const model = defineSingleModel<TinyState>({ name: 'greedy', init: () => [queued(kube)], actions: kube.actions, properties: [] });
    let error: unknown;
    try {
      check(model);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelError);
    expect([(error as ModelError).code, (error as ModelError).details.subject]).toEqual(['MC101_ACTION_THREW', 'greedy.reconcile']);
  });

  // reconcile -> goto('second', {a, b}) -> goto('third', {c}) -> the outcome under test.
  const chain = (name: string, last: (r: k8s.StepContext<TinyState>) => k8s.StepOutcome): k8s.ControllerConfig<TinyState> => ({
    name,
    manager: 'manager',
    watches: [{ kind: 'Thing' }],
    reconcile: (r) => r.goto('second', { a: 1, b: List(['x']) }),
    steps: {
      second: (r) => r.goto('third', { c: r.local<number>('a') + 1 }),
      third: last,
    },
  });

  it('goto replaces the locals: the next step sees only what it was given', () => {
    let seen: unknown[] = [];
    const kube = kubeWith(
      chain('chain', (r) => {
        seen = [
          r.local('c'),
          (() => {
            try {
              return r.local('a');
            } catch (e) {
              return (e as Error).message;
            }
          })(),
        ];
        return r.done();
      }),
    );
    let s = step(kube, queued(kube), 'chain.reconcile', THING);
    expect(inFlight(s, 'chain')?.step).toBe('second');
    expect(inFlight(s, 'chain')?.locals.equals(Map<string, unknown>({ a: 1, b: List(['x']) }))).toBe(true);
    s = step(kube, s, 'chain.second', THING);
    expect(inFlight(s, 'chain')?.step).toBe('third');
    expect(inFlight(s, 'chain')?.locals.equals(Map<string, unknown>({ c: 2 }))).toBe(true);
    step(kube, s, 'chain.third', THING);
    expect(seen).toEqual([2, 'reconcile of Thing/o by chain has no local a']);
  });

  // kubernetes.ts keeps one Reconcile per (step, locals' content): states that differ elsewhere
  // share it, and it must be the reconcile a fresh one would be.
  it('goto from states that differ elsewhere leads to one and the same in-flight reconcile', () => {
    const kube = kubeWith(chain('shared', (r) => r.done()));
    const a = step(kube, queued(kube), 'shared.reconcile', THING);
    const b = step(kube, queued(kube).set('actor', 1), 'shared.reconcile', THING);
    expect(inFlight(b, 'shared')).toBe(inFlight(a, 'shared'));
    expect(inFlight(a, 'shared')?.step).toBe('second');
    expect(inFlight(a, 'shared')?.locals.equals(Map<string, unknown>({ a: 1, b: List(['x']) }))).toBe(true);
    // Different locals, a different reconcile.
    const other = kubeWith({ ...chain('shared', (r) => r.done()), reconcile: (r) => r.goto('second', { a: 2, b: List(['x']) }) });
    expect(inFlight(step(other, queued(other), 'shared.reconcile', THING), 'shared')?.locals.get('a')).toBe(2);
  });

  it('a step is enabled only for the reconciles standing at it', () => {
    const kube = kubeWith(chain('chain', (r) => r.done()));
    const s = step(kube, queued(kube), 'chain.reconcile', THING);
    expect(actionNamed(kube, 'chain.third').next(s, THING)).toBeUndefined();
    expect([...(actionNamed(kube, 'chain.third').params?.(s) ?? [])]).toEqual([]);
    expect([...(actionNamed(kube, 'chain.second').params?.(s) ?? [])]).toEqual([THING]);
  });

  it('done removes the in-flight reconcile and leaves the queue as it was', () => {
    const kube = kubeWith(chain('chain', (r) => r.done()));
    let s = step(kube, queued(kube), 'chain.reconcile', THING);
    expect(queueOf(s, 'chain')).toEqual([]);
    s = step(kube, step(kube, s, 'chain.second', THING), 'chain.third', THING);
    expect([inFlight(s, 'chain'), queueOf(s, 'chain')]).toEqual([undefined, []]);
    expect(k8s.worldMaps(s.kube).reconciles.get('chain')?.isEmpty()).toBe(true);
  });

  it('requeue removes the in-flight reconcile and puts the key back on the queue', () => {
    const kube = kubeWith(chain('chain', (r) => r.requeue()));
    let s = step(kube, queued(kube), 'chain.reconcile', THING);
    s = step(kube, step(kube, s, 'chain.second', THING), 'chain.third', THING);
    expect([inFlight(s, 'chain'), queueOf(s, 'chain')]).toEqual([undefined, [THING]]);
    // Back where it started: the same state as the initial one.
    expect(s.equals(queued(kube))).toBe(true);
  });

  it("a step's request goes to the manager's server and its event to the cache", () => {
    const kube = kubeWith({
      name: 'annotator',
      manager: 'manager',
      watches: [{ kind: 'Thing' }],
      reconcile: (r) => (r.mergePatch(r.key, { annotations: { seen: 'yes' } }).code === 200 ? r.done() : r.requeue()),
      steps: {},
    });
    const s = step(kube, queued(kube), 'annotator.reconcile', THING);
    expect(kube.stored(s, 'main', THING)?.annotations.toObject()).toEqual({ seen: 'yes' });
    expect(
      k8s
        .worldMaps(s.kube)
        .pending.get('manager')
        ?.get(THING)
        ?.map((e) => e.type)
        .toArray(),
    ).toEqual(['MODIFIED']);
  });

  it("reads go through the manager's cache, not the server", () => {
    let read: number | undefined;
    const kube = kubeWith({
      name: 'reader',
      manager: 'manager',
      watches: [{ kind: 'Thing' }],
      reconcile: (r) => {
        read = r.cached(r.key)?.resourceVersion;
        return r.done();
      },
      steps: {},
    });
    // A write the cache has not taken in yet: the server has resourceVersion 2, the cache 1.
    const s = kube.request(queued(kube), 'main', (srv) => k8s.mergePatch(srv, THING, { spec: { size: 1 } })).state;
    step(kube, s, 'reader.reconcile', THING);
    expect(read).toBe(1);
  });

  it("list reads the cache's objects of one kind, in name order, as the cache last saw them", () => {
    let listed: string[] = [];
    const kube = kubeWith({
      name: 'lister',
      manager: 'manager',
      watches: [{ kind: 'Thing' }],
      reconcile: (r) => {
        listed = r.list('Thing').map((o) => `${o.name}@${o.resourceVersion}`);
        return r.done();
      },
      steps: {},
    });
    let s = queued(kube);
    // Another Thing, created on the server but not yet in the cache: not listed.
    s = kube.request(s, 'main', (srv) => k8s.create(srv, k8s.object({ kind: 'Thing', name: 'a' }))).state;
    step(kube, s, 'lister.reconcile', THING);
    expect(listed).toEqual([`${created.name}@1`]);
    s = step(kube, s, 'managerCache.sync', k8s.objectKey('Thing', 'a'));
    step(kube, s, 'lister.reconcile', THING);
    expect(listed).toEqual(['a@1', `${created.name}@1`].sort());
  });
});

describe('the finalizer helpers take an object or its list of finalizers alike', () => {
  const withTwo = created.set('finalizers', List(['a', 'b']));

  it('as controllerutil does: add unless present, remove every occurrence, test membership', () => {
    for (const copy of [withTwo, withTwo.finalizers]) {
      expect(k8s.withFinalizer(copy, 'c').toArray()).toEqual(['a', 'b', 'c']);
      expect(k8s.withFinalizer(copy, 'a').toArray()).toEqual(['a', 'b']);
      expect(k8s.withoutFinalizer(copy, 'a').toArray()).toEqual(['b']);
      expect(k8s.hasFinalizer(copy, 'b')).toBe(true);
      expect(k8s.finalizersOf(copy)).toBe(withTwo.finalizers);
    }
  });

  it('the finalizer steps patch the same list from either', () => {
    const patched = (copy: k8s.KubeObject | List<string>) => {
      const kube = kubeWith({
        name: 'adder',
        manager: 'manager',
        watches: [{ kind: 'Thing' }],
        reconcile: (r) => k8s.addFinalizerStep(r, copy, 'c'),
        steps: {},
      });
      return kube.stored(step(kube, queued(kube), 'adder.reconcile', THING), 'main', THING)?.finalizers.toArray();
    };
    expect(patched(withTwo)).toEqual(['a', 'b', 'c']);
    expect(patched(withTwo.finalizers)).toEqual(['a', 'b', 'c']);
  });
});

describe('RequeueAfter', () => {
  // controller-runtime v0.18.4 pkg/internal/controller/controller.go reconcileHandler: on
  // Result{RequeueAfter}, Forget then AddAfter; client-go's delaying queue adds the key when the
  // delay ends, and a work queue holds one item per key (docs/kubernetes-semantics.md 6).
  const periodic = () =>
    kubeWith({ name: 'periodic', manager: 'manager', watches: [{ kind: 'Thing' }], reconcile: (r) => r.requeueAfter('30s'), steps: {} });

  it('the key waits for its delay, then a worker takes it; the trace says it was RequeueAfter, not an error', () => {
    const kube = periodic();
    const events: import('modelcheck').StepEvent[] = [];
    const t = actionNamed(kube, 'periodic.reconcile').next(queued(kube), THING, events)!;
    expect(queueOf(t, 'periodic')).toEqual([`~${THING}`]);
    expect(inFlight(t, 'periodic')).toBeUndefined();
    expect(events).toEqual([
      { kind: 'note', over: ['periodic'], text: 'periodic: Reconcile returns RequeueAfter 30s, no error: Thing/o comes back later' },
    ]);
    const start = actionNamed(kube, 'periodic.reconcile');
    expect([...(start.params?.(t) ?? [])]).toEqual([`~${THING}`]);
    expect(start.formatParam?.(`~${THING}`)).toBe('Thing/o, after its RequeueAfter delay');
    expect(k8s.worldView(t.kube).get('periodic queue')).toBe('[Thing/o (after RequeueAfter)]');
    // The delay ends and a worker takes the key: one more reconcile, which waits again.
    expect(queueOf(start.next(t, `~${THING}`)!, 'periodic')).toEqual([`~${THING}`]);
    // Without a trace being made, the same state and no note.
    expect(start.next(queued(kube), THING)!.equals(t)).toBe(true);
  });

  it('an event during the delay queues the key too: taken before the delay ends, the delayed add stays; after, they are one item', () => {
    const kube = periodic();
    const start = actionNamed(kube, 'periodic.reconcile');
    const t = start.next(queued(kube), THING)!;
    const both = tinyWorld.set(t, k8s.withQueue(t.kube, 'periodic', k8s.worldMaps(t.kube).queues.get('periodic')!.add(THING)));
    expect([...(start.params?.(both) ?? [])].sort()).toEqual([THING, `~${THING}`]);
    // The worker takes the event's key first: the reconcile ends with another delay, the first still pending (one item).
    expect(queueOf(start.next(both, THING)!, 'periodic')).toEqual([`~${THING}`]);
    // The delay ends first: the key is queued once, and one reconcile takes both.
    expect(queueOf(start.next(both, `~${THING}`)!, 'periodic')).toEqual([`~${THING}`]);
  });
});
