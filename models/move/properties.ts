// What must hold of a move: the move model's properties, read through the Kubernetes library.
import { eventually, invariant, k8s, leadsTo, liveness, settledInvariant } from 'modelcheck';
import { createOrder, type MoveState, type Topology } from './world.ts';

type ObjectKey = k8s.ObjectKey;

// ---------------------------------------------------------------------------------------------
// What must hold.

/** Stands for an object that is gone: not being deleted. */
export const NOT_THERE = k8s.KubeObject();

/** The properties, read through `kube` (the same reads whichever controllers run). */
export function moveProperties(kube: k8s.Kubernetes<MoveState>, topology: Topology) {
  const MOVED = createOrder(topology);
  const noFinalizerResurrection = invariant<MoveState>(
    'NoFinalizerResurrection',
    "Once the mover has emptied an object's finalizers, no finalizer reappears on that object while it exists.",
    (s) => s.emptied.every((key) => kube.stored(s, 'source', key)?.finalizers.isEmpty() ?? true),
    { premise: (s) => !s.emptied.isEmpty() },
  );

  const settledMoveLeavesNoSourceObjects = settledInvariant<MoveState>(
    'SettledMoveLeavesNoSourceObjects',
    'When the system has settled after the mover finished, no moved object remains in the source cluster.',
    (s) => MOVED.every((key) => kube.stored(s, 'source', key) === undefined),
    { premise: (s) => s.mover.phase === 'done' },
  );

  // What a move that ends in failure leaves: the user runs move again, which can pick up an
  // object not being deleted (it creates or updates the target copy, then deletes the source
  // one), but not one left deleting with finalizers that nobody will remove (its controller sees
  // the Cluster paused, and the re-run's UPDATE of the target copy is refused).
  const failedMoveLeavesNoObjectBeingDeleted = settledInvariant<MoveState>(
    'FailedMoveLeavesNoObjectBeingDeleted',
    'When the system has settled after move failed, no moved object is left in the source cluster being deleted, so that move can be run again.',
    (s) => MOVED.every((key) => !k8s.isDeleting(kube.stored(s, 'source', key) ?? NOT_THERE)),
    { premise: (s) => s.mover.phase === 'failed' },
  );

  const sourceInfraNeverDestroyed = invariant<MoveState>(
    'SourceInfraNeverDestroyed',
    'No source-side controller ever destroys (or drains) the real infrastructure, which the target cluster now manages.',
    (s) => s.infrastructure.every((v) => v === 'running'),
  );

  const inSource = (s: MoveState, key: ObjectKey) => kube.stored(s, 'source', key) !== undefined;

  // The bug's real symptom: an object the mover deleted that is never removed. Both sides of the
  // leadsTo are over all deleted objects; since a deletion is never undone and a removed source
  // object never comes back, this is the same as "each deleted object is eventually gone".
  const everyMovedObjectIsEventuallyRemoved = liveness<MoveState>(
    'EveryMovedObjectIsEventuallyRemoved',
    'Whenever the mover has deleted a source object that is still there, every object the mover deleted is eventually gone from the source cluster.',
    leadsTo(
      (s) => s.deleted.some((key) => inSource(s, key)),
      (s) => s.deleted.every((key) => !inSource(s, key)),
    ),
  );

  // clusterctl move returns once its last write is answered: deleteSourceObject does not wait for
  // the object to be gone (mover.go), so this holds even where objects are left behind, which is
  // how move "reports success anyway" (docs/capi-semantics.md).
  const moveEventuallyFinishes = liveness<MoveState>(
    'MoveEventuallyFinishes',
    'clusterctl move eventually returns, reporting success or an error.',
    eventually((s) => s.mover.phase === 'done' || s.mover.phase === 'failed'),
  );

  return {
    safety: [
      noFinalizerResurrection,
      settledMoveLeavesNoSourceObjects,
      failedMoveLeavesNoObjectBeingDeleted,
      sourceInfraNeverDestroyed,
      ...kube.properties,
    ],
    liveness: [everyMovedObjectIsEventuallyRemoved, moveEventuallyFinishes],
  };
}
