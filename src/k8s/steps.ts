// Steps that most controllers take, written once: add or remove a finalizer with a merge patch,
// and patch status conditions with the optimistic lock. Each is the write of one step (its one
// request) and says how the reconcile goes on. Code followed: kubernetes-sigs/controller-runtime
// v0.19.3, pkg/controller/controllerutil/controllerutil.go AddFinalizer (456), RemoveFinalizer
// (469); pkg/client/patch.go MergeFrom (150) and MergeFromWithOptimisticLock (57-70, 104):
// the patch carries the copy's whole finalizer list (a JSON merge patch replaces a list whole)
// and, with the lock, the copy's resourceVersion.
import type { List } from 'immutable';
import type { StepContext, StepOutcome } from './controller.ts';
import type { MergePatch } from './apiServer.ts';
import { type ConditionInit, type KubeObject, withFinalizer, withoutFinalizer } from './object.ts';

/**
 * A merge patch of the reconciled object (client.Patch with client.MergeFrom, no lock), after
 * which Reconcile returns: nil on success (done), the error otherwise (requeue), as a deferred
 * patch or a last write ends a reconcile.
 */
export function patchThenReturn<S>(r: StepContext<S>, patch: MergePatch): StepOutcome {
  return r.mergePatch(r.key, patch).code === 200 ? r.done() : r.requeue();
}

/**
 * controllerutil.AddFinalizer on the copy (the object, or its `finalizers` as a reconcile kept them), sent as a merge patch (MergeFrom); then
 * Reconcile returns. The patch replaces the stored list with the copy's plus ours: entries added
 * since the copy was read are lost, and on an object being deleted the API server refuses it
 * (422, no new finalizers), which requeues.
 */
export function addFinalizerStep<S>(r: StepContext<S>, copy: KubeObject | List<string>, finalizer: string): StepOutcome {
  return patchThenReturn(r, { finalizers: withFinalizer(copy, finalizer) });
}

/** controllerutil.RemoveFinalizer on the copy's `finalizers`, sent as a merge patch; then Reconcile returns. */
export function removeFinalizerStep<S>(r: StepContext<S>, copy: KubeObject | List<string>, finalizer: string): StepOutcome {
  return patchThenReturn(r, { finalizers: withoutFinalizer(copy, finalizer) });
}

/**
 * A status patch of conditions locked to the copy it was made from (MergeFromWithOptimisticLock):
 * the object is read again through the manager's cache, and the patch carries that copy's
 * resourceVersion, so it gets 409 Conflict when the cache was behind the server or the server
 * moved on since. Not found in the cache, or any failure: Reconcile returns the error (requeue).
 * On success the reconcile goes on with `then`.
 */
export function patchConditionsStep<S>(
  r: StepContext<S>,
  conditions: Readonly<globalThis.Record<string, ConditionInit>>,
  then: () => StepOutcome,
): StepOutcome {
  const latest = r.cached(r.key);
  if (latest === undefined) return r.requeue();
  const res = r.mergePatch(r.key, { conditions }, { resourceVersion: latest.resourceVersion });
  return res.code === 200 ? then() : r.requeue();
}
