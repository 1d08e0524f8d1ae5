// CAPD's DockerCluster controller (test/infrastructure/docker), as at v1.8.0 and at v1.9.3.
import type { List } from 'immutable';
import { k8s } from 'modelcheck';
import {
  ensureFinalizerStep,
  ensurePausedConditionStep,
  needsFinalizer,
  notPausedByAnnotation,
  patchStatusConditions,
  pauseCheck,
  pauseLocals,
  removeFinalizerStep,
} from '../capi/util.ts';
import { DELETING_FALSE, DOCKER_CLUSTER_FINALIZER, loadBalancerOf, nameOf, type ControllerCode, type MoveState } from './world.ts';

type ObjectKey = k8s.ObjectKey;
type StepContext<S> = k8s.StepContext<S>;

// test/infrastructure/docker/internal/controllers/dockercluster_controller.go. v1.8.0 had no
// pause check in Reconcile at all (it relied on its watches): it read the DockerCluster and its
// owner Cluster, ran the deletion branch, then added its finalizer last. PR #11286 moved the
// finalizer to the top; PR #11284 added EnsurePausedCondition after GetOwnerCluster.
export function dockerClusterController(code: ControllerCode): k8s.ControllerConfig<MoveState> {
  return {
    name: 'dockerClusterController',
    manager: 'capd',
    watches: [
      // For(&infrav1.DockerCluster{}); WithEventFilter (see notPausedByAnnotation): all pass.
      { kind: 'DockerCluster' },
      // Watches(&clusterv1.Cluster{}, ClusterToInfrastructureMapFunc, ...). The map func reads
      // the DockerCluster from the cache and drops the event if it is absent.
      {
        kind: 'Cluster',
        // v1.9.3: ResourceIsChanged and ClusterPausedTransitions, only updates that flip
        // spec.paused. v1.8.0: ClusterUnpaused, the creation of an unpaused Cluster or an update
        // from paused to unpaused. Neither passes a deletion.
        predicate: code.pr11284
          ? (e) =>
              e.type === 'MODIFIED' && e.old !== undefined && (e.old.spec.get('paused') === true) !== (e.object.spec.get('paused') === true)
          : (e) =>
              (e.type === 'ADDED' && e.object.spec.get('paused') !== true) ||
              (e.type === 'MODIFIED' && e.old?.spec.get('paused') === true && e.object.spec.get('paused') !== true),
        map: (cluster, cache) => {
          const ref = cluster.spec.get('infrastructureRef') as ObjectKey | undefined;
          return ref !== undefined && cache.has(ref) ? [ref] : [];
        },
      },
    ],
    ...(code.pr11284 ? {} : { eventFilter: notPausedByAnnotation }),
    docs: {
      reconcile:
        'dockercluster_controller.go Reconcile: r.Client.Get of the DockerCluster from the cache (NotFound returns)' +
        (code.pr11286 ? ", then EnsureFinalizer's decision on that copy." : '.'),
      ...(code.pr11286
        ? {
            ensureFinalizer:
              'finalizers.EnsureFinalizer first (PR #11286): merge patch of the cached finalizers plus dockercluster.infrastructure.cluster.x-k8s.io.',
          }
        : {
            addFinalizer:
              'v1.8.0: controllerutil.AddFinalizer after the deletion branch, sent by the deferred patchDockerCluster (merge patch of the cached finalizers plus dockercluster.infrastructure.cluster.x-k8s.io).',
          }),
      getOwnerCluster:
        'util.GetOwnerCluster: read the owner Cluster from the cache (an error requeues)' +
        (code.pr11284 ? "; then paused.EnsurePausedCondition decides on the Cluster's cached spec.paused." : '; v1.8.0 checks no pause.'),
      ...(code.pr11284
        ? {
            ensurePausedCondition:
              'paused.EnsurePausedCondition (PR #11284): patch the Paused condition of the DockerCluster; Reconcile returns.',
          }
        : {}),
      reconcileDelete: 'reconcileDelete: patch LoadBalancerAvailable=False (Deleting) to show the delete started.',
      deleteLoadBalancer: 'reconcileDelete: externalLoadBalancer.Delete removes the load balancer container.',
      removeFinalizer: 'reconcileDelete: controllerutil.RemoveFinalizer, sent by the deferred patchDockerCluster.',
    },
    reconcile: (r) => {
      const dockerCluster = r.cached(r.key);
      if (!dockerCluster) return r.done();
      if (code.pr11286 && needsFinalizer(dockerCluster, DOCKER_CLUSTER_FINALIZER)) {
        return r.goto('ensureFinalizer', { finalizers: dockerCluster.finalizers });
      }
      const owner = dockerCluster.ownerReferences.find((k) => k.startsWith('Cluster/'));
      // No ownerReference yet: "Waiting for Cluster Controller to set OwnerRef", return.
      if (owner === undefined) return r.done();
      const deleting = k8s.isDeleting(dockerCluster);
      // v1.8.0 adds a missing finalizer after the deletion branch, from this copy.
      const addsFinalizer = !code.pr11286 && !deleting && !k8s.hasFinalizer(dockerCluster, DOCKER_CLUSTER_FINALIZER);
      return r.goto('getOwnerCluster', {
        owner,
        ...(code.pr11284 ? pauseLocals(dockerCluster) : {}),
        // Read later only by reconcileDelete, or by v1.8.0's finalizer patch.
        finalizers: deleting || addsFinalizer ? dockerCluster.finalizers : null,
        ...(code.pr11286 ? {} : { deleting }),
      });
    },
    steps: {
      ...(code.pr11286
        ? { ensureFinalizer: (r: StepContext<MoveState>) => ensureFinalizerStep(r, DOCKER_CLUSTER_FINALIZER) }
        : { addFinalizer: (r: StepContext<MoveState>) => ensureFinalizerStep(r, DOCKER_CLUSTER_FINALIZER) }),
      getOwnerCluster: (r) => {
        // The pause is read from the Cluster's own cache entry, a different object than the one
        // being reconciled: nothing orders the two entries in the cache.
        const cluster = r.cached(r.local<ObjectKey>('owner'));
        if (!cluster) return r.requeue();
        const afterPauseCheck = () => {
          const finalizers = r.local<List<string> | null>('finalizers');
          if (finalizers === null) return r.done(); // reconcileNormal: the load balancer exists already (Inference).
          const deleting = code.pr11286 || r.local<boolean>('deleting');
          if (deleting) return r.goto('reconcileDelete', { finalizers });
          return r.goto('addFinalizer', { finalizers });
        };
        // v1.8.0 checks no pause here.
        return code.pr11284 ? pauseCheck(r, cluster, afterPauseCheck) : afterPauseCheck();
      },
      ...(code.pr11284 ? { ensurePausedCondition: (r: StepContext<MoveState>) => ensurePausedConditionStep(r) } : {}),
      reconcileDelete: (r) => {
        // patchDockerCluster: patch.Helper, LoadBalancerAvailable owned (dockercluster_controller.go 130-149, 187-190).
        const finalizers = r.local('finalizers');
        return patchStatusConditions(r, { LoadBalancerAvailable: DELETING_FALSE }, () => r.goto('deleteLoadBalancer', { finalizers }));
      },
      deleteLoadBalancer: (r) => {
        r.effect((s) => s.setIn(['infrastructure', loadBalancerOf(nameOf(r.key))], 'deleted'));
        return r.goto('removeFinalizer', { finalizers: r.local('finalizers') });
      },
      removeFinalizer: (r) => removeFinalizerStep(r, DOCKER_CLUSTER_FINALIZER),
    },
  };
}
