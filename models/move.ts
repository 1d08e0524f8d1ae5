// clusterctl move racing the Cluster API controllers, Cluster API v1.9.3 and its fix in v1.9.5.
// Facts, with their sources: docs/capi-semantics.md. Code cited: kubernetes-sigs/
// cluster-api at tag v1.9.3 unless noted; the fix is PR #11814 (backport #11821, in v1.9.5).
//
// The API server's rules, the informer caches and the work queues come from the checker's
// Kubernetes library; this file only says what the mover and the two controllers do, in the
// order their code does it.
import { List, OrderedMap, Record, Set, type RecordOf } from 'immutable';
import {
  action,
  defineModel,
  eventually,
  invariant,
  k8s,
  leadsTo,
  liveness,
  settledInvariant,
  weakFairness,
  type Action,
  type StepEvent,
  type Variant,
} from 'modelcheck';
import {
  CLUSTER_FINALIZER,
  DELETE_FOR_MOVE_ANNOTATION,
  MAX_MOVE_ATTEMPTS as MAX_ATTEMPTS,
  PAUSED_ANNOTATION,
  PAUSED_CONDITION,
  changesPausedCondition,
  ensureFinalizerStep,
  ensurePausedConditionStep,
  isPaused,
  needsFinalizer,
  pauseCheck,
  pauseLocals,
  pausedCondition,
  patchStatusConditions,
  readByControllers,
  removeFinalizerStep,
} from './capi.ts';

type KubeObject = k8s.KubeObject;
type ObjectKey = k8s.ObjectKey;
type StepContext<S> = k8s.StepContext<S>;

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

const ONE_CLUSTER: Topology = { name: 'one Cluster', clusters: ['c1'], machines: 0 };
const TWO_CLUSTERS: Topology = { name: 'two Clusters', clusters: ['c1', 'c2'], machines: 0 };
const CLUSTER_WITH_MACHINE: Topology = { name: 'one Cluster with a Machine', clusters: ['c1'], machines: 1 };
/**
 * The rollout's new MachineSet, with its controller (in capi-controller-manager, beside the
 * cluster controller). The MachineDeployment is reconciled (it has been there since before the
 * rollout) and is moved like any other object, but its controller is left out, and the Cluster has
 * no infrastructure object. Inference: the MachineDeployment and DockerCluster controllers each add
 * their finalizer first, a race the one-Cluster variants check on the DockerCluster; with them the
 * search grows past what the default run can take (about 5 million states and more).
 */
const CLUSTER_IN_ROLLOUT: Topology = {
  name: 'one Cluster with a MachineDeployment whose new MachineSet is not yet reconciled',
  clusters: ['c1'],
  machines: 0,
  rollout: true,
  withoutInfrastructure: true,
};

const nameOf = (key: ObjectKey) => key.slice(key.indexOf('/') + 1);
const clusterKey = (c: string) => k8s.objectKey('Cluster', c);
const dockerClusterKey = (c: string) => k8s.objectKey('DockerCluster', c);
/** Machine `i` of Cluster `c` (a stand-alone worker Machine; the Machine controller makes the Cluster its owner). */
const machineName = (c: string, i: number) => `${c}-m${i}`;
const machineKey = (c: string, i: number) => k8s.objectKey('Machine', machineName(c, i));
const dockerMachineKey = (c: string, i: number) => k8s.objectKey('DockerMachine', machineName(c, i));
const machineDeploymentKey = (c: string) => k8s.objectKey('MachineDeployment', `${c}-md`);
const machineSetKey = (c: string) => k8s.objectKey('MachineSet', `${c}-md-new`);
/** The indices of a Cluster's Machines: 0 to machines - 1. */
const machineIndices = (t: Topology) => Array.from({ length: t.machines }, (_, i) => i);

// test/infrastructure/docker/api/v1beta1 dockercluster_types.go ClusterFinalizer.
const DOCKER_CLUSTER_FINALIZER = 'dockercluster.infrastructure.cluster.x-k8s.io';
// api/v1beta1 machine_types.go MachineFinalizer.
const MACHINE_FINALIZER = 'machine.cluster.x-k8s.io';
// test/infrastructure/docker/api/v1beta1 dockermachine_types.go MachineFinalizer.
const DOCKER_MACHINE_FINALIZER = 'dockermachine.infrastructure.cluster.x-k8s.io';
// api/v1beta1 machinedeployment_types.go MachineDeploymentFinalizer; machineset_types.go MachineSetFinalizer.
const MACHINE_DEPLOYMENT_FINALIZER = 'cluster.x-k8s.io/machinedeployment';
const MACHINE_SET_FINALIZER = 'cluster.x-k8s.io/machineset';

/**
 * The versions each object went through before the move, oldest first: created, then the
 * controller's finalizer patch, then (controllers with PR #11284) its EnsurePausedCondition
 * patch (Paused=False). The DockerCluster is created with its ownerReference already set.
 * Inference: which write set the ownerReference is not read by anything in this model.
 */
function reconciledHistory(created: KubeObject, finalizer: string, code: ControllerCode): KubeObject[] {
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
function provisioned(o: KubeObject): KubeObject {
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
const DELETING_FALSE = k8s.Condition({ status: false, reason: 'Deleting' });
// api/v1beta1 condition_consts.go ControlPlaneInitializedCondition.
const CONTROL_PLANE_INITIALIZED = 'ControlPlaneInitialized';

const createdCluster = (c: string, t: Topology) =>
  k8s.object({
    kind: 'Cluster',
    name: c,
    spec: t.withoutInfrastructure ? { paused: false } : { paused: false, infrastructureRef: dockerClusterKey(c) },
  });
const createdDockerCluster = (c: string) => k8s.object({ kind: 'DockerCluster', name: c, ownerReferences: [clusterKey(c)] });
// spec.clusterName stands for Machine.spec.clusterName and, on the DockerMachine, for its
// cluster.x-k8s.io/cluster-name label (the DockerMachine controller's Cluster watch lists by it).
const createdMachine = (c: string, i: number) =>
  k8s.object({
    kind: 'Machine',
    name: machineName(c, i),
    ownerReferences: [clusterKey(c)],
    spec: { clusterName: c, infrastructureRef: dockerMachineKey(c, i) },
  });
const createdMachineDeployment = (c: string) =>
  k8s.object({
    kind: 'MachineDeployment',
    name: nameOf(machineDeploymentKey(c)),
    ownerReferences: [clusterKey(c)],
    spec: { clusterName: c },
  });
// Created by the MachineDeployment controller (machinedeployment_sync.go 219-289) with its
// controller ownerReference and no finalizers.
const createdMachineSet = (c: string) =>
  k8s.object({
    kind: 'MachineSet',
    name: nameOf(machineSetKey(c)),
    ownerReferences: [machineDeploymentKey(c)],
    spec: { clusterName: c },
  });
const createdDockerMachine = (c: string, i: number) =>
  k8s.object({ kind: 'DockerMachine', name: machineName(c, i), ownerReferences: [machineKey(c, i)], spec: { clusterName: c } });

// ---------------------------------------------------------------------------------------------
// The state: the Kubernetes world (source and target API servers, two controller managers),
// clusterctl's progress, and the real infrastructure behind the source DockerCluster.

type Phase = 'pause' | 'create' | 'waitPaused' | 'delete' | 'unpause' | 'done' | 'failed';
type DeleteStep = 'get' | 'annotate' | 'removeFinalizers' | 'delete';

interface MoverProps {
  phase: Phase;
  /** Index into the current phase's object list; in the delete phase, into the delete groups. */
  index: number;
  /**
   * In the delete phase: the object deleteSourceObject is at, or null before its first GET.
   * deleteGroup walks its group in Go map order (objectgraph.go getMoveNodes), which varies from
   * run to run, so the next object is any of the group's objects not yet done.
   */
  object: ObjectKey | null;
  /** The objects of the current delete group that deleteSourceObject has finished with. */
  done: Set<ObjectKey>;
  /** Whether an object of the current delete group exhausted its retries (deleteGroup goes on, then fails). */
  groupFailed: boolean;
  /** Where deleteSourceObject is for the current object. */
  step: DeleteStep;
  /**
   * len(sourceObj.GetFinalizers()) > 0, where sourceObj is the annotate-response copy:
   * deleteSourceObject decides on the finalizers of THAT copy, also after its DELETE.
   */
  copyHasFinalizers: boolean;
  /** The attempt of retryWithExponentialBackoff for the current object, from 1 to 10. */
  attempt: number;
}
type Mover = RecordOf<MoverProps>;
const Mover = Record<MoverProps>(
  { phase: 'pause', index: 0, object: null, done: Set(), groupFailed: false, step: 'get', copyHasFinalizers: false, attempt: 1 },
  'Mover',
);

interface MoveStateProps {
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
const MoveState = Record<MoveStateProps>(
  { kube: k8s.emptyWorld(), mover: Mover(), infrastructure: OrderedMap(), emptied: Set(), deleted: Set(), moverRerunsLeft: 0 },
  'MoveState',
);
type Infrastructure = 'running' | 'drained' | 'deleted';

const loadBalancerOf = (c: string) => `${c} load balancer`;
/** A Machine's container and its Node (CAPD names both after the Machine). */
const containerOf = (machine: string) => `${machine} container`;
const nodeOf = (machine: string) => `${machine} Node`;

function initialInfrastructure(t: Topology): OrderedMap<string, Infrastructure> {
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
function moveSequence(t: Topology): ObjectKey[][] {
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
const createOrder = (t: Topology) => moveSequence(t).flat();
const deleteGroups = (t: Topology) => moveSequence(t).reverse();

// ---------------------------------------------------------------------------------------------
// The controllers, as at v1.8.0 and at v1.9.3, with the two changes between them as switches.

// Each reconcile keeps as locals only what its later steps read (a copy's finalizer list, a
// decided flag), as the code's later statements read only those fields of its copies.

/** The DockerCluster controller reads of a Cluster only its pause and its infrastructureRef. */
function readByDockerClusterController(o: KubeObject): KubeObject {
  if (o.kind !== 'Cluster') return readByControllers(o);
  return k8s.KubeObject({ kind: o.kind, name: o.name, spec: o.spec });
}

function managersFor(t: Topology): k8s.ManagerConfig[] {
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

const CONTROLLERS_V180: ControllerCode = { name: 'v1.8.0', pr11286: false, pr11284: false };
const CONTROLLERS_PR11286: ControllerCode = { name: 'v1.8.0+#11286', pr11286: true, pr11284: false };
const CONTROLLERS_PR11284: ControllerCode = { name: 'v1.8.0+#11284', pr11286: false, pr11284: true };
const CONTROLLERS_V193: ControllerCode = { name: 'v1.9.3', pr11286: true, pr11284: true };

/**
 * Before PR #11284: WithEventFilter(ResourceNotPausedAndHasFilterLabel), which drops the events
 * of objects carrying the paused annotation (util/predicates/generic_predicates.go at v1.8.0).
 * Move pauses a Cluster through spec.paused, not the annotation, so its events still pass.
 */
const notPausedByAnnotation = (e: k8s.HandlerEvent) => !e.object.annotations.has(PAUSED_ANNOTATION);

// internal/controllers/cluster/cluster_controller.go Reconcile: v1.8.0 returned early when
// paused, then ran the deletion branch, then added its finalizer last; PR #11286 moved the
// finalizer to EnsureFinalizer at the top; PR #11284 made the early return EnsurePausedCondition.
function clusterController(code: ControllerCode, topology: Topology): k8s.ControllerConfig<MoveState> {
  return {
    name: 'clusterController',
    manager: 'capi',
    watches: [
      // SetupWithManager: For(&clusterv1.Cluster{}); no filter label is set.
      { kind: 'Cluster' },
      // r.externalTracker.Watch on the infrastructure object: EnqueueRequestForOwner (the
      // Cluster) with ResourceIsChanged; every write here changes resourceVersion. The tracker
      // starts it when reconcile first meets an infrastructureRef, so a Cluster without
      // infrastructure has no such watch.
      ...(topology.withoutInfrastructure
        ? []
        : [
            {
              kind: 'DockerCluster',
              predicate: k8s.resourceIsChanged,
              map: (o: KubeObject) => o.ownerReferences.filter((k) => k.startsWith('Cluster/')),
            },
          ]),
    ],
    ...(code.pr11284 ? {} : { eventFilter: notPausedByAnnotation }),
    docs: {
      reconcile: code.pr11286
        ? 'cluster_controller.go Reconcile: r.Client.Get of the Cluster from the cache (NotFound returns), then the decisions of EnsureFinalizer and the pause check on that copy.'
        : 'cluster_controller.go Reconcile: r.Client.Get of the Cluster from the cache (NotFound returns), then the pause check, the deletion branch and the missing finalizer, on that copy.',
      ...(code.pr11286
        ? {
            ensureFinalizer:
              'finalizers.EnsureFinalizer before the pause check (PR #11286): merge patch of the cached finalizers plus cluster.cluster.x-k8s.io.',
          }
        : {
            addFinalizer:
              'v1.8.0: controllerutil.AddFinalizer after the deletion branch, sent by the deferred patchCluster (a merge patch of the cached finalizers plus cluster.cluster.x-k8s.io).',
          }),
      ...(code.pr11284
        ? {
            ensurePausedCondition:
              'paused.EnsurePausedCondition (PR #11284): patch the Paused condition; Reconcile returns when paused or when it changed.',
          }
        : {}),
      reconcileInfrastructure: 'reconcileDelete: read the infrastructure object through the cache.',
      deleteInfrastructure: 'reconcileDelete: DELETE the infrastructure object and wait for it to be gone.',
      removeFinalizer: 'reconcileDelete: with the infrastructure gone, remove cluster.cluster.x-k8s.io.',
    },
    reconcile: (r) => {
      const cluster = r.cached(r.key);
      if (!cluster) return r.done();
      if (code.pr11286 && needsFinalizer(cluster, CLUSTER_FINALIZER)) {
        return r.goto('ensureFinalizer', { finalizers: cluster.finalizers });
      }
      const paused = isPaused(cluster, cluster);
      if (code.pr11284) {
        // EnsurePausedCondition on the Cluster itself: its own copy says whether it is paused.
        const { pause } = pauseLocals(cluster);
        const want = pausedCondition('Cluster', cluster.spec.get('paused') === true, pause.annotated, pause.generation);
        if (changesPausedCondition(pause, want)) return r.goto('ensurePausedCondition', { condition: want });
      }
      // v1.8.0: "Return early if the object or Cluster is paused" (annotations.IsPaused).
      if (paused) return r.done();
      // reconcileDelete starts with reconcileInfrastructure, which reads the infra object.
      // Inference: before it, reconcileDelete deletes the Cluster's descendants (Machines and
      // the like), left out here: this branch needs a cached copy that is deleting and not
      // paused, and move pauses a Cluster before it deletes it, so no such copy exists.
      if (k8s.isDeleting(cluster)) {
        return r.goto('reconcileInfrastructure', {
          infrastructureRef: cluster.spec.get('infrastructureRef') ?? null,
          finalizers: cluster.finalizers,
        });
      }
      // v1.8.0: "Add finalizer first if not set", after the deletion branch.
      if (!code.pr11286 && !k8s.hasFinalizer(cluster, CLUSTER_FINALIZER)) {
        return r.goto('addFinalizer', { finalizers: cluster.finalizers });
      }
      // reconcileNormal: the cluster is provisioned; nothing in it touches finalizers, deletion
      // or pause (Inference), so it is a step that changes nothing and is left out.
      return r.done();
    },
    steps: {
      ...(code.pr11286
        ? { ensureFinalizer: (r: StepContext<MoveState>) => ensureFinalizerStep(r, CLUSTER_FINALIZER) }
        : { addFinalizer: (r: StepContext<MoveState>) => ensureFinalizerStep(r, CLUSTER_FINALIZER) }),
      ...(code.pr11284 ? { ensurePausedCondition: (r: StepContext<MoveState>) => ensurePausedConditionStep(r) } : {}),
      reconcileInfrastructure: (r) => {
        const infrastructureRef = r.local<ObjectKey>('infrastructureRef');
        const finalizers = r.local<List<string>>('finalizers');
        const infra = r.cached(infrastructureRef);
        if (!infra) return r.goto('removeFinalizer', { finalizers });
        // Waits for the infrastructure object to be gone; its deletion event requeues the Cluster.
        return k8s.isDeleting(infra) ? r.done() : r.goto('deleteInfrastructure', { infrastructureRef });
      },
      deleteInfrastructure: (r) => {
        const res = r.delete(r.local<ObjectKey>('infrastructureRef'));
        return res.code === 200 || res.code === 404 ? r.done() : r.requeue();
      },
      removeFinalizer: (r) => removeFinalizerStep(r, CLUSTER_FINALIZER),
    },
  };
}

// test/infrastructure/docker/internal/controllers/dockercluster_controller.go. v1.8.0 had no
// pause check in Reconcile at all (it relied on its watches): it read the DockerCluster and its
// owner Cluster, ran the deletion branch, then added its finalizer last. PR #11286 moved the
// finalizer to the top; PR #11284 added EnsurePausedCondition after GetOwnerCluster.
function dockerClusterController(code: ControllerCode): k8s.ControllerConfig<MoveState> {
  return {
    name: 'dockerClusterController',
    manager: 'capd',
    watches: [
      // For(&infrav1.DockerCluster{}); WithEventFilter (see notPausedByAnnotation): all pass.
      { kind: 'DockerCluster' },
      // Watches(&clusterv1.Cluster{}, ClusterToInfrastructureMapFunc, ...). The map func reads
      // the DockerCluster from the cache and drops the event if it is absent.
      {
        kind: 'Cluster',
        // v1.9.3: ResourceIsChanged and ClusterPausedTransitions, only updates that flip
        // spec.paused. v1.8.0: ClusterUnpaused, the creation of an unpaused Cluster or an update
        // from paused to unpaused. Neither passes a deletion.
        predicate: code.pr11284
          ? (e) =>
              e.type === 'MODIFIED' && e.old !== undefined && (e.old.spec.get('paused') === true) !== (e.object.spec.get('paused') === true)
          : (e) =>
              (e.type === 'ADDED' && e.object.spec.get('paused') !== true) ||
              (e.type === 'MODIFIED' && e.old?.spec.get('paused') === true && e.object.spec.get('paused') !== true),
        map: (cluster, cache) => {
          const ref = cluster.spec.get('infrastructureRef') as ObjectKey | undefined;
          return ref !== undefined && cache.has(ref) ? [ref] : [];
        },
      },
    ],
    ...(code.pr11284 ? {} : { eventFilter: notPausedByAnnotation }),
    docs: {
      reconcile:
        'dockercluster_controller.go Reconcile: r.Client.Get of the DockerCluster from the cache (NotFound returns)' +
        (code.pr11286 ? ", then EnsureFinalizer's decision on that copy." : '.'),
      ...(code.pr11286
        ? {
            ensureFinalizer:
              'finalizers.EnsureFinalizer first (PR #11286): merge patch of the cached finalizers plus dockercluster.infrastructure.cluster.x-k8s.io.',
          }
        : {
            addFinalizer:
              'v1.8.0: controllerutil.AddFinalizer after the deletion branch, sent by the deferred patchDockerCluster (merge patch of the cached finalizers plus dockercluster.infrastructure.cluster.x-k8s.io).',
          }),
      getOwnerCluster:
        'util.GetOwnerCluster: read the owner Cluster from the cache (an error requeues)' +
        (code.pr11284 ? "; then paused.EnsurePausedCondition decides on the Cluster's cached spec.paused." : '; v1.8.0 checks no pause.'),
      ...(code.pr11284
        ? {
            ensurePausedCondition:
              'paused.EnsurePausedCondition (PR #11284): patch the Paused condition of the DockerCluster; Reconcile returns.',
          }
        : {}),
      reconcileDelete: 'reconcileDelete: patch LoadBalancerAvailable=False (Deleting) to show the delete started.',
      deleteLoadBalancer: 'reconcileDelete: externalLoadBalancer.Delete removes the load balancer container.',
      removeFinalizer: 'reconcileDelete: controllerutil.RemoveFinalizer, sent by the deferred patchDockerCluster.',
    },
    reconcile: (r) => {
      const dockerCluster = r.cached(r.key);
      if (!dockerCluster) return r.done();
      if (code.pr11286 && needsFinalizer(dockerCluster, DOCKER_CLUSTER_FINALIZER)) {
        return r.goto('ensureFinalizer', { finalizers: dockerCluster.finalizers });
      }
      const owner = dockerCluster.ownerReferences.find((k) => k.startsWith('Cluster/'));
      // No ownerReference yet: "Waiting for Cluster Controller to set OwnerRef", return.
      if (owner === undefined) return r.done();
      const deleting = k8s.isDeleting(dockerCluster);
      // v1.8.0 adds a missing finalizer after the deletion branch, from this copy.
      const addsFinalizer = !code.pr11286 && !deleting && !k8s.hasFinalizer(dockerCluster, DOCKER_CLUSTER_FINALIZER);
      return r.goto('getOwnerCluster', {
        owner,
        ...(code.pr11284 ? pauseLocals(dockerCluster) : {}),
        // Read later only by reconcileDelete, or by v1.8.0's finalizer patch.
        finalizers: deleting || addsFinalizer ? dockerCluster.finalizers : null,
        ...(code.pr11286 ? {} : { deleting }),
      });
    },
    steps: {
      ...(code.pr11286
        ? { ensureFinalizer: (r: StepContext<MoveState>) => ensureFinalizerStep(r, DOCKER_CLUSTER_FINALIZER) }
        : { addFinalizer: (r: StepContext<MoveState>) => ensureFinalizerStep(r, DOCKER_CLUSTER_FINALIZER) }),
      getOwnerCluster: (r) => {
        // The pause is read from the Cluster's own cache entry, a different object than the one
        // being reconciled: nothing orders the two entries in the cache.
        const cluster = r.cached(r.local<ObjectKey>('owner'));
        if (!cluster) return r.requeue();
        const afterPauseCheck = () => {
          const finalizers = r.local<List<string> | null>('finalizers');
          if (finalizers === null) return r.done(); // reconcileNormal: the load balancer exists already (Inference).
          const deleting = code.pr11286 || r.local<boolean>('deleting');
          if (deleting) return r.goto('reconcileDelete', { finalizers });
          return r.goto('addFinalizer', { finalizers });
        };
        // v1.8.0 checks no pause here.
        return code.pr11284 ? pauseCheck(r, cluster, afterPauseCheck) : afterPauseCheck();
      },
      ...(code.pr11284 ? { ensurePausedCondition: (r: StepContext<MoveState>) => ensurePausedConditionStep(r) } : {}),
      reconcileDelete: (r) => {
        // patchDockerCluster: patch.Helper, LoadBalancerAvailable owned (dockercluster_controller.go 130-149, 187-190).
        const finalizers = r.local('finalizers');
        return patchStatusConditions(r, { LoadBalancerAvailable: DELETING_FALSE }, () => r.goto('deleteLoadBalancer', { finalizers }));
      },
      deleteLoadBalancer: (r) => {
        r.effect((s) => s.setIn(['infrastructure', loadBalancerOf(nameOf(r.key))], 'deleted'));
        return r.goto('removeFinalizer', { finalizers: r.local('finalizers') });
      },
      removeFinalizer: (r) => removeFinalizerStep(r, DOCKER_CLUSTER_FINALIZER),
    },
  };
}

// The Machine and DockerMachine controllers, at v1.9.3 only (the objects matrix runs the v1.9.3
// controllers). Both follow the v1.9 order: EnsureFinalizer, then find the Cluster, then
// EnsurePausedCondition, then deletion.

/** A stand-alone Machine's cluster: spec.clusterName (util.GetClusterByName, GetClusterFromMetadata). */
const clusterOfMachine = (m: KubeObject) => clusterKey(m.spec.get('clusterName') as string);

// internal/controllers/machine/machine_controller.go at v1.9.3.
function machineController(): k8s.ControllerConfig<MoveState> {
  return {
    name: 'machineController',
    manager: 'capi',
    watches: [
      // For(&clusterv1.Machine{}), WithEventFilter(ResourceHasFilterLabel): all pass.
      { kind: 'Machine' },
      // reconcileInfrastructure's r.externalTracker.Watch: EnqueueRequestForOwner (the Machine),
      // with ResourceIsChanged (machine_controller_phases.go 93).
      { kind: 'DockerMachine', predicate: k8s.resourceIsChanged, map: (o) => o.ownerReferences.filter((k) => k.startsWith('Machine/')) },
      // Watches(&clusterv1.Cluster{}) passes ClusterControlPlaneInitialized: only the update that
      // marks the control plane initialized, which no step here makes; left out.
    ],
    docs: {
      reconcile:
        "machine_controller.go Reconcile: r.Client.Get of the Machine from the cache (NotFound returns), then EnsureFinalizer's decision on that copy.",
      ensureFinalizer: 'finalizers.EnsureFinalizer first: merge patch of the cached finalizers plus machine.cluster.x-k8s.io.',
      getCluster:
        "util.GetClusterByName from the cache (an error requeues), then paused.EnsurePausedCondition on the Cluster's cached spec.paused; a Machine being deleted goes on to reconcileDelete.",
      ensurePausedCondition: 'paused.EnsurePausedCondition: patch the Paused condition of the Machine; Reconcile returns.',
      drainNode:
        "reconcileDelete: isDeleteNodeAllowed (the cached Cluster is not being deleted), then drainNode evicts the Node's Pods in the workload cluster.",
      reconcileDeleteInfrastructure:
        'reconcileDeleteInfrastructure: read the infrastructure machine through the cache; gone means deleted, otherwise DELETE it (if not yet deleting) and wait.',
      deleteInfrastructure:
        'reconcileDeleteInfrastructure: r.Client.Delete of the DockerMachine; Reconcile returns and waits for it to be gone.',
      deleteNode: 'reconcileDelete: with the infrastructure gone, deleteNode removes the Node from the workload cluster.',
      removeFinalizer: 'reconcileDelete: controllerutil.RemoveFinalizer, sent by the deferred patchMachine.',
    },
    reconcile: (r) => {
      const machine = r.cached(r.key);
      if (!machine) return r.done();
      if (needsFinalizer(machine, MACHINE_FINALIZER)) return r.goto('ensureFinalizer', { finalizers: machine.finalizers });
      const deleting = k8s.isDeleting(machine);
      return r.goto('getCluster', {
        cluster: clusterOfMachine(machine),
        ...pauseLocals(machine),
        // Read later only by reconcileDelete (null: not being deleted).
        infrastructureRef: deleting ? (machine.spec.get('infrastructureRef') ?? null) : null,
        finalizers: deleting ? machine.finalizers : null,
      });
    },
    steps: {
      ensureFinalizer: (r) => ensureFinalizerStep(r, MACHINE_FINALIZER),
      getCluster: (r) => {
        const cluster = r.cached(r.local<ObjectKey>('cluster'));
        if (!cluster) return r.requeue();
        return pauseCheck(r, cluster, () => {
          // reconcileNormal: the Machine is provisioned; nothing in it touches finalizers,
          // deletion or pause (Inference), so it is a step that changes nothing and is left out.
          if (r.local<List<string> | null>('finalizers') === null) return r.done();
          const rest = { infrastructureRef: r.local('infrastructureRef'), finalizers: r.local('finalizers') };
          // isDeleteNodeAllowed: errClusterIsBeingDeleted skips the drain and the Node deletion.
          if (k8s.isDeleting(cluster)) return r.goto('reconcileDeleteInfrastructure', { ...rest, nodeAllowed: false });
          return r.goto('drainNode', rest);
        });
      },
      ensurePausedCondition: ensurePausedConditionStep,
      // Inference: the status patch before the drain (NodeDrainStartTime, DrainingSucceeded)
      // changes nothing any controller here reads or any property checks; left out.
      drainNode: (r) => {
        r.effect((s) => s.setIn(['infrastructure', nodeOf(nameOf(r.key))], 'drained'));
        return r.goto('reconcileDeleteInfrastructure', {
          infrastructureRef: r.local('infrastructureRef'),
          finalizers: r.local('finalizers'),
          nodeAllowed: true,
        });
      },
      reconcileDeleteInfrastructure: (r) => {
        const infra = r.cached(r.local<ObjectKey>('infrastructureRef'));
        const nodeAllowed = r.local<boolean>('nodeAllowed');
        if (!infra)
          return nodeAllowed
            ? r.goto('deleteNode', { finalizers: r.local('finalizers') })
            : r.goto('removeFinalizer', { finalizers: r.local('finalizers') });
        // Waits for the infrastructure machine to be gone; its deletion event requeues the Machine.
        return k8s.isDeleting(infra) ? r.done() : r.goto('deleteInfrastructure', { infrastructureRef: r.local('infrastructureRef') });
      },
      deleteInfrastructure: (r) => {
        const res = r.delete(r.local<ObjectKey>('infrastructureRef'));
        return res.code === 200 || res.code === 404 ? r.done() : r.requeue();
      },
      deleteNode: (r) => {
        r.effect((s) => s.setIn(['infrastructure', nodeOf(nameOf(r.key))], 'deleted'));
        return r.goto('removeFinalizer', { finalizers: r.local('finalizers') });
      },
      removeFinalizer: (r) => removeFinalizerStep(r, MACHINE_FINALIZER),
    },
  };
}

// test/infrastructure/docker/internal/controllers/dockermachine_controller.go at v1.9.3.
function dockerMachineController(t: Topology): k8s.ControllerConfig<MoveState> {
  /** The DockerMachines in `cache` that belong to Cluster `c` (a List by the cluster-name label). */
  const dockerMachinesOf = (c: string, cache: { has: (k: ObjectKey) => boolean }) =>
    machineIndices(t)
      .map((i) => dockerMachineKey(c, i))
      .filter((k) => cache.has(k));
  return {
    name: 'dockerMachineController',
    manager: 'capd',
    watches: [
      // For(&infrav1.DockerMachine{}), WithEventFilter(ResourceHasFilterLabel): all pass.
      { kind: 'DockerMachine' },
      // Watches(&clusterv1.Machine{}, MachineToInfrastructureMapFunc), ResourceIsChanged.
      { kind: 'Machine', predicate: k8s.resourceIsChanged, map: (o) => [o.spec.get('infrastructureRef') as ObjectKey] },
      // Watches(&infrav1.DockerCluster{}, DockerClusterToDockerMachines), ResourceIsChanged: the
      // DockerMachines listed (from the cache) by the DockerCluster's cluster name.
      { kind: 'DockerCluster', predicate: k8s.resourceIsChanged, map: (o, cache) => dockerMachinesOf(o.name, cache) },
      // Watches(&clusterv1.Cluster{}, clusterToDockerMachines) with
      // ClusterPausedTransitionsOrInfrastructureReady: updates that flip spec.paused (the
      // InfrastructureReady transition is not made by any step here).
      {
        kind: 'Cluster',
        predicate: (e) =>
          e.type === 'MODIFIED' && e.old !== undefined && (e.old.spec.get('paused') === true) !== (e.object.spec.get('paused') === true),
        map: (o, cache) => dockerMachinesOf(o.name, cache),
      },
    ],
    docs: {
      reconcile:
        "dockermachine_controller.go Reconcile: r.Client.Get of the DockerMachine from the cache (NotFound returns), then EnsureFinalizer's decision on that copy.",
      ensureFinalizer:
        'finalizers.EnsureFinalizer first: merge patch of the cached finalizers plus dockermachine.infrastructure.cluster.x-k8s.io.',
      getOwnerMachine: 'util.GetOwnerMachine: read the owner Machine from the cache (an error requeues).',
      getCluster:
        "util.GetClusterFromMetadata: read the Machine's Cluster from the cache (an error requeues), then paused.EnsurePausedCondition on its spec.paused.",
      ensurePausedCondition: 'paused.EnsurePausedCondition: patch the Paused condition of the DockerMachine; Reconcile returns.',
      reconcileDelete:
        'Get the DockerCluster from the cache (absent: return), then reconcileDelete patches ContainerProvisioned=False (Deleting).',
      deleteContainer: "reconcileDelete: externalMachine.Delete removes the machine's container.",
      removeFinalizer: 'reconcileDelete: controllerutil.RemoveFinalizer, sent by the deferred patchDockerMachine.',
    },
    reconcile: (r) => {
      const dockerMachine = r.cached(r.key);
      if (!dockerMachine) return r.done();
      if (needsFinalizer(dockerMachine, DOCKER_MACHINE_FINALIZER))
        return r.goto('ensureFinalizer', { finalizers: dockerMachine.finalizers });
      const owner = dockerMachine.ownerReferences.find((k) => k.startsWith('Machine/'));
      // No owner Machine yet: "Waiting for Machine Controller to set OwnerRef", return.
      if (owner === undefined) return r.done();
      return r.goto('getOwnerMachine', {
        owner,
        ...pauseLocals(dockerMachine),
        // Read later only by reconcileDelete (null: not being deleted).
        finalizers: k8s.isDeleting(dockerMachine) ? dockerMachine.finalizers : null,
      });
    },
    steps: {
      ensureFinalizer: (r) => ensureFinalizerStep(r, DOCKER_MACHINE_FINALIZER),
      getOwnerMachine: (r) => {
        const machine = r.cached(r.local<ObjectKey>('owner'));
        if (!machine) return r.requeue();
        return r.goto('getCluster', {
          cluster: clusterOfMachine(machine),
          pause: r.local('pause'),
          finalizers: r.local('finalizers'),
        });
      },
      getCluster: (r) => {
        // The pause is read from the Cluster's own cache entry, as for the DockerCluster.
        const cluster = r.cached(r.local<ObjectKey>('cluster'));
        if (!cluster) return r.requeue();
        return pauseCheck(r, cluster, () => {
          // reconcileNormal: the container exists already (Inference), nothing changes.
          if (r.local<List<string> | null>('finalizers') === null) return r.done();
          // "Cluster infrastructureRef is not available yet": return.
          const dockerCluster = cluster.spec.get('infrastructureRef') as ObjectKey | undefined;
          return dockerCluster === undefined ? r.done() : r.goto('reconcileDelete', { dockerCluster, finalizers: r.local('finalizers') });
        });
      },
      ensurePausedCondition: ensurePausedConditionStep,
      reconcileDelete: (r) => {
        // "DockerCluster is not available yet": return without error. Inference: one step for
        // this cache read and the condition patch that follows it.
        if (!r.cached(r.local<ObjectKey>('dockerCluster'))) return r.done();
        // patchDockerMachine: patch.Helper, ContainerProvisioned owned (dockermachine_controller.go 456-463).
        const finalizers = r.local('finalizers');
        return patchStatusConditions(r, { ContainerProvisioned: DELETING_FALSE }, () => r.goto('deleteContainer', { finalizers }));
      },
      deleteContainer: (r) => {
        // The container is named after the owner Machine, which has the DockerMachine's name here.
        r.effect((s) => s.setIn(['infrastructure', containerOf(nameOf(r.key))], 'deleted'));
        return r.goto('removeFinalizer', { finalizers: r.local('finalizers') });
      },
      removeFinalizer: (r) => removeFinalizerStep(r, DOCKER_MACHINE_FINALIZER),
    },
  };
}

// The MachineDeployment and MachineSet controllers at v1.9.3 share one shape (the MachineSet's is
// the one a move here runs; see CLUSTER_IN_ROLLOUT): EnsureFinalizer,
// then the Cluster by name from the cache, then EnsurePausedCondition, then (when deleting) delete
// the children they own and remove their finalizer once none is left.
// internal/controllers/machinedeployment/machinedeployment_controller.go Reconcile 121-190
// (EnsureFinalizer 140, GetClusterByName 144, EnsurePausedCondition 149), reconcileDelete 325-349;
// internal/controllers/machineset/machineset_controller.go Reconcile 161-270 (EnsureFinalizer
// 177, GetClusterByName 188, EnsurePausedCondition 193), reconcileDelete 412-439.
interface OwnerControllerCode {
  readonly name: string;
  readonly kind: string;
  readonly finalizer: string;
  /** The kind of the children it deletes first: MachineSets, or Machines. */
  readonly childKind: string;
  /** The real controller's file, for the step docs. */
  readonly file: string;
  /** Its watches besides For(kind); the Cluster watch is added here. */
  readonly watches: readonly k8s.WatchConfig[];
}

function ownerController(code: OwnerControllerCode): k8s.ControllerConfig<MoveState> {
  return {
    name: code.name,
    manager: 'capi',
    watches: [
      // For(...), WithEventFilter(ResourceHasFilterLabel): all pass.
      { kind: code.kind },
      ...code.watches,
      // Watches(&clusterv1.Cluster{}, ClusterToTypedObjectsMapper) with ResourceIsChanged and
      // ClusterPausedTransitions: updates that flip spec.paused; the objects listed (from the
      // cache) by their cluster name.
      {
        kind: 'Cluster',
        predicate: (e) =>
          k8s.resourceIsChanged(e) &&
          e.type === 'MODIFIED' &&
          e.old !== undefined &&
          (e.old.spec.get('paused') === true) !== (e.object.spec.get('paused') === true),
        map: (cluster, cache) =>
          [...cache.values()].filter((o) => o.kind === code.kind && o.spec.get('clusterName') === cluster.name).map(k8s.keyOf),
      },
    ],
    docs: {
      reconcile: `${code.file} Reconcile: r.Client.Get of the ${code.kind} from the cache (NotFound returns), then EnsureFinalizer's decision on that copy.`,
      ensureFinalizer: `finalizers.EnsureFinalizer first: merge patch of the cached finalizers plus ${code.finalizer}.`,
      getCluster:
        "util.GetClusterByName from the cache (an error requeues), then paused.EnsurePausedCondition on the Cluster's cached spec.paused.",
      ensurePausedCondition: `paused.EnsurePausedCondition: patch the Paused condition of the ${code.kind}; Reconcile returns.`,
      reconcileDelete: `reconcileDelete: list the ${code.childKind}s it owns from the cache; DELETE each not yet deleting and wait, or with none left remove ${code.finalizer} (sent by the deferred patch).`,
    },
    reconcile: (r) => {
      const self = r.cached(r.key);
      if (!self) return r.done();
      if (needsFinalizer(self, code.finalizer)) return r.goto('ensureFinalizer', { finalizers: self.finalizers });
      return r.goto('getCluster', {
        cluster: clusterKey(self.spec.get('clusterName') as string),
        ...pauseLocals(self),
        // Read later only by reconcileDelete (null: not being deleted).
        finalizers: k8s.isDeleting(self) ? self.finalizers : null,
      });
    },
    steps: {
      ensureFinalizer: (r) => ensureFinalizerStep(r, code.finalizer),
      getCluster: (r) => {
        const cluster = r.cached(r.local<ObjectKey>('cluster'));
        if (!cluster) return r.requeue();
        return pauseCheck(r, cluster, () => {
          // reconcileNormal: scaling and rollout, which touch no finalizer, deletion or pause of
          // a moved object (Inference; the Machines a MachineSet would create are not in move's
          // graph and are left out); a step that changes nothing here.
          if (r.local<List<string> | null>('finalizers') === null) return r.done();
          return r.goto('reconcileDelete', { finalizers: r.local('finalizers') });
        });
      },
      ensurePausedCondition: ensurePausedConditionStep,
      reconcileDelete: (r) => {
        // Inference: one step for the cache list and the one request that follows it.
        const owned = r.list(code.childKind).filter((o) => o.ownerReferences.includes(r.key));
        if (owned.length === 0) return removeFinalizerStep(r, code.finalizer);
        const next = owned.find((o) => !k8s.isDeleting(o));
        if (next === undefined) return r.done(); // waits for them to be gone
        const res = r.delete(k8s.keyOf(next));
        return res.code === 200 || res.code === 404 ? r.done() : r.requeue();
      },
    },
  };
}

const machineSetController = () =>
  ownerController({
    name: 'machineSetController',
    kind: 'MachineSet',
    finalizer: MACHINE_SET_FINALIZER,
    childKind: 'Machine',
    file: 'machineset_controller.go',
    // Watches(&clusterv1.MachineDeployment{}, MachineDeploymentToObjectsMapper) with
    // ResourceIsChanged: the MachineSets labelled with the MachineDeployment's name, listed from the
    // cache. (Its Machine watches see no Machine here.)
    watches: [
      {
        kind: 'MachineDeployment',
        predicate: k8s.resourceIsChanged,
        map: (md, cache) =>
          [...cache.values()].filter((o) => o.kind === 'MachineSet' && o.ownerReferences.includes(k8s.keyOf(md))).map(k8s.keyOf),
      },
    ],
  });

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
function kubernetesFor(code: ControllerCode, topology: Topology, faults: k8s.KubeFaults = {}): k8s.Kubernetes<MoveState> {
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

// ---------------------------------------------------------------------------------------------
// clusterctl move (cmd/clusterctl/client/cluster/mover.go). Its client talks to the API servers
// directly: no cache, every read is fresh.

type Ordering = 'v1.9.3' | 'v1.9.5';

/** A mover step on the object it is at, enabled when `when` holds. */
function moverStep(
  name: string,
  doc: string,
  when: (m: Mover) => boolean,
  key: (m: Mover) => ObjectKey,
  next: (s: MoveState, key: ObjectKey, events?: StepEvent[]) => MoveState | undefined,
): Action<MoveState, ObjectKey> {
  return action<MoveState, ObjectKey>(`mover.${name}`, {
    doc,
    params: (s) => (when(s.mover) ? [key(s.mover)] : []),
    next,
  });
}

/**
 * deleteSourceObject is done with the mover's object (`failed`: its retries are exhausted).
 * deleteGroup goes on with the rest of the group and then returns the errors it gathered, which
 * ends move (mover.go deleteGroup 1164-1182, move 376-379); otherwise the next group, children
 * first, or the unpause.
 */
function objectFinished(s: MoveState, groups: readonly (readonly ObjectKey[])[], failed: boolean): MoveState {
  const m = s.mover;
  const done = m.done.add(m.object!);
  const groupFailed = m.groupFailed || failed;
  if (done.size < groups[m.index].length) return s.set('mover', Mover({ phase: 'delete', index: m.index, done, groupFailed }));
  if (groupFailed) return s.set('mover', m.merge({ phase: 'failed', done, groupFailed }));
  const index = m.index + 1;
  return s.set('mover', index < groups.length ? Mover({ phase: 'delete', index }) : Mover({ phase: 'unpause' }));
}

/** The mover's next position in a phase that walks `count` objects, or the first of `then`. */
function nextIn(s: MoveState, count: number, then: Phase): MoveState {
  const index = s.mover.index + 1;
  return s.set('mover', index < count ? Mover({ phase: s.mover.phase, index }) : Mover({ phase: then }));
}

/**
 * retryWithExponentialBackoff: an error retries the whole of deleteSourceObject from the GET;
 * after the tenth attempt the object is given up (newWriteBackoff, Steps 10).
 */
function attemptFailed(s: MoveState, groups: readonly (readonly ObjectKey[])[]): MoveState {
  const { attempt } = s.mover;
  if (attempt >= MAX_ATTEMPTS) return objectFinished(s, groups, true);
  return s.set('mover', s.mover.merge({ step: 'get', copyHasFinalizers: false, attempt: attempt + 1 }));
}

/**
 * The timing assumption: every manager's cache shows every Cluster paused (or, in a re-run of
 * move after the first run removed it, shows it gone).
 */
function everyCacheShowsPause(s: MoveState, clusters: readonly ObjectKey[], managers: readonly k8s.ManagerConfig[]): boolean {
  return clusters.every((cluster) => {
    const gone = !s.kube.servers.get('source')?.objects.has(cluster);
    return managers.every((m) => {
      const cached = s.kube.caches.get(m.name)?.get(cluster);
      return cached === undefined ? gone : cached.spec.get('paused') === true;
    });
  });
}

/** How the mover runs: its deleteSourceObject ordering, and the design alternative (a). */
interface MoverCode {
  readonly ordering: Ordering;
  /**
   * Design alternative (a) from the upstream thread (not in any release): before its delete
   * phase the mover waits until every object it will delete carries the v1beta2 Paused=True
   * condition, which only that object's own controller sets, so each controller has observed
   * the pause.
   */
  readonly waitForPausedCondition: boolean;
  /**
   * A design alternative of ours (not in any release, not discussed upstream): createTargetObject
   * also clears deletionTimestamp (and deletionGracePeriodSeconds) from the source copy, so that a
   * re-run can update a target object whose source object the first run already DELETEd.
   */
  readonly copyDropsDeletionTimestamp?: boolean;
}

function moverActions(
  kube: k8s.Kubernetes<MoveState>,
  topology: Topology,
  mover: MoverCode,
  timingAssumption: boolean,
): Action<MoveState, ObjectKey>[] {
  const { ordering } = mover;
  const CLUSTERS = topology.clusters.map(clusterKey);
  const CREATE_ORDER = createOrder(topology);
  const DELETE_GROUPS = deleteGroups(topology);
  const TO_DELETE = DELETE_GROUPS.flat();
  const managers = kube.config.managers;
  const deleted = (s: MoveState) => objectFinished(s, DELETE_GROUPS, false);
  const failed = (s: MoveState) => attemptFailed(s, DELETE_GROUPS);
  // `events` is where a step tells the trace what it sent and what the server answered.
  const request = (s: MoveState, server: string, call: (srv: k8s.ApiServer) => k8s.ApiResult, events?: StepEvent[]) =>
    kube.request(s, server, call, events);
  const deleting = (step: DeleteStep) => (m: Mover) => m.phase === 'delete' && m.step === step;
  /**
   * mover.go checkProvisioningCompleted (225-279), run by getObjectGraph after discovery: fresh
   * GETs of every Cluster and Machine in the graph (one that is gone was not discovered). Each
   * Cluster must be status.infrastructureReady with a true ControlPlaneInitialized condition
   * (and controlPlaneReady with a controlPlaneRef, which no Cluster here has); each Machine must
   * have status.nodeRef. No other kind is looked at.
   */
  const preflightPasses = (s: MoveState, events?: StepEvent[]) => {
    const machines = topology.clusters.flatMap((c) => machineIndices(topology).map((i) => machineKey(c, i)));
    const clustersReady = CLUSTERS.every((key) => {
      const res = kube.get(s, 'source', key, events);
      return (
        res.code !== 200 ||
        (res.object.status.get('infrastructureReady') === true && k8s.conditionStatus(res.object, CONTROL_PLANE_INITIALIZED) === true)
      );
    });
    const machinesReady = machines.every((key) => {
      const res = kube.get(s, 'source', key, events);
      return res.code !== 200 || (res.object.status.get('nodeRef') ?? null) !== null;
    });
    return clustersReady && machinesReady;
  };
  const current = (m: Mover) => m.object!;
  // After the annotate patch (v1.9.3) or the DELETE (v1.9.5): remove finalizers only if the
  // annotate-response copy had any, exactly as the code reads.

  return [
    moverStep(
      'pauseCluster',
      'First the preflight (checkProvisioningCompleted: every Cluster infrastructure-ready with its control plane initialized, every Machine with a nodeRef; move fails otherwise); then setClusterPause(fromProxy, clusters, true): per Cluster, merge patch {"spec":{"paused":true}}, no resourceVersion.',
      (m) => m.phase === 'pause',
      (m) => CLUSTERS[m.index],
      (s, key, events) => {
        // The preflight, before the first write of a run: a failure ends move before it has
        // changed anything. Inference: one step for the preflight's reads and the first pause,
        // since no step here changes what the preflight reads.
        if (s.mover.index === 0 && !preflightPasses(s, events)) return s.set('mover', s.mover.set('phase', 'failed'));
        const { state, response } = request(s, 'source', (srv) => k8s.mergePatch(srv, key, { spec: { paused: true } }), events);
        // A re-run of move after a crash: objectGraph.Discovery lists the source, so a Cluster
        // already gone is not in the graph and is not paused.
        // A failed write is retried (newWriteBackoff); the state is unchanged, so a retry is
        // the same step again.
        return response.code === 200 || response.code === 404 ? nextIn(state, CLUSTERS.length, 'create') : undefined;
      },
    ),
    moverStep(
      'createTargetObject',
      'createGroup, owner first: GET the source object, CREATE it in the target (already paused).',
      (m) => m.phase === 'create',
      (m) => CREATE_ORDER[m.index],
      (s, key, events) => {
        const source = kube.get(s, 'source', key, events);
        // Only a re-run after a crash finds a source object gone: Discovery would not have
        // listed it, so there is nothing to create for it.
        let state = s;
        if (source.code === 200) {
          // Inference: the target copy's content is read by no property; one step for the
          // fresh GET (a read, which changes nothing) and the CREATE keeps the search smaller.
          // The copy is the source object as read, less resourceVersion, ownerReferences and
          // generateName (mover.go createTargetObject 958-971): a source object already being
          // deleted (a re-run after a crash) is sent with its deletionTimestamp, which the CREATE
          // drops (WipeObjectMetaSystemFields) and an UPDATE of an object not being deleted
          // refuses (422: the field is immutable). docs/capi-semantics.md, "clusterctl move".
          const copy = mover.copyDropsDeletionTimestamp ? source.object.set('deletionTimestamp', null) : source.object;
          const created = request(s, 'target', (srv) => k8s.create(srv, copy), events);
          state = created.state;
          if (created.response.code === 409) {
            // AlreadyExists (a re-run): "try to update it", with the target's resourceVersion
            // (mover.go 1000-1014).
            const existing = kube.get(state, 'target', key, events);
            if (existing.code === 200) {
              const updated = request(
                state,
                'target',
                (srv) => k8s.update(srv, copy.set('resourceVersion', existing.object.resourceVersion)),
                events,
              );
              // An error fails this object's createTargetObject; retryWithExponentialBackoff
              // tries it again, and then move fails. Inference: every retry reads the same
              // deleting source object and sends the same copy (nothing else writes the target,
              // and deletionTimestamp never leaves the source), so every retry gets the same 422:
              // move fails here.
              if (updated.response.code !== 200) return updated.state.set('mover', s.mover.merge({ phase: 'failed' }));
              state = updated.state;
            }
          }
        }
        const index = s.mover.index + 1;
        if (index < CREATE_ORDER.length) return state.set('mover', Mover({ phase: 'create', index }));
        return state.set('mover', Mover({ phase: mover.waitForPausedCondition ? 'waitPaused' : 'delete' }));
      },
    ),
    ...(mover.waitForPausedCondition
      ? [
          moverStep(
            'waitForPausedCondition',
            'Design alternative (a): poll every object to be deleted (fresh GETs) until each carries Paused=True; the delete phase starts only then.',
            (m) => m.phase === 'waitPaused',
            () => CLUSTERS[0],
            (s, _key, events) => {
              // Inference: once an object's controller has set Paused=True it never sets it back
              // while the source Cluster stays paused (its cache only moves forward and the
              // Cluster is never unpaused), so the reads one after the other see what a single
              // read at the last one would: one step for the whole poll. Until every object
              // shows it, the poll retries (a step that changes nothing, so it is left out).
              const all = TO_DELETE.every((key) => {
                const res = kube.get(s, 'source', key, events);
                return res.code === 200 && k8s.conditionStatus(res.object, PAUSED_CONDITION) === true;
              });
              return all ? s.set('mover', Mover({ phase: 'delete' })) : undefined;
            },
          ),
        ]
      : []),
    action<MoveState, ObjectKey>('mover.getSourceObject', {
      doc: "deleteSourceObject: GET the source object; NotFound counts as deleted. The first GET picks the group's next object, in any order (Go map order).",
      // A retry GETs the same object again; otherwise any object of the group not yet done.
      params: (s) => {
        const m = s.mover;
        if (!deleting('get')(m)) return [];
        return m.object !== null ? [m.object] : DELETE_GROUPS[m.index].filter((k) => !m.done.has(k));
      },
      next: (s, key, events) => {
        // The timing assumption, when on: the delete phase starts only once every cache shows
        // the pause (the create phase takes far longer than an informer's lag, in practice).
        const m = s.mover.set('object', key);
        const first = m.index === 0 && m.done.isEmpty() && m.attempt === 1;
        if (timingAssumption && first && !everyCacheShowsPause(s, CLUSTERS, managers)) return undefined;
        const res = kube.get(s, 'source', key, events);
        const at = s.set('mover', m);
        if (res.code === 404) return deleted(at);
        return at.set('mover', m.set('step', 'annotate'));
      },
    }),
    moverStep(
      'addDeleteForMoveAnnotation',
      'deleteSourceObject: JSON patch add /metadata/annotations {delete-for-move}; the response is kept as the local copy.',
      deleting('annotate'),
      current,
      (s, key, events) => {
        const { state, response } = request(
          s,
          'source',
          (srv) => k8s.jsonPatchAddAnnotations(srv, key, { [DELETE_FOR_MOVE_ANNOTATION]: '' }),
          events,
        );
        if (response.code !== 200) return failed(state);
        const copyHasFinalizers = !response.object.finalizers.isEmpty();
        if (ordering === 'v1.9.3') {
          const step: DeleteStep = copyHasFinalizers ? 'removeFinalizers' : 'delete';
          return state.set('mover', state.mover.merge({ step, copyHasFinalizers }));
        }
        return state.set('mover', state.mover.merge({ step: 'delete', copyHasFinalizers }));
      },
    ),
    moverStep(
      'removeFinalizers',
      'deleteSourceObject: merge patch {"metadata":{"finalizers":[]}}, no resourceVersion: empties the whole list of the latest version.',
      deleting('removeFinalizers'),
      current,
      (s, key, events) => {
        const { state, response } = request(s, 'source', (srv) => k8s.mergePatch(srv, key, { finalizers: [] }), events);
        if (response.code !== 200) return failed(state);
        const emptied = state.update('emptied', (e) => e.add(key));
        // v1.9.3: DELETE comes next. v1.9.5: this was the last write.
        return ordering === 'v1.9.3' ? emptied.set('mover', emptied.mover.set('step', 'delete')) : deleted(emptied);
      },
    ),
    moverStep(
      'delete',
      'deleteSourceObject: DELETE with no preconditions; move does not check that the object is gone.',
      deleting('delete'),
      current,
      (s, key, events) => {
        const sent = request(s, 'source', (srv) => k8s.delete(srv, key), events);
        if (sent.response.code !== 200) return failed(sent.state);
        const state = sent.state.update('deleted', (d) => d.add(key));
        if (ordering === 'v1.9.5' && state.mover.copyHasFinalizers) {
          return state.set('mover', state.mover.set('step', 'removeFinalizers'));
        }
        return deleted(state);
      },
    ),
    moverStep(
      'unpauseTargetCluster',
      'setClusterPause(toProxy, clusters, false): per Cluster, merge patch {"spec":{"paused":null}} in the target. The source Clusters are never unpaused.',
      (m) => m.phase === 'unpause',
      (m) => CLUSTERS[m.index],
      (s, key, events) => {
        const { state, response } = request(s, 'target', (srv) => k8s.mergePatch(srv, key, { spec: { paused: null } }), events);
        return response.code === 200 ? nextIn(state, CLUSTERS.length, 'done') : undefined;
      },
    ),
  ];
}

/** The mover as traces show it: deleteSourceObject's fields only in the delete phase, where they mean something. */
function moverView(m: Mover): OrderedMap<string, unknown> {
  const fields: [string, unknown][] = [
    ['phase', m.phase],
    ['index', m.index],
  ];
  // The group's bookkeeping only where it says something.
  if (m.object !== null) fields.push(['object', m.object]);
  if (!m.done.isEmpty()) fields.push(['done', m.done]);
  if (m.groupFailed) fields.push(['groupFailed', m.groupFailed]);
  if (m.phase === 'delete' || m.object !== null) {
    fields.push(['step', m.step], ['copyHasFinalizers', m.copyHasFinalizers], ['attempt', m.attempt]);
  }
  return OrderedMap(fields);
}

/**
 * Fault: clusterctl crashes at any point between its requests (or fails) and the user runs
 * move again, which starts over: pause, create (updating what already exists), delete.
 */
const moverCrashAndRerun = action<MoveState>('mover.crashAndRerun', {
  doc: 'Fault: clusterctl dies between two requests (or has failed) and move is run again from the start.',
  next: (s) =>
    s.moverRerunsLeft > 0 && s.mover.phase !== 'done' ? s.merge({ mover: Mover(), moverRerunsLeft: s.moverRerunsLeft - 1 }) : undefined,
});

// ---------------------------------------------------------------------------------------------
// What must hold.

/** Stands for an object that is gone: not being deleted. */
const NOT_THERE = k8s.KubeObject();

/** The properties, read through `kube` (the same reads whichever controllers run). */
function moveProperties(kube: k8s.Kubernetes<MoveState>, topology: Topology) {
  const MOVED = createOrder(topology);
  const noFinalizerResurrection = invariant<MoveState>(
    'NoFinalizerResurrection',
    "Once the mover has emptied an object's finalizers, no finalizer reappears on that object while it exists.",
    (s) => s.emptied.every((key) => kube.stored(s, 'source', key)?.finalizers.isEmpty() ?? true),
    { premise: (s) => !s.emptied.isEmpty() },
  );

  const settledMoveLeavesNoSourceObjects = settledInvariant<MoveState>(
    'SettledMoveLeavesNoSourceObjects',
    'When the system has settled after the mover finished, no moved object remains in the source cluster.',
    (s) => MOVED.every((key) => kube.stored(s, 'source', key) === undefined),
    { premise: (s) => s.mover.phase === 'done' },
  );

  // What a move that ends in failure leaves: the user runs move again, which can pick up an
  // object not being deleted (it creates or updates the target copy, then deletes the source
  // one), but not one left deleting with finalizers that nobody will remove (its controller sees
  // the Cluster paused, and the re-run's UPDATE of the target copy is refused).
  const failedMoveLeavesNoObjectBeingDeleted = settledInvariant<MoveState>(
    'FailedMoveLeavesNoObjectBeingDeleted',
    'When the system has settled after move failed, no moved object is left in the source cluster being deleted, so that move can be run again.',
    (s) => MOVED.every((key) => !k8s.isDeleting(kube.stored(s, 'source', key) ?? NOT_THERE)),
    { premise: (s) => s.mover.phase === 'failed' },
  );

  const sourceInfraNeverDestroyed = invariant<MoveState>(
    'SourceInfraNeverDestroyed',
    'No source-side controller ever destroys (or drains) the real infrastructure, which the target cluster now manages.',
    (s) => s.infrastructure.every((v) => v === 'running'),
  );

  const inSource = (s: MoveState, key: ObjectKey) => kube.stored(s, 'source', key) !== undefined;

  // The bug's real symptom: an object the mover deleted that is never removed. Both sides of the
  // leadsTo are over all deleted objects; since a deletion is never undone and a removed source
  // object never comes back, this is the same as "each deleted object is eventually gone".
  const everyMovedObjectIsEventuallyRemoved = liveness<MoveState>(
    'EveryMovedObjectIsEventuallyRemoved',
    'Whenever the mover has deleted a source object that is still there, every object the mover deleted is eventually gone from the source cluster.',
    leadsTo(
      (s) => s.deleted.some((key) => inSource(s, key)),
      (s) => s.deleted.every((key) => !inSource(s, key)),
    ),
  );

  // clusterctl move returns once its last write is answered: deleteSourceObject does not wait for
  // the object to be gone (mover.go), so this holds even where objects are left behind, which is
  // how move "reports success anyway" (docs/capi-semantics.md).
  const moveEventuallyFinishes = liveness<MoveState>(
    'MoveEventuallyFinishes',
    'clusterctl move eventually returns, reporting success or an error.',
    eventually((s) => s.mover.phase === 'done' || s.mover.phase === 'failed'),
  );

  return {
    safety: [
      noFinalizerResurrection,
      settledMoveLeavesNoSourceObjects,
      failedMoveLeavesNoObjectBeingDeleted,
      sourceInfraNeverDestroyed,
      ...kube.properties,
    ],
    liveness: [everyMovedObjectIsEventuallyRemoved, moveEventuallyFinishes],
  };
}

// ---------------------------------------------------------------------------------------------
// Variants.

interface MoveFaults extends k8s.KubeFaults {
  /** How many times clusterctl may crash (or fail) and move be run again. */
  readonly moverReruns?: number;
}

interface VariantOptions {
  readonly controllers: ControllerCode;
  readonly ordering: Ordering;
  readonly waitForPausedCondition?: boolean;
  /** The design alternative of MoverCode.copyDropsDeletionTimestamp. */
  readonly copyDropsDeletionTimestamp?: boolean;
  readonly cacheLag: 'any' | 'none';
  readonly timingAssumption: boolean;
  readonly expectedViolations: readonly string[];
  /** Checked only in the matrix (--matrix) or when named, not in the default run. */
  readonly matrixOnly?: boolean;
  /** Faults the search may inject (Kubernetes ones, and clusterctl crashing and being re-run). */
  readonly faults?: MoveFaults;
  /** The objects moved: one Cluster and its DockerCluster unless said. */
  readonly topology?: Topology;
}

const TIMING_ASSUMPTION =
  "Every controller manager's cache shows the source Cluster paused before the mover's delete phase begins " +
  '(move does not wait for it; in practice creating the target objects takes far longer than an informer lags).';

function initialStates(
  kube: k8s.Kubernetes<MoveState>,
  topology: Topology,
  code: ControllerCode,
  cacheLag: 'any' | 'none',
  moverReruns: number,
): () => MoveState[] {
  // Every object reconciled and provisioned, as move's preflight requires, but for a rollout's
  // new MachineSet: created, not yet reconciled (no finalizer, its key queued).
  const histories = topology.clusters.flatMap((c) => [
    { versions: reconciledHistory(createdCluster(c, topology), CLUSTER_FINALIZER, code), reconciled: true },
    ...(topology.withoutInfrastructure
      ? []
      : [{ versions: reconciledHistory(createdDockerCluster(c), DOCKER_CLUSTER_FINALIZER, code), reconciled: true }]),
    ...machineIndices(topology).flatMap((i) => [
      { versions: reconciledHistory(createdMachine(c, i), MACHINE_FINALIZER, code), reconciled: true },
      { versions: reconciledHistory(createdDockerMachine(c, i), DOCKER_MACHINE_FINALIZER, code), reconciled: true },
    ]),
    ...(topology.rollout
      ? [
          { versions: reconciledHistory(createdMachineDeployment(c), MACHINE_DEPLOYMENT_FINALIZER, code), reconciled: true },
          { versions: [createdMachineSet(c)], reconciled: false },
        ]
      : []),
  ]);
  const worlds = kube.initialWorlds({ source: histories }, { cacheLag });
  const infrastructure = initialInfrastructure(topology);
  const states = worlds.map((w) => MoveState({ kube: w, infrastructure, moverRerunsLeft: moverReruns }));
  return () => states;
}

/** The injected faults in plain words, for the variant's assumptions. */
function faultAssumptions(f: MoveFaults): string[] {
  const out: string[] = [];
  if (f.restarts)
    out.push(`Fault: up to ${f.restarts} controller-manager crash and restart (in-memory work lost, cache relisted), at any point.`);
  if (f.moverReruns) out.push(`Fault: clusterctl may crash (or fail) and move be run again, up to ${f.moverReruns} time.`);
  if (f.cacheLagBound !== undefined)
    out.push(`Caches lag at most ${f.cacheLagBound} watch event${f.cacheLagBound === 1 ? '' : 's'} per object behind the API server.`);
  if (f.coalesce)
    out.push('Fault: an informer may take all pending events of an object at once, its handlers seeing only the first and last versions.');
  if (f.resync)
    out.push(
      "Periodic resync (--sync-period): at any time an informer may hand a cached object to its handlers again, unchanged; only watches without ResourceIsChanged (each controller's own kind) queue it.",
    );
  return out;
}

function moveVariant(name: string, description: string, o: VariantOptions): Variant<MoveState> {
  const { moverReruns = 0, ...kubeFaults } = o.faults ?? {};
  const topology = o.topology ?? ONE_CLUSTER;
  const kube = kubernetesFor(o.controllers, topology, kubeFaults);
  const movers = moverActions(
    kube,
    topology,
    {
      ordering: o.ordering,
      waitForPausedCondition: o.waitForPausedCondition ?? false,
      copyDropsDeletionTimestamp: o.copyDropsDeletionTimestamp ?? false,
    },
    o.timingAssumption,
  );
  const properties = moveProperties(kube, topology);
  return {
    name,
    description,
    assumptions: [
      ...(o.timingAssumption ? [TIMING_ASSUMPTION] : []),
      ...faultAssumptions(o.faults ?? {}),
      `Initial states: provisioning has completed, as move's preflight requires (every Cluster infrastructure-ready with its control plane initialized, every Machine with its Node); ` +
        `the controllers have reconciled every object (${o.controllers.pr11284 ? 'finalizers and Paused=False condition' : 'finalizers'} present)` +
        (topology.rollout
          ? ' but the MachineSet: a rollout of the MachineDeployment has just created it, and move listed it before the MachineSet controller first reconciled it (no finalizer yet; every cache holds it, its key queued). '
          : '. ') +
        (o.cacheLag === 'any' ? 'Every cache at every point of those histories.' : 'Every cache up to date.'),
      ...(topology.rollout
        ? [
            'Scope: the Cluster has no infrastructure object (no DockerCluster; such a Cluster is infrastructure-ready by itself) and the MachineDeployment controller is left out: ' +
              "their races with the mover are the DockerCluster's, which the one-Cluster variants check. The MachineSet has no Machines yet.",
          ]
        : []),
    ],
    init: initialStates(kube, topology, o.controllers, o.cacheLag, moverReruns),
    actions: [...movers, ...(moverReruns > 0 ? [moverCrashAndRerun] : []), ...kube.actions],
    properties: [...properties.safety, ...properties.liveness],
    // clusterctl runs to its end once started; the informers and the controllers' workers keep
    // running (per object key: one key's work never waits for another's for ever).
    fairness: [
      weakFairness(
        'mover',
        movers.map((a) => a.name),
      ),
      ...kube.fairness,
    ],
    // How a state reads in traces: the mover, then the Kubernetes world object by object and
    // field by field, then the infrastructure and the ghost variables.
    view: (s) =>
      OrderedMap<string, unknown>([['mover', moverView(s.mover)]])
        .merge(kube.view(s))
        .merge(s.infrastructure)
        .merge(
          OrderedMap<string, unknown>([
            ['ghost: emptied by the mover', s.emptied],
            ['ghost: deleted by the mover', s.deleted],
            ...(s.moverRerunsLeft > 0 ? [['mover re-runs left', s.moverRerunsLeft] as [string, unknown]] : []),
          ]),
        ),
    // The system is meant to come to rest once the mover is done; those resting states are
    // what SettledMoveLeavesNoSourceObjects checks, so they are not reported as deadlocks.
    checkDeadlock: false,
    expectedViolations: o.expectedViolations,
    ...(o.matrixOnly ? { matrixOnly: true } : {}),
  };
}

const OLD = 'clusterctl v1.9.3 deleteSourceObject: annotate, remove finalizers, then DELETE.';
const NEW = 'clusterctl v1.9.5 deleteSourceObject (PR #11814): annotate, DELETE, then remove finalizers.';

// The variant matrices. "history": every controller code crossed with both orderings and the
// timing assumption on and off; its rows with the v1.9.3 controllers are the variants above.
// "alternatives": the two designs the upstream thread discussed instead of the reordering.
// Initial caches as in the variants above: at any point of the objects' histories with the
// timing assumption, up to date without it. Rows other than the variants above are checked
// with --matrix (or by name), not in the default run.
interface MatrixRow {
  readonly name: string;
  readonly controllers: ControllerCode;
  readonly ordering: Ordering;
  readonly waitForPausedCondition: boolean;
  readonly timingAssumption: boolean;
  /** What the search found for this row (see docs/move.md, "The variant matrices"). */
  readonly expectedViolations: readonly string[];
  readonly faults?: { readonly name: string; readonly faults: MoveFaults };
  readonly topology?: Topology;
  readonly copyDropsDeletionTimestamp?: boolean;
}

function matrixRow(
  controllers: ControllerCode,
  mover: Ordering | `${Ordering}+wait`,
  timingAssumption: boolean,
  expectedViolations: readonly string[],
): MatrixRow {
  const ordering = mover.replace('+wait', '') as Ordering;
  const waitForPausedCondition = mover.endsWith('+wait');
  const base =
    controllers === CONTROLLERS_V193 && !waitForPausedCondition
      ? ordering
      : `${controllers.name.replace('#', '')}-controllers.${ordering}-mover${waitForPausedCondition ? '-waits-for-paused' : ''}`;
  const name = timingAssumption ? base : `${base}${base === ordering ? '-' : '.'}no-timing-assumption`;
  return { name, controllers, ordering, waitForPausedCondition, timingAssumption, expectedViolations };
}

// Property names, for the expectations below.
const NFR = 'NoFinalizerResurrection';
const SETTLED = 'SettledMoveLeavesNoSourceObjects';
const INFRA = 'SourceInfraNeverDestroyed';
const FAILED = 'FailedMoveLeavesNoObjectBeingDeleted';
const EVERY = 'EveryMovedObjectIsEventuallyRemoved';

const HISTORY: readonly MatrixRow[] = [
  matrixRow(CONTROLLERS_V180, 'v1.9.3', true, [NFR, SETTLED, INFRA, EVERY]),
  matrixRow(CONTROLLERS_V180, 'v1.9.5', true, [INFRA]),
  matrixRow(CONTROLLERS_V180, 'v1.9.3', false, [NFR, INFRA, EVERY]),
  matrixRow(CONTROLLERS_V180, 'v1.9.5', false, [INFRA]),
  matrixRow(CONTROLLERS_PR11286, 'v1.9.3', true, [NFR, SETTLED, INFRA, EVERY]),
  matrixRow(CONTROLLERS_PR11286, 'v1.9.5', true, [INFRA]),
  matrixRow(CONTROLLERS_PR11286, 'v1.9.3', false, [NFR, SETTLED, INFRA, EVERY]),
  matrixRow(CONTROLLERS_PR11286, 'v1.9.5', false, [INFRA]),
  matrixRow(CONTROLLERS_PR11284, 'v1.9.3', true, []),
  matrixRow(CONTROLLERS_PR11284, 'v1.9.5', true, []),
  matrixRow(CONTROLLERS_PR11284, 'v1.9.3', false, [NFR, SETTLED, INFRA, EVERY]),
  matrixRow(CONTROLLERS_PR11284, 'v1.9.5', false, [INFRA]),
  matrixRow(CONTROLLERS_V193, 'v1.9.3', true, [NFR, SETTLED, EVERY]),
  matrixRow(CONTROLLERS_V193, 'v1.9.5', true, []),
  matrixRow(CONTROLLERS_V193, 'v1.9.3', false, [NFR, SETTLED, INFRA, EVERY]),
  matrixRow(CONTROLLERS_V193, 'v1.9.5', false, [INFRA]),
];

// Alternative (b), controllers that add no finalizer to a paused object, is the v1.9.3 code
// with EnsureFinalizer after the pause check: in this model that is exactly the PR #11284-only
// code (pause condition first, then the deletion branch, then the finalizer; the one other
// difference, the event filter on the paused annotation, sees no annotated object here), so
// its rows are those variants.
const ALTERNATIVES: readonly MatrixRow[] = [
  matrixRow(CONTROLLERS_V193, 'v1.9.3+wait', true, [NFR, SETTLED, EVERY]),
  matrixRow(CONTROLLERS_V193, 'v1.9.5+wait', true, []),
  matrixRow(CONTROLLERS_V193, 'v1.9.3+wait', false, [NFR, SETTLED, EVERY]),
  matrixRow(CONTROLLERS_V193, 'v1.9.5+wait', false, []),
  ...HISTORY.filter((row) => row.controllers === CONTROLLERS_PR11284),
];

// Faults (Sieve's classes: crashes, stale state, unobserved states), each on the fixed v1.9.5
// release. Caches start up to date here (the variant v1.9.5 starts them at any lag), which keeps
// each search small enough for the test suite; the faults then make them lag, lose work or skip.
function faultRow(
  name: string,
  faults: MoveFaults,
  timingAssumption: boolean,
  expectedViolations: readonly string[],
  ordering: Ordering = 'v1.9.5',
): MatrixRow {
  const base = `${ordering}${timingAssumption ? '' : '-no-timing-assumption'}`;
  return {
    ...matrixRow(CONTROLLERS_V193, ordering, timingAssumption, expectedViolations),
    name: `${base}.${name}`,
    faults: { name, faults },
  };
}

const FAULTS: readonly MatrixRow[] = [
  HISTORY.find((row) => row.name === 'v1.9.5')!,
  faultRow('controller-restart', { restarts: 1 }, true, []),
  faultRow('mover-rerun', { moverReruns: 1 }, true, [FAILED, EVERY]),
  // The smallest change we found that lets a re-run finish what a crash between DELETE and the
  // finalizer removal left (docs/explanations/move-faults.md): a design alternative, no release.
  {
    ...faultRow('mover-rerun', { moverReruns: 1 }, true, []),
    name: 'v1.9.5.mover-rerun.copy-drops-deletion-timestamp',
    copyDropsDeletionTimestamp: true,
  },
  // The old ordering re-run: whether a re-run can also finish what its crashes leave.
  faultRow('mover-rerun', { moverReruns: 1 }, true, [NFR, SETTLED, FAILED, EVERY], 'v1.9.3'),
  faultRow('coalesced-events', { coalesce: true }, true, []),
  // Both managers resync every 10 minutes by default (--sync-period): any cached object may be
  // handed to its controllers again at any time.
  faultRow('resync', { resync: true }, true, []),
  HISTORY.find((row) => row.name === 'v1.9.5-no-timing-assumption')!,
  faultRow('cache-lag-0', { cacheLagBound: 0 }, false, []),
  faultRow('cache-lag-1', { cacheLagBound: 1 }, false, [INFRA]),
];

// More objects in one move: two Clusters, or a Cluster with a Machine and its DockerMachine, with
// the v1.9.3 controllers and both orderings. Their state spaces are far larger than one
// Cluster's, so the caches are bounded: up to date at the start, and at most `lag` events behind.
function objectsRow(
  topology: Topology,
  ordering: Ordering,
  lag: number,
  timingAssumption: boolean,
  expectedViolations: readonly string[],
): MatrixRow {
  const base = `${topology.clusters.length > 1 ? 'two-clusters' : 'cluster-with-machine'}.${ordering}-mover.cache-lag-${lag}`;
  return {
    ...matrixRow(CONTROLLERS_V193, ordering, timingAssumption, expectedViolations),
    name: timingAssumption ? base : `${base}.no-timing-assumption`,
    faults: { name: `cache-lag-${lag}`, faults: { cacheLagBound: lag } },
    topology,
  };
}

const OBJECTS: readonly MatrixRow[] = [
  // The one-Cluster baseline for the old ordering (the fixed one is in the faults matrix).
  {
    ...matrixRow(CONTROLLERS_V193, 'v1.9.3', false, [NFR, SETTLED, EVERY]),
    name: 'v1.9.3-no-timing-assumption.cache-lag-0',
    faults: { name: 'cache-lag-0', faults: { cacheLagBound: 0 } },
  },
  objectsRow(TWO_CLUSTERS, 'v1.9.3', 0, false, [NFR, SETTLED, EVERY]),
  objectsRow(TWO_CLUSTERS, 'v1.9.5', 0, false, []),
  objectsRow(CLUSTER_WITH_MACHINE, 'v1.9.3', 0, false, [NFR, SETTLED, EVERY]),
  objectsRow(CLUSTER_WITH_MACHINE, 'v1.9.5', 0, false, []),
];

/** The matrix rows that are not among the default variants, each once. */
function matrixVariants(): Variant<MoveState>[] {
  const rows = [...HISTORY, ...ALTERNATIVES, ...FAULTS, ...OBJECTS].filter(
    (row) => row.controllers !== CONTROLLERS_V193 || row.waitForPausedCondition || row.faults !== undefined,
  );
  return rows
    .filter((row, i) => rows.findIndex((r) => r.name === row.name) === i)
    .map((row) =>
      moveVariant(
        row.name,
        `Controllers ${row.controllers.name}. ${row.ordering === 'v1.9.3' ? OLD : NEW}${row.waitForPausedCondition ? " Waits for every object's Paused condition first (alternative (a))." : ''}` +
          (row.copyDropsDeletionTimestamp ? ' Design alternative: the target copy drops the source deletionTimestamp.' : ''),
        {
          controllers: row.controllers,
          ordering: row.ordering,
          waitForPausedCondition: row.waitForPausedCondition,
          ...(row.copyDropsDeletionTimestamp ? { copyDropsDeletionTimestamp: true } : {}),
          cacheLag: row.timingAssumption && row.faults === undefined ? 'any' : 'none',
          timingAssumption: row.timingAssumption,
          expectedViolations: row.expectedViolations,
          matrixOnly: true,
          ...(row.faults ? { faults: row.faults.faults } : {}),
          ...(row.topology ? { topology: row.topology } : {}),
        },
      ),
    );
}

const moverName = (row: MatrixRow) => (row.waitForPausedCondition ? `${row.ordering}, waits for Paused` : row.ordering);
const controllersName = (row: MatrixRow, alternatives: boolean) =>
  alternatives && row.controllers === CONTROLLERS_PR11284
    ? `${row.controllers.name} = (b) no finalizer while paused`
    : row.controllers.name;

// ---------------------------------------------------------------------------------------------
// Scale: the move with more objects and more faults, sized by the model's parameters (set with
// --param name=value; the defaults make the one-Cluster rows of the objects matrix), for searches
// far larger than the variants above. As in the objects matrix: the v1.9.3 controllers, caches up
// to date at the start and at most `lag` events behind, no timing assumption.

const PARAMETERS = {
  clusters: { description: 'Clusters moved, each with its DockerCluster', default: 1, min: 1, max: 4 },
  machines: { description: 'Machines per Cluster, each with its DockerMachine', default: 0, min: 0, max: 3 },
  restarts: { description: 'controller-manager crashes (and restarts) the search may inject', default: 0, min: 0, max: 2 },
  lag: { description: 'watch events a cache may lag behind the API server, per object', default: 0, min: 0, max: 3 },
  moverReruns: { description: 'times clusterctl may crash (or fail) and move be run again', default: 0, min: 0, max: 2 },
} as const;
type Scale = { readonly [K in keyof typeof PARAMETERS]: number };

const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

function scaleVariants(p: Scale): Variant<MoveState>[] {
  const topology: Topology = {
    name: `${counted(p.clusters, 'Cluster')}, ${counted(p.machines, 'Machine')} each`,
    clusters: Array.from({ length: p.clusters }, (_, i) => `c${i + 1}`),
    machines: p.machines,
  };
  const faults: MoveFaults = {
    cacheLagBound: p.lag,
    ...(p.restarts > 0 ? { restarts: p.restarts } : {}),
    ...(p.moverReruns > 0 ? { moverReruns: p.moverReruns } : {}),
  };
  // Expected: what the one-Cluster rows found. The old ordering loses the race whatever the
  // lag (v1.9.3-no-timing-assumption.cache-lag-0); a lag of one event loses the load balancer
  // with either ordering (v1.9.5-no-timing-assumption.cache-lag-1).
  // A re-run cannot finish what a crash between DELETE and the finalizer removal left (the
  // faults matrix's mover-rerun rows), so with re-runs move can also fail leaving an object
  // deleting, with either ordering.
  const lagged = p.lag > 0 ? [INFRA] : [];
  const rerun = p.moverReruns > 0;
  return (['v1.9.3', 'v1.9.5'] as const).map((ordering) =>
    moveVariant(`scale.${ordering}-mover`, `Scaled by the parameters: ${topology.name}. ${ordering === 'v1.9.3' ? OLD : NEW}`, {
      controllers: CONTROLLERS_V193,
      ordering,
      cacheLag: 'none',
      timingAssumption: false,
      expectedViolations:
        ordering === 'v1.9.3'
          ? [NFR, SETTLED, ...(rerun ? [FAILED] : []), ...lagged, EVERY]
          : [...(rerun ? [FAILED] : []), ...lagged, ...(rerun ? [EVERY] : [])],
      matrixOnly: true,
      faults,
      topology,
    }),
  );
}

// Built once: only the scale variants depend on the parameters.
const VARIANTS: readonly Variant<MoveState>[] = [
  moveVariant('v1.9.3', OLD, {
    controllers: CONTROLLERS_V193,
    ordering: 'v1.9.3',
    cacheLag: 'any',
    timingAssumption: true,
    expectedViolations: ['NoFinalizerResurrection', 'SettledMoveLeavesNoSourceObjects', 'EveryMovedObjectIsEventuallyRemoved'],
  }),
  moveVariant('v1.9.5', NEW, {
    controllers: CONTROLLERS_V193,
    ordering: 'v1.9.5',
    cacheLag: 'any',
    timingAssumption: true,
    expectedViolations: [],
  }),
  // The expectations below are what the search found (see README.md, "The other variants").
  // A rollout's new MachineSet, not yet reconciled: the kind of moved object move's preflight
  // does not look at (it checks Clusters and Machines only) and whose controller adds its
  // finalizer first, paused or not.
  moveVariant('v1.9.3-unreconciled', OLD, {
    controllers: CONTROLLERS_V193,
    ordering: 'v1.9.3',
    topology: CLUSTER_IN_ROLLOUT,
    cacheLag: 'none',
    timingAssumption: true,
    expectedViolations: ['NoFinalizerResurrection', 'SettledMoveLeavesNoSourceObjects', 'EveryMovedObjectIsEventuallyRemoved'],
  }),
  moveVariant('v1.9.5-unreconciled', NEW, {
    controllers: CONTROLLERS_V193,
    ordering: 'v1.9.5',
    topology: CLUSTER_IN_ROLLOUT,
    cacheLag: 'none',
    timingAssumption: true,
    expectedViolations: ['SettledMoveLeavesNoSourceObjects', 'EveryMovedObjectIsEventuallyRemoved'],
  }),
  moveVariant('v1.9.3-no-timing-assumption', OLD, {
    controllers: CONTROLLERS_V193,
    ordering: 'v1.9.3',
    cacheLag: 'none',
    timingAssumption: false,
    expectedViolations: [
      'NoFinalizerResurrection',
      'SettledMoveLeavesNoSourceObjects',
      'SourceInfraNeverDestroyed',
      'EveryMovedObjectIsEventuallyRemoved',
    ],
  }),
  moveVariant('v1.9.5-no-timing-assumption', NEW, {
    controllers: CONTROLLERS_V193,
    ordering: 'v1.9.5',
    cacheLag: 'none',
    timingAssumption: false,
    expectedViolations: ['SourceInfraNeverDestroyed'],
  }),
  ...matrixVariants(),
];

export default defineModel({
  name: 'clusterctl-move',
  description:
    'clusterctl move racing the Cluster API v1.9.3 cluster controller and the CAPD DockerCluster controller: ' +
    'the mover pauses the Cluster, creates the target copies, then deletes the source objects children first.',
  parameters: PARAMETERS,
  variants: (p) => [...VARIANTS, ...scaleVariants(p)],
  seeAlso: [
    {
      title: 'clusterctl-move-and-back (moveBack.md)',
      href: 'moveBack.md',
      summary:
        'models/moveBack.ts, the move to a self-hosted cluster and back again (issue #11809), with a ClusterClass ' +
        'MachineDeployment that carries two finalizers from two controllers: whether the v1.9.3 ordering makes ' +
        'the second move fail with "no new finalizers can be added if the object is being deleted".',
    },
  ],
  matrices: [
    {
      name: 'history',
      description:
        'Which changes the race needs. The controllers as at v1.8.0 and at v1.9.3, and with just one of the two ' +
        'controller changes of v1.9.0 (PR #11286, the finalizer first; PR #11284, pause as a condition), crossed ' +
        'with the two mover orderings (v1.8.0 to v1.9.4 had the v1.9.3 one) and with the timing assumption on and off.',
      dimensions: ['controllers', 'mover', 'timing assumption'],
      explanationFile: '../docs/explanations/move-history.md',
      rows: HISTORY.map((row) => ({
        variant: row.name,
        values: [controllersName(row, false), moverName(row), row.timingAssumption ? 'on' : 'off'],
      })),
    },
    {
      name: 'alternatives',
      description:
        'The designs discussed upstream besides the reordering: (a) the mover waits until every object it will delete ' +
        'carries the Paused condition its own controller sets; (b) controllers that add no finalizer to a paused object. ' +
        'Each with both orderings, with and without the timing assumption.',
      dimensions: ['controllers', 'mover', 'timing assumption'],
      explanationFile: '../docs/explanations/move-alternatives.md',
      rows: ALTERNATIVES.map((row) => ({
        variant: row.name,
        values: [controllersName(row, true), moverName(row), row.timingAssumption ? 'on' : 'off'],
      })),
    },
    {
      name: 'objects',
      description:
        'More of the real objects in one move: two Clusters, each with its DockerCluster, or one Cluster whose ' +
        'DockerCluster is joined by a Machine and its DockerMachine (with the v1.9.3 Machine and DockerMachine ' +
        'controllers). The v1.9.3 controllers with both mover orderings. These state spaces are far larger than one ' +
        "Cluster's, so the caches never lag here (bound 0): every controller sees each write as it happens.",
      dimensions: ['objects', 'mover', 'caches'],
      explanationFile: '../docs/explanations/move-objects.md',
      rows: [OBJECTS[0], FAULTS.find((row) => row.name === 'v1.9.5-no-timing-assumption.cache-lag-0')!, ...OBJECTS.slice(1)].map((row) => ({
        variant: row.name,
        values: [(row.topology ?? ONE_CLUSTER).name, row.ordering, 'lag bound 0'],
      })),
    },
    {
      name: 'faults',
      description:
        'The fixed release (v1.9.3 controllers, v1.9.5 mover) under injected faults: a controller-manager crash and ' +
        'restart, clusterctl crashing and move run again (also with the old ordering), informers that take several ' +
        'events of an object at once, periodic resyncs, and, without the timing assumption, caches whose lag is bounded.',
      dimensions: ['mover', 'timing assumption', 'fault', 'initial caches'],
      explanationFile: '../docs/explanations/move-faults.md',
      rows: FAULTS.map((row) => ({
        variant: row.name,
        values: [
          row.ordering,
          row.timingAssumption ? 'on' : 'off',
          `${row.faults?.name ?? 'none'}${row.copyDropsDeletionTimestamp ? ' (design alternative: the copy drops deletionTimestamp)' : ''}`,
          row.timingAssumption && row.faults === undefined ? 'any lag' : 'up to date',
        ],
      })),
    },
  ],
});
