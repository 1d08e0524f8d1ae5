// The move model's world: the objects a move carries (Clusters, their DockerClusters, Machines,
// DockerMachines, a MachineDeployment's new MachineSet) and their histories before the move, the
// model's state, and which code the Cluster API controllers run.
import { List, OrderedMap, Set, type RecordOf } from 'immutable';
import { FlatRecord, k8s } from 'modelcheck';
import { PAUSED_CONDITION } from '../capi/names.ts';
import { pausedCondition } from '../capi/util.ts';
import { Mover } from '../clusterctl/mover.ts';

type KubeObject = k8s.KubeObject;
type ObjectKey = k8s.ObjectKey;

// ---------------------------------------------------------------------------------------------
// The objects: workload Clusters, each with its infrastructure cluster, a DockerCluster (CAPD),
// and optionally a Machine with its infrastructure machine, a DockerMachine. The main variants
// move one Cluster and its DockerCluster; the "objects" matrix moves more.

/** What one move carries: these Clusters, each with its DockerCluster and `machines` Machines, each with its DockerMachine. */
export interface Topology {
  readonly name: string;
  readonly clusters: readonly string[];
  /** Machines per Cluster. */
  readonly machines: number;
  /**
   * Whether each Cluster also has a MachineDeployment in the middle of a rollout: its new
   * MachineSet, just created by the MachineDeployment controller, not yet reconciled by the
   * MachineSet controller (no finalizer), with no Machines yet.
   */
  readonly rollout?: boolean;
  /**
   * Clusters without an infrastructure object (no infrastructureRef, no DockerCluster): the
   * cluster controller marks such a Cluster infrastructure-ready itself
   * (cluster_controller_phases.go reconcileInfrastructure 152-159).
   */
  readonly withoutInfrastructure?: boolean;
}

export const ONE_CLUSTER: Topology = { name: 'one Cluster', clusters: ['c1'], machines: 0 };
export const TWO_CLUSTERS: Topology = { name: 'two Clusters', clusters: ['c1', 'c2'], machines: 0 };
export const CLUSTER_WITH_MACHINE: Topology = { name: 'one Cluster with a Machine', clusters: ['c1'], machines: 1 };
/**
 * The rollout's new MachineSet, with its controller (in capi-controller-manager, beside the
 * cluster controller). The MachineDeployment is reconciled (it has been there since before the
 * rollout) and is moved like any other object, but its controller is left out, and the Cluster has
 * no infrastructure object. Inference: the MachineDeployment and DockerCluster controllers each add
 * their finalizer first, a race the one-Cluster variants check on the DockerCluster; with them the
 * search grows past what the default run can take (about 5 million states and more).
 */
export const CLUSTER_IN_ROLLOUT: Topology = {
  name: 'one Cluster with a MachineDeployment whose new MachineSet is not yet reconciled',
  clusters: ['c1'],
  machines: 0,
  rollout: true,
  withoutInfrastructure: true,
};

export const nameOf = (key: ObjectKey) => key.slice(key.indexOf('/') + 1);
export const clusterKey = (c: string) => k8s.objectKey('Cluster', c);
/** A stand-alone Machine's cluster: spec.clusterName (util.GetClusterByName, GetClusterFromMetadata). */
export const clusterOfMachine = (m: k8s.KubeObject) => clusterKey(m.spec.get('clusterName') as string);
export const dockerClusterKey = (c: string) => k8s.objectKey('DockerCluster', c);
/** Machine `i` of Cluster `c` (a stand-alone worker Machine; the Machine controller makes the Cluster its owner). */
export const machineName = (c: string, i: number) => `${c}-m${i}`;
export const machineKey = (c: string, i: number) => k8s.objectKey('Machine', machineName(c, i));
export const dockerMachineKey = (c: string, i: number) => k8s.objectKey('DockerMachine', machineName(c, i));
export const machineDeploymentKey = (c: string) => k8s.objectKey('MachineDeployment', `${c}-md`);
export const machineSetKey = (c: string) => k8s.objectKey('MachineSet', `${c}-md-new`);
/** The indices of a Cluster's Machines: 0 to machines - 1. */
export const machineIndices = (t: Topology) => Array.from({ length: t.machines }, (_, i) => i);

// test/infrastructure/docker/api/v1beta1 dockercluster_types.go ClusterFinalizer.
export const DOCKER_CLUSTER_FINALIZER = 'dockercluster.infrastructure.cluster.x-k8s.io';
// api/v1beta1 machine_types.go MachineFinalizer.
export const MACHINE_FINALIZER = 'machine.cluster.x-k8s.io';
// test/infrastructure/docker/api/v1beta1 dockermachine_types.go MachineFinalizer.
export const DOCKER_MACHINE_FINALIZER = 'dockermachine.infrastructure.cluster.x-k8s.io';
// api/v1beta1 machinedeployment_types.go MachineDeploymentFinalizer; machineset_types.go MachineSetFinalizer.
export const MACHINE_DEPLOYMENT_FINALIZER = 'cluster.x-k8s.io/machinedeployment';
export const MACHINE_SET_FINALIZER = 'cluster.x-k8s.io/machineset';

/**
 * The versions each object went through before the move, oldest first: created, then the
 * controller's finalizer patch, then (controllers with PR #11284) its EnsurePausedCondition
 * patch (Paused=False). The DockerCluster is created with its ownerReference already set.
 * Inference: which write set the ownerReference is not read by anything in this model.
 */
export function reconciledHistory(created: KubeObject, finalizer: string, code: ControllerCode): KubeObject[] {
  const withFinalizer = created.set('finalizers', List([finalizer]));
  const versions = code.pr11284
    ? // Generation 1: the history changes no spec before the condition is written.
      [created, withFinalizer, withFinalizer.setIn(['conditions', PAUSED_CONDITION], pausedCondition(created.kind, false, false, 1))]
    : [created, withFinalizer];
  return [...versions.slice(0, -1), provisioned(versions[versions.length - 1])];
}

/**
 * What move's preflight (mover.go checkProvisioningCompleted 225-279) reads, as the controllers
 * left it once provisioning completed: a Cluster's status.infrastructureReady (copied from its
 * infrastructure object's status.ready, which CAPD sets only after its finalizer) and its
 * ControlPlaneInitialized condition, a Machine's status.nodeRef; the infrastructure objects'
 * status.ready. Inference: the status writes that set them come after the versions above, in
 * later reconciles; they are folded into the last version, since no cache here keeps status
 * (readByControllers) and nothing but the preflight reads it.
 */
export function provisioned(o: KubeObject): KubeObject {
  switch (o.kind) {
    case 'Cluster':
      return o.setIn(['status', 'infrastructureReady'], true).setIn(['conditions', CONTROL_PLANE_INITIALIZED], k8s.condition(true));
    case 'Machine':
      return o.setIn(['status', 'nodeRef'], nodeOf(o.name));
    case 'DockerCluster':
    case 'DockerMachine':
      return o.setIn(['status', 'ready'], true);
    default:
      return o;
  }
}

// conditions.MarkFalse(..., clusterv1.DeletingReason, ConditionSeverityInfo, ""), as CAPD's
// reconcileDelete marks LoadBalancerAvailable and ContainerProvisioned (api/v1beta1
// condition_consts.go DeletingReason).
export const DELETING_FALSE = k8s.Condition({ status: false, reason: 'Deleting' });
// api/v1beta1 condition_consts.go ControlPlaneInitializedCondition.
export const CONTROL_PLANE_INITIALIZED = 'ControlPlaneInitialized';

export const createdCluster = (c: string, t: Topology) =>
  k8s.object({
    kind: 'Cluster',
    name: c,
    spec: t.withoutInfrastructure ? { paused: false } : { paused: false, infrastructureRef: dockerClusterKey(c) },
  });
export const createdDockerCluster = (c: string) => k8s.object({ kind: 'DockerCluster', name: c, ownerReferences: [clusterKey(c)] });
// spec.clusterName stands for Machine.spec.clusterName and, on the DockerMachine, for its
// cluster.x-k8s.io/cluster-name label (the DockerMachine controller's Cluster watch lists by it).
export const createdMachine = (c: string, i: number) =>
  k8s.object({
    kind: 'Machine',
    name: machineName(c, i),
    ownerReferences: [clusterKey(c)],
    spec: { clusterName: c, infrastructureRef: dockerMachineKey(c, i) },
  });
export const createdMachineDeployment = (c: string) =>
  k8s.object({
    kind: 'MachineDeployment',
    name: nameOf(machineDeploymentKey(c)),
    ownerReferences: [clusterKey(c)],
    spec: { clusterName: c },
  });
// Created by the MachineDeployment controller (machinedeployment_sync.go 219-289) with its
// controller ownerReference and no finalizers.
export const createdMachineSet = (c: string) =>
  k8s.object({
    kind: 'MachineSet',
    name: nameOf(machineSetKey(c)),
    ownerReferences: [machineDeploymentKey(c)],
    spec: { clusterName: c },
  });
export const createdDockerMachine = (c: string, i: number) =>
  k8s.object({ kind: 'DockerMachine', name: machineName(c, i), ownerReferences: [machineKey(c, i)], spec: { clusterName: c } });

// ---------------------------------------------------------------------------------------------
// The state: the Kubernetes world (source and target API servers, two controller managers),
// clusterctl's progress (clusterctl/mover.ts), and the real infrastructure behind the source DockerCluster.

export interface MoveStateProps {
  kube: k8s.KubeWorld;
  mover: Mover;
  /**
   * The real infrastructure behind the source objects, which the target's objects now manage:
   * each Cluster's load balancer container and, per Machine, its container and its Node in the
   * workload cluster. Only a source-side controller's deletion changes them.
   */
  infrastructure: OrderedMap<string, Infrastructure>;
  /** Ghost variable: the objects whose finalizers a mover patch has emptied. */
  emptied: Set<ObjectKey>;
  /** Ghost variable: the objects the mover's DELETE was accepted for (200). */
  deleted: Set<ObjectKey>;
  /** Fault budget: how many more times clusterctl may crash and be run again. */
  moverRerunsLeft: number;
}
export type MoveState = RecordOf<MoveStateProps>;
export const MoveState = FlatRecord<MoveStateProps>(
  { kube: k8s.emptyWorld(), mover: Mover(), infrastructure: OrderedMap(), emptied: Set(), deleted: Set(), moverRerunsLeft: 0 },
  'MoveState',
);
export type Infrastructure = 'running' | 'drained' | 'deleted';

export const loadBalancerOf = (c: string) => `${c} load balancer`;
/** A Machine's container and its Node (CAPD names both after the Machine). */
export const containerOf = (machine: string) => `${machine} container`;
export const nodeOf = (machine: string) => `${machine} Node`;

export function initialInfrastructure(t: Topology): OrderedMap<string, Infrastructure> {
  const names = t.clusters.flatMap((c) => [
    ...(t.withoutInfrastructure ? [] : [loadBalancerOf(c)]),
    ...machineIndices(t).flatMap((i) => [containerOf(machineName(c, i)), nodeOf(machineName(c, i))]),
  ]);
  return OrderedMap<string, Infrastructure>(names.map((name): [string, Infrastructure] => [name, 'running']));
}

/**
 * mover.go getMoveSequence: groups of objects whose owners are all in earlier groups, so the
 * Clusters, then their DockerClusters and Machines (owned by the Cluster), then the
 * DockerMachines (owned by their Machine). Move creates group by group and deletes the groups in
 * reverse order, children first. Within a group the code follows Go's map order
 * (objectgraph.go getMoveNodes), which varies from run to run: the delete phase takes the
 * group's objects in any order (the mover's `object`). The create phase takes them in the order
 * below. Inference: which of a group's target copies is created first is read by nothing in
 * the source cluster, where the properties look.
 */
export function moveSequence(t: Topology): ObjectKey[][] {
  const groups = [
    t.clusters.map(clusterKey),
    t.clusters.flatMap((c) => [
      ...(t.withoutInfrastructure ? [] : [dockerClusterKey(c)]),
      ...machineIndices(t).map((i) => machineKey(c, i)),
      ...(t.rollout ? [machineDeploymentKey(c)] : []),
    ]),
  ];
  if (t.machines > 0 || t.rollout) {
    groups.push(
      t.clusters.flatMap((c) => [...machineIndices(t).map((i) => dockerMachineKey(c, i)), ...(t.rollout ? [machineSetKey(c)] : [])]),
    );
  }
  return groups;
}
export const createOrder = (t: Topology) => moveSequence(t).flat();
export const deleteGroups = (t: Topology) => moveSequence(t).reverse();

// Which code the controllers run. v1.8.0 had neither change; v1.9.3 has both. The upstream
// thread blames the two together; each is a switch here so that the search can say which one
// (or which pair) the race needs.
export interface ControllerCode {
  readonly name: string;
  /** PR #11286 (merged 2024-10-14): finalizers.EnsureFinalizer at the top of Reconcile, before the pause check. */
  readonly pr11286: boolean;
  /**
   * PR #11284 (merged 2024-10-17): paused.EnsurePausedCondition in place of the early return
   * (and, in the DockerCluster controller, a pause check it did not have); event filters that
   * ignore pause (ResourceHasFilterLabel) and ClusterPausedTransitions on Cluster events.
   */
  readonly pr11284: boolean;
}

export const CONTROLLERS_V180: ControllerCode = { name: 'v1.8.0', pr11286: false, pr11284: false };
export const CONTROLLERS_PR11286: ControllerCode = { name: 'v1.8.0+#11286', pr11286: true, pr11284: false };
export const CONTROLLERS_PR11284: ControllerCode = { name: 'v1.8.0+#11284', pr11286: false, pr11284: true };
export const CONTROLLERS_V193: ControllerCode = { name: 'v1.9.3', pr11286: true, pr11284: true };
