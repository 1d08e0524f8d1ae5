// ControllerConfig.waitForOwnWrites: the stale-controller mitigation of KEP-5647, as Cluster API
// v1.14.0 has it (util/controller/controller.go reconcilerWrapper.Reconcile 51-84, consistency.go
// WroteAt 213-225 and EnsureReady 229-264): after a write, the next reconcile of the same key is
// put off until the manager's cache has taken the write in; the record is then cleared, and a
// restart loses it. The steps are hand-run on a one-Thing world.
import { describe, expect, it } from 'vitest';
import { k8s } from 'modelcheck';
import { FINALIZER, TinyState, actionNamed, ensureFinalizerController, step, tinyWorld } from '../fixtures/k8s/tiny.ts';

const THING = k8s.objectKey('Thing', 'o');

function env(waitForOwnWrites: boolean) {
  const kube = k8s.kubernetes<TinyState>({
    world: tinyWorld,
    servers: ['main'],
    managers: [{ name: 'manager', server: 'main', kinds: ['Thing'] }],
    controllers: [{ ...ensureFinalizerController('finalizerController', 'manager'), waitForOwnWrites }],
    faults: { restarts: 1 },
  });
  const [world] = kube.initialWorlds(
    { main: [{ versions: [k8s.object({ kind: 'Thing', name: 'o' })], reconciled: false }] },
    { cacheLag: 'none' },
  );
  return { kube, s: TinyState({ kube: world }) };
}

const startable = (kube: k8s.Kubernetes<TinyState>, s: TinyState) => [
  ...(actionNamed(kube, 'finalizerController.reconcile').params?.(s) ?? []),
];
const waits = (s: TinyState) => k8s.worldMaps(s.kube).written.get('finalizerController')?.toJS();

describe('waitForOwnWrites', () => {
  it('after its patch, the next reconcile of the key waits for the cache to take the patch in, then clears the record', () => {
    const { kube, s: s0 } = env(true);
    let s = step(kube, s0, 'finalizerController.reconcile', THING);
    s = step(kube, s, 'finalizerController.ensureFinalizer', THING);
    expect(waits(s)).toEqual({ [THING]: { [THING]: 2 } });
    // Queue the key again (a resync, say) while the MODIFIED event waits: the reconcile is put off.
    s = tinyWorld.set(s, k8s.withQueue(s.kube, 'finalizerController', k8s.worldMaps(s.kube).queues.get('finalizerController')!.add(THING)));
    expect(startable(kube, s)).toEqual([]);
    expect(actionNamed(kube, 'finalizerController.reconcile').next(s, THING)).toBeUndefined();
    s = step(kube, s, 'managerCache.sync', THING);
    expect(startable(kube, s)).toEqual([THING]);
    s = step(kube, s, 'finalizerController.reconcile', THING);
    expect(waits(s)).toEqual({});
    expect(kube.cached(s, 'manager', THING)?.finalizers.toArray()).toEqual([FINALIZER]);
  });

  it('a restart forgets the record (it is in memory); a controller without the option never waits', () => {
    const { kube, s: s0 } = env(true);
    let s = step(kube, s0, 'finalizerController.reconcile', THING);
    s = step(kube, s, 'finalizerController.ensureFinalizer', THING);
    s = step(kube, s, 'manager.restart', undefined as unknown as k8s.ObjectKey);
    expect(waits(s)).toEqual({});
    const plain = env(false);
    let t = step(plain.kube, plain.s, 'finalizerController.reconcile', THING);
    t = step(plain.kube, t, 'finalizerController.ensureFinalizer', THING);
    expect(k8s.worldMaps(t.kube).written.size).toBe(0);
  });
});
