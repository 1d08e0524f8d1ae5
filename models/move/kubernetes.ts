// The move model's Kubernetes environment: the source and target API servers, the two controller
// managers of the source (capi and capd) with what their caches keep, and which controllers run.
import { k8s } from 'modelcheck';
import { CLUSTER_FINALIZER } from '../capi/names.ts';
import { readByControllers } from '../capi/util.ts';
import { clusterController } from './clusterController.ts';
import { dockerClusterController } from './dockerClusterController.ts';
import { dockerMachineController } from './dockerMachineController.ts';
import { machineController } from './machineController.ts';
import { machineSetController } from './ownerControllers.ts';
import {
  CLUSTER_WITH_MACHINE,
  CONTROLLERS_V193,
  createdCluster,
  createdDockerCluster,
  createdDockerMachine,
  createdMachine,
  DOCKER_CLUSTER_FINALIZER,
  DOCKER_MACHINE_FINALIZER,
  initialInfrastructure,
  MACHINE_FINALIZER,
  reconciledHistory,
  type ControllerCode,
  MoveState,
  type Topology,
} from './world.ts';

type KubeObject = k8s.KubeObject;

// ---------------------------------------------------------------------------------------------
// The controllers, as at v1.8.0 and at v1.9.3, with the two changes between them as switches.

// Each reconcile keeps as locals only what its later steps read (a copy's finalizer list, a
// decided flag), as the code's later statements read only those fields of its copies.

/** The DockerCluster controller reads of a Cluster only its pause and its infrastructureRef. */
export function readByDockerClusterController(o: KubeObject): KubeObject {
  if (o.kind !== 'Cluster') return readByControllers(o);
  return k8s.KubeObject({ kind: o.kind, name: o.name, spec: o.spec });
}

export function managersFor(t: Topology): k8s.ManagerConfig[] {
  const kinds = t.withoutInfrastructure
    ? ['Cluster']
    : t.machines > 0
      ? ['Cluster', 'DockerCluster', 'Machine', 'DockerMachine']
      : ['Cluster', 'DockerCluster'];
  return [
    // capi-controller-manager: core controllers, one cache (Clusters, Machines, MachineDeployments
    // and MachineSets, and the infrastructure objects their controllers' external trackers watch).
    { name: 'capi', server: 'source', kinds: t.rollout ? [...kinds, 'MachineDeployment', 'MachineSet'] : kinds, view: readByControllers },
    // capd-controller-manager: the Docker provider, a separate process with its own cache. Left
    // out with a rollout (see CLUSTER_IN_ROLLOUT).
    ...(t.rollout ? [] : [{ name: 'capd', server: 'source', kinds, view: readByDockerClusterController }]),
  ];
}

/**
 * For tests of the controllers above, outside a move: the Machine and DockerMachine controllers
 * alone, on one Cluster (paused or not) with a reconciled Machine and DockerMachine, caches
 * current and never lagging. The tests add who deletes what.
 */
export function machineControllersAlone(clusterPaused: boolean): { kube: k8s.Kubernetes<MoveState>; init: MoveState } {
  const kube = k8s.kubernetes<MoveState>({
    world: { get: (s) => s.kube, set: (s, world) => s.set('kube', world) },
    servers: ['source'],
    managers: managersFor(CLUSTER_WITH_MACHINE),
    controllers: [machineController(), dockerMachineController(CLUSTER_WITH_MACHINE)],
    faults: { cacheLagBound: 0 },
  });
  const c = CLUSTER_WITH_MACHINE.clusters[0];
  const cluster = reconciledHistory(createdCluster(c, CLUSTER_WITH_MACHINE), CLUSTER_FINALIZER, CONTROLLERS_V193);
  const histories = [
    { versions: clusterPaused ? [...cluster, cluster[cluster.length - 1].setIn(['spec', 'paused'], true)] : cluster, reconciled: true },
    { versions: reconciledHistory(createdDockerCluster(c), DOCKER_CLUSTER_FINALIZER, CONTROLLERS_V193), reconciled: true },
    { versions: reconciledHistory(createdMachine(c, 0), MACHINE_FINALIZER, CONTROLLERS_V193), reconciled: true },
    { versions: reconciledHistory(createdDockerMachine(c, 0), DOCKER_MACHINE_FINALIZER, CONTROLLERS_V193), reconciled: true },
  ];
  const [world] = kube.initialWorlds({ source: histories }, { cacheLag: 'none' });
  return { kube, init: MoveState({ kube: world, infrastructure: initialInfrastructure(CLUSTER_WITH_MACHINE) }) };
}

/** The Kubernetes world with the controllers of `code` and the faults the search may inject. */
export function kubernetesFor(code: ControllerCode, topology: Topology, faults: k8s.KubeFaults = {}): k8s.Kubernetes<MoveState> {
  if ((topology.machines > 0 || topology.rollout) && code !== CONTROLLERS_V193) {
    throw new Error('the Machine, MachineDeployment and MachineSet controllers are modelled at v1.9.3 only');
  }
  return k8s.kubernetes<MoveState>({
    world: { get: (s) => s.kube, set: (s, world) => s.set('kube', world) },
    servers: ['source', 'target'],
    managers: managersFor(topology),
    controllers: [
      clusterController(code, topology),
      ...(topology.rollout ? [] : [dockerClusterController(code)]),
      ...(topology.machines > 0 ? [machineController(), dockerMachineController(topology)] : []),
      ...(topology.rollout ? [machineSetController()] : []),
    ],
    faults,
  });
}
