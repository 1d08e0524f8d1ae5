// The Machine and DockerMachine controllers of models/move.ts outside a move. In the move's
// searches their deletion branches are never enabled (every controller sees the pause first), so
// this is where those branches are checked: a user DELETEs the Machine of an unpaused Cluster,
// and the controllers must take it apart in the order of the v1.9.3 code
// (internal/controllers/machine/machine_controller.go reconcileDelete: drain the Node, delete
// the infrastructure machine and wait for it to be gone, then delete the Node, then remove the
// finalizer; dockermachine_controller.go reconcileDelete: condition patch, delete the container,
// remove the finalizer). The expected step sequences below are read off that code by hand.
import { describe, expect, it } from 'vitest';
import { action, checkVariant, eventually, invariant, k8s, liveness, settledInvariant, weakFairness, type Variant } from 'modelcheck';
import { machineControllersAlone, type MoveState } from '../../models/move.ts';

const MACHINE = 'Machine/c1-m0';
const DOCKER_MACHINE = 'DockerMachine/c1-m0';

function machineDeletion(clusterPaused: boolean): Variant<MoveState> {
  const { kube, init } = machineControllersAlone(clusterPaused);
  const gone = (s: MoveState, key: string) => kube.stored(s, 'source', key) === undefined;
  const deleteMachine = action<MoveState>('user.deleteMachine', {
    next: (s) => {
      const stored = kube.stored(s, 'source', MACHINE);
      if (stored === undefined || stored.deletionTimestamp !== null) return undefined;
      return kube.request(s, 'source', (srv) => k8s.delete(srv, MACHINE)).state;
    },
  });
  return {
    name: clusterPaused ? 'paused' : 'unpaused',
    init: () => [init],
    actions: [deleteMachine, ...kube.actions],
    properties: [
      invariant<MoveState>(
        'NodeDeletedOnlyAfterItsMachine',
        'The Node is deleted only once the machine container is gone ("We only delete the node after the underlying infrastructure is gone").',
        (s) => s.infrastructure.get('c1-m0 Node') !== 'deleted' || s.infrastructure.get('c1-m0 container') === 'deleted',
      ),
      invariant<MoveState>(
        'NodeNeverDeleted',
        'Never reached in a move: the Node deleted.',
        (s) => s.infrastructure.get('c1-m0 Node') !== 'deleted',
      ),
      settledInvariant<MoveState>(
        'SettledDeletionIsComplete',
        'Once the Machine is deleted and everything has settled, the Machine, the DockerMachine, the container and the Node are all gone.',
        (s) =>
          gone(s, MACHINE) &&
          gone(s, DOCKER_MACHINE) &&
          s.infrastructure.get('c1-m0 container') === 'deleted' &&
          s.infrastructure.get('c1-m0 Node') === 'deleted',
        { premise: (s) => kube.stored(s, 'source', MACHINE)?.deletionTimestamp !== null },
      ),
      liveness<MoveState>(
        'MachineEventuallyGone',
        'The Machine is eventually gone.',
        eventually((s) => gone(s, MACHINE)),
      ),
    ],
    fairness: [weakFairness('user', ['user.deleteMachine']), ...kube.fairness],
    checkDeadlock: false,
    expectedViolations: clusterPaused ? ['SettledDeletionIsComplete', 'MachineEventuallyGone'] : ['NodeNeverDeleted'],
  };
}

const actions = (v: ReturnType<typeof checkVariant<MoveState>>, property: string) =>
  v.violations.find((x) => x.property === property)!.trace.map((t) => t.action);

describe('the v1.9.3 Machine and DockerMachine controllers of models/move.ts, outside a move', () => {
  it('take apart the Machine of an unpaused Cluster in the order of the code: drain, delete the DockerMachine, its container, then the Node', () => {
    const r = checkVariant(machineDeletion(false));
    expect(r.verdict).toBe('violated');
    expect(r.metExpectations).toBe(true);
    expect(r.properties.map((p) => [p.name, p.status])).toEqual([
      ['NodeDeletedOnlyAfterItsMachine', 'holds'],
      ['NodeNeverDeleted', 'violated'],
      ['SettledDeletionIsComplete', 'holds'],
      ['MachineEventuallyGone', 'holds'],
    ]);
    // The shortest way to a deleted Node (24 steps): every step of both reconcileDeletes, in
    // code order. Each DELETE bumps its object's generation (markAsDeleting), so each controller's
    // first pass after it writes the Paused condition again with the new observedGeneration and
    // returns (EnsurePausedCondition), and that write's event queues it again. The DockerMachine's
    // DELETE queues the Machine again (its external tracker), and
    // every pass of reconcileDelete drains first (a drained Node drains at once); the second pass
    // finds the DockerMachine gone and deletes the Node. Among the interleavings of that length
    // the search reports the one its action order reaches first.
    expect(actions(r, 'NodeNeverDeleted')).toEqual([
      null,
      'user.deleteMachine',
      'machineController.reconcile(Machine/c1-m0)',
      'machineController.getCluster(Machine/c1-m0)',
      'machineController.ensurePausedCondition(Machine/c1-m0)',
      'machineController.reconcile(Machine/c1-m0)',
      'machineController.getCluster(Machine/c1-m0)',
      'machineController.drainNode(Machine/c1-m0)',
      'machineController.reconcileDeleteInfrastructure(Machine/c1-m0)',
      'machineController.deleteInfrastructure(Machine/c1-m0)',
      'machineController.reconcile(Machine/c1-m0)',
      'machineController.getCluster(Machine/c1-m0)',
      'machineController.drainNode(Machine/c1-m0)',
      'dockerMachineController.reconcile(DockerMachine/c1-m0)',
      'dockerMachineController.getOwnerMachine(DockerMachine/c1-m0)',
      'dockerMachineController.getCluster(DockerMachine/c1-m0)',
      'dockerMachineController.ensurePausedCondition(DockerMachine/c1-m0)',
      'dockerMachineController.reconcile(DockerMachine/c1-m0)',
      'dockerMachineController.getOwnerMachine(DockerMachine/c1-m0)',
      'dockerMachineController.getCluster(DockerMachine/c1-m0)',
      'dockerMachineController.reconcileDelete(DockerMachine/c1-m0)',
      'dockerMachineController.deleteContainer(DockerMachine/c1-m0)',
      'dockerMachineController.removeFinalizer(DockerMachine/c1-m0)',
      'machineController.reconcileDeleteInfrastructure(Machine/c1-m0)',
      'machineController.deleteNode(Machine/c1-m0)',
    ]);
  });

  it('leave the Machine of a paused Cluster alone: it stays, deleting, with its finalizer, and nothing is drained', () => {
    const r = checkVariant(machineDeletion(true));
    expect(r.metExpectations).toBe(true);
    expect(r.properties.map((p) => [p.name, p.status])).toEqual([
      ['NodeDeletedOnlyAfterItsMachine', 'holds'],
      ['NodeNeverDeleted', 'holds'],
      ['SettledDeletionIsComplete', 'violated'],
      ['MachineEventuallyGone', 'violated'],
    ]);
    // Each controller sees the pause and sets its Paused condition, and that is all. The
    // Machine's condition patch queues both the Machine and (through the DockerMachine
    // controller's Machine watch) the DockerMachine; each then returns on the pause.
    expect(actions(r, 'SettledDeletionIsComplete')).toEqual([
      null,
      'user.deleteMachine',
      'machineController.reconcile(Machine/c1-m0)',
      'machineController.getCluster(Machine/c1-m0)',
      'machineController.ensurePausedCondition(Machine/c1-m0)',
      'dockerMachineController.reconcile(DockerMachine/c1-m0)',
      'dockerMachineController.getOwnerMachine(DockerMachine/c1-m0)',
      'dockerMachineController.getCluster(DockerMachine/c1-m0)',
      'dockerMachineController.ensurePausedCondition(DockerMachine/c1-m0)',
      'machineController.reconcile(Machine/c1-m0)',
      'machineController.getCluster(Machine/c1-m0)',
      'dockerMachineController.reconcile(DockerMachine/c1-m0)',
      'dockerMachineController.getOwnerMachine(DockerMachine/c1-m0)',
      'dockerMachineController.getCluster(DockerMachine/c1-m0)',
    ]);
  });
});
