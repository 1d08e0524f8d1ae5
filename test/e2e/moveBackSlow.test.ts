// models/moveBack.ts with the v1.9.3 ordering (2 million states, the slow tier): the first move leaves
// the MachineDeployment deleting with one of its two finalizers, and the move back's update is refused
// with 422 (issue #11809).
// The figures come from the runs these assertions were written against (2026-12-03), each a
// complete search; the traces were read against the model and the real code (docs/moveBack.md).
// A change that moves them must say why. 2026-12-04: 1,428,398 -> 1,421,342 states, depth 76 -> 69,
// when the move back's UPDATE stopped writing the source copy's status into the target
// (docs/second-reading.md); the counterexamples kept their lengths. Then -> 1,963,854 states, depth
// 76, with generations and the locked condition patch; the counterexamples did not change.
import { describeModelVariant } from '../helpers/moveVariant.ts';

describeModelVariant('models/moveBack.ts', 'v1.9.3', {
  verdict: 'violated',
  counts: { distinct: 1_963_854, generated: 8_292_308, depth: 76 },
  traces: {
    NoFinalizerResurrection: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(MachineDeployment/md1)',
      'capiCache.sync(Cluster/c1)',
      'mover.getSourceObject(MachineDeployment/md1)',
      'mover.addDeleteForMoveAnnotation(MachineDeployment/md1)',
      'mover.removeFinalizers(MachineDeployment/md1)',
      'capiCache.sync(MachineDeployment/md1)',
      'capiCache.sync(MachineDeployment/md1)',
      'machineDeploymentController.reconcile(MachineDeployment/md1)',
      'machineDeploymentController.ensureFinalizer(MachineDeployment/md1)',
    ],
    MoveBackIsNotRefused: [
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(MachineDeployment/md1)',
      'capiCache.sync(Cluster/c1)',
      'mover.getSourceObject(MachineDeployment/md1)',
      'mover.addDeleteForMoveAnnotation(MachineDeployment/md1)',
      'mover.removeFinalizers(MachineDeployment/md1)',
      'capiCache.sync(MachineDeployment/md1)',
      'capiCache.sync(MachineDeployment/md1)',
      'machineDeploymentController.reconcile(MachineDeployment/md1)',
      'machineDeploymentController.ensureFinalizer(MachineDeployment/md1)',
      'mover.delete(MachineDeployment/md1)',
      'mover.getSourceObject(Cluster/c1)',
      'mover.addDeleteForMoveAnnotation(Cluster/c1)',
      'mover.removeFinalizers(Cluster/c1)',
      'mover.delete(Cluster/c1)',
      'mover.unpauseTargetCluster(Cluster/c1)',
      'capiCache.sync(MachineDeployment/md1)',
      'capiCache.sync(MachineDeployment/md1)',
      'capiCache.sync(Cluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'machineDeploymentController.reconcile(MachineDeployment/md1)',
      'machineDeploymentController.getCluster(MachineDeployment/md1)',
      'machineDeploymentController.ensurePausedCondition(MachineDeployment/md1)',
      'capiCache.sync(MachineDeployment/md1)',
      'machineDeploymentController.reconcile(MachineDeployment/md1)',
      'machineDeploymentController.getCluster(MachineDeployment/md1)',
      'mdTopologyController.reconcile(MachineDeployment/md1)',
      'mdTopologyController.getCluster(MachineDeployment/md1)',
      'capiCache.sync(Cluster/c1)',
      'clusterController.reconcile(Cluster/c1)',
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(MachineDeployment/md1)',
    ],
  },
});
