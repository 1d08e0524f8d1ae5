// CAPD's DockerMachine controller (test/infrastructure/docker) at v1.9.3.
import type { List } from 'immutable';
import { k8s } from 'modelcheck';
import {
  ensureFinalizerStep,
  ensurePausedConditionStep,
  needsFinalizer,
  patchStatusConditions,
  pauseCheck,
  pauseLocals,
  removeFinalizerStep,
} from '../capi/util.ts';
import {
  clusterOfMachine,
  containerOf,
  DELETING_FALSE,
  DOCKER_MACHINE_FINALIZER,
  dockerMachineKey,
  machineIndices,
  nameOf,
  type MoveState,
  type Topology,
} from './world.ts';

type ObjectKey = k8s.ObjectKey;

// test/infrastructure/docker/internal/controllers/dockermachine_controller.go at v1.9.3.
export function dockerMachineController(t: Topology): k8s.ControllerConfig<MoveState> {
  /** The DockerMachines in `cache` that belong to Cluster `c` (a List by the cluster-name label). */
  const dockerMachinesOf = (c: string, cache: { has: (k: ObjectKey) => boolean }) =>
    machineIndices(t)
      .map((i) => dockerMachineKey(c, i))
      .filter((k) => cache.has(k));
  return {
    name: 'dockerMachineController',
    manager: 'capd',
    watches: [
      // For(&infrav1.DockerMachine{}), WithEventFilter(ResourceHasFilterLabel): all pass.
      { kind: 'DockerMachine' },
      // Watches(&clusterv1.Machine{}, MachineToInfrastructureMapFunc), ResourceIsChanged.
      { kind: 'Machine', predicate: k8s.resourceIsChanged, map: (o) => [o.spec.get('infrastructureRef') as ObjectKey] },
      // Watches(&infrav1.DockerCluster{}, DockerClusterToDockerMachines), ResourceIsChanged: the
      // DockerMachines listed (from the cache) by the DockerCluster's cluster name.
      { kind: 'DockerCluster', predicate: k8s.resourceIsChanged, map: (o, cache) => dockerMachinesOf(o.name, cache) },
      // Watches(&clusterv1.Cluster{}, clusterToDockerMachines) with
      // ClusterPausedTransitionsOrInfrastructureReady: updates that flip spec.paused (the
      // InfrastructureReady transition is not made by any step here).
      {
        kind: 'Cluster',
        predicate: (e) =>
          e.type === 'MODIFIED' && e.old !== undefined && (e.old.spec.get('paused') === true) !== (e.object.spec.get('paused') === true),
        map: (o, cache) => dockerMachinesOf(o.name, cache),
      },
    ],
    docs: {
      reconcile:
        "dockermachine_controller.go Reconcile: r.Client.Get of the DockerMachine from the cache (NotFound returns), then EnsureFinalizer's decision on that copy.",
      ensureFinalizer:
        'finalizers.EnsureFinalizer first: merge patch of the cached finalizers plus dockermachine.infrastructure.cluster.x-k8s.io.',
      getOwnerMachine: 'util.GetOwnerMachine: read the owner Machine from the cache (an error requeues).',
      getCluster:
        "util.GetClusterFromMetadata: read the Machine's Cluster from the cache (an error requeues), then paused.EnsurePausedCondition on its spec.paused.",
      ensurePausedCondition: 'paused.EnsurePausedCondition: patch the Paused condition of the DockerMachine; Reconcile returns.',
      reconcileDelete:
        'Get the DockerCluster from the cache (absent: return), then reconcileDelete patches ContainerProvisioned=False (Deleting).',
      deleteContainer: "reconcileDelete: externalMachine.Delete removes the machine's container.",
      removeFinalizer: 'reconcileDelete: controllerutil.RemoveFinalizer, sent by the deferred patchDockerMachine.',
    },
    reconcile: (r) => {
      const dockerMachine = r.cached(r.key);
      if (!dockerMachine) return r.done();
      if (needsFinalizer(dockerMachine, DOCKER_MACHINE_FINALIZER))
        return r.goto('ensureFinalizer', { finalizers: dockerMachine.finalizers });
      const owner = dockerMachine.ownerReferences.find((k) => k.startsWith('Machine/'));
      // No owner Machine yet: "Waiting for Machine Controller to set OwnerRef", return.
      if (owner === undefined) return r.done();
      return r.goto('getOwnerMachine', {
        owner,
        ...pauseLocals(dockerMachine),
        // Read later only by reconcileDelete (null: not being deleted).
        finalizers: k8s.isDeleting(dockerMachine) ? dockerMachine.finalizers : null,
      });
    },
    steps: {
      ensureFinalizer: (r) => ensureFinalizerStep(r, DOCKER_MACHINE_FINALIZER),
      getOwnerMachine: (r) => {
        const machine = r.cached(r.local<ObjectKey>('owner'));
        if (!machine) return r.requeue();
        return r.goto('getCluster', {
          cluster: clusterOfMachine(machine),
          pause: r.local('pause'),
          finalizers: r.local('finalizers'),
        });
      },
      getCluster: (r) => {
        // The pause is read from the Cluster's own cache entry, as for the DockerCluster.
        const cluster = r.cached(r.local<ObjectKey>('cluster'));
        if (!cluster) return r.requeue();
        return pauseCheck(r, cluster, () => {
          // reconcileNormal: the container exists already (Inference), nothing changes.
          if (r.local<List<string> | null>('finalizers') === null) return r.done();
          // "Cluster infrastructureRef is not available yet": return.
          const dockerCluster = cluster.spec.get('infrastructureRef') as ObjectKey | undefined;
          return dockerCluster === undefined ? r.done() : r.goto('reconcileDelete', { dockerCluster, finalizers: r.local('finalizers') });
        });
      },
      ensurePausedCondition: ensurePausedConditionStep,
      reconcileDelete: (r) => {
        // "DockerCluster is not available yet": return without error. Inference: one step for
        // this cache read and the condition patch that follows it.
        if (!r.cached(r.local<ObjectKey>('dockerCluster'))) return r.done();
        // patchDockerMachine: patch.Helper, ContainerProvisioned owned (dockermachine_controller.go 456-463).
        const finalizers = r.local('finalizers');
        return patchStatusConditions(r, { ContainerProvisioned: DELETING_FALSE }, () => r.goto('deleteContainer', { finalizers }));
      },
      deleteContainer: (r) => {
        // The container is named after the owner Machine, which has the DockerMachine's name here.
        r.effect((s) => s.setIn(['infrastructure', containerOf(nameOf(r.key))], 'deleted'));
        return r.goto('removeFinalizer', { finalizers: r.local('finalizers') });
      },
      removeFinalizer: (r) => removeFinalizerStep(r, DOCKER_MACHINE_FINALIZER),
    },
  };
}
