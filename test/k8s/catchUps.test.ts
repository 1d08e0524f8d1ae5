// The memo of cache catch-ups (src/k8s/catchUps.ts): a catch-up met again on the same values of
// its manager (pending events, their order, the cache) is applied rather than worked out again,
// and must leave exactly the world that working it out leaves, whatever else differs (other
// queues, other fields), with the values of the first time shared by identity.
import { describe, expect, it } from 'vitest';
import { is, Set } from 'immutable';
import { k8s, type StepEvent } from 'modelcheck';
import { actionNamed, created, finalizerKube, step, THING, TinyState } from '../fixtures/k8s/tiny.ts';

/** A cache-current world with the Thing created since: its ADDED event pending for the manager's cache. */
function withThingPending(kube: k8s.Kubernetes<TinyState>): TinyState {
  const [world] = kube.initialWorlds({}, { cacheLag: 'none' });
  const s = TinyState({ kube: world });
  return kube.request(s, 'main', (srv) => k8s.create(srv, created)).state;
}

describe('a cache catch-up met again', () => {
  it('is applied to another state with the same manager values: the same world as working it out, its values shared', () => {
    const kube = finalizerKube();
    const s = withThingPending(kube);
    // The same manager values, and a different queue and actor: the handler's key must be queued
    // onto this queue, not onto the first state's.
    const other = s.set('actor', 1).set('kube', k8s.withQueue(s.kube, 'finalizerController', Set(['Thing/elsewhere'])));
    const first = step(kube, s, 'managerCache.sync', THING);
    const again = step(kube, other, 'managerCache.sync', THING);
    const workedOut = step(finalizerKube(), other, 'managerCache.sync', THING);

    expect(is(again, workedOut)).toBe(true);
    expect(k8s.worldMaps(again.kube).queues.get('finalizerController')?.toArray().sort()).toEqual(['Thing/elsewhere', THING]);
    expect(k8s.worldMaps(again.kube).caches.get('manager')?.get(THING)?.resourceVersion).toBe(1);
    // Applied, not worked out: the manager's values are the first catch-up's own objects.
    expect(k8s.worldMaps(again.kube).pending.get('manager')).toBe(k8s.worldMaps(first.kube).pending.get('manager'));
    expect(k8s.worldMaps(again.kube).caches.get('manager')).toBe(k8s.worldMaps(first.kube).caches.get('manager'));
    expect(k8s.worldMaps(workedOut.kube).caches.get('manager')).not.toBe(k8s.worldMaps(first.kube).caches.get('manager'));
  });

  it('is worked out for a trace, which tells its events', () => {
    const kube = finalizerKube();
    const s = withThingPending(kube);
    const first = step(kube, s, 'managerCache.sync', THING);
    const events: StepEvent[] = [];
    const traced = actionNamed(kube, 'managerCache.sync').next(s, THING, events);
    expect(is(traced, first)).toBe(true);
    expect(events.map((e) => (e.kind === 'note' ? e.text : e.kind))).toEqual([
      'manager cache takes in ADDED Thing/o; queues Thing/o for finalizerController',
    ]);
  });
});
