// The move model without the timing assumption: the mover's delete phase may begin before every
// controller's cache shows the pause, as clusterctl move allows (it does not wait for it).
import { describeMoveVariant } from '../helpers/moveVariant.ts';

// The old ordering now also loses the infrastructure: the DockerCluster controller, whose cache
// does not show the Cluster paused yet, sees its DockerCluster deleting and runs reconcileDelete.
describeMoveVariant('v1.9.3-no-timing-assumption', {
  verdict: 'violated',
  counts: { distinct: 340_760, generated: 1_663_514, depth: 46 },
  traces: {
    NoFinalizerResurrection: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.ensureFinalizer(DockerCluster/c1)',
    ],
    SettledMoveLeavesNoSourceObjects: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'clusterController.ensureFinalizer(Cluster/c1)',
      'mover.delete(Cluster/c1)',
      'mover.unpauseTargetCluster(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'clusterController.ensurePausedCondition(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
    ],
    SourceInfraNeverDestroyed: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.ensureFinalizer(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'dockerClusterController.reconcileDelete(DockerCluster/c1)',
      'dockerClusterController.deleteLoadBalancer(DockerCluster/c1)',
    ],
  },
});

// The fix keeps the finalizers from coming back, but not the infrastructure: the DELETE of the
// DockerCluster reaches the DockerCluster controller before the pause does (the pause is read
// from the Cluster's cache entry, a different object), and reconcileDelete removes the load
// balancer. This is what the timing assumption is for.
describeMoveVariant('v1.9.5-no-timing-assumption', {
  verdict: 'violated',
  counts: { distinct: 183_412, generated: 929_131, depth: 38 },
  traces: {
    SourceInfraNeverDestroyed: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'dockerClusterController.reconcileDelete(DockerCluster/c1)',
      'dockerClusterController.deleteLoadBalancer(DockerCluster/c1)',
    ],
  },
});
