// The "objects" matrix of models/move.ts that finishes in seconds to two minutes: one Cluster
// (the old ordering's baseline), two Clusters in one move and a Cluster with a Machine and its
// DockerMachine under the fixed ordering, all with caches that never lag (the old ordering's
// two-Cluster and Machine rows, 1.6 and 3.3 million states, are in the slow tier). Verdicts, exact counts and every counterexample.
// The figures come from the runs these assertions were written against (2026-12-03), each a
// complete search; the deciding traces were read against the model and the real code (see
// docs/move.md, 'Matrix: objects'). A change that moves them must say why.
import { describeMoveVariant } from '../helpers/moveVariant.ts';

describeMoveVariant('v1.9.3-no-timing-assumption.cache-lag-0', {
  verdict: 'violated',
  counts: { distinct: 1_893, generated: 4_524, depth: 30 },
  traces: {
    NoFinalizerResurrection: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
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
      'clusterController.reconcile(Cluster/c1)',
      'clusterController.ensureFinalizer(Cluster/c1)',
      'mover.delete(Cluster/c1)',
      'mover.unpauseTargetCluster(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'clusterController.ensurePausedCondition(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
    ],
    EveryMovedObjectIsEventuallyRemoved: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.ensureFinalizer(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'mover.delete(Cluster/c1)',
      'mover.unpauseTargetCluster(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
    ],
  },
  lassos: {
    EveryMovedObjectIsEventuallyRemoved: { loop: 15, loopAction: 'dockerClusterController.getOwnerCluster(DockerCluster/c1)' },
  },
});

describeMoveVariant('two-clusters.v1.9.5-mover.cache-lag-0.no-timing-assumption', {
  verdict: 'proved',
  counts: { distinct: 74_278, generated: 321_990, depth: 36 },
  traces: {},
});

describeMoveVariant('cluster-with-machine.v1.9.5-mover.cache-lag-0.no-timing-assumption', {
  verdict: 'proved',
  counts: { distinct: 155_737, generated: 691_472, depth: 40 },
  traces: {},
});
