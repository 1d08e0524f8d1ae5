// kube-controller-manager's garbage collector, optional (KubernetesConfig.garbageCollector): it
// deletes an object whose owners are all gone (background), deletes the dependents of an owner
// deleted in the foreground and then lets the owner go, and orphans the dependents of an owner
// deleted with the orphan policy. Followed: kubernetes/kubernetes pkg/controller/garbagecollector
// (docs/kubernetes-semantics.md section 5, with the commits read): attemptToDeleteItem (an item
// being deleted is left alone unless it is deleting its dependents; the item and each owner are
// read live; classifyReferences sorts the owners into solid, dangling (isDangling: nothing stored
// under the key, or another uid) and waiting for their dependents' deletion; with no solid owner
// the item is deleted with a UID precondition, in the foreground if it waits on a foreground
// owner and has dependents of its own, else with the policy its own finalizers say, else in the
// background); processDeletingDependentsItem (no blocking dependent left: the foregroundDeletion
// finalizer is removed); orphanDependents (each dependent's reference to the owner patched out,
// then the orphan finalizer removed).
//
// Inferences, each a simplification that can only delay a deletion, never add one:
// - The collector's own dependency graph (built from its informers) is not modelled: it decides
//   when an item is looked at, and attemptToDeleteItem reads the item and its owners live before
//   it acts. The steps read the server directly, at any time (weak fairness per object). So the
//   graph's own staleness (a virtual owner node, the absent-owner cache) is not here.
// - An object with a solid owner is kept; the real collector then also patches the dangling
//   references out; that write is left out.
// - The finalizer removals are merge patches of the finalizer list with the stored
//   resourceVersion (removeFinalizer: a GET, then a patch with it, retried on conflict): one step.
import { action, type Action } from '../engine/model.ts';
import { type ApiServer, del, FOREGROUND_FINALIZER, mergePatch, ORPHAN_FINALIZER, update } from './apiServer.ts';
import type { Kubernetes } from './kubernetes.ts';
import { isDeleting, keyOf, type KubeObject, type ObjectKey } from './object.ts';
import { serverIn } from './world.ts';

const NONE: readonly ObjectKey[] = [];
type Objects = { get(key: ObjectKey): KubeObject | undefined; values(): Iterable<KubeObject> };

/** The owner a reference of `o` names, as stored: undefined when gone (nothing under the key, or another uid). */
function ownerOf(o: KubeObject, owner: ObjectKey, objects: Objects): KubeObject | undefined {
  const found = objects.get(owner);
  if (found === undefined) return undefined;
  const uid = o.ownerRefs.get(owner)?.uid;
  return uid !== undefined && uid !== '' && uid !== found.uid ? undefined : found;
}

/** Whether `dependent` refers to `owner` (by key, and by uid where the reference has one). */
export function refersTo(dependent: KubeObject, owner: KubeObject): boolean {
  const key = keyOf(owner);
  if (!dependent.ownerReferences.includes(key)) return false;
  const uid = dependent.ownerRefs.get(key)?.uid;
  return uid === undefined || uid === '' || uid === owner.uid;
}

function dependentsOf(owner: KubeObject, objects: Objects): KubeObject[] {
  const out: KubeObject[] = [];
  for (const o of objects.values()) if (refersTo(o, owner)) out.push(o);
  return out;
}

/** An owner waiting for its dependents' deletion: being deleted, in the foreground. */
export const waitingForDependents = (o: KubeObject) => isDeleting(o) && o.finalizers.includes(FOREGROUND_FINALIZER);

/**
 * The policy attemptToDeleteItem deletes `o` with, or undefined to keep it: it has owners, not
 * being deleted, none solid (each gone or waiting for its dependents' deletion).
 */
function deletion(o: KubeObject, objects: Objects): 'Background' | 'Foreground' | 'Orphan' | undefined {
  if (isDeleting(o) || o.ownerReferences.isEmpty()) return undefined;
  let waiting = false;
  for (const key of o.ownerReferences) {
    const owner = ownerOf(o, key, objects);
    if (owner === undefined) continue;
    if (!waitingForDependents(owner)) return undefined; // a solid owner
    waiting = true;
  }
  if (waiting && dependentsOf(o, objects).length > 0) return 'Foreground';
  if (o.finalizers.includes(ORPHAN_FINALIZER)) return 'Orphan';
  if (o.finalizers.includes(FOREGROUND_FINALIZER)) return 'Foreground';
  return 'Background';
}

/**
 * What the collector does next for `owner`, deleted with a GC finalizer: `orphan` a dependent
 * (its key), or remove the finalizer; undefined while it must wait (a foreground owner's
 * blocking dependents are still there).
 */
function finalizing(owner: KubeObject, objects: Objects): { readonly orphan: ObjectKey } | { readonly remove: string } | undefined {
  if (!isDeleting(owner)) return undefined;
  if (owner.finalizers.includes(ORPHAN_FINALIZER)) {
    const dependent = dependentsOf(owner, objects)[0];
    return dependent !== undefined ? { orphan: keyOf(dependent) } : { remove: ORPHAN_FINALIZER };
  }
  if (owner.finalizers.includes(FOREGROUND_FINALIZER)) {
    // graph.go blockingDependents: a reference with blockOwnerDeletion holds the owner.
    const key = keyOf(owner);
    const blocked = dependentsOf(owner, objects).some((d) => d.ownerRefs.get(key)?.blockOwnerDeletion === true);
    return blocked ? undefined : { remove: FOREGROUND_FINALIZER };
  }
  return undefined;
}

/** The keys of a server's objects that `take` picks (a collector step's parameters). */
function keysWhere(objects: ApiServer['objects'] | undefined, take: (o: KubeObject, objects: Objects) => boolean): readonly ObjectKey[] {
  if (objects === undefined) return NONE;
  const keys: ObjectKey[] = [];
  for (const [key, o] of objects) if (take(o, objects)) keys.push(key);
  return keys;
}

/** `<server>GC.delete(key)`: the collector DELETEs an object of `server` none of whose owners is solid. */
export function garbageCollectorAction<S>(kube: Kubernetes<S>, server: string): Action<S, ObjectKey> {
  return action<S, ObjectKey>(`${server}GC.delete`, {
    doc: `kube-controller-manager's garbage collector on ${server}: DELETE (with a UID precondition) an object whose owners are all gone or being deleted in the foreground.`,
    params: (s) =>
      keysWhere(
        serverIn(kube.world(s), server)?.objects,
        (o, objects) => !o.ownerReferences.isEmpty() && deletion(o, objects) !== undefined,
      ),
    next: (s, key, events) => {
      const objects = serverIn(kube.world(s), server)?.objects;
      const o = objects?.get(key);
      const policy = objects === undefined || o === undefined ? undefined : deletion(o, objects);
      if (o === undefined || policy === undefined) return undefined;
      // deleteObject: Preconditions{UID}, and the policy (Background is the default: not sent).
      const options = { ...(o.uid !== '' ? { uid: o.uid } : {}), ...(policy !== 'Background' ? { propagationPolicy: policy } : {}) };
      return kube.request(s, server, (srv) => del(srv, key, Object.keys(options).length > 0 ? options : undefined), events).state;
    },
  });
}

/**
 * `<server>GC.finalize(key)`: for an owner deleted with a GC finalizer, the collector's next
 * request: patch its reference out of a dependent (orphan), or remove the finalizer once nothing
 * holds the owner (orphan: no dependent refers to it; foreground: no blocking dependent is left).
 */
export function garbageCollectorFinalizeAction<S>(kube: Kubernetes<S>, server: string): Action<S, ObjectKey> {
  return action<S, ObjectKey>(`${server}GC.finalize`, {
    doc: `kube-controller-manager's garbage collector on ${server}: orphan the dependents of an owner deleted with the orphan policy, and remove the orphan or foregroundDeletion finalizer once nothing holds the owner.`,
    // Never enabled where nothing is deleted in the foreground or with the orphan policy: no warning then.
    optional: true,
    params: (s) =>
      keysWhere(serverIn(kube.world(s), server)?.objects, (o, objects) => isDeleting(o) && finalizing(o, objects) !== undefined),
    next: (s, key, events) => {
      const objects = serverIn(kube.world(s), server)?.objects;
      const owner = objects?.get(key);
      const next = objects === undefined || owner === undefined ? undefined : finalizing(owner, objects);
      if (owner === undefined || next === undefined) return undefined;
      if ('orphan' in next) {
        // orphanDependents: the dependent's reference to the owner patched out (its UID a precondition).
        const dependent = objects!.get(next.orphan)!;
        const without = dependent.merge({
          ownerReferences: dependent.ownerReferences.filter((k) => k !== key),
          ownerRefs: dependent.ownerRefs.delete(key),
        });
        return kube.request(s, server, (srv, c) => update(srv, without, c.rules(without.kind)), events).state;
      }
      const finalizers = owner.finalizers.filter((f) => f !== next.remove);
      return kube.request(s, server, (srv) => mergePatch(srv, key, { finalizers }, owner.resourceVersion), events).state;
    },
  });
}
