// The move model in the middle of a rollout: a MachineSet the MachineDeployment controller has just
// created, listed by move before the MachineSet controller first reconciled it (no finalizer yet;
// move's preflight does not look at MachineSets), fixed ordering.
import { describeMoveVariant } from '../helpers/moveVariant.ts';

// The fix's own gap, on the MachineSet: deleteSourceObject decides whether to remove finalizers on
// the annotate-response copy, which has none; the MachineSet controller's EnsureFinalizer (which
// runs before its pause check) lands before the DELETE, which then only marks the MachineSet; the
// mover skips the removal, and the paused controller never removes its finalizer. With the Cluster
// gone, GetClusterByName fails and the controller requeues the MachineSet for ever (the lasso).
// The figures are those of the run these assertions were written against (2026-12-04), read
// against the model and machineset_controller.go (docs/capi-semantics.md).
describeMoveVariant('v1.9.5-unreconciled', {
  verdict: 'violated',
  counts: { distinct: 312_260, generated: 1_449_464, depth: 50 },
  traces: {
    SettledMoveLeavesNoSourceObjects: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(MachineDeployment/c1-md)',
      'mover.createTargetObject(MachineSet/c1-md-new)',
      'capiCache.sync(Cluster/c1)',
      'mover.getSourceObject(MachineSet/c1-md-new)',
      'mover.addDeleteForMoveAnnotation(MachineSet/c1-md-new)',
      'capiCache.sync(MachineSet/c1-md-new)',
      'machineSetController.reconcile(MachineSet/c1-md-new)',
      'machineSetController.ensureFinalizer(MachineSet/c1-md-new)',
      'mover.delete(MachineSet/c1-md-new)',
      'mover.getSourceObject(MachineDeployment/c1-md)',
      'mover.addDeleteForMoveAnnotation(MachineDeployment/c1-md)',
      'mover.delete(MachineDeployment/c1-md)',
      'mover.removeFinalizers(MachineDeployment/c1-md)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.delete(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'mover.unpauseTargetCluster(Cluster/c1)',
      'capiCache.sync(MachineSet/c1-md-new)',
      'capiCache.sync(MachineSet/c1-md-new)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(MachineDeployment/c1-md)',
      'capiCache.sync(MachineDeployment/c1-md)',
      'capiCache.sync(MachineDeployment/c1-md)',
      'machineSetController.reconcile(MachineSet/c1-md-new)',
      'machineSetController.getCluster(MachineSet/c1-md-new)',
      'machineSetController.ensurePausedCondition(MachineSet/c1-md-new)',
      'capiCache.sync(MachineSet/c1-md-new)',
      'machineSetController.reconcile(MachineSet/c1-md-new)',
      'machineSetController.getCluster(MachineSet/c1-md-new)',
      'capiCache.sync(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
    ],
    EveryMovedObjectIsEventuallyRemoved: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(MachineDeployment/c1-md)',
      'mover.createTargetObject(MachineSet/c1-md-new)',
      'capiCache.sync(Cluster/c1)',
      'mover.getSourceObject(MachineSet/c1-md-new)',
      'mover.addDeleteForMoveAnnotation(MachineSet/c1-md-new)',
      'capiCache.sync(MachineSet/c1-md-new)',
      'machineSetController.reconcile(MachineSet/c1-md-new)',
      'machineSetController.ensureFinalizer(MachineSet/c1-md-new)',
      'mover.delete(MachineSet/c1-md-new)',
      'mover.getSourceObject(MachineDeployment/c1-md)',
      'mover.addDeleteForMoveAnnotation(MachineDeployment/c1-md)',
      'mover.delete(MachineDeployment/c1-md)',
      'mover.removeFinalizers(MachineDeployment/c1-md)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.delete(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'mover.unpauseTargetCluster(Cluster/c1)',
      'capiCache.sync(MachineSet/c1-md-new)',
      'capiCache.sync(MachineSet/c1-md-new)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(MachineDeployment/c1-md)',
      'capiCache.sync(MachineDeployment/c1-md)',
      'capiCache.sync(MachineDeployment/c1-md)',
      'clusterController.reconcile(Cluster/c1)',
      'machineSetController.reconcile(MachineSet/c1-md-new)',
    ],
  },
  lassos: {
    EveryMovedObjectIsEventuallyRemoved: { loop: 29, loopAction: 'machineSetController.getCluster(MachineSet/c1-md-new)' },
  },
});
