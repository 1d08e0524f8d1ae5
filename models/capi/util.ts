// Cluster API's own helpers, as its controllers call them: util/paused, util/finalizers and the
// patch helper's condition writes (util/patch), and what the controllers read of a cached object.
// The generic steps (a finalizer patch, a locked condition patch) come from the library.
import type { List, RecordOf } from 'immutable';
import { FlatRecord, k8s } from 'modelcheck';
import { NOT_PAUSED_REASON, PAUSED_ANNOTATION, PAUSED_CONDITION, PAUSED_REASON } from './names.ts';

type KubeObject = k8s.KubeObject;

/**
 * Before PR #11284: WithEventFilter(ResourceNotPausedAndHasFilterLabel), which drops the events
 * of objects carrying the paused annotation (util/predicates/generic_predicates.go at v1.8.0).
 * Move pauses a Cluster through spec.paused, not the annotation, so its events still pass.
 */
export const notPausedByAnnotation = (e: k8s.HandlerEvent) => !e.object.annotations.has(PAUSED_ANNOTATION);

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
 * What the Cluster API controllers read of a cached object, field by field: its resourceVersion
 * (patch.Helper locks condition patches to it) and generation (the Paused condition's
 * observedGeneration), of the annotations only the paused one, of the conditions only Paused.
 * Caches keep just this (ManagerConfig.view).
 */
export function readByControllers(o: KubeObject): KubeObject {
  return k8s.KubeObject({
    kind: o.kind,
    name: o.name,
    resourceVersion: o.resourceVersion,
    generation: o.generation,
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
 * util/finalizers/finalizers.go EnsureFinalizer's write: the library's addFinalizerStep (a merge
 * patch of the cached finalizers, the reconcile's local `finalizers`, plus ours, with no
 * resourceVersion); then Reconcile returns.
 */
export function ensureFinalizerStep<S>(r: StepContext<S>, finalizer: string): k8s.StepOutcome {
  return k8s.addFinalizerStep(r, r.local<List<string>>('finalizers'), finalizer);
}

/** controllerutil.RemoveFinalizer on the cached finalizers (the local `finalizers`), sent as a merge patch. */
export function removeFinalizerStep<S>(r: StepContext<S>, finalizer: string): k8s.StepOutcome {
  return k8s.removeFinalizerStep(r, r.local<List<string>>('finalizers'), finalizer);
}

/**
 * util/paused/paused.go pausedCondition (83-112): the Paused condition for an object whose cached
 * Cluster says `clusterPaused` and which carries the paused annotation or not, observed at the
 * generation of the copy the reconcile read.
 */
export function pausedCondition(kind: string, clusterPaused: boolean, annotated: boolean, generation: number): k8s.Condition {
  if (!clusterPaused && !annotated) return k8s.Condition({ status: false, observedGeneration: generation, reason: NOT_PAUSED_REASON });
  const messages: string[] = [];
  if (clusterPaused) messages.push('Cluster spec.paused is set to true');
  if (annotated) messages.push(`${kind} has the ${PAUSED_ANNOTATION} annotation`);
  return k8s.Condition({ status: true, observedGeneration: generation, reason: PAUSED_REASON, message: messages.join(', ') });
}

/** What the pause check reads of the reconciled object's own cached copy, kept as a local. */
export interface PauseReadProps {
  annotated: boolean;
  generation: number;
  /** The copy's Paused condition, if it has one. */
  condition: k8s.Condition | null;
}
export type PauseRead = RecordOf<PauseReadProps>;
export const PauseRead = FlatRecord<PauseReadProps>({ annotated: false, generation: 0, condition: null }, 'PauseRead');

/** The local `pause` for pauseCheck, from the reconciled object's cached copy. */
export function pauseLocals(o: KubeObject): { pause: PauseRead } {
  return {
    pause: PauseRead({
      annotated: o.annotations.has(PAUSED_ANNOTATION),
      generation: o.generation,
      condition: o.conditions.get(PAUSED_CONDITION) ?? null,
    }),
  };
}

/**
 * util/paused/paused.go EnsurePausedCondition (44-80): the condition the object should carry
 * (pausedCondition, from the cached Cluster's spec.paused and the local `pause`); when the
 * copy's condition has the same state (HasSameState: status, reason, message and
 * observedGeneration) a paused object's Reconcile returns and an unpaused one goes on with
 * `then`; otherwise the condition is patched (ensurePausedConditionStep) and Reconcile returns.
 */
export function pauseCheck<S>(r: StepContext<S>, cluster: KubeObject, then: () => k8s.StepOutcome): k8s.StepOutcome {
  const read = r.local<PauseRead>('pause');
  const want = pausedCondition(k8s.kindOfKey(r.key), cluster.spec.get('paused') === true, read.annotated, read.generation);
  if (changesPausedCondition(read, want)) return r.goto('ensurePausedCondition', { condition: want });
  return want.status ? r.done() : then();
}

/** EnsurePausedCondition's test (52-58): whether `want` differs from the copy's condition. */
export function changesPausedCondition(read: PauseRead, want: k8s.Condition): boolean {
  return read.condition === null || !k8s.hasSameState(read.condition, want);
}

/** EnsurePausedCondition's patch of the Paused condition (the local `condition`); Reconcile returns. */
export function ensurePausedConditionStep<S>(r: StepContext<S>): k8s.StepOutcome {
  const condition = r.local<k8s.Condition>('condition');
  return patchStatusConditions(r, { [PAUSED_CONDITION]: condition }, () => r.done());
}

/**
 * util/patch/patch.go patchStatusConditions (228-361), how patch.Helper writes conditions: get
 * the object again with the controller's client, which reads the cache (330); set the changed
 * conditions on that copy (owned conditions always win: v1beta2 conditions patch.go Apply
 * 150-152, and the same for v1beta1); send a status merge patch locked to that copy's
 * resourceVersion (MergeFromWithOptimisticLock, 335, 350). A 409 is tried again, 5 attempts in
 * all (wait.Backoff Steps 5, 316-320; apimachinery wait.ExponentialBackoff), then Reconcile
 * returns the error (requeue), as it does on a NotFound or any other error. On success, `then`.
 * Inference: a 409 is modelled as that requeue at once, with no attempt count. A failed attempt
 * changes nothing, so four more in the same state can always follow it; and an attempt that
 * succeeds after failed ones is this step taken later. So every run of the real retries is a
 * run here and the other way round, up to steps that change nothing. One step for the get and
 * the patch: the patch fails whenever the cache was behind the server at the get, whenever the
 * server moved on in between, and both are orders the search takes.
 * The status patch Patch sends after it is empty when only conditions changed, writes nothing,
 * and fails only when the object is gone, which makes Reconcile requeue a key whose later
 * requests can only get 404; it is left out.
 */
export function patchStatusConditions<S>(
  r: StepContext<S>,
  conditions: Readonly<globalThis.Record<string, k8s.ConditionInit>>,
  then: () => k8s.StepOutcome,
): k8s.StepOutcome {
  return k8s.patchConditionsStep(r, conditions, then);
}
