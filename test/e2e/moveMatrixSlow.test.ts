// The larger matrix-only variants of models/move.ts (PR #11284 alone, about 1 million states in
// all, clusterctl crashing and re-run, 1.1 million, and a Cluster with a Machine under the old
// ordering, 620,521): the slow tier (npm run test:slow).
// The figures come from the runs these assertions were written against (2026-12-03), each a
// complete search; the deciding traces were read against the model and the real code (see
// docs/move.md, 'Variant matrices'). A change that moves them must say why.
import { describeMoveVariant } from '../helpers/moveVariant.ts';

describeMoveVariant('v1.8.0+11284-controllers.v1.9.3-mover', {
  verdict: 'proved',
  counts: {
    distinct: 283479,
    generated: 1458130,
    depth: 35
  },
  traces: {}
});

describeMoveVariant('v1.8.0+11284-controllers.v1.9.5-mover', {
  verdict: 'proved',
  counts: {
    distinct: 303522,
    generated: 1557705,
    depth: 35
  },
  traces: {}
});

describeMoveVariant('v1.8.0+11284-controllers.v1.9.3-mover.no-timing-assumption', {
  verdict: 'violated',
  counts: {
    distinct: 225103,
    generated: 1124320,
    depth: 44
  },
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
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'dockerClusterController.addFinalizer(DockerCluster/c1)'
    ],
    SettledMoveLeavesNoSourceObjects: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'dockerClusterController.addFinalizer(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'mover.delete(Cluster/c1)',
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
      'capdCache.sync(Cluster/c1)'
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
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'dockerClusterController.addFinalizer(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'dockerClusterController.reconcileDelete(DockerCluster/c1)',
      'dockerClusterController.deleteLoadBalancer(DockerCluster/c1)'
    ],
    EveryMovedObjectIsEventuallyRemoved: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'dockerClusterController.addFinalizer(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'mover.delete(Cluster/c1)',
      'mover.unpauseTargetCluster(Cluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)'
    ]
  },
  lassos: {
    EveryMovedObjectIsEventuallyRemoved: {
      loop: 30,
      loopAction: 'dockerClusterController.getOwnerCluster(DockerCluster/c1)'
    }
  }
});

describeMoveVariant('v1.8.0+11284-controllers.v1.9.5-mover.no-timing-assumption', {
  verdict: 'violated',
  counts: {
    distinct: 183412,
    generated: 929131,
    depth: 38
  },
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
      'dockerClusterController.deleteLoadBalancer(DockerCluster/c1)'
    ]
  }
});

describeMoveVariant('v1.9.5.mover-rerun', {
  verdict: 'proved',
  counts: {
    distinct: 1134978,
    generated: 5705123,
    depth: 42
  },
  traces: {}
});

describeMoveVariant('cluster-with-machine.v1.9.3-mover.cache-lag-0.no-timing-assumption', {
  verdict: 'violated',
  counts: {
    distinct: 620521,
    generated: 2615539,
    depth: 51
  },
  traces: {
    NoFinalizerResurrection: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'mover.createTargetObject(Machine/c1-m0)',
      'mover.createTargetObject(DockerMachine/c1-m0)',
      'mover.getSourceObject(DockerMachine/c1-m0)',
      'mover.addDeleteForMoveAnnotation(DockerMachine/c1-m0)',
      'mover.removeFinalizers(DockerMachine/c1-m0)',
      'dockerMachineController.reconcile(DockerMachine/c1-m0)',
      'dockerMachineController.ensureFinalizer(DockerMachine/c1-m0)'
    ],
    SettledMoveLeavesNoSourceObjects: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'mover.createTargetObject(Machine/c1-m0)',
      'mover.createTargetObject(DockerMachine/c1-m0)',
      'mover.getSourceObject(DockerMachine/c1-m0)',
      'mover.addDeleteForMoveAnnotation(DockerMachine/c1-m0)',
      'mover.removeFinalizers(DockerMachine/c1-m0)',
      'mover.delete(DockerMachine/c1-m0)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'mover.getSourceObject(Machine/c1-m0)',
      'mover.addDeleteForMoveAnnotation(Machine/c1-m0)',
      'mover.removeFinalizers(Machine/c1-m0)',
      'mover.delete(Machine/c1-m0)',
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
      'machineController.reconcile(Machine/c1-m0)',
      'dockerMachineController.reconcile(DockerMachine/c1-m0)'
    ],
    EveryMovedObjectIsEventuallyRemoved: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'mover.createTargetObject(Machine/c1-m0)',
      'mover.createTargetObject(DockerMachine/c1-m0)',
      'mover.getSourceObject(DockerMachine/c1-m0)',
      'mover.addDeleteForMoveAnnotation(DockerMachine/c1-m0)',
      'mover.removeFinalizers(DockerMachine/c1-m0)',
      'mover.delete(DockerMachine/c1-m0)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'mover.getSourceObject(Machine/c1-m0)',
      'mover.addDeleteForMoveAnnotation(Machine/c1-m0)',
      'mover.removeFinalizers(Machine/c1-m0)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'machineController.reconcile(Machine/c1-m0)',
      'machineController.ensureFinalizer(Machine/c1-m0)',
      'mover.delete(Machine/c1-m0)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'mover.delete(Cluster/c1)',
      'mover.unpauseTargetCluster(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'dockerMachineController.reconcile(DockerMachine/c1-m0)',
      'machineController.reconcile(Machine/c1-m0)'
    ]
  },
  lassos: {
    EveryMovedObjectIsEventuallyRemoved: {
      loop: 27,
      loopAction: 'machineController.getCluster(Machine/c1-m0)'
    }
  }
});
