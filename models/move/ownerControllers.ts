// Cluster API's MachineDeployment and MachineSet controllers at v1.9.3, which share one shape.
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
import { clusterKey, MACHINE_SET_FINALIZER, type MoveState } from './world.ts';

type ObjectKey = k8s.ObjectKey;

// The MachineDeployment and MachineSet controllers at v1.9.3 share one shape (the MachineSet's is
// the one a move here runs; see CLUSTER_IN_ROLLOUT): EnsureFinalizer,
// then the Cluster by name from the cache, then EnsurePausedCondition, then (when deleting) delete
// the children they own and remove their finalizer once none is left.
// internal/controllers/machinedeployment/machinedeployment_controller.go Reconcile 121-190
// (EnsureFinalizer 140, GetClusterByName 144, EnsurePausedCondition 149), reconcileDelete 325-349;
// internal/controllers/machineset/machineset_controller.go Reconcile 161-270 (EnsureFinalizer
// 177, GetClusterByName 188, EnsurePausedCondition 193), reconcileDelete 412-439.
export interface OwnerControllerCode {
  readonly name: string;
  readonly kind: string;
  readonly finalizer: string;
  /** The kind of the children it deletes first: MachineSets, or Machines. */
  readonly childKind: string;
  /** The real controller's file, for the step docs. */
  readonly file: string;
  /** Its watches besides For(kind); the Cluster watch is added here. */
  readonly watches: readonly k8s.WatchConfig[];
}

export function ownerController(code: OwnerControllerCode): k8s.ControllerConfig<MoveState> {
  return {
    name: code.name,
    manager: 'capi',
    watches: [
      // For(...), WithEventFilter(ResourceHasFilterLabel): all pass.
      { kind: code.kind },
      ...code.watches,
      // Watches(&clusterv1.Cluster{}, ClusterToTypedObjectsMapper) with ResourceIsChanged and
      // ClusterPausedTransitions: updates that flip spec.paused; the objects listed (from the
      // cache) by their cluster name.
      {
        kind: 'Cluster',
        predicate: (e) =>
          k8s.resourceIsChanged(e) &&
          e.type === 'MODIFIED' &&
          e.old !== undefined &&
          (e.old.spec.get('paused') === true) !== (e.object.spec.get('paused') === true),
        map: (cluster, cache) =>
          [...cache.values()].filter((o) => o.kind === code.kind && o.spec.get('clusterName') === cluster.name).map(k8s.keyOf),
      },
    ],
    docs: {
      reconcile: `${code.file} Reconcile: r.Client.Get of the ${code.kind} from the cache (NotFound returns), then EnsureFinalizer's decision on that copy.`,
      ensureFinalizer: `finalizers.EnsureFinalizer first: merge patch of the cached finalizers plus ${code.finalizer}.`,
      getCluster:
        "util.GetClusterByName from the cache (an error requeues), then paused.EnsurePausedCondition on the Cluster's cached spec.paused.",
      ensurePausedCondition: `paused.EnsurePausedCondition: patch the Paused condition of the ${code.kind}; Reconcile returns.`,
      reconcileDelete: `reconcileDelete: list the ${code.childKind}s it owns from the cache; DELETE each not yet deleting and wait, or with none left remove ${code.finalizer} (sent by the deferred patch).`,
    },
    reconcile: (r) => {
      const self = r.cached(r.key);
      if (!self) return r.done();
      if (needsFinalizer(self, code.finalizer)) return r.goto('ensureFinalizer', { finalizers: self.finalizers });
      return r.goto('getCluster', {
        cluster: clusterKey(self.spec.get('clusterName') as string),
        ...pauseLocals(self),
        // Read later only by reconcileDelete (null: not being deleted).
        finalizers: k8s.isDeleting(self) ? self.finalizers : null,
      });
    },
    steps: {
      ensureFinalizer: (r) => ensureFinalizerStep(r, code.finalizer),
      getCluster: (r) => {
        const cluster = r.cached(r.local<ObjectKey>('cluster'));
        if (!cluster) return r.requeue();
        return pauseCheck(r, cluster, () => {
          // reconcileNormal: scaling and rollout, which touch no finalizer, deletion or pause of
          // a moved object (Inference; the Machines a MachineSet would create are not in move's
          // graph and are left out); a step that changes nothing here.
          if (r.local<List<string> | null>('finalizers') === null) return r.done();
          return r.goto('reconcileDelete', { finalizers: r.local('finalizers') });
        });
      },
      ensurePausedCondition: ensurePausedConditionStep,
      reconcileDelete: (r) => {
        // Inference: one step for the cache list and the one request that follows it.
        const owned = r.list(code.childKind).filter((o) => o.ownerReferences.includes(r.key));
        if (owned.length === 0) return removeFinalizerStep(r, code.finalizer);
        const next = owned.find((o) => !k8s.isDeleting(o));
        if (next === undefined) return r.done(); // waits for them to be gone
        const res = r.delete(k8s.keyOf(next));
        return res.code === 200 || res.code === 404 ? r.done() : r.requeue();
      },
    },
  };
}

export const machineSetController = () =>
  ownerController({
    name: 'machineSetController',
    kind: 'MachineSet',
    finalizer: MACHINE_SET_FINALIZER,
    childKind: 'Machine',
    file: 'machineset_controller.go',
    // Watches(&clusterv1.MachineDeployment{}, MachineDeploymentToObjectsMapper) with
    // ResourceIsChanged: the MachineSets labelled with the MachineDeployment's name, listed from the
    // cache. (Its Machine watches see no Machine here.)
    watches: [
      {
        kind: 'MachineDeployment',
        predicate: k8s.resourceIsChanged,
        map: (md, cache) =>
          [...cache.values()].filter((o) => o.kind === 'MachineSet' && o.ownerReferences.includes(k8s.keyOf(md))).map(k8s.keyOf),
      },
    ],
  });
