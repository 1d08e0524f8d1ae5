// The Kubernetes part of a model's state: API servers, the watch events each manager's cache
// has not taken in yet, the caches, the controllers' work queues and their in-flight reconciles.
// The functions here are the client-go and controller-runtime mechanics: events fan out from a
// write to every cache that watches the kind, a cache takes them in one at a time per object
// (moving forward through that object's history, never back, lagging as long as the search
// lets it), and taking an event in runs the watch handlers that enqueue keys.
import { List, Map, Record, Set, type RecordOf } from 'immutable';
import type { ApiServer, WatchEvent } from './apiServer.ts';
import type { KubeObject, ObjectKey } from './object.ts';

/** A local variable of an in-flight reconcile: any state value (a copy of an object, a list, a flag). */
export type LocalValue = unknown;

export interface ReconcileProps {
  /** The next step this reconcile will take (a name from the controller's steps). */
  step: string;
  /** Its local variables, e.g. the copy of the object it read from the cache. */
  locals: Map<string, LocalValue>;
}
export type Reconcile = RecordOf<ReconcileProps>;
export const Reconcile = Record<ReconcileProps>({ step: '', locals: Map() }, 'Reconcile');

export interface KubeWorldProps {
  servers: Map<string, ApiServer>;
  /** Per cache, per object: the watch events sent but not yet taken into the cache, oldest first. */
  pending: Map<string, Map<ObjectKey, List<WatchEvent>>>;
  /** Per cache (one per controller manager): the objects as that cache last saw them. */
  caches: Map<string, Map<ObjectKey, KubeObject>>;
  /** Per controller: its work queue (a set: adding a queued key again changes nothing). */
  queues: Map<string, Set<ObjectKey>>;
  /** Per controller: the reconciles under way, one at most per key. */
  reconciles: Map<string, Map<ObjectKey, Reconcile>>;
  /** Fault budget: how many controller-manager restarts may still happen (KubeFaults.restarts). */
  restartsLeft: number;
}
export type KubeWorld = RecordOf<KubeWorldProps>;
export const KubeWorld = Record<KubeWorldProps>(
  { servers: Map(), pending: Map(), caches: Map(), queues: Map(), reconciles: Map(), restartsLeft: 0 },
  'KubeWorld',
);

/** Appends `event` to the pending events of every cache in `caches`. */
export function sendEvent(world: KubeWorld, caches: readonly string[], event: WatchEvent): KubeWorld {
  const key = `${event.object.kind}/${event.object.name}`;
  return world.update('pending', (pending) =>
    caches.reduce((acc, cache) => acc.updateIn([cache, key], (l) => ((l as List<WatchEvent> | undefined) ?? List()).push(event)), pending),
  );
}

/** The oldest pending event of `key` for `cache`, if any. */
export function nextEvent(world: KubeWorld, cache: string, key: ObjectKey): WatchEvent | undefined {
  return world.pending.get(cache)?.get(key)?.first();
}

/**
 * Takes the oldest pending event of `key` into `cache`. An object with no pending events left
 * has no entry, so that "nothing pending" has one representation and equal states fingerprint
 * equally.
 */
export function takeEvent(world: KubeWorld, cache: string, key: ObjectKey): KubeWorld {
  const events = world.pending.get(cache)?.get(key);
  if (!events || events.isEmpty()) return world;
  const event = events.first()!;
  const rest = events.shift();
  return world
    .setIn(['pending', cache], rest.isEmpty() ? world.pending.get(cache)!.delete(key) : world.pending.get(cache)!.set(key, rest))
    .updateIn(['caches', cache], (c) => {
      const m = (c as Map<ObjectKey, KubeObject> | undefined) ?? Map<ObjectKey, KubeObject>();
      return event.type === 'DELETED' ? m.delete(key) : m.set(key, event.object);
    });
}

export function enqueue(world: KubeWorld, controller: string, keys: Iterable<ObjectKey>): KubeWorld {
  return world.updateIn(['queues', controller], (q) => ((q as Set<ObjectKey> | undefined) ?? Set()).union(keys));
}

export function cacheOf(world: KubeWorld, cache: string): Map<ObjectKey, KubeObject> {
  return world.caches.get(cache) ?? Map();
}
