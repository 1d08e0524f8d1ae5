// Cluster API's Machine controller (internal/controllers/machine) at v1.9.3.
import type { List } from 'immutable';
import { k8s } from 'modelcheck';
import {
  ensureFinalizerStep,
  ensurePausedConditionStep,
  needsFinalizer,
  pauseCheck,
  pauseLocals,
  removeFinalizerStep,
} from '../capi/util.ts';
import { clusterOfMachine, MACHINE_FINALIZER, nameOf, nodeOf, type MoveState } from './world.ts';

type ObjectKey = k8s.ObjectKey;

// The Machine and DockerMachine controllers, at v1.9.3 only (the objects matrix runs the v1.9.3
// controllers). Both follow the v1.9 order: EnsureFinalizer, then find the Cluster, then
// EnsurePausedCondition, then deletion.

// internal/controllers/machine/machine_controller.go at v1.9.3.
export function machineController(): k8s.ControllerConfig<MoveState> {
  return {
    name: 'machineController',
    manager: 'capi',
    watches: [
      // For(&clusterv1.Machine{}), WithEventFilter(ResourceHasFilterLabel): all pass.
      { kind: 'Machine' },
      // reconcileInfrastructure's r.externalTracker.Watch: EnqueueRequestForOwner (the Machine),
      // with ResourceIsChanged (machine_controller_phases.go 93).
      { kind: 'DockerMachine', predicate: k8s.resourceIsChanged, map: (o) => o.ownerReferences.filter((k) => k.startsWith('Machine/')) },
      // Watches(&clusterv1.Cluster{}) passes ClusterControlPlaneInitialized: only the update that
      // marks the control plane initialized, which no step here makes; left out.
    ],
    docs: {
      reconcile:
        "machine_controller.go Reconcile: r.Client.Get of the Machine from the cache (NotFound returns), then EnsureFinalizer's decision on that copy.",
      ensureFinalizer: 'finalizers.EnsureFinalizer first: merge patch of the cached finalizers plus machine.cluster.x-k8s.io.',
      getCluster:
        "util.GetClusterByName from the cache (an error requeues), then paused.EnsurePausedCondition on the Cluster's cached spec.paused; a Machine being deleted goes on to reconcileDelete.",
      ensurePausedCondition: 'paused.EnsurePausedCondition: patch the Paused condition of the Machine; Reconcile returns.',
      drainNode:
        "reconcileDelete: isDeleteNodeAllowed (the cached Cluster is not being deleted), then drainNode evicts the Node's Pods in the workload cluster.",
      reconcileDeleteInfrastructure:
        'reconcileDeleteInfrastructure: read the infrastructure machine through the cache; gone means deleted, otherwise DELETE it (if not yet deleting) and wait.',
      deleteInfrastructure:
        'reconcileDeleteInfrastructure: r.Client.Delete of the DockerMachine; Reconcile returns and waits for it to be gone.',
      deleteNode: 'reconcileDelete: with the infrastructure gone, deleteNode removes the Node from the workload cluster.',
      removeFinalizer: 'reconcileDelete: controllerutil.RemoveFinalizer, sent by the deferred patchMachine.',
    },
    reconcile: (r) => {
      const machine = r.cached(r.key);
      if (!machine) return r.done();
      if (needsFinalizer(machine, MACHINE_FINALIZER)) return r.goto('ensureFinalizer', { finalizers: machine.finalizers });
      const deleting = k8s.isDeleting(machine);
      return r.goto('getCluster', {
        cluster: clusterOfMachine(machine),
        ...pauseLocals(machine),
        // Read later only by reconcileDelete (null: not being deleted).
        infrastructureRef: deleting ? (machine.spec.get('infrastructureRef') ?? null) : null,
        finalizers: deleting ? machine.finalizers : null,
      });
    },
    steps: {
      ensureFinalizer: (r) => ensureFinalizerStep(r, MACHINE_FINALIZER),
      getCluster: (r) => {
        const cluster = r.cached(r.local<ObjectKey>('cluster'));
        if (!cluster) return r.requeue();
        return pauseCheck(r, cluster, () => {
          // reconcileNormal: the Machine is provisioned; nothing in it touches finalizers,
          // deletion or pause (Inference), so it is a step that changes nothing and is left out.
          if (r.local<List<string> | null>('finalizers') === null) return r.done();
          const rest = { infrastructureRef: r.local('infrastructureRef'), finalizers: r.local('finalizers') };
          // isDeleteNodeAllowed: errClusterIsBeingDeleted skips the drain and the Node deletion.
          if (k8s.isDeleting(cluster)) return r.goto('reconcileDeleteInfrastructure', { ...rest, nodeAllowed: false });
          return r.goto('drainNode', rest);
        });
      },
      ensurePausedCondition: ensurePausedConditionStep,
      // Inference: the status patch before the drain (NodeDrainStartTime, DrainingSucceeded)
      // changes nothing any controller here reads or any property checks; left out.
      drainNode: (r) => {
        r.effect((s) => s.setIn(['infrastructure', nodeOf(nameOf(r.key))], 'drained'));
        return r.goto('reconcileDeleteInfrastructure', {
          infrastructureRef: r.local('infrastructureRef'),
          finalizers: r.local('finalizers'),
          nodeAllowed: true,
        });
      },
      reconcileDeleteInfrastructure: (r) => {
        const infra = r.cached(r.local<ObjectKey>('infrastructureRef'));
        const nodeAllowed = r.local<boolean>('nodeAllowed');
        if (!infra)
          return nodeAllowed
            ? r.goto('deleteNode', { finalizers: r.local('finalizers') })
            : r.goto('removeFinalizer', { finalizers: r.local('finalizers') });
        // Waits for the infrastructure machine to be gone; its deletion event requeues the Machine.
        return k8s.isDeleting(infra) ? r.done() : r.goto('deleteInfrastructure', { infrastructureRef: r.local('infrastructureRef') });
      },
      deleteInfrastructure: (r) => {
        const res = r.delete(r.local<ObjectKey>('infrastructureRef'));
        return res.code === 200 || res.code === 404 ? r.done() : r.requeue();
      },
      deleteNode: (r) => {
        r.effect((s) => s.setIn(['infrastructure', nodeOf(nameOf(r.key))], 'deleted'));
        return r.goto('removeFinalizer', { finalizers: r.local('finalizers') });
      },
      removeFinalizer: (r) => removeFinalizerStep(r, MACHINE_FINALIZER),
    },
  };
}
