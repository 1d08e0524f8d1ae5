// The Kubernetes library's injected faults (KubeFaults, src/k8s/kubernetes.ts): a bound on
// cache lag, informers that take several events at once, and controller-manager restarts. Each
// expectation is a hand count on the few writes of the test.
import { describe, expect, it } from 'vitest';
import { List, Set } from 'immutable';
import { k8s } from 'modelcheck';
import { TinyState, actionNamed, tinyWorld, step } from '../fixtures/k8s/tiny.ts';

const A = k8s.objectKey('Thing', 'a');
const B = k8s.objectKey('Thing', 'b');
const thing = (name: string, size: number) => k8s.object({ kind: 'Thing', name, spec: { size } });

/** A manager with one controller whose reconcile stops at a `wait` step; its watch records nothing but enqueues per `predicate`. */
function kubeWith(faults: k8s.KubeFaults, predicate?: (e: k8s.HandlerEvent) => boolean) {
  return k8s.kubernetes<TinyState>({
    world: tinyWorld,
    servers: ['main'],
    managers: [{ name: 'manager', server: 'main', kinds: ['Thing'] }],
    controllers: [
      {
        name: 'watcher',
        manager: 'manager',
        watches: [{ kind: 'Thing', ...(predicate ? { predicate } : {}) }],
        reconcile: (r) => r.goto('wait', {}),
        steps: { wait: (r) => r.done() },
      },
    ],
    faults,
  });
}

function start(kube: k8s.Kubernetes<TinyState>): TinyState {
  return TinyState({ kube: kube.initialWorlds({}, { cacheLag: 'none' })[0] });
}

function write(kube: k8s.Kubernetes<TinyState>, s: TinyState, size: number, name = 'a'): TinyState {
  const key = k8s.objectKey('Thing', name);
  const call = (srv: k8s.ApiServer) =>
    srv.objects.has(key) ? k8s.mergePatch(srv, key, { spec: { size } }) : k8s.create(srv, thing(name, size));
  return kube.request(s, 'main', call).state;
}

const pendingVersions = (s: TinyState, key: k8s.ObjectKey) =>
  (k8s.worldMaps(s.kube).pending.get('manager')?.get(key) ?? List<k8s.WatchEvent>()).map((e) => e.object.resourceVersion).toArray();
const cached = (s: TinyState, key: k8s.ObjectKey) => k8s.worldMaps(s.kube).caches.get('manager')?.get(key)?.resourceVersion;
const queue = (s: TinyState) => (k8s.worldMaps(s.kube).queues.get('watcher') ?? Set<string>()).toArray().sort();

describe('cacheLagBound', () => {
  it('bound 1: a third write makes the cache take in the oldest waiting event at once, handlers included', () => {
    const kube = kubeWith({ cacheLagBound: 1 });
    let s = write(kube, start(kube), 1); // version 1 waits
    expect([cached(s, A), pendingVersions(s, A), queue(s)]).toEqual([undefined, [1], []]);
    s = write(kube, s, 2); // version 2 would be the second: version 1 is taken in
    expect([cached(s, A), pendingVersions(s, A), queue(s)]).toEqual([1, [2], [A]]);
    s = write(kube, s, 3);
    expect([cached(s, A), pendingVersions(s, A)]).toEqual([2, [3]]);
  });

  it('bound 0: every cache is current after every write, and nothing waits', () => {
    const kube = kubeWith({ cacheLagBound: 0 });
    let s = write(kube, start(kube), 1);
    s = write(kube, s, 2);
    expect([cached(s, A), pendingVersions(s, A), queue(s)]).toEqual([2, [], [A]]);
    expect(actionNamed(kube, 'managerCache.sync').params!(s)).toEqual([]);
  });
});

describe('coalesce', () => {
  it('syncLatest takes every waiting event of one object at once; it needs two or more', () => {
    const kube = kubeWith({ coalesce: true });
    const syncLatest = actionNamed(kube, 'managerCache.syncLatest');
    let s = write(kube, start(kube), 1);
    expect(syncLatest.params!(s)).toEqual([]);
    s = write(kube, s, 2);
    s = write(kube, s, 3);
    s = write(kube, s, 1, 'b');
    expect(syncLatest.params!(s)).toEqual([A]);
    s = step(kube, s, 'managerCache.syncLatest', A);
    expect([cached(s, A), pendingVersions(s, A), pendingVersions(s, B)]).toEqual([3, [], [1]]);
  });

  it('the handlers see one event: ADDED from an empty cache, else MODIFIED from the held version (the versions between unseen)', () => {
    const seen: string[] = [];
    const kube = kubeWith({ coalesce: true }, (e) => {
      seen.push(`${e.type} ${e.old?.spec.get('size') ?? '-'} -> ${e.object.spec.get('size')}`);
      return true;
    });
    let s = write(kube, start(kube), 1);
    s = write(kube, s, 2);
    s = step(kube, s, 'managerCache.syncLatest', A);
    s = write(kube, s, 3);
    s = write(kube, s, 4);
    s = step(kube, s, 'managerCache.syncLatest', A);
    expect(seen).toEqual(['ADDED - -> 2', 'MODIFIED 2 -> 4']);
    expect(cached(s, A)).toBe(4);
  });
});

describe('restarts', () => {
  it('a restart loses the queues and the reconciles under way, relists the cache, queues every listed key, and uses up the budget', () => {
    const kube = kubeWith({ restarts: 1 });
    // The restart action takes no parameter.
    const restart = actionNamed(kube, 'manager.restart') as unknown as { next: (s: TinyState, p: undefined) => TinyState | undefined };
    let s = start(kube);
    expect(s.kube.restartsLeft).toBe(1);
    s = write(kube, s, 1);
    s = write(kube, s, 1, 'b');
    s = step(kube, s, 'managerCache.sync', A);
    s = step(kube, s, 'watcher.reconcile', A); // A's reconcile now waits at step `wait`
    s = write(kube, s, 2); // version 2 of A waits for the cache
    expect([cached(s, A), cached(s, B), pendingVersions(s, A), queue(s)]).toEqual([1, undefined, [2], []]);
    expect(k8s.worldMaps(s.kube).reconciles.get('watcher')?.get(A)?.step).toBe('wait');

    s = restart.next(s, undefined)!;
    expect(s.kube.restartsLeft).toBe(0);
    // The cache holds what the server stores now; nothing waits; both keys are queued; A's
    // reconcile is gone.
    expect([cached(s, A), cached(s, B), pendingVersions(s, A), pendingVersions(s, B), queue(s)]).toEqual([2, 1, [], [], [A, B]]);
    expect(k8s.worldMaps(s.kube).reconciles.get('watcher')?.size).toBe(0);
    expect(restart.next(s, undefined)).toBeUndefined();
  });

  it('without a restart budget there is no restart action', () => {
    expect(kubeWith({}).actions.map((a) => a.name)).toEqual(['managerCache.sync', 'watcher.reconcile', 'watcher.wait']);
  });
});

describe('resync', () => {
  // client-go delta_fifo.go Resync/syncKeyLocked: a Sync delta for each cached object with no
  // delta queued, handed to the handlers as an update from the object to itself (same
  // resourceVersion). Cluster API's ResourceIsChanged drops it; a watch without it queues the key.
  it('queues a cached object whose watch passes the unchanged update, and only where that adds a key', () => {
    const kube = kubeWith({ resync: true });
    let s = write(kube, start(kube), 1);
    // a's event still waits: no resync for it (its delta is queued).
    expect([...(actionNamed(kube, 'managerCache.resync').params?.(s) ?? [])]).toEqual([]);
    s = step(kube, s, 'managerCache.sync', A);
    s = step(kube, s, 'watcher.reconcile', A);
    s = step(kube, s, 'watcher.wait', A);
    expect(queue(s)).toEqual([]);
    expect([...(actionNamed(kube, 'managerCache.resync').params?.(s) ?? [])]).toEqual([A]);
    s = step(kube, s, 'managerCache.resync', A);
    expect([queue(s), cached(s, A)]).toEqual([[A], 1]);
    // Queued already: a resync would change nothing, so it is not offered.
    expect([...(actionNamed(kube, 'managerCache.resync').params?.(s) ?? [])]).toEqual([]);
  });

  it('a watch with ResourceIsChanged never queues on a resync', () => {
    const kube = kubeWith({ resync: true }, k8s.resourceIsChanged);
    let s = write(kube, start(kube), 1);
    s = step(kube, s, 'managerCache.sync', A);
    expect(queue(s)).toEqual([A]);
    s = step(kube, s, 'watcher.reconcile', A);
    s = step(kube, s, 'watcher.wait', A);
    expect([...(actionNamed(kube, 'managerCache.resync').params?.(s) ?? [])]).toEqual([]);
  });

  it('is no action at all without the fault', () => {
    expect(kubeWith({}).actions.some((a) => a.name === 'managerCache.resync')).toBe(false);
  });
});
