// clusterctl move racing the Cluster API controllers, Cluster API v1.9.3 and its fix in v1.9.5.
// Facts, with their sources: docs/capi-semantics.md. Code cited: kubernetes-sigs/
// cluster-api at tag v1.9.3 unless noted; the fix is PR #11814 (backport #11821, in v1.9.5).
//
// The API server's rules, the informer caches and the work queues come from the checker's
// Kubernetes library. Each real component has its file: the mover in clusterctl/mover.ts (shared
// with moveBack.ts), each controller in move/ (move/clusterController.ts, ...), the objects and
// the state in move/world.ts, the properties in move/properties.ts. This file composes them into
// the variants, the matrices and the scale searches.
import { OrderedMap } from 'immutable';
import { action, defineModel, type k8s, weakFairness, type Variant } from 'modelcheck';
import { CLUSTER_FINALIZER } from './capi/names.ts';
import { Mover, clusterctlMover, type Ordering } from './clusterctl/mover.ts';
import { kubernetesFor } from './move/kubernetes.ts';
import { moveProperties } from './move/properties.ts';
import {
  CLUSTER_IN_ROLLOUT,
  CLUSTER_WITH_MACHINE,
  CONTROLLERS_PR11284,
  CONTROLLERS_PR11286,
  CONTROLLERS_V180,
  CONTROLLERS_V193,
  DOCKER_CLUSTER_FINALIZER,
  DOCKER_MACHINE_FINALIZER,
  MACHINE_DEPLOYMENT_FINALIZER,
  MACHINE_FINALIZER,
  MoveState,
  ONE_CLUSTER,
  TWO_CLUSTERS,
  clusterKey,
  createOrder,
  createdCluster,
  createdDockerCluster,
  createdDockerMachine,
  createdMachine,
  createdMachineDeployment,
  createdMachineSet,
  deleteGroups,
  initialInfrastructure,
  machineIndices,
  machineKey,
  reconciledHistory,
  type ControllerCode,
  type Topology,
} from './move/world.ts';

export { machineControllersAlone } from './move/kubernetes.ts';
export type { MoveState } from './move/world.ts';

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

/** The faults only this model injects, in plain words (the library states its own: kube.assumptions). */
function moveFaultAssumptions(f: MoveFaults): string[] {
  const out: string[] = [];
  if (f.moverReruns) out.push(`Fault: clusterctl may crash (or fail) and move be run again, up to ${f.moverReruns} time.`);
  if (f.resync) out.push("A resync queues a key only through watches without ResourceIsChanged (each controller's own kind).");
  return out;
}

/**
 * Why no garbage collector runs in the source cluster here (the real one does): the mover
 * deletes children before their owners (getMoveSequence reversed), so an owner is gone only after
 * the mover has deleted its children, and the collector would only DELETE them again (a no-op
 * on an object already being deleted, which it skips). Inference, not checked by a search.
 */
const NO_GARBAGE_COLLECTOR =
  "Inference: kube-controller-manager's garbage collector would delete nothing the mover does not, since the mover DELETEs every object before its owners and the collector skips an object already being deleted.";

function moveVariant(name: string, description: string, o: VariantOptions): Variant<MoveState> {
  const { moverReruns = 0, ...kubeFaults } = o.faults ?? {};
  const topology = o.topology ?? ONE_CLUSTER;
  const kube = kubernetesFor(o.controllers, topology, kubeFaults);
  const mover = clusterctlMover<MoveState>({
    kube,
    field: { get: (s) => s.mover, set: (s, m) => s.set('mover', m) },
    moves: [{ from: 'source', to: 'target' }],
    objects: {
      clusters: topology.clusters.map(clusterKey),
      createOrder: createOrder(topology),
      deleteGroups: deleteGroups(topology),
      machines: topology.clusters.flatMap((c) => machineIndices(topology).map((i) => machineKey(c, i))),
    },
    code: {
      ordering: o.ordering,
      waitForPausedCondition: o.waitForPausedCondition ?? false,
      copyDropsDeletionTimestamp: o.copyDropsDeletionTimestamp ?? false,
    },
    preflight: true,
    timingAssumption: o.timingAssumption,
    ghosts: {
      emptied: (s, key) => s.update('emptied', (e) => e.add(key)),
      deleted: (s, key) => s.update('deleted', (d) => d.add(key)),
    },
  });
  const movers = mover.actions;
  const properties = moveProperties(kube, topology);
  return {
    name,
    description,
    assumptions: [
      ...(o.timingAssumption ? [TIMING_ASSUMPTION] : []),
      ...kube.assumptions,
      ...moveFaultAssumptions(o.faults ?? {}),
      NO_GARBAGE_COLLECTOR,
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
    // Watches that never queue a key and reads that never find their object, warned of after a complete search.
    coverage: kube.coverage,
    // How a state reads in traces: the mover, then the Kubernetes world object by object and
    // field by field, then the infrastructure and the ghost variables.
    view: (s) =>
      OrderedMap<string, unknown>([['mover', mover.view(s)]])
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
