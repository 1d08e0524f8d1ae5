// kube-controller-manager's garbage collector, optional (KubernetesConfig.garbageCollector):
// background deletion of an object whose owners are all gone. Followed: kubernetes/kubernetes
// pkg/controller/garbagecollector/garbagecollector.go, attemptToDeleteItem (an object being
// deleted is left alone; the object is read again live; owners are classified by
// classifyReferences, which asks the API server for each one (isDangling); with no owner left
// the object is deleted, Background by default). The stored copy of this repository has no
// mirror of kubernetes/kubernetes (too large to fetch here), so no lines are cited.
//
// Inferences, each a simplification that can only delay a deletion, never add one:
// - The collector's own dependency graph (built from its informers) is not modelled: it only
//   decides when an object is looked at, and attemptToDeleteItem reads the object and its owners
//   live before it deletes. The step reads the server directly, at any time (weak fairness).
// - An ownerReference here names its owner by kind and name; the real one also carries the
//   owner's uid, so that an owner deleted and created again under the same name is a different
//   owner. Models that recreate an owner under its name must not rely on the collector.
// - An object with at least one owner left is kept. The real collector then also patches the
//   dangling references out (the `solid` case); that write is left out. Foreground deletion
//   (foregroundDeletion finalizer, blockOwnerDeletion) and orphaning are not modelled.
import { action, type Action } from '../engine/model.ts';
import { del } from './apiServer.ts';
import type { Kubernetes } from './kubernetes.ts';
import { isDeleting, type KubeObject, type ObjectKey } from './object.ts';
import { serverIn } from './world.ts';

const NONE: readonly ObjectKey[] = [];

/**
 * Whether the collector would delete `o`: it has owners, all gone from its server, and it is not
 * being deleted. An owner is gone when nothing is stored under its key, or what is stored there
 * has another uid than the reference names (isDangling: a new incarnation is not the owner).
 */
function collectable(o: KubeObject, stored: (key: ObjectKey) => KubeObject | undefined): boolean {
  return (
    !isDeleting(o) &&
    !o.ownerReferences.isEmpty() &&
    o.ownerReferences.every((owner) => {
      const found = stored(owner);
      if (found === undefined) return true;
      const uid = o.ownerRefs.get(owner)?.uid;
      return uid !== undefined && uid !== '' && uid !== found.uid;
    })
  );
}

/** `<server>GC.delete(key)`: the collector DELETEs an object of `server` whose owners are all gone. */
export function garbageCollectorAction<S>(kube: Kubernetes<S>, server: string): Action<S, ObjectKey> {
  return action<S, ObjectKey>(`${server}GC.delete`, {
    doc: `kube-controller-manager's garbage collector on ${server}: DELETE (Background) an object whose owners are all gone.`,
    params: (s) => {
      const objects = serverIn(kube.world(s), server)?.objects;
      if (objects === undefined) return NONE;
      const keys: ObjectKey[] = [];
      for (const [key, o] of objects) if (collectable(o, (k) => objects.get(k))) keys.push(key);
      return keys;
    },
    next: (s, key, events) => {
      const objects = serverIn(kube.world(s), server)?.objects;
      const o = objects?.get(key);
      if (objects === undefined || o === undefined || !collectable(o, (k) => objects.get(k))) return undefined;
      return kube.request(s, server, (srv) => del(srv, key), events).state;
    },
  });
}
