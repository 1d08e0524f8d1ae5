// Interchangeable objects: a renaming of the Kubernetes world that swaps whole instances (two
// Databases, each with its Secret; two ZookeeperClusters, each with its ConfigMap, StatefulSet
// and PVC), for the engine's symmetry reduction. An instance is a tuple of keys; the same
// position in every instance plays the same part. A renaming maps every key of one instance to
// the key at the same position of another, and with it the object's name, its UIDs
// (`Kind/name#n`) and every string in the state that equals one of those keys or names: the
// objects' own fields (owner references, labels, annotations, spec and status values), the
// caches, the watch events and their order, the queues, the reconciles' locals and the writes
// waited for.
//
// What makes it a symmetry is the model's to keep: the controllers, the actors and the
// properties must treat the instances alike (no code that names one of them), and the initial
// states must be closed under the swaps. The engine trusts the declaration, as TLC trusts a
// SYMMETRY set.
import {
  isImmutable,
  isList,
  isMap,
  isOrderedMap,
  isOrderedSet,
  isSet,
  type List,
  type Map,
  type OrderedMap,
  type OrderedSet,
  type Set,
} from 'immutable';
import type { WatchEvent } from './apiServer.ts';
import { KubeObject, OwnerRef, type ObjectKey } from './object.ts';
import {
  cacheIn,
  ordersIn,
  pendingIn,
  queueIn,
  type Reconcile,
  reconcilesIn,
  serverIn,
  withCache,
  withOrders,
  withPending,
  withQueue,
  withReconciles,
  withServer,
  withWritten,
  worldMaps,
  writtenIn,
  type WatchOrder,
  type KubeWorld,
} from './world.ts';

/** Checks a declaration of instances and returns the string renaming of each permutation's target. */
export function instanceNames(instances: readonly (readonly ObjectKey[])[]): void {
  if (instances.length < 2) throw new Error('interchangeable objects: give at least two instances');
  const size = instances[0].length;
  const seen = new globalThis.Set<string>();
  for (const instance of instances) {
    if (instance.length !== size)
      throw new Error('interchangeable objects: every instance must have as many keys as the first, one per part');
    for (const key of instance) {
      if (seen.has(key)) throw new Error(`interchangeable objects: ${key} is in two instances (or twice in one)`);
      seen.add(key);
    }
  }
  for (let p = 0; p < size; p++) {
    const kinds = new globalThis.Set(instances.map((i) => i[p].slice(0, i[p].indexOf('/'))));
    if (kinds.size !== 1)
      throw new Error(`interchangeable objects: part ${p + 1} is of kinds ${[...kinds].join(', ')}; a part has one kind in every instance`);
  }
}

/** The string renaming that sends instance `i`'s keys, names and UIDs to instance `to(i)`'s. */
export function stringRenaming(instances: readonly (readonly ObjectKey[])[], to: (i: number) => number): (s: string) => string {
  const table = new globalThis.Map<string, string>();
  instances.forEach((instance, i) => {
    const target = instances[to(i)];
    instance.forEach((key, p) => {
      const other = target[p];
      table.set(key, other);
      const name = key.slice(key.indexOf('/') + 1);
      const otherName = other.slice(other.indexOf('/') + 1);
      const known = table.get(name);
      if (known !== undefined && known !== otherName) {
        throw new Error(
          `interchangeable objects: the name ${name} goes to both ${known} and ${otherName}; give the instances' objects names that say which instance they belong to`,
        );
      }
      table.set(name, otherName);
    });
  });
  return (s) => {
    const direct = table.get(s);
    if (direct !== undefined) return direct;
    const hash = s.lastIndexOf('#');
    if (hash > 0) {
      const key = table.get(s.slice(0, hash));
      if (key !== undefined) return key + s.slice(hash);
    }
    return s;
  };
}

const KUBE_OBJECT = Object.getPrototypeOf(KubeObject()) as object;
const OWNER_REF = Object.getPrototypeOf(OwnerRef()) as object;

/** `o` with every string in it renamed. */
function renameObject(o: KubeObject, r: (s: string) => string): KubeObject {
  const strings = <V>(m: Map<string, V>) => m.mapEntries(([k, v]) => [r(k), typeof v === 'string' ? (r(v) as V) : v]);
  return o.merge({
    name: r(o.name),
    uid: r(o.uid),
    ownerReferences: o.ownerReferences.map(r),
    ownerRefs: o.ownerRefs.mapEntries(([k, ref]) => [r(k), ref.set('uid', r(ref.uid))]),
    labels: strings(o.labels),
    annotations: strings(o.annotations),
    spec: strings(o.spec),
    status: strings(o.status),
  });
}

/** Any state value a reconcile keeps, renamed: strings, objects, and the collections of them. */
export function renameValue(v: unknown, r: (s: string) => string): unknown {
  if (typeof v === 'string') return r(v);
  if (typeof v !== 'object' || v === null) return v;
  const proto = Object.getPrototypeOf(v) as object;
  if (proto === KUBE_OBJECT) return renameObject(v as KubeObject, r);
  if (proto === OWNER_REF) return (v as OwnerRef).set('uid', r((v as OwnerRef).uid));
  if (Array.isArray(v)) return v.map((x) => renameValue(x, r));
  if (isImmutable(v)) {
    const f = (x: unknown) => renameValue(x, r);
    if (isOrderedMap(v)) return (v as OrderedMap<unknown, unknown>).mapEntries(([k, x]) => [f(k), f(x)]);
    if (isMap(v)) return (v as Map<unknown, unknown>).mapEntries(([k, x]) => [f(k), f(x)]);
    if (isList(v)) return (v as List<unknown>).map(f);
    if (isOrderedSet(v)) return (v as OrderedSet<unknown>).map(f);
    if (isSet(v)) return (v as Set<unknown>).map(f);
    return v; // another Record (a Condition): no keys in it
  }
  if (proto === Object.prototype) return Object.fromEntries(Object.entries(v).map(([k, x]) => [r(k), renameValue(x, r)]));
  return v;
}

/** `world` with every key, name and UID renamed by `r`. */
export function renameWorld(world: KubeWorld, r: (s: string) => string): KubeWorld {
  const maps = worldMaps(world);
  if (maps.gc.size > 0)
    throw new Error(
      'interchangeable objects: not with a garbage collector that keeps its own graph (its virtual nodes and absent-owner cache are not renamed)',
    );
  let w = world;
  const objects = (m: Map<ObjectKey, KubeObject>) => m.mapEntries(([k, o]) => [r(k), renameObject(o, r)]);
  for (const server of maps.servers.keys()) {
    const srv = serverIn(w, server)!;
    w = withServer(w, server, srv.set('objects', objects(srv.objects)));
  }
  for (const manager of maps.caches.keys()) {
    w = withCache(w, manager, objects(cacheIn(w, manager)!));
    const pending = pendingIn(w, manager)!;
    w = withPending(
      w,
      manager,
      pending.mapEntries(([k, events]) => [r(k), events.map((e: WatchEvent) => e.set('object', renameObject(e.object, r)))]),
    );
    const orders = ordersIn(w, manager);
    if (orders !== undefined)
      w = withOrders(
        w,
        manager,
        orders.map((o: WatchOrder) => o.set('keys', o.keys.map(r))),
      );
  }
  for (const controller of maps.queues.keys()) {
    // (A key waiting for its RequeueAfter delay is `~key`.)
    w = withQueue(
      w,
      controller,
      queueIn(w, controller)!.map((k) => (k.startsWith('~') ? `~${r(k.slice(1))}` : r(k))),
    );
    w = withReconciles(
      w,
      controller,
      reconcilesIn(w, controller)!.mapEntries(([k, rec]: [ObjectKey, Reconcile]) => [
        r(k),
        rec.set(
          'locals',
          rec.locals.map((x) => renameValue(x, r)),
        ),
      ]),
    );
  }
  for (const controller of maps.written.keys()) {
    w = withWritten(
      w,
      controller,
      writtenIn(w, controller)!.mapEntries(([k, objs]) => [r(k), objs.mapKeys(r)]),
    );
  }
  return w;
}
