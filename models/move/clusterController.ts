// Cluster API's Cluster controller (internal/controllers/cluster), as at v1.8.0 and at v1.9.3,
// with the two changes between them as switches (ControllerCode).
import type { List } from 'immutable';
import { k8s } from 'modelcheck';
import { CLUSTER_FINALIZER } from '../capi/names.ts';
import {
  changesPausedCondition,
  ensureFinalizerStep,
  ensurePausedConditionStep,
  isPaused,
  needsFinalizer,
  notPausedByAnnotation,
  pausedCondition,
  pauseLocals,
  removeFinalizerStep,
} from '../capi/util.ts';
import type { ControllerCode, MoveState, Topology } from './world.ts';

type KubeObject = k8s.KubeObject;
type ObjectKey = k8s.ObjectKey;
type StepContext<S> = k8s.StepContext<S>;

// internal/controllers/cluster/cluster_controller.go Reconcile: v1.8.0 returned early when
// paused, then ran the deletion branch, then added its finalizer last; PR #11286 moved the
// finalizer to EnsureFinalizer at the top; PR #11284 made the early return EnsurePausedCondition.
export function clusterController(code: ControllerCode, topology: Topology): k8s.ControllerConfig<MoveState> {
  return {
    name: 'clusterController',
    manager: 'capi',
    watches: [
      // SetupWithManager: For(&clusterv1.Cluster{}); no filter label is set.
      { kind: 'Cluster' },
      // r.externalTracker.Watch on the infrastructure object: EnqueueRequestForOwner (the
      // Cluster) with ResourceIsChanged; every write here changes resourceVersion. The tracker
      // starts it when reconcile first meets an infrastructureRef, so a Cluster without
      // infrastructure has no such watch.
      ...(topology.withoutInfrastructure
        ? []
        : [
            {
              kind: 'DockerCluster',
              predicate: k8s.resourceIsChanged,
              map: (o: KubeObject) => o.ownerReferences.filter((k) => k.startsWith('Cluster/')),
            },
          ]),
    ],
    ...(code.pr11284 ? {} : { eventFilter: notPausedByAnnotation }),
    docs: {
      reconcile: code.pr11286
        ? 'cluster_controller.go Reconcile: r.Client.Get of the Cluster from the cache (NotFound returns), then the decisions of EnsureFinalizer and the pause check on that copy.'
        : 'cluster_controller.go Reconcile: r.Client.Get of the Cluster from the cache (NotFound returns), then the pause check, the deletion branch and the missing finalizer, on that copy.',
      ...(code.pr11286
        ? {
            ensureFinalizer:
              'finalizers.EnsureFinalizer before the pause check (PR #11286): merge patch of the cached finalizers plus cluster.cluster.x-k8s.io.',
          }
        : {
            addFinalizer:
              'v1.8.0: controllerutil.AddFinalizer after the deletion branch, sent by the deferred patchCluster (a merge patch of the cached finalizers plus cluster.cluster.x-k8s.io).',
          }),
      ...(code.pr11284
        ? {
            ensurePausedCondition:
              'paused.EnsurePausedCondition (PR #11284): patch the Paused condition; Reconcile returns when paused or when it changed.',
          }
        : {}),
      reconcileInfrastructure: 'reconcileDelete: read the infrastructure object through the cache.',
      deleteInfrastructure: 'reconcileDelete: DELETE the infrastructure object and wait for it to be gone.',
      removeFinalizer: 'reconcileDelete: with the infrastructure gone, remove cluster.cluster.x-k8s.io.',
    },
    reconcile: (r) => {
      const cluster = r.cached(r.key);
      if (!cluster) return r.done();
      if (code.pr11286 && needsFinalizer(cluster, CLUSTER_FINALIZER)) {
        return r.goto('ensureFinalizer', { finalizers: cluster.finalizers });
      }
      const paused = isPaused(cluster, cluster);
      if (code.pr11284) {
        // EnsurePausedCondition on the Cluster itself: its own copy says whether it is paused.
        const { pause } = pauseLocals(cluster);
        const want = pausedCondition('Cluster', cluster.spec.get('paused') === true, pause.annotated, pause.generation);
        if (changesPausedCondition(pause, want)) return r.goto('ensurePausedCondition', { condition: want });
      }
      // v1.8.0: "Return early if the object or Cluster is paused" (annotations.IsPaused).
      if (paused) return r.done();
      // reconcileDelete starts with reconcileInfrastructure, which reads the infra object.
      // Inference: before it, reconcileDelete deletes the Cluster's descendants (Machines and
      // the like), left out here: this branch needs a cached copy that is deleting and not
      // paused, and move pauses a Cluster before it deletes it, so no such copy exists.
      if (k8s.isDeleting(cluster)) {
        return r.goto('reconcileInfrastructure', {
          infrastructureRef: cluster.spec.get('infrastructureRef') ?? null,
          finalizers: cluster.finalizers,
        });
      }
      // v1.8.0: "Add finalizer first if not set", after the deletion branch.
      if (!code.pr11286 && !k8s.hasFinalizer(cluster, CLUSTER_FINALIZER)) {
        return r.goto('addFinalizer', { finalizers: cluster.finalizers });
      }
      // reconcileNormal: the cluster is provisioned; nothing in it touches finalizers, deletion
      // or pause (Inference), so it is a step that changes nothing and is left out.
      return r.done();
    },
    steps: {
      ...(code.pr11286
        ? { ensureFinalizer: (r: StepContext<MoveState>) => ensureFinalizerStep(r, CLUSTER_FINALIZER) }
        : { addFinalizer: (r: StepContext<MoveState>) => ensureFinalizerStep(r, CLUSTER_FINALIZER) }),
      ...(code.pr11284 ? { ensurePausedCondition: (r: StepContext<MoveState>) => ensurePausedConditionStep(r) } : {}),
      reconcileInfrastructure: (r) => {
        const infrastructureRef = r.local<ObjectKey>('infrastructureRef');
        const finalizers = r.local<List<string>>('finalizers');
        const infra = r.cached(infrastructureRef);
        if (!infra) return r.goto('removeFinalizer', { finalizers });
        // Waits for the infrastructure object to be gone; its deletion event requeues the Cluster.
        return k8s.isDeleting(infra) ? r.done() : r.goto('deleteInfrastructure', { infrastructureRef });
      },
      deleteInfrastructure: (r) => {
        const res = r.delete(r.local<ObjectKey>('infrastructureRef'));
        return res.code === 200 || res.code === 404 ? r.done() : r.requeue();
      },
      removeFinalizer: (r) => removeFinalizerStep(r, CLUSTER_FINALIZER),
    },
  };
}
