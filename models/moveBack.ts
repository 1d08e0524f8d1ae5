// clusterctl move to a self-hosted cluster and back again, as Cluster API's self-hosted
// end-to-end test does, with a MachineDeployment of a ClusterClass cluster: it carries two
// finalizers from two controllers. Question (kubernetes-sigs/cluster-api issue #11809, "no new
// finalizers can be added if the object is being deleted"): can the v1.9.3 ordering make the
// move back fail with that 422?
//
// Facts: docs/capi-semantics.md. Code cited: kubernetes-sigs/cluster-api at v1.9.3:
// cmd/clusterctl/client/cluster/mover.go, internal/controllers/cluster/cluster_controller.go,
// internal/controllers/machinedeployment/machinedeployment_controller.go,
// internal/controllers/topology/machinedeployment/machinedeployment_controller.go.
//
// Scope (Inference): the first move runs whole (pause, create, delete, unpause); the move back
// runs its pause and create phases, which is where the 422 would come from; its delete phase
// would act on the self-hosted cluster, whose controllers are left out (they find on their
// copies the finalizers the copies were created with). Caches start up to date.
import { List, OrderedMap, Set, type Map as ImmutableMap, type RecordOf } from 'immutable';
import { defineModel, FlatRecord, invariant, k8s, type Variant } from 'modelcheck';
import { CLUSTER_FINALIZER, PAUSED_CONDITION } from './capi/names.ts';
import {
  changesPausedCondition,
  ensureFinalizerStep,
  ensurePausedConditionStep,
  needsFinalizer,
  pauseCheck,
  pauseLocals,
  pausedCondition,
  readByControllers,
  removeFinalizerStep,
  type PauseRead,
} from './capi/util.ts';
import { Mover, clusterctlMover, type Ordering } from './clusterctl/mover.ts';

type KubeObject = k8s.KubeObject;
type ObjectKey = k8s.ObjectKey;
type StepContext<S> = k8s.StepContext<S>;

const CLUSTER = k8s.objectKey('Cluster', 'c1');
const MACHINE_DEPLOYMENT = k8s.objectKey('MachineDeployment', 'md1');

// api/v1beta1 machinedeployment_types.go MachineDeploymentFinalizer and
// MachineDeploymentTopologyFinalizer.
const MD_FINALIZER = 'cluster.x-k8s.io/machinedeployment';
const MD_TOPOLOGY_FINALIZER = 'machinedeployment.topology.cluster.x-k8s.io';

// The two management clusters: the bootstrap (kind) cluster the first move starts from and
// the move back returns to, and the self-hosted workload cluster.
const BOOTSTRAP = 'bootstrap';
const SELF_HOSTED = 'selfHosted';

// ---------------------------------------------------------------------------------------------
// The state.

interface MoveBackStateProps {
  kube: k8s.KubeWorld;
  mover: Mover;
  /** Ghost: objects whose finalizers the first move's patch emptied. */
  emptied: Set<ObjectKey>;
  /** Ghost: the answer of a move-back write the API server refused, if any. */
  refused: string | null;
}
type MoveBackState = RecordOf<MoveBackStateProps>;
const MoveBackState = FlatRecord<MoveBackStateProps>(
  { kube: k8s.emptyWorld(), mover: Mover(), emptied: Set(), refused: null },
  'MoveBackState',
);

// mover.go: create owner first, delete children first.
const CREATE_ORDER = [CLUSTER, MACHINE_DEPLOYMENT];
const DELETE_ORDER = [MACHINE_DEPLOYMENT, CLUSTER];

// ---------------------------------------------------------------------------------------------
// The bootstrap cluster's controllers, v1.9.3 (one manager, capi-controller-manager).

const managers: k8s.ManagerConfig[] = [
  { name: 'capi', server: BOOTSTRAP, kinds: ['Cluster', 'MachineDeployment'], view: readByControllers },
];

/** The MachineDeployments of a Cluster (ClusterToTypedObjectsMapper), as the cache lists them. */
const machineDeploymentsOf = (cluster: KubeObject, cache: ImmutableMap<ObjectKey, KubeObject>) =>
  [...cache.values()].filter((o) => o.kind === 'MachineDeployment' && o.spec.get('clusterName') === cluster.name).map(k8s.keyOf);

const pausedTransition = (e: k8s.HandlerEvent) =>
  e.type === 'MODIFIED' && e.old !== undefined && (e.old.spec.get('paused') === true) !== (e.object.spec.get('paused') === true);

// cluster_controller.go Reconcile (v1.9.3): EnsureFinalizer, EnsurePausedCondition, then deletion.
const clusterController: k8s.ControllerConfig<MoveBackState> = {
  name: 'clusterController',
  manager: 'capi',
  watches: [{ kind: 'Cluster' }],
  docs: {
    reconcile: 'cluster_controller.go Reconcile: Get from the cache, then EnsureFinalizer and EnsurePausedCondition decide on that copy.',
    ensureFinalizer: 'finalizers.EnsureFinalizer: merge patch of the cached finalizers plus cluster.cluster.x-k8s.io.',
    ensurePausedCondition: 'paused.EnsurePausedCondition: patch the Paused condition; return when paused or changed.',
    reconcileDelete:
      'reconcileDelete: once no MachineDeployment of the Cluster is left, remove the finalizer (descendants are deleted first).',
  },
  reconcile: (r) => {
    const cluster = r.cached(r.key);
    if (!cluster) return r.done();
    if (needsFinalizer(cluster, CLUSTER_FINALIZER)) return r.goto('ensureFinalizer', { finalizers: cluster.finalizers });
    const { pause } = pauseLocals(cluster);
    const want = pausedCondition('Cluster', cluster.spec.get('paused') === true, pause.annotated, pause.generation);
    if (changesPausedCondition(pause, want)) return r.goto('ensurePausedCondition', { condition: want });
    if (want.status || !k8s.isDeleting(cluster)) return r.done();
    return r.goto('reconcileDelete', { finalizers: cluster.finalizers });
  },
  steps: {
    ensureFinalizer: (r) => ensureFinalizerStep(r, CLUSTER_FINALIZER),
    ensurePausedCondition: (r) => ensurePausedConditionStep(r),
    // Inference: deleting the descendants themselves is left out; the Cluster waits for them.
    reconcileDelete: (r) => (r.cached(MACHINE_DEPLOYMENT) ? r.requeue() : removeFinalizerStep(r, CLUSTER_FINALIZER)),
  },
};

/**
 * The two controllers of a MachineDeployment. Both call EnsureFinalizer first, then read the
 * Cluster (util.GetClusterByName, from the cache) and check pause; the MachineDeployment
 * controller through EnsurePausedCondition, the topology one through annotations.IsPaused.
 */
function machineDeploymentController(
  name: string,
  finalizer: string,
  setsPausedCondition: boolean,
  docs: Readonly<globalThis.Record<string, string>>,
): k8s.ControllerConfig<MoveBackState> {
  return {
    name,
    manager: 'capi',
    watches: [
      // For(&MachineDeployment{}): the topology controller's ResourceIsTopologyOwned (every
      // MachineDeployment here belongs to a ClusterClass cluster) and ResourceNotPaused (the
      // paused annotation, which move does not set) pass every event here.
      { kind: 'MachineDeployment' },
      // Watches(&Cluster{}, ClusterToTypedObjectsMapper): the MachineDeployment controller with
      // ClusterPausedTransitions; the topology one with ClusterUnpaused (a create of an
      // unpaused Cluster, or an update to unpaused), which the source Cluster never sends here.
      setsPausedCondition
        ? { kind: 'Cluster', predicate: pausedTransition, map: machineDeploymentsOf }
        : {
            kind: 'Cluster',
            predicate: (e) =>
              (e.type === 'ADDED' && e.object.spec.get('paused') !== true) ||
              (e.type === 'MODIFIED' && e.old?.spec.get('paused') === true && e.object.spec.get('paused') !== true),
            map: machineDeploymentsOf,
          },
    ],
    docs,
    reconcile: (r) => {
      const md = r.cached(r.key);
      if (!md) return r.done();
      if (needsFinalizer(md, finalizer)) return r.goto('ensureFinalizer', { finalizers: md.finalizers });
      return r.goto('getCluster', {
        ...pauseLocals(md),
        // Read later only by reconcileDelete.
        finalizers: k8s.isDeleting(md) ? md.finalizers : null,
      });
    },
    steps: {
      ensureFinalizer: (r) => ensureFinalizerStep(r, finalizer),
      getCluster: (r) => {
        const cluster = r.cached(CLUSTER);
        if (!cluster) return r.requeue();
        const afterPauseCheck = () => {
          const finalizers = r.local<List<string> | null>('finalizers');
          return finalizers === null ? r.done() : r.goto('reconcileDelete', { finalizers });
        };
        if (setsPausedCondition) return pauseCheck(r, cluster, afterPauseCheck);
        // The topology controller: annotations.IsPaused, no condition.
        const paused = cluster.spec.get('paused') === true || r.local<ReturnType<typeof PauseRead>>('pause').annotated;
        return paused ? r.done() : afterPauseCheck();
      },
      ...(setsPausedCondition ? { ensurePausedCondition: (r: StepContext<MoveBackState>) => ensurePausedConditionStep(r) } : {}),
      // Inference: no MachineSets in this model, so deletion only removes the finalizer.
      reconcileDelete: (r) => removeFinalizerStep(r, finalizer),
    },
  };
}

const mdController = machineDeploymentController('machineDeploymentController', MD_FINALIZER, true, {
  reconcile: 'machinedeployment_controller.go Reconcile: Get from the cache, then EnsureFinalizer decides on that copy.',
  ensureFinalizer: 'finalizers.EnsureFinalizer first: merge patch of the cached finalizers plus cluster.x-k8s.io/machinedeployment.',
  getCluster: "util.GetClusterByName (cache), then paused.EnsurePausedCondition decides on the Cluster's spec.paused.",
  ensurePausedCondition: 'paused.EnsurePausedCondition: patch the Paused condition of the MachineDeployment.',
  reconcileDelete: 'reconcileDelete: with no MachineSets left, remove cluster.x-k8s.io/machinedeployment.',
});

const mdTopologyController = machineDeploymentController('mdTopologyController', MD_TOPOLOGY_FINALIZER, false, {
  reconcile: 'topology/machinedeployment Reconcile: Get from the cache, IsTopologyOwned, then EnsureFinalizer decides on that copy.',
  ensureFinalizer:
    'finalizers.EnsureFinalizer first: merge patch of the cached finalizers plus machinedeployment.topology.cluster.x-k8s.io.',
  getCluster: 'util.GetClusterByName (cache), then annotations.IsPaused(cluster, md): return when paused.',
  reconcileDelete: "reconcileDelete: delete the MachineDeployment's templates, then remove machinedeployment.topology.cluster.x-k8s.io.",
});

const kube = k8s.kubernetes<MoveBackState>({
  world: { get: (s) => s.kube, set: (s, world) => s.set('kube', world) },
  servers: [BOOTSTRAP, SELF_HOSTED],
  managers,
  controllers: [clusterController, mdController, mdTopologyController],
});

// ---------------------------------------------------------------------------------------------
// clusterctl move, twice (cmd/clusterctl/client/cluster/mover.go).

/**
 * clusterctl move, twice, with the mover of clusterctl/mover.ts: the first move whole, the move
 * back up to its target copies (see the scope note at the top). The move back starts once the
 * bootstrap cluster has settled (the end-to-end test moves back minutes later, after checking
 * the self-hosted cluster). No preflight: these objects carry no provisioning status (see the
 * assumptions).
 */
function moveTwice(ordering: Ordering) {
  return clusterctlMover<MoveBackState>({
    kube,
    field: { get: (s) => s.mover, set: (s, m) => s.set('mover', m) },
    moves: [
      { from: BOOTSTRAP, to: SELF_HOSTED },
      { from: SELF_HOSTED, to: BOOTSTRAP, through: 'create', startsWhen: (s) => kube.idle(s) },
    ],
    objects: { clusters: [CLUSTER], createOrder: CREATE_ORDER, deleteGroups: DELETE_ORDER.map((key) => [key]), machines: [] },
    code: { ordering },
    preflight: false,
    // The first move's delete phase starts once the cache shows the Cluster paused.
    timingAssumption: true,
    ghosts: {
      // A new object in the bootstrap cluster, not the one the first move emptied.
      created: (s, key) => s.update('emptied', (e) => e.delete(key)),
      emptied: (s, key) => s.update('emptied', (e) => e.add(key)),
      refused: (s, answer) => s.set('refused', answer),
    },
  });
}

// ---------------------------------------------------------------------------------------------
// What must hold.

const noFinalizerResurrection = invariant<MoveBackState>(
  'NoFinalizerResurrection',
  "Once the first move has emptied an object's finalizers, no finalizer reappears on that object while it exists.",
  (s) => s.emptied.every((key) => kube.stored(s, BOOTSTRAP, key)?.finalizers.isEmpty() ?? true),
  { premise: (s) => !s.emptied.isEmpty() },
);

const moveBackIsNotRefused = invariant<MoveBackState>(
  'MoveBackIsNotRefused',
  'The move back to the bootstrap cluster never has a write refused by the API server.',
  (s) => s.refused === null,
);

// ---------------------------------------------------------------------------------------------
// Variants.

function initialState(): MoveBackState[] {
  const cluster = k8s.object({ kind: 'Cluster', name: 'c1', spec: { paused: false } });
  const md = k8s.object({ kind: 'MachineDeployment', name: 'md1', ownerReferences: [CLUSTER], spec: { clusterName: 'c1' } });
  const clusterDone = cluster.set('finalizers', List([CLUSTER_FINALIZER]));
  // Both MachineDeployment controllers have added their finalizers (in either order; the one
  // listed here), and the MachineDeployment controller its Paused=False condition.
  const mdDone = md.set('finalizers', List([MD_FINALIZER, MD_TOPOLOGY_FINALIZER]));
  const worlds = kube.initialWorlds(
    {
      [BOOTSTRAP]: [
        {
          versions: [
            cluster,
            clusterDone,
            clusterDone.setIn(['conditions', PAUSED_CONDITION], pausedCondition('Cluster', false, false, 1)),
          ],
          reconciled: true,
        },
        {
          versions: [
            md,
            md.set('finalizers', List([MD_FINALIZER])),
            mdDone,
            mdDone.setIn(['conditions', PAUSED_CONDITION], pausedCondition('MachineDeployment', false, false, 1)),
          ],
          reconciled: true,
        },
      ],
    },
    { cacheLag: 'none' },
  );
  return worlds.map((w) => MoveBackState({ kube: w }));
}

const INIT = initialState();

function variant(name: string, ordering: Ordering, description: string, expectedViolations: string[]): Variant<MoveBackState> {
  const mover = moveTwice(ordering);
  const movers = mover.actions;
  return {
    name,
    description,
    assumptions: [
      "The first move's delete phase starts once the controller manager's cache shows the Cluster paused (the timing assumption of models/move.ts).",
      'Initial state: both objects reconciled (both MachineDeployment finalizers present), the cache up to date.',
      "Move's preflight (checkProvisioningCompleted) passes, both times; it is not modelled here, as these objects carry no provisioning status.",
      'The move back starts once the bootstrap cluster has settled: no watch event waiting, no work queued or under way.',
      ...kube.assumptions,
      "Inference: kube-controller-manager's garbage collector would delete nothing the mover does not, since the mover DELETEs the MachineDeployment before its owner Cluster and the collector skips an object already being deleted.",
    ],
    init: () => INIT,
    actions: [...movers, ...kube.actions],
    properties: [noFinalizerResurrection, moveBackIsNotRefused, ...kube.properties],
    view: (s) =>
      OrderedMap<string, unknown>([['mover', mover.view(s)]])
        .merge(kube.view(s))
        .merge(
          OrderedMap<string, unknown>([
            ['ghost: emptied by the first move', s.emptied],
            ['ghost: refused write of the move back', s.refused],
          ]),
        ),
    checkDeadlock: false,
    coverage: kube.coverage,
    expectedViolations,
  };
}

export default defineModel({
  name: 'clusterctl-move-and-back',
  description:
    'clusterctl move from a bootstrap cluster to a self-hosted one and back (the self-hosted end-to-end test), with a ' +
    'ClusterClass MachineDeployment that carries finalizers from two controllers: can the first move leave an object ' +
    'that makes the move back fail with "no new finalizers can be added if the object is being deleted" (issue #11809)?',
  seeAlso: [
    {
      title: 'clusterctl-move (move.md)',
      href: 'move.md',
      summary: 'models/move.ts, the race that PR #11814 fixed: one move, its variant matrices and its faults.',
    },
  ],
  variants: [
    // Expectations: what the search found (docs/moveBack.md has the traces).
    variant('v1.9.3', 'v1.9.3', 'clusterctl v1.9.3: annotate, remove finalizers, then DELETE.', [
      'NoFinalizerResurrection',
      'MoveBackIsNotRefused',
    ]),
    variant('v1.9.5', 'v1.9.5', 'clusterctl v1.9.5: annotate, DELETE, then remove finalizers.', []),
  ],
});
