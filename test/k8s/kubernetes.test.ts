// The Kubernetes environment (src/k8s/kubernetes.ts, world.ts): fan-out of watch events to the
// managers' caches, caches catching up one event at a time, watch handlers and work queues,
// ManagerConfig.view, initial worlds, the API-rule properties, and a tiny end-to-end race.
// Informer facts: docs/capi-semantics.md, "Informer caches and work queues (client-go, controller-runtime)".
// Every number is a hand count on the model named in the test.
import { describe, expect, it } from 'vitest';
import { List, Set } from 'immutable';
import { action, actionProperty, check, defineSingleModel, k8s, type VariantResult } from 'modelcheck';
import {
  FINALIZER,
  THING,
  TinyState,
  actionNamed,
  created,
  finalizerKube,
  finalizerRace,
  tinyWorld,
  rogue,
  step,
} from '../fixtures/k8s/tiny.ts';

const thing = (name: string, fields: Omit<Parameters<typeof k8s.object>[0], 'kind' | 'name'> = {}) =>
  k8s.object({ kind: 'Thing', name, ...fields });

/** A state whose world is the one (cache-current) initial world of `kube` with no objects. */
function emptyState(kube: k8s.Kubernetes<TinyState>): TinyState {
  const worlds = kube.initialWorlds({}, { cacheLag: 'none' });
  expect(worlds.length).toBe(1);
  return TinyState({ kube: worlds[0] });
}

function send(kube: k8s.Kubernetes<TinyState>, s: TinyState, server: string, call: (srv: k8s.ApiServer) => k8s.ApiResult) {
  return kube.request(s, server, call).state;
}

/** The types and resourceVersions of the events `manager` has not taken in for `key`. */
function pending(s: TinyState, manager: string, key: k8s.ObjectKey): string[] {
  return (k8s.worldMaps(s.kube).pending.get(manager)?.get(key) ?? List<k8s.WatchEvent>())
    .map((e) => `${e.type}@${e.object.resourceVersion}`)
    .toArray();
}

const cachedVersion = (s: TinyState, manager: string, key: k8s.ObjectKey) =>
  k8s.worldMaps(s.kube).caches.get(manager)?.get(key)?.resourceVersion;
const queue = (s: TinyState, controller: string) => (k8s.worldMaps(s.kube).queues.get(controller) ?? Set<string>()).toArray().sort();
const queuedParams = (kube: k8s.Kubernetes<TinyState>, s: TinyState, name: string) =>
  [...(actionNamed(kube, name).params?.(s) ?? [])].sort();
const statusOf = (r: VariantResult) => Object.fromEntries(r.properties.map((p) => [p.name, p.status]));
const labels = (r: VariantResult, property: string) => r.violations.find((v) => v.property === property)?.trace.map((t) => t.action);

describe('watch events fan out', () => {
  it('a write sends one event to every manager whose cache holds that kind on that server, and to no other', () => {
    const kube = k8s.kubernetes<TinyState>({
      world: tinyWorld,
      servers: ['a', 'b'],
      managers: [
        { name: 'thingsOnA', server: 'a', kinds: ['Thing'], readByModel: true },
        { name: 'bothOnA', server: 'a', kinds: ['Other', 'Thing'], readByModel: true },
        { name: 'otherOnA', server: 'a', kinds: ['Other'], readByModel: true },
        { name: 'thingsOnB', server: 'b', kinds: ['Thing'], readByModel: true },
      ],
      controllers: [],
    });
    let s = send(kube, emptyState(kube), 'a', (srv) => k8s.create(srv, created));
    const all = () => ['thingsOnA', 'bothOnA', 'otherOnA', 'thingsOnB'].map((m) => pending(s, m, THING));
    expect(all()).toEqual([['ADDED@1'], ['ADDED@1'], [], []]);
    s = send(kube, s, 'b', (srv) => k8s.create(srv, created));
    expect(all()).toEqual([['ADDED@1'], ['ADDED@1'], [], ['ADDED@1']]);
    // A request that persists nothing (a 409) sends nothing.
    s = send(kube, s, 'a', (srv) => k8s.create(srv, created));
    expect(all()).toEqual([['ADDED@1'], ['ADDED@1'], [], ['ADDED@1']]);
  });
});

describe('caches', () => {
  // capi-move-semantics.md: "For each object the cache moves forward through that object's
  // history in order (it never goes back, it may skip versions, it may lag arbitrarily), with
  // no consistency across objects."
  const kube = k8s.kubernetes<TinyState>({
    world: tinyWorld,
    servers: ['main'],
    managers: [{ name: 'manager', server: 'main', kinds: ['Thing'], readByModel: true }],
    controllers: [],
  });
  const A = k8s.objectKey('Thing', 'a');
  const B = k8s.objectKey('Thing', 'b');

  it("a cache takes one object's events in order, one per sync step, and another object of the kind after them (its informer's order)", () => {
    let s = emptyState(kube);
    s = send(kube, s, 'main', (srv) => k8s.create(srv, thing('a')));
    s = send(kube, s, 'main', (srv) => k8s.mergePatch(srv, A, { annotations: { n: '1' } }));
    s = send(kube, s, 'main', (srv) => k8s.mergePatch(srv, A, { annotations: { n: '2' } }));
    s = send(kube, s, 'main', (srv) => k8s.create(srv, thing('b')));
    expect(pending(s, 'manager', A)).toEqual(['ADDED@1', 'MODIFIED@2', 'MODIFIED@3']);
    // b was written last: the informer hands out a's events first (client-go delta_fifo.go Pop).
    expect(queuedParams(kube, s, 'managerCache.sync')).toEqual([A]);
    expect(actionNamed(kube, 'managerCache.sync').next(s, B)).toBeUndefined();

    s = step(kube, s, 'managerCache.sync', A);
    expect([cachedVersion(s, 'manager', A), pending(s, 'manager', A)]).toEqual([1, ['MODIFIED@2', 'MODIFIED@3']]);
    s = step(kube, s, 'managerCache.sync', A);
    s = step(kube, s, 'managerCache.sync', A);
    expect(cachedVersion(s, 'manager', A)).toBe(3);
    // Nothing pending for a: no entry for it at all, and no order left to keep.
    expect(k8s.worldMaps(s.kube).pending.get('manager')?.has(A)).toBe(false);
    expect(k8s.worldMaps(s.kube).order.isEmpty()).toBe(true);
    expect(queuedParams(kube, s, 'managerCache.sync')).toEqual([B]);
    s = step(kube, s, 'managerCache.sync', B);
    expect(cachedVersion(s, 'manager', B)).toBe(1);
  });

  it('objects of different kinds are taken in independently (one informer per kind)', () => {
    const kinds = k8s.kubernetes<TinyState>({
      world: tinyWorld,
      servers: ['main'],
      managers: [{ name: 'manager', server: 'main', kinds: ['Thing', 'Widget'], readByModel: true }],
      controllers: [],
    });
    const W = k8s.objectKey('Widget', 'w');
    let s = emptyState(kinds);
    s = send(kinds, s, 'main', (srv) => k8s.create(srv, thing('a')));
    s = send(kinds, s, 'main', (srv) => k8s.create(srv, k8s.object({ kind: 'Widget', name: 'w' })));
    expect(queuedParams(kinds, s, 'managerCache.sync')).toEqual([A, W]);
    s = step(kinds, s, 'managerCache.sync', W);
    expect([cachedVersion(s, 'manager', W), cachedVersion(s, 'manager', A)]).toEqual([1, undefined]);
  });

  it("a pop takes an object's events that reached the DeltaFIFO ahead of another object's earlier one, never the other's first", () => {
    // Writes a1, b1, a2. The informer pops a first, with a1 alone or with a2 too (if a2 had
    // reached its DeltaFIFO, which then holds b1 as well); b1 can never come before a1.
    let s = emptyState(kube);
    s = send(kube, s, 'main', (srv) => k8s.create(srv, thing('a')));
    s = send(kube, s, 'main', (srv) => k8s.create(srv, thing('b')));
    s = send(kube, s, 'main', (srv) => k8s.mergePatch(srv, A, { annotations: { n: '1' } }));
    expect(queuedParams(kube, s, 'managerCache.sync')).toEqual([A, `${A}#2`]);
    const sync = actionNamed(kube, 'managerCache.sync');
    expect(sync.formatParam?.(`${A}#2`)).toBe('Thing/a, 2 events');
    const ahead = step(kube, s, 'managerCache.sync', `${A}#2`);
    expect([cachedVersion(ahead, 'manager', A), cachedVersion(ahead, 'manager', B)]).toEqual([2, undefined]);
    expect(queuedParams(kube, ahead, 'managerCache.sync')).toEqual([B]);
    // One at a time: a1, then b1 comes before a2.
    const one = step(kube, s, 'managerCache.sync', A);
    expect(queuedParams(kube, one, 'managerCache.sync')).toEqual([B]);
  });

  it('events that certainly reached the DeltaFIFO are popped together', () => {
    // Writes a1, b1, b2, a2: popping a with a2 means b1 and b2 had arrived, so b's next pop
    // takes both (the DeltaFIFO keeps every delta of a key in the key's one place).
    let s = emptyState(kube);
    s = send(kube, s, 'main', (srv) => k8s.create(srv, thing('a')));
    s = send(kube, s, 'main', (srv) => k8s.create(srv, thing('b')));
    s = send(kube, s, 'main', (srv) => k8s.mergePatch(srv, B, { annotations: { n: '1' } }));
    s = send(kube, s, 'main', (srv) => k8s.mergePatch(srv, A, { annotations: { n: '1' } }));
    s = step(kube, s, 'managerCache.sync', `${A}#2`);
    expect(queuedParams(kube, s, 'managerCache.sync')).toEqual([B]);
    s = step(kube, s, 'managerCache.sync', B);
    expect([cachedVersion(s, 'manager', B), pending(s, 'manager', B)]).toEqual([2, []]);
  });

  it('a DELETED event removes the object from the cache', () => {
    let s = send(kube, emptyState(kube), 'main', (srv) => k8s.create(srv, thing('a')));
    s = send(kube, s, 'main', (srv) => k8s.delete(srv, A));
    s = step(kube, s, 'managerCache.sync', A);
    expect(cachedVersion(s, 'manager', A)).toBe(1);
    s = step(kube, s, 'managerCache.sync', A);
    expect(k8s.worldMaps(s.kube).caches.get('manager')?.has(A)).toBe(false);
  });

  it('in every step of a full search each cache entry moves forward by at most one version, never back: 10 states', () => {
    // Objects a and b exist (resourceVersion 1, cache current). The actor patches a, patches a
    // again, then patches b. Hand count: the actor's count k in 0..3; a's cache position is at
    // most min(k, 2) (k + 1, 2, 3 and 3 choices); b's event comes after a's two, so b's cache
    // moves only once a's has both (2 choices then, 1 otherwise): 1 + 2 + 3 + (2 + 2) = 10.
    const writes = [A, A, B];
    const actor = action<TinyState>('actor.patch', {
      next: (s) =>
        s.actor < writes.length
          ? send(kube, s, 'main', (srv) => k8s.mergePatch(srv, writes[s.actor], { annotations: { n: String(s.actor) } })).set(
              'actor',
              s.actor + 1,
            )
          : undefined,
    });
    const oneVersionForward = actionProperty<TinyState>(
      'CacheMovesOneVersionForward',
      'A step changes at most one cache entry, and that one to the next resourceVersion.',
      (s, t) => {
        const before = k8s.worldMaps(s.kube).caches.get('manager')!;
        const after = k8s.worldMaps(t.kube).caches.get('manager')!;
        const moved = [A, B].filter((k) => before.get(k)?.resourceVersion !== after.get(k)?.resourceVersion);
        return (
          moved.length === 0 || (moved.length === 1 && after.get(moved[0])!.resourceVersion === before.get(moved[0])!.resourceVersion + 1)
        );
      },
    );
    const worlds = kube.initialWorlds(
      {
        main: [
          { versions: [thing('a')], reconciled: true },
          { versions: [thing('b')], reconciled: true },
        ],
      },
      { cacheLag: 'none' },
    );
    const r = check(
      defineSingleModel<TinyState>({
        name: 'cacheOrder',
        init: () => worlds.map((w) => TinyState({ kube: w })),
        actions: [actor, ...kube.actions],
        properties: [oneVersionForward],
        checkDeadlock: false,
      }),
    ).variants[0];
    expect([r.verdict, r.stats.distinctStates]).toEqual(['proved', 10]);
  });
});

describe('watch handlers and work queues', () => {
  const OTHER = k8s.objectKey('Other', 'x');
  const kube = k8s.kubernetes<TinyState>({
    world: tinyWorld,
    servers: ['main'],
    managers: [{ name: 'manager', server: 'main', kinds: ['Thing', 'Other'] }],
    controllers: [
      {
        name: 'watcher',
        manager: 'manager',
        watches: [
          // Only creations of Things enqueue.
          { kind: 'Thing', predicate: (e) => e.type === 'ADDED' },
          // An Other enqueues the Thing its spec.target names.
          { kind: 'Other', map: (o) => [k8s.objectKey('Thing', String(o.spec.get('target')))] },
        ],
        reconcile: (r) => r.goto('wait', {}),
        steps: { wait: (r) => r.done() },
      },
    ],
  });

  it('a watch whose predicate rejects the event does not enqueue', () => {
    let s = send(kube, emptyState(kube), 'main', (srv) => k8s.create(srv, created));
    s = send(kube, s, 'main', (srv) => k8s.mergePatch(srv, THING, { spec: { size: 1 } }));
    s = step(kube, s, 'managerCache.sync', THING);
    expect(queue(s, 'watcher')).toEqual([THING]);
    s = step(kube, s, 'watcher.reconcile', THING);
    s = step(kube, s, 'watcher.wait', THING);
    expect(queue(s, 'watcher')).toEqual([]);
    // The MODIFIED event reaches the cache but enqueues nothing.
    s = step(kube, s, 'managerCache.sync', THING);
    expect([cachedVersion(s, 'manager', THING), queue(s, 'watcher')]).toEqual([2, []]);
  });

  it('a map function chooses the keys an event enqueues', () => {
    let s = send(kube, emptyState(kube), 'main', (srv) => k8s.create(srv, k8s.object({ kind: 'Other', name: 'x', spec: { target: 'o' } })));
    s = step(kube, s, 'managerCache.sync', OTHER);
    expect(queue(s, 'watcher')).toEqual([THING]);
  });

  it('the queue is a set: enqueuing a queued key again changes nothing', () => {
    let s = send(kube, emptyState(kube), 'main', (srv) => k8s.create(srv, created));
    s = send(kube, s, 'main', (srv) => k8s.create(srv, k8s.object({ kind: 'Other', name: 'x', spec: { target: 'o' } })));
    s = step(kube, s, 'managerCache.sync', THING);
    const once = k8s.worldMaps(s.kube).queues;
    s = step(kube, s, 'managerCache.sync', OTHER);
    expect(queue(s, 'watcher')).toEqual([THING]);
    expect(k8s.worldMaps(s.kube).queues.equals(once)).toBe(true);
  });

  it('a key being reconciled stays queued but is not handed to a second worker', () => {
    let s = send(kube, emptyState(kube), 'main', (srv) => k8s.create(srv, created));
    s = step(kube, s, 'managerCache.sync', THING);
    expect(queuedParams(kube, s, 'watcher.reconcile')).toEqual([THING]);
    s = step(kube, s, 'watcher.reconcile', THING);
    expect([queue(s, 'watcher'), k8s.worldMaps(s.kube).reconciles.get('watcher')?.get(THING)?.step]).toEqual([[], 'wait']);
    // A new event for the key while it is being reconciled: queued, not startable.
    s = send(kube, s, 'main', (srv) => k8s.create(srv, k8s.object({ kind: 'Other', name: 'x', spec: { target: 'o' } })));
    s = step(kube, s, 'managerCache.sync', OTHER);
    expect(queue(s, 'watcher')).toEqual([THING]);
    expect(queuedParams(kube, s, 'watcher.reconcile')).toEqual([]);
    expect(actionNamed(kube, 'watcher.reconcile').next(s, THING)).toBeDefined(); // params rule it out, not next
    s = step(kube, s, 'watcher.wait', THING);
    expect(queuedParams(kube, s, 'watcher.reconcile')).toEqual([THING]);
  });
});

describe('ManagerConfig.view', () => {
  // What the controllers read of a Thing: its finalizers only (no resourceVersion, annotations
  // or spec), so writes to anything else change nothing a cache of this view keeps.
  const finalizersOnly = (o: k8s.KubeObject) => k8s.object({ kind: o.kind, name: o.name, finalizers: o.finalizers.toArray() });
  const kube = k8s.kubernetes<TinyState>({
    world: tinyWorld,
    servers: ['main'],
    managers: [
      { name: 'picky', server: 'main', kinds: ['Thing'], view: finalizersOnly },
      { name: 'eager', server: 'main', kinds: ['Thing'], view: finalizersOnly },
    ],
    controllers: [
      {
        name: 'onlyCreations',
        manager: 'picky',
        watches: [{ kind: 'Thing', predicate: (e) => e.type === 'ADDED' }],
        reconcile: (r) => r.done(),
        steps: {},
      },
      { name: 'everything', manager: 'eager', watches: [{ kind: 'Thing' }], reconcile: (r) => r.done(), steps: {} },
    ],
  });
  const start = () =>
    TinyState({
      kube: kube.initialWorlds(
        { main: [{ versions: [thing('o', { finalizers: [FINALIZER] })], reconciled: true }] },
        { cacheLag: 'none' },
      )[0],
    });

  it('the cache holds the projected object', () => {
    const s0 = start();
    expect(k8s.worldMaps(s0.kube).caches.get('picky')?.get(THING)).toEqual(finalizersOnly(kube.stored(s0, 'main', THING)!));
    let s = send(kube, s0, 'main', (srv) => k8s.mergePatch(srv, THING, { finalizers: [] }));
    s = step(kube, s, 'pickyCache.sync', THING);
    expect(k8s.worldMaps(s.kube).caches.get('picky')?.get(THING)).toEqual(k8s.object({ kind: 'Thing', name: 'o' }));
  });

  it('an update with an unchanged view that every predicate rejects is not delivered; a predicate-less watch gets it', () => {
    const s = send(kube, start(), 'main', (srv) => k8s.mergePatch(srv, THING, { annotations: { a: '1' }, spec: { size: 2 } }));
    expect(kube.stored(s, 'main', THING)?.resourceVersion).toBe(2);
    expect(pending(s, 'picky', THING)).toEqual([]);
    // The projected object has resourceVersion 0: the view drops it.
    expect(pending(s, 'eager', THING)).toEqual(['MODIFIED@0']);
  });

  it('an update that changes the view is delivered even if every predicate rejects it', () => {
    const s = send(kube, start(), 'main', (srv) => k8s.mergePatch(srv, THING, { finalizers: [] }));
    expect(pending(s, 'picky', THING)).toEqual(['MODIFIED@0']);
  });
});

describe('initialWorlds', () => {
  // Two managers watching Things and Widgets on one server, a Thing and a Widget each with three
  // versions (objects of different kinds: no order between their events).
  const kube = k8s.kubernetes<TinyState>({
    world: tinyWorld,
    servers: ['main'],
    managers: [
      { name: 'm1', server: 'main', kinds: ['Thing', 'Widget'] },
      { name: 'm2', server: 'main', kinds: ['Thing', 'Widget'], readByModel: true },
    ],
    // One controller per kind: a controller's queue holds keys of its For() kind only.
    controllers: [
      { name: 'c', manager: 'm1', watches: [{ kind: 'Thing' }], reconcile: (r) => r.done(), steps: {} },
      { name: 'd', manager: 'm1', watches: [{ kind: 'Widget' }], reconcile: (r) => r.done(), steps: {} },
    ],
  });
  const history = (kind: string, name: string, versions = 3) =>
    [
      k8s.object({ kind, name }),
      k8s.object({ kind, name, annotations: { v: '2' } }),
      k8s.object({ kind, name, annotations: { v: '3' } }),
    ].slice(0, versions);
  const histories = (reconciled: boolean) => ({
    main: [
      { versions: history('Thing', 'p'), reconciled },
      { versions: history('Widget', 'q'), reconciled },
    ],
  });

  it('with cacheLag none there is exactly one world, caches current and nothing pending', () => {
    const worlds = kube.initialWorlds(histories(true), { cacheLag: 'none' });
    expect(worlds.length).toBe(1);
    const w = k8s.worldMaps(worlds[0]);
    const P = k8s.objectKey('Thing', 'p');
    expect(w.servers.get('main')?.objects.get(P)?.resourceVersion).toBe(3);
    expect(w.caches.get('m1')?.get(P)).toEqual(w.servers.get('main')?.objects.get(P));
    expect(w.caches.get('m2')?.get(P)).toEqual(w.servers.get('main')?.objects.get(P));
    expect(w.pending.every((m) => m.isEmpty())).toBe(true);
    expect(w.queues.get('c')?.isEmpty()).toBe(true);
    expect(w.queues.get('d')?.isEmpty()).toBe(true);
  });

  it("with cacheLag none and unreconciled histories the watchers' keys are queued", () => {
    const w = k8s.worldMaps(kube.initialWorlds(histories(false), { cacheLag: 'none' })[0]);
    expect(w.queues.get('c')?.toArray()).toEqual(['Thing/p']);
    expect(w.queues.get('d')?.toArray()).toEqual(['Widget/q']);
  });

  it('with cacheLag any, reconciled: 3^4 = 81 distinct worlds', () => {
    // Hand count: 2 objects x 2 managers = 4 (cache, object) slots; a reconciled history of 3
    // versions has been in every cache, so each slot stands at position 1, 2 or 3.
    const worlds = kube.initialWorlds(histories(true), { cacheLag: 'any' });
    expect([worlds.length, Set(worlds).size]).toEqual([81, 81]);
  });

  it('with cacheLag any, unreconciled: 4^4 = 256 distinct worlds', () => {
    // Hand count: as above, but a slot may also stand at position 0 (not yet seen): 4 choices.
    const worlds = kube.initialWorlds(histories(false), { cacheLag: 'any' });
    expect([worlds.length, Set(worlds).size]).toEqual([256, 256]);
  });

  it('with two objects of one kind lagging, each interleaving of their writes, the same in every cache: 23 worlds', () => {
    // Two Things, two versions each, reconciled: each of the 4 (cache, object) slots stands at
    // position 1 or 2 (one event pending or none). Hand count: where both objects have an event
    // pending somewhere, the two writes came in one of two orders; a cache that has both pending
    // shows which. 7 of the 16 position combinations have a cache with both pending (2 worlds
    // each), the other 9 one world each: 14 + 9 = 23 (25 if each cache had an order of its own).
    const worlds = kube.initialWorlds(
      {
        main: [
          { versions: history('Thing', 'p', 2), reconciled: true },
          { versions: history('Thing', 'r', 2), reconciled: true },
        ],
      },
      { cacheLag: 'any' },
    );
    expect([worlds.length, Set(worlds).size]).toEqual([23, 23]);
  });

  it('a lagging cache has the later versions pending, in order', () => {
    // The world where m1 stands at position 1 of p's history: two MODIFIED events to come.
    const P = k8s.objectKey('Thing', 'p');
    const worlds = kube.initialWorlds(histories(true), { cacheLag: 'any' });
    const lagging = worlds.filter((w) => k8s.worldMaps(w).caches.get('m1')?.get(P)?.resourceVersion === 1);
    // Hand count: m1's slot for p fixed, the other three free: 3^3 = 27.
    expect(lagging.length).toBe(27);
    expect(pending(TinyState({ kube: lagging[0] }), 'm1', P)).toEqual(['MODIFIED@2', 'MODIFIED@3']);
  });
});

describe('API rule properties', () => {
  // Kubernetes.properties restate the server's rules (capi-move-semantics.md) over a model's
  // steps. A library-only model keeps them (see the end-to-end tests); a step that bypasses
  // the library and rewrites the stored object breaks each one, so they are not vacuous.
  const kube = finalizerKube();
  const run = (a: ReturnType<typeof rogue>) =>
    check(defineSingleModel<TinyState>({ ...finalizerRace(['delete', 'removeFinalizers'], [a], kube.properties), name: 'rogue' }))
      .variants[0];

  it('DeletionIsFinal fails for a step that clears deletionTimestamp', () => {
    const r = run(rogue('clearDeletionTimestamp', (o) => o.set('deletionTimestamp', null)));
    expect(statusOf(r)).toEqual({
      DeletionIsFinal: 'violated',
      NoNewFinalizersWhileDeleting: 'holds',
      NoDeletingObjectWithoutFinalizers: 'holds',
    });
    // Shortest: the actor's DELETE marks the object, then the rogue step clears the mark.
    expect(labels(r, 'DeletionIsFinal')).toEqual([null, 'actor.delete', 'rogue.clearDeletionTimestamp']);
  });

  it('NoNewFinalizersWhileDeleting fails for a step that adds a finalizer to a deleting object', () => {
    const r = run(rogue('addFinalizer', (o) => o.set('finalizers', k8s.withFinalizer(o, 'example.com/rogue'))));
    expect(statusOf(r)).toEqual({
      DeletionIsFinal: 'holds',
      NoNewFinalizersWhileDeleting: 'violated',
      NoDeletingObjectWithoutFinalizers: 'holds',
    });
    expect(labels(r, 'NoNewFinalizersWhileDeleting')).toEqual([null, 'actor.delete', 'rogue.addFinalizer']);
  });

  it('NoDeletingObjectWithoutFinalizers fails for a step that empties the finalizers but keeps the object', () => {
    const r = run(rogue('dropFinalizers', (o) => o.set('finalizers', List())));
    expect(statusOf(r)).toEqual({
      DeletionIsFinal: 'holds',
      NoNewFinalizersWhileDeleting: 'holds',
      NoDeletingObjectWithoutFinalizers: 'violated',
    });
    expect(labels(r, 'NoDeletingObjectWithoutFinalizers')).toEqual([null, 'actor.delete', 'rogue.dropFinalizers']);
  });
});

describe('end to end: an actor racing EnsureFinalizer', () => {
  // One Thing whose history is [created, with our finalizer] (reconciled, cache current, queue
  // empty); the finalizerController adds the finalizer whenever its cache shows the Thing
  // neither deleting nor finalized (util/finalizers EnsureFinalizer); the actor DELETEs and
  // empties the finalizers in one of two orders (clusterctl's v1.9.5 and v1.9.3 orders).
  // Versions: v2 = {F}; then the actor's and the controller's writes.

  it('DELETE then remove finalizers: the object is always gone; 9 states, depth 6', () => {
    const r = check(defineSingleModel<TinyState>({ ...finalizerRace(['delete', 'removeFinalizers']), name: 'race' })).variants[0];
    expect(r.verdict).toBe('proved');
    expect(statusOf(r)).toEqual({
      SettledObjectGone: 'holds',
      DeletionIsFinal: 'holds',
      NoNewFinalizersWhileDeleting: 'holds',
      NoDeletingObjectWithoutFinalizers: 'holds',
    });
    // Hand count. The DELETE makes v3 = {F, deleting}; the patch then removes the Thing (DEL).
    // The cache never shows a Thing that is not deleting and lacks F, so no reconcile ever
    // patches and none stays in flight: a state is (actor a, cache c, queue q).
    //   a=0: (v2, empty)                                                       1
    //   a=1: (v2, empty), (v3, {o}), (v3, empty)                               3
    //   a=2: (v2, empty), (v3, {o}), (v3, empty), (gone, {o}), (gone, empty)   5
    // 9 states. The farthest is (a=2, gone, empty): its shortest path is delete,
    // removeFinalizers, sync, sync, reconcile (5 steps), so depth 6.
    expect([r.stats.distinctStates, r.stats.depth]).toEqual([9, 6]);
  });

  it('remove finalizers then DELETE: the controller can re-add its finalizer first, leaving the object stuck; 18 states, depth 9', () => {
    const r = check(defineSingleModel<TinyState>({ ...finalizerRace(['removeFinalizers', 'delete']), name: 'race' })).variants[0];
    expect(r.verdict).toBe('violated');
    expect(statusOf(r)).toEqual({
      SettledObjectGone: 'violated',
      DeletionIsFinal: 'holds',
      NoNewFinalizersWhileDeleting: 'holds',
      NoDeletingObjectWithoutFinalizers: 'holds',
    });
    // Hand count. The patch makes v3 = {} (not deleting). The controller's cache may then show
    // v3, reconcile (goto ensureFinalizer, locals finalizers = []) and patch v4 = {F}. The DELETE
    // removes v3 at once (gone), or marks v4 as v5 = {F, deleting}. A state is (actor a, cache
    // c, queue q, r = an ensureFinalizer in flight):
    //   a=0: (v2, -, -)                                                        1
    //   a=1, server v3: (v2, -, -), (v3, q, -), (v3, -, r)                      3
    //   a=1, server v4: (v3, -, -), (v4, q, -), (v4, -, -)                      3
    //   a=2, server gone: (v2, -, -), (v3, q, -), (v3, -, r),
    //                     (gone, q, -), (gone, q, r), (gone, -, -)              6
    //     (the in-flight patch answers 404 and requeues; a cache without the Thing ends it)
    //   a=2, server v5: (v3, -, -), (v4, q, -), (v4, -, -), (v5, q, -), (v5, -, -)   5
    // 18 states. (v5, -, -) is settled with the Thing still stored: SettledObjectGone fails.
    expect([r.stats.distinctStates, r.stats.depth]).toEqual([18, 9]);
    // Its shortest path (8 steps) by breadth-first order: to (a=1, v3 cached, no reconcile,
    // v4 stored) the only route is 4 steps; from there the DELETE (actor actions come first in
    // the variant) reaches (a=2, v3) at depth 6, whose sync gives (v4, q) at depth 7 before the
    // other route does, then sync to (v5, q) and reconcile to (v5, -).
    expect(labels(r, 'SettledObjectGone')).toEqual([
      null,
      'actor.removeFinalizers',
      'managerCache.sync(Thing/o)',
      'finalizerController.reconcile(Thing/o)',
      'finalizerController.ensureFinalizer(Thing/o)',
      'actor.delete',
      'managerCache.sync(Thing/o)',
      'managerCache.sync(Thing/o)',
      'finalizerController.reconcile(Thing/o)',
    ]);
    const last = r.violations.find((v) => v.property === 'SettledObjectGone')!.trace.at(-1)!.state as TinyState;
    const stuck = k8s.worldMaps(last.kube).servers.get('main')!.objects.get(THING)!;
    expect([k8s.isDeleting(stuck), stuck.finalizers.toArray()]).toEqual([true, [FINALIZER]]);
  });
});
