// The Kubernetes part of a model's state: API servers, the watch events each manager's cache
// has not taken in yet, the caches, the controllers' work queues and their in-flight reconciles.
// The functions here are the client-go and controller-runtime mechanics: events fan out from a
// write to every cache that watches the kind, a cache takes them in per object (moving forward
// through that object's history, never back, lagging as long as the search lets it) in the order
// its informer's DeltaFIFO hands them out (see WatchOrder), and taking an event in runs the watch
// handlers that enqueue keys.
import { List, Map, Set, type RecordOf } from 'immutable';
import { FlatRecord } from '../engine/flatRecord.ts';
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
export const Reconcile = FlatRecord<ReconcileProps>({ step: '', locals: Map() }, 'Reconcile');

/**
 * The order in which one cache's informer for one kind hands out its pending events, kept only
 * where it says more than each object's own list does. client-go runs one informer per kind and
 * cache; its watch delivers that kind's events in write order into a DeltaFIFO keyed by object,
 * which appends a key when it has no deltas queued and otherwise adds the delta to the key's
 * place; Pop takes the first key with every delta queued for it, and they are processed oldest
 * first (client-go tools/cache delta_fifo.go queueActionInternalLocked and Pop, controller.go
 * processDeltas). So a pop of an object can take its later events ahead of another object's
 * earlier ones, but only events that had reached the DeltaFIFO: those at or before the
 * furthest event taken in so far. Inference: assuming that no more had arrived than that is
 * the assumption that allows every behaviour the others allow, so it is the one kept.
 */
export interface WatchOrderProps {
  /** The key of each pending event of the kind, oldest first. */
  keys: List<ObjectKey>;
  /** How many of those events have certainly reached the DeltaFIFO (0 when fewer than two). */
  arrived: number;
}
export type WatchOrder = RecordOf<WatchOrderProps>;
export const WatchOrder = FlatRecord<WatchOrderProps>({ keys: List(), arrived: 0 }, 'WatchOrder');

export interface KubeWorldProps {
  servers: Map<string, ApiServer>;
  /** Per cache, per object: the watch events sent but not yet taken into the cache, oldest first. */
  pending: Map<string, Map<ObjectKey, List<WatchEvent>>>;
  /**
   * Per cache, per kind: the order of the pending events across objects, present only while it
   * matters (two objects of the kind have events pending, or two or more events have certainly
   * arrived), so that a kind with one object pending reads as before.
   */
  order: Map<string, Map<string, WatchOrder>>;
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
export const KubeWorld = FlatRecord<KubeWorldProps>(
  { servers: Map(), pending: Map(), order: Map(), caches: Map(), queues: Map(), reconciles: Map(), restartsLeft: 0 },
  'KubeWorld',
);

/** An empty world, for a state record's default value; Kubernetes.initialWorlds builds the real ones. */
export function emptyWorld(): KubeWorld {
  return KubeWorld();
}

/** The kind of `Kind/name`. */
export function kindOfKey(key: ObjectKey): string {
  return key.slice(0, key.indexOf('/'));
}

/** Whether `key` is of `kind` (without cutting the kind out of it: this runs for every state). */
function isOfKind(key: ObjectKey, kind: string): boolean {
  return key.charCodeAt(kind.length) === 47 /* '/' */ && key.startsWith(kind);
}

/** The first key of `kind` with events pending for `cache` other than `not`, if any. */
function pendingOfKind(world: KubeWorld, cache: string, kind: string, not?: ObjectKey): ObjectKey | undefined {
  return world.pending.get(cache)?.findKey((_, k) => k !== not && isOfKind(k, kind));
}

/** Sets (or, where it says nothing more than the per-object lists, drops) an order entry. */
export function withOrder(world: KubeWorld, cache: string, kind: string, keys: List<ObjectKey>, arrived: number): KubeWorld {
  const needed = arrived >= 2 || keys.some((k) => k !== keys.first());
  if (needed) return world.setIn(['order', cache, kind], WatchOrder({ keys, arrived }));
  const kinds = world.order.get(cache);
  if (kinds === undefined || !kinds.has(kind)) return world;
  return world.set('order', kinds.size === 1 ? world.order.delete(cache) : world.order.set(cache, kinds.delete(kind)));
}

/** Appends `event` to the pending events of every cache in `caches`, in write order. */
export function sendEvent(world: KubeWorld, caches: readonly string[], event: WatchEvent): KubeWorld {
  const key = `${event.object.kind}/${event.object.name}`;
  const kind = event.object.kind;
  let next = world;
  for (const cache of caches) {
    const entry = next.order.get(cache)?.get(kind);
    if (entry !== undefined) {
      next = next.setIn(['order', cache, kind], entry.set('keys', entry.keys.push(key)));
    } else {
      // Without an entry at most one object of the kind has events pending.
      const other = pendingOfKind(next, cache, kind, key);
      if (other !== undefined) {
        const n = next.pending.get(cache)!.get(other)!.size;
        next = withOrder(
          next,
          cache,
          kind,
          List<ObjectKey>()
            .setSize(n)
            .map(() => other)
            .push(key),
          0,
        );
      }
    }
    next = next.updateIn(['pending', cache, key], (l) => ((l as List<WatchEvent> | undefined) ?? List()).push(event));
  }
  return next;
}

/** The oldest pending event of `key` for `cache`, if any. */
export function nextEvent(world: KubeWorld, cache: string, key: ObjectKey): WatchEvent | undefined {
  return world.pending.get(cache)?.get(key)?.first();
}

/** The object whose events `cache`'s informer for `kind` hands out next, if any. */
export function headOf(world: KubeWorld, cache: string, kind: string): ObjectKey | undefined {
  const entry = world.order.get(cache)?.get(kind);
  return entry !== undefined ? entry.keys.first() : pendingOfKind(world, cache, kind);
}

/**
 * How many events of `key`, the head of its kind, a pop may take: at least every one that has
 * certainly arrived (and one), and more only where that takes an event ahead of another
 * object's earlier one (taking the next event of a run of one object's events is the same as
 * popping again, so it is not offered twice).
 */
export function popSizes(world: KubeWorld, cache: string, key: ObjectKey): number[] {
  const entry = world.order.get(cache)?.get(kindOfKey(key));
  if (entry === undefined) return [1];
  let least = 0;
  entry.keys.forEach((k, i) => {
    if (i < entry.arrived && k === key) least++;
  });
  least = Math.max(1, least);
  const sizes = [least];
  let taken = 0;
  entry.keys.forEach((k, i) => {
    if (k !== key) return;
    taken++;
    if (taken > least && i + 1 > taken) sizes.push(taken);
  });
  return sizes;
}

/**
 * Takes the oldest pending event of `key` into `cache`. An object with no pending events left
 * has no entry, so that "nothing pending" has one representation and equal states fingerprint
 * equally. The kind's order loses the event's place; an event taken ahead of others marks
 * those as arrived.
 */
export function takeEvent(world: KubeWorld, cache: string, key: ObjectKey): KubeWorld {
  const events = world.pending.get(cache)?.get(key);
  if (!events || events.isEmpty()) return world;
  const event = events.first()!;
  const rest = events.shift();
  let next = world;
  const kind = kindOfKey(key);
  const entry = world.order.get(cache)?.get(kind);
  if (entry !== undefined) {
    const at = entry.keys.indexOf(key);
    next = withOrder(next, cache, kind, entry.keys.delete(at), Math.max(entry.arrived, at + 1) - 1);
  }
  return next
    .setIn(['pending', cache], rest.isEmpty() ? world.pending.get(cache)!.delete(key) : world.pending.get(cache)!.set(key, rest))
    .updateIn(['caches', cache], (c) => {
      const m = (c as Map<ObjectKey, KubeObject> | undefined) ?? Map<ObjectKey, KubeObject>();
      return event.type === 'DELETED' ? m.delete(key) : m.set(key, event.object);
    });
}

/** Drops every pending event of `cache` (a relist replaces them). */
export function dropPending(world: KubeWorld, cache: string): KubeWorld {
  return world.setIn(['pending', cache], Map<ObjectKey, List<WatchEvent>>()).set('order', world.order.delete(cache));
}

export function enqueue(world: KubeWorld, controller: string, keys: Iterable<ObjectKey>): KubeWorld {
  return world.updateIn(['queues', controller], (q) => {
    const queue = (q as Set<ObjectKey> | undefined) ?? Set<ObjectKey>();
    // (Most calls add one key, often one already queued: Set.add gives back the same set then.)
    if (Array.isArray(keys) && keys.length === 1) return queue.add(keys[0] as ObjectKey);
    return queue.union(keys);
  });
}

export function cacheOf(world: KubeWorld, cache: string): Map<ObjectKey, KubeObject> {
  return world.caches.get(cache) ?? Map();
}
