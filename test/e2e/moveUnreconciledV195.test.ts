// The move model with a DockerCluster that its controller has not reconciled yet (no finalizer),
// fixed ordering.
import { describeMoveVariant } from '../helpers/moveVariant.ts';

// The fix's own gap: deleteSourceObject decides whether to remove finalizers on the annotate-
// response copy. The copy has none; the controller's first EnsureFinalizer lands before the
// DELETE, which then only marks the DockerCluster; the mover skips the removal, and the paused
// controller never removes its finalizer. The DockerCluster stays in the source.
describeMoveVariant('v1.9.5-unreconciled', {
  verdict: 'violated',
  counts: { distinct: 1_114_433, generated: 5_686_724, depth: 43 },
  traces: {
    SettledMoveLeavesNoSourceObjects: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.ensureFinalizer(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.delete(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'mover.unpauseTargetCluster(Cluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'dockerClusterController.ensurePausedCondition(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'capdCache.sync(Cluster/c1)',
    ],
  },
});
