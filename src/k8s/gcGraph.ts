// kube-controller-manager's garbage collector with its own dependency graph: what it knows of
// the objects comes from its informers (a follower cache, `<server>GC`, that lags like any
// other), and it acts on that graph, on an absent-owner cache, and on live reads. Followed:
// kubernetes/kubernetes pkg/controller/garbagecollector (docs/kubernetes-semantics.md section 5;
// the pre-fix code as research/capi-13649-k8s-88097 quotes it, fixed by kubernetes#92743, v1.20):
//
// - graph_builder.go processGraphChanges, on an object observed: a dependent naming an owner uid
//   the graph has no node for gets a *virtual* owner node, in the dependent's namespace
//   (addDependentToOwners), queued for attemptToDelete; an observed object whose uid a virtual
//   node has replaces it. On an object's deletion observed: its node goes, its uid is marked
//   absent if it had dependents, and its dependents are queued.
// - garbagecollector.go attemptToDeleteItem, on a virtual node: a live GET of the owner in the
//   node's namespace; not there (or another uid): a virtual delete event, which before the fix
//   marks the *uid* absent and queues every dependent, and after it marks only that identity
//   (uid and namespace) absent, queues the dependents that resolve the owner there, and keeps the
//   node for the others, now looked for in theirs. On an object: a live GET; each owner reference
//   is dangling if the absent-owner cache has it (no lookup), else by a live GET of the owner in
//   the object's namespace (cluster-scoped kinds: none), not found or another uid (then cached as
//   absent); solid otherwise. No solid owner: DELETE with a UID precondition.
//
// Foreground and orphan deletion: an owner observed being deleted in the foreground has its
// dependents queued (processTransitions); an item whose owners are gone or waiting is deleted in
// the foreground if it has dependents of its own; orphaning and the finalizer removals are the
// live collector's step (`<server>GC.finalize`).
//
// Inferences: each step is one request (a GET's answer and the decision it leads to are one step,
// as the collector's worker holds nothing between them); the finalize step reads the dependents
// live where the real one reads its graph (it can only wait longer); the patch of dangling
// references out of an object with a solid owner is left out.
import { action, type Action } from '../engine/model.ts';
import { del, FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from './apiServer.ts';
import { garbageCollectorFinalizeAction, refersTo, waitingForDependents } from './garbageCollector.ts';
import type { Kubernetes } from './kubernetes.ts';
import { isDeleting, keyOf, type KubeObject, type ObjectKey } from './object.ts';
import {
  cacheOf,
  gcIn,
  isHead,
  kindOfKey,
  nextEvent,
  pendingIn,
  serverIn,
  takeEvent,
  VirtualNode,
  withGc,
  type GcGraph,
  type KubeWorld,
} from './world.ts';

/** How a collector that keeps a graph is configured (KubernetesConfig.garbageCollector). */
export interface GraphCollectorConfig {
  readonly server: string;
  /** The kinds its informers watch (every kind that can be an owner or a dependent). */
  readonly kinds: readonly string[];
  /**
   * How the absent-owner cache is keyed: `uid` before kubernetes#92743 (v1.19 and earlier), so
   * an owner looked for in the wrong namespace is absent for every dependent; `identity` from
   * v1.20 (the uid with the namespace it was looked for in).
   */
  readonly absentOwnerCache: 'uid' | 'identity';
}

const NONE: readonly string[] = [];
const VIRTUAL = 'virtual:';

export function graphCollectorActions<S>(
  kube: Kubernetes<S>,
  gc: GraphCollectorConfig,
  clusterScoped: (kind: string) => boolean,
): Action<S, string>[] {
  const informer = `${gc.server}GC`;
  const byIdentity = gc.absentOwnerCache === 'identity';
  /** The namespace an owner of kind `kind` named by a dependent in `namespace` is looked for in. */
  const lookIn = (kind: string, namespace: string) => (clusterScoped(kind) ? '' : namespace);
  const absentKey = (uid: string, namespace: string) => (byIdentity ? `${uid}@${namespace}` : uid);
  /** The live object under `key` in `namespace` with `uid`, as a GET of that namespace finds it. */
  const live = (world: KubeWorld, key: ObjectKey, namespace: string): KubeObject | undefined => {
    const o = serverIn(world, gc.server)?.objects.get(key);
    return o !== undefined && o.namespace === namespace ? o : undefined;
  };
  /** The observed objects naming `uid` as an owner. */
  const dependentsOf = (world: KubeWorld, uid: string): KubeObject[] => {
    const out: KubeObject[] = [];
    for (const o of cacheOf(world, informer).values()) if (o.ownerReferences.some((k) => o.ownerRefs.get(k)?.uid === uid)) out.push(o);
    return out;
  };
  const graph = (world: KubeWorld): GcGraph => gcIn(world, gc.server)!;
  const withWorld = (s: S, world: KubeWorld): S => kube.config.world.set(s, world);

  /** processGraphChanges for an event of `key` the informer just took in (`before`: the object as it had it). */
  const observed = (world: KubeWorld, key: ObjectKey, before: KubeObject | undefined): KubeWorld => {
    const now = cacheOf(world, informer).get(key);
    let g = graph(world);
    if (now === undefined) {
      // A deletion observed: the node goes; with dependents, its uid is absent and they are queued.
      if (before !== undefined) {
        const deps = dependentsOf(world, before.uid);
        if (deps.length > 0) {
          g = g.set('absent', g.absent.add(byIdentity ? absentKey(before.uid, before.namespace) : before.uid));
          g = g.set('queue', g.queue.union(deps.map(keyOf)));
        }
      }
      return withGc(world, gc.server, g);
    }
    // processTransitions: an owner observed being deleted in the foreground has its dependents queued.
    if (waitingForDependents(now) && (before === undefined || !waitingForDependents(before))) {
      g = g.set('queue', g.queue.union(dependentsOf(world, now.uid).map(keyOf)));
    }
    // A real node replaces a virtual one with its uid (from v1.20, with its own identity). Before
    // the fix the node is only marked observed and keeps the virtual identity (the dependent's
    // namespace): a check already queued still looks for the owner there.
    if (byIdentity && g.virtual.has(now.uid))
      g = g.set('virtual', g.virtual.delete(now.uid)).set('queue', g.queue.delete(VIRTUAL + now.uid));
    // addDependentToOwners: an owner the graph has no node for gets a virtual one, in the dependent's namespace.
    for (const ownerKey of now.ownerReferences) {
      const uid = now.ownerRefs.get(ownerKey)?.uid;
      if (uid === undefined || uid === '' || g.virtual.has(uid)) continue;
      const known = [...cacheOf(world, informer).values()].some((o) => o.uid === uid);
      if (known) continue;
      // (Before the fix a node observed since keeps its virtual identity: see above.)
      g = g
        .set('virtual', g.virtual.set(uid, VirtualNode({ key: ownerKey, namespace: lookIn(kindOfKey(ownerKey), now.namespace) })))
        .set('queue', g.queue.add(VIRTUAL + uid));
    }
    return withGc(world, gc.server, g);
  };

  const observe = action<S, string>(`${informer}.observe`, {
    doc: `The garbage collector's informers on ${gc.server}: take an object's next watch event into the graph (graph_builder.go processGraphChanges).`,
    params: (s) => {
      const world = kube.world(s);
      const out: string[] = [];
      for (const key of pendingIn(world, informer)?.keys() ?? []) if (isHead(world, informer, key)) out.push(key);
      return out.length === 0 ? NONE : out;
    },
    next: (s, key) => {
      const world = kube.world(s);
      if (nextEvent(world, informer, key) === undefined || !isHead(world, informer, key)) return undefined;
      const before = cacheOf(world, informer).get(key);
      return withWorld(s, observed(takeEvent(world, informer, key), key, before));
    },
  });

  const attempt = action<S, string>(`${gc.server}GC.attemptToDelete`, {
    doc: `The garbage collector's worker on ${gc.server}: attemptToDeleteItem on a queued node (a virtual owner: is it there? an object: are its owners?).`,
    params: (s) => {
      const queue = graph(kube.world(s)).queue;
      return queue.size === 0 ? NONE : [...queue];
    },
    formatParam: (item) => (item.startsWith(VIRTUAL) ? `the virtual owner ${item.slice(VIRTUAL.length)}` : item),
    next: (s, item, events) => {
      const world = kube.world(s);
      const g = graph(world);
      if (!g.queue.has(item)) return undefined;
      const done = g.set('queue', g.queue.delete(item));
      if (item.startsWith(VIRTUAL)) {
        const uid = item.slice(VIRTUAL.length);
        const node = g.virtual.get(uid);
        if (node === undefined) return withWorld(s, withGc(world, gc.server, done));
        const found = live(world, node.key, node.namespace);
        // The owner is there: the node waits to be observed (the worker requeues it; here it leaves the queue).
        if (found !== undefined && found.uid === uid) return withWorld(s, withGc(world, gc.server, done));
        return withWorld(s, withGc(world, gc.server, virtualDeleted(world, done, uid, node)));
      }
      const o = serverIn(world, gc.server)?.objects.get(item);
      if (o === undefined || isDeleting(o)) return withWorld(s, withGc(world, gc.server, done));
      // From v1.20 a cluster-scoped object naming a namespaced owner is never collected
      // (isDangling's namespacedOwnerOfClusterScopedObjectErr; the worker forgets it).
      if (byIdentity && clusterScoped(o.kind) && o.ownerReferences.some((k) => !clusterScoped(kindOfKey(k)))) {
        return withWorld(s, withGc(world, gc.server, done));
      }
      let absent = done.absent;
      let solid = false;
      let waiting = false;
      for (const ownerKey of o.ownerReferences) {
        const uid = o.ownerRefs.get(ownerKey)?.uid ?? '';
        const namespace = lookIn(kindOfKey(ownerKey), o.namespace);
        if (absent.has(absentKey(uid, namespace))) continue; // dangling, without a lookup
        const owner = live(world, ownerKey, namespace);
        if (owner === undefined || (uid !== '' && owner.uid !== uid)) {
          absent = absent.add(absentKey(uid, namespace));
          continue;
        }
        // An owner deleted in the foreground waits for its dependents' deletion: not solid.
        if (waitingForDependents(owner)) waiting = true;
        else solid = true;
      }
      const next = withGc(world, gc.server, done.set('absent', absent));
      if (solid || o.ownerReferences.isEmpty()) return withWorld(s, next);
      // The policy as attemptToDeleteItem chooses it: foreground for an item waited on that has
      // dependents of its own (read live, as the finalize step reads them), else its own GC finalizer's.
      const hasDependents = [...serverIn(world, gc.server)!.objects.values()].some((d) => refersTo(d, o));
      const policy: 'Foreground' | 'Orphan' | undefined =
        waiting && hasDependents
          ? 'Foreground'
          : o.finalizers.includes(ORPHAN_FINALIZER)
            ? 'Orphan'
            : o.finalizers.includes(FOREGROUND_FINALIZER)
              ? 'Foreground'
              : undefined;
      const options = { ...(o.uid !== '' ? { uid: o.uid } : {}), ...(policy !== undefined ? { propagationPolicy: policy } : {}) };
      return kube.request(
        withWorld(s, next),
        gc.server,
        (srv) => del(srv, item, Object.keys(options).length > 0 ? options : undefined),
        events,
      ).state;
    },
  });

  /** A virtual delete event for `node` (uid `uid`), confirmed absent where it was looked for. */
  const virtualDeleted = (world: KubeWorld, g: GcGraph, uid: string, node: VirtualNode): GcGraph => {
    const deps = dependentsOf(world, uid);
    if (!byIdentity) {
      // Before kubernetes#92743: the node goes, the uid is absent for everyone, every dependent is queued.
      return g
        .set('virtual', g.virtual.delete(uid))
        .set('absent', g.absent.add(uid))
        .set('queue', g.queue.union(deps.map(keyOf)));
    }
    // From v1.20: only that identity is absent; the dependents that resolve the owner elsewhere keep the node, looked for there.
    const here = (d: KubeObject) => lookIn(kindOfKey(node.key), d.namespace) === node.namespace;
    const matching = deps.filter(here);
    const others = deps.filter((d) => !here(d));
    let next = g.set('absent', g.absent.add(absentKey(uid, node.namespace))).set('queue', g.queue.union(matching.map(keyOf)));
    if (others.length === 0) return next.set('virtual', next.virtual.delete(uid));
    const elsewhere = lookIn(kindOfKey(node.key), others[0].namespace);
    next = next.set('virtual', next.virtual.set(uid, node.set('namespace', elsewhere))).set('queue', next.queue.add(VIRTUAL + uid));
    return next;
  };

  // Orphaning and the finalizer removals of foreground and orphan deletion: the live collector's
  // step (garbageCollector.ts), which reads the dependents live where the real one reads its graph.
  return [observe, attempt, garbageCollectorFinalizeAction(kube, gc.server)];
}
