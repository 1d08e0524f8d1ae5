// Facts of Cluster API shared by the models in this folder: names from its API types, and how
// its controllers read an object. Not a model itself (no default export).
import { k8s } from 'modelcheck';

type KubeObject = k8s.KubeObject;

// api/v1beta1 cluster_types.go ClusterFinalizer.
export const CLUSTER_FINALIZER = 'cluster.cluster.x-k8s.io';
// api/v1beta1 common_types.go PausedAnnotation; clusterctl/api/v1alpha3 DeleteForMoveAnnotation.
export const PAUSED_ANNOTATION = 'cluster.x-k8s.io/paused';
export const DELETE_FOR_MOVE_ANNOTATION = 'clusterctl.cluster.x-k8s.io/delete-for-move';
// The v1beta2 condition set by paused.EnsurePausedCondition (util/paused/paused.go).
export const PAUSED_CONDITION = 'Paused';
// clusterctl client.go newWriteBackoff: Steps 10.
export const MAX_MOVE_ATTEMPTS = 10;

/** util/paused/paused.go pausedCondition: paused if the Cluster says so or the object is annotated. */
export function isPaused(cluster: KubeObject, obj: KubeObject): boolean {
  return cluster.spec.get('paused') === true || obj.annotations.has(PAUSED_ANNOTATION);
}

/**
 * util/finalizers/finalizers.go EnsureFinalizer's decision: nothing if the cached copy is being
 * deleted or has the finalizer already.
 */
export function needsFinalizer(obj: KubeObject, finalizer: string): boolean {
  return !k8s.isDeleting(obj) && !k8s.hasFinalizer(obj, finalizer);
}

/**
 * What the Cluster API controllers read of a cached object, field by field: no resourceVersion
 * (the ResourceIsChanged predicates pass for every real write), of the annotations only the
 * paused one, of the conditions only Paused. Caches keep just this (ManagerConfig.view).
 */
export function readByControllers(o: KubeObject): KubeObject {
  return k8s.KubeObject({
    kind: o.kind,
    name: o.name,
    finalizers: o.finalizers,
    deletionTimestamp: o.deletionTimestamp,
    annotations: o.annotations.filter((_, k) => k === PAUSED_ANNOTATION),
    ownerReferences: o.ownerReferences,
    spec: o.spec,
    conditions: o.conditions.filter((_, k) => k === PAUSED_CONDITION),
  });
}
