// Facts of Cluster API shared by the models in this folder: names from its API types, and how
// its controllers read an object. Not a model itself (no default export).
import type { List } from 'immutable';
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

// ---------------------------------------------------------------------------------------------
// Steps the Cluster API controllers share, each a helper of the real code.

type StepContext<S> = k8s.StepContext<S>;

/**
 * A patch whose failure makes Reconcile return an error (requeue), then return: how the
 * controllers' deferred patch helpers and their direct patches end a reconcile.
 */
export function patchThenReturn<S>(r: StepContext<S>, patch: k8s.MergePatch): k8s.StepOutcome {
  return r.mergePatch(r.key, patch).code === 200 ? r.done() : r.requeue();
}

/**
 * util/finalizers/finalizers.go EnsureFinalizer's write: a merge patch of the cached finalizers
 * (the reconcile's local `finalizers`) plus ours, with no resourceVersion; then Reconcile returns.
 */
export function ensureFinalizerStep<S>(r: StepContext<S>, finalizer: string): k8s.StepOutcome {
  const cached = r.local<List<string>>('finalizers');
  return patchThenReturn(r, { finalizers: cached.includes(finalizer) ? cached : cached.push(finalizer) });
}

/** controllerutil.RemoveFinalizer on the cached finalizers, sent as a merge patch. */
export function removeFinalizerStep<S>(r: StepContext<S>, finalizer: string): k8s.StepOutcome {
  return patchThenReturn(r, { finalizers: r.local<List<string>>('finalizers').filter((f) => f !== finalizer) });
}

/** What the pause check needs from the reconciled object's own cached copy, kept as locals. */
export function pauseLocals(o: KubeObject): { annotatedPaused: boolean; pausedCondition: boolean | null } {
  return {
    annotatedPaused: o.annotations.has(PAUSED_ANNOTATION),
    pausedCondition: (o.conditions.get(PAUSED_CONDITION) as boolean | undefined) ?? null,
  };
}

/**
 * util/paused/paused.go EnsurePausedCondition, for an object other than the Cluster: paused if
 * the cached Cluster is (spec.paused) or the object is annotated (pauseLocals). A changed
 * condition is patched (ensurePausedConditionStep); otherwise a paused object's Reconcile
 * returns and an unpaused one goes on with `then`.
 */
export function pauseCheck<S>(r: StepContext<S>, cluster: KubeObject, then: () => k8s.StepOutcome): k8s.StepOutcome {
  const paused = cluster.spec.get('paused') === true || r.local<boolean>('annotatedPaused');
  if (r.local<boolean | null>('pausedCondition') !== paused) return r.goto('ensurePausedCondition', { paused });
  return paused ? r.done() : then();
}

/** EnsurePausedCondition's patch of the Paused condition (the local `paused`); Reconcile returns. */
export function ensurePausedConditionStep<S>(r: StepContext<S>): k8s.StepOutcome {
  return patchThenReturn(r, { conditions: { [PAUSED_CONDITION]: r.local<boolean>('paused') } });
}
