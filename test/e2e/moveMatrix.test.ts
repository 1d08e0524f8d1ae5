// The matrix-only variants of models/move.ts (history, alternatives, faults) that finish in
// seconds to a minute: verdicts, exact counts and every counterexample, for each row.
// The figures come from the runs these assertions were written against (2026-12-03), each a
// complete search; the deciding traces were read against the model and the real code (see
// docs/move.md, 'Variant matrices'). A change that moves them must say why.
import { describeMoveVariant } from '../helpers/moveVariant.ts';

describeMoveVariant('v1.8.0-controllers.v1.9.3-mover', {
  verdict: 'violated',
  counts: {
    distinct: 20582,
    generated: 89689,
    depth: 46
  },
  traces: {
    NoFinalizerResurrection: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
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
      'capiCache.sync(DockerCluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'clusterController.addFinalizer(Cluster/c1)',
      'mover.delete(Cluster/c1)',
      'mover.unpauseTargetCluster(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)'
    ],
    SourceInfraNeverDestroyed: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
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
      'capiCache.sync(DockerCluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'clusterController.addFinalizer(Cluster/c1)',
      'mover.delete(Cluster/c1)',
      'mover.unpauseTargetCluster(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)'
    ]
  },
  lassos: {
    EveryMovedObjectIsEventuallyRemoved: {
      loop: 30,
      loopAction: null
    }
  }
});

describeMoveVariant('v1.8.0-controllers.v1.9.5-mover', {
  verdict: 'violated',
  counts: {
    distinct: 16556,
    generated: 75230,
    depth: 38
  },
  traces: {
    SourceInfraNeverDestroyed: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
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

describeMoveVariant('v1.8.0-controllers.v1.9.3-mover.no-timing-assumption', {
  verdict: 'violated',
  counts: {
    distinct: 17803,
    generated: 82425,
    depth: 42
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
      'capdCache.sync(Cluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
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

describeMoveVariant('v1.8.0-controllers.v1.9.5-mover.no-timing-assumption', {
  verdict: 'violated',
  counts: {
    distinct: 19367,
    generated: 91807,
    depth: 36
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

describeMoveVariant('v1.8.0+11286-controllers.v1.9.3-mover', {
  verdict: 'violated',
  counts: {
    distinct: 22173,
    generated: 97662,
    depth: 43
  },
  traces: {
    NoFinalizerResurrection: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.ensureFinalizer(DockerCluster/c1)'
    ],
    SettledMoveLeavesNoSourceObjects: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
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
      'dockerClusterController.reconcile(DockerCluster/c1)'
    ],
    SourceInfraNeverDestroyed: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
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
      'dockerClusterController.deleteLoadBalancer(DockerCluster/c1)'
    ],
    EveryMovedObjectIsEventuallyRemoved: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
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
      'dockerClusterController.reconcile(DockerCluster/c1)'
    ]
  },
  lassos: {
    EveryMovedObjectIsEventuallyRemoved: {
      loop: 28,
      loopAction: null
    }
  }
});

describeMoveVariant('v1.8.0+11286-controllers.v1.9.5-mover', {
  verdict: 'violated',
  counts: {
    distinct: 16556,
    generated: 75230,
    depth: 38
  },
  traces: {
    SourceInfraNeverDestroyed: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
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

describeMoveVariant('v1.8.0+11286-controllers.v1.9.3-mover.no-timing-assumption', {
  verdict: 'violated',
  counts: {
    distinct: 26827,
    generated: 124869,
    depth: 43
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
      'dockerClusterController.ensureFinalizer(DockerCluster/c1)'
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
      'dockerClusterController.reconcile(DockerCluster/c1)'
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
      'dockerClusterController.reconcile(DockerCluster/c1)'
    ]
  },
  lassos: {
    EveryMovedObjectIsEventuallyRemoved: {
      loop: 28,
      loopAction: null
    }
  }
});

describeMoveVariant('v1.8.0+11286-controllers.v1.9.5-mover.no-timing-assumption', {
  verdict: 'violated',
  counts: {
    distinct: 19367,
    generated: 91807,
    depth: 36
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

describeMoveVariant('v1.9.3-controllers.v1.9.3-mover-waits-for-paused', {
  verdict: 'violated',
  counts: {
    distinct: 52151,
    generated: 244454,
    depth: 43
  },
  traces: {
    NoFinalizerResurrection: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'clusterController.ensurePausedCondition(Cluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'dockerClusterController.ensurePausedCondition(DockerCluster/c1)',
      'mover.waitForPausedCondition(Cluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.ensureFinalizer(DockerCluster/c1)'
    ],
    SettledMoveLeavesNoSourceObjects: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'clusterController.ensurePausedCondition(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'dockerClusterController.ensurePausedCondition(DockerCluster/c1)',
      'mover.waitForPausedCondition(Cluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
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
      'dockerClusterController.reconcile(DockerCluster/c1)'
    ],
    EveryMovedObjectIsEventuallyRemoved: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'clusterController.ensurePausedCondition(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'dockerClusterController.ensurePausedCondition(DockerCluster/c1)',
      'mover.waitForPausedCondition(Cluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
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
      'dockerClusterController.reconcile(DockerCluster/c1)'
    ]
  },
  lassos: {
    EveryMovedObjectIsEventuallyRemoved: {
      loop: 37,
      loopAction: null
    }
  }
});

describeMoveVariant('v1.9.3-controllers.v1.9.5-mover-waits-for-paused', {
  verdict: 'proved',
  counts: {
    distinct: 36232,
    generated: 171917,
    depth: 38
  },
  traces: {}
});

describeMoveVariant('v1.9.3-controllers.v1.9.3-mover-waits-for-paused.no-timing-assumption', {
  verdict: 'violated',
  counts: {
    distinct: 15930,
    generated: 70623,
    depth: 43
  },
  traces: {
    NoFinalizerResurrection: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'clusterController.ensurePausedCondition(Cluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'dockerClusterController.ensurePausedCondition(DockerCluster/c1)',
      'mover.waitForPausedCondition(Cluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.ensureFinalizer(DockerCluster/c1)'
    ],
    SettledMoveLeavesNoSourceObjects: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'clusterController.ensurePausedCondition(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'dockerClusterController.ensurePausedCondition(DockerCluster/c1)',
      'mover.waitForPausedCondition(Cluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
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
      'dockerClusterController.reconcile(DockerCluster/c1)'
    ],
    EveryMovedObjectIsEventuallyRemoved: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'clusterController.ensurePausedCondition(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'dockerClusterController.ensurePausedCondition(DockerCluster/c1)',
      'mover.waitForPausedCondition(Cluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'mover.delete(DockerCluster/c1)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(DockerCluster/c1)',
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
      'dockerClusterController.reconcile(DockerCluster/c1)'
    ]
  },
  lassos: {
    EveryMovedObjectIsEventuallyRemoved: {
      loop: 37,
      loopAction: null
    }
  }
});

describeMoveVariant('v1.9.3-controllers.v1.9.5-mover-waits-for-paused.no-timing-assumption', {
  verdict: 'proved',
  counts: {
    distinct: 7953,
    generated: 35927,
    depth: 36
  },
  traces: {}
});

describeMoveVariant('v1.9.5.controller-restart', {
  verdict: 'proved',
  counts: {
    distinct: 202232,
    generated: 1187750,
    depth: 34
  },
  traces: {}
});

describeMoveVariant('v1.9.5.coalesced-events', {
  verdict: 'proved',
  counts: {
    distinct: 88281,
    generated: 584886,
    depth: 29
  },
  traces: {}
});

describeMoveVariant('v1.9.5-no-timing-assumption.cache-lag-0', {
  verdict: 'proved',
  counts: {
    distinct: 410,
    generated: 1051,
    depth: 18
  },
  traces: {}
});

describeMoveVariant('v1.9.5-no-timing-assumption.cache-lag-1', {
  verdict: 'violated',
  counts: {
    distinct: 18003,
    generated: 80697,
    depth: 28
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
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.getOwnerCluster(DockerCluster/c1)',
      'dockerClusterController.reconcileDelete(DockerCluster/c1)',
      'dockerClusterController.deleteLoadBalancer(DockerCluster/c1)'
    ]
  }
});
