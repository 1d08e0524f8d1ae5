// kubernetes-sigs/cluster-api#13649, "MachineDeployment controller creates duplicate MachineSets
// when informer cache sync times out during initial deployment" (v1.13.2; a MachineDeployment of
// 2 replicas got 4 MachineSets and 8 Machines), and the stale-controller mitigation that replaced
// the timed wait (PR #13720, merge 601b8346, released in v1.14.0). After creating a MachineSet the
// controller waits for its cache to show it, but only for about ten seconds: on a timeout the
// reconcile returns an error, and the retry lists the MachineSets from a cache that still lacks
// the new one, finds none for the template and creates another under another random name. The
// search is given the controller as written, a cache that may lag for as long as it likes, and
// asked whether the MachineDeployment ever has two MachineSets for its template.
//
// Code followed (kubernetes-sigs/cluster-api):
// - v1.13.2 (ebd807c66351f3ad96ca99b68d2219305d794640), internal/controllers/machinedeployment/:
//   machinedeployment_controller.go SetupWithManager 100-110 (For MachineDeployment, Owns
//   MachineSet); getAndAdoptMachineSetsForDeployment 493-547 (a cached List of the namespace's
//   MachineSets, 500, kept where controlled by the MachineDeployment or matching its selector);
//   machinedeployment_rollout_planner.go init 84-158 (mdutil.FindNewAndOldMachineSets, 112: the
//   MachineSet whose template matches; none: computeDesiredNewMS, 140-157); computeDesiredMS 217-
//   (a new name from computeNewMachineSetName, machinedeployment_sync.go 102-109: the prefix and
//   apirand.String(5), chosen by the client); createOrUpdateMachineSetsAndSyncMachineDeploymentRevision
//   339-453 (the create by server-side apply, 376; then clientutil.WaitForObjectsToBeAddedToTheCache,
//   389-394, returning its error); internal/util/client/client.go waitBackoff 40-45 (about 10 s in
//   all), checkIfObjectAdded 107-119 (a cached Get), waitFor 148-227 (on timeout: an error, 203-216).
// - v1.14.0 (560d4acf507bc7cac34b2da449fa5cd53eaeb149; the fix is PR #13720, merge
//   601b834649524a65cefef580eb7248f7d80aacdc): core/reconcilers/machinedeployment/
//   machinedeployment_controller.go, after the create (395) DeferNextReconcileUntilCacheUpToDate
//   with the MachineSet's resourceVersion (399), no wait; util/controller/controller.go
//   reconcilerWrapper.Reconcile 51-84 (EnsureReady before Reconcile; stale: RequeueAfter 100ms
//   without running it); util/controller/consistency.go WroteAt 213-225, EnsureReady 229-264 (the
//   cache's last synced resourceVersion against the written one; in memory only).
import { Record, type RecordOf } from 'immutable';
import { action, defineModel, eventually, invariant, k8s, liveness, type Variant } from 'modelcheck';

const MD = k8s.objectKey('MachineDeployment', 'md');
/** The MachineDeployment's template, as the hash FindNewAndOldMachineSets compares (MachineTemplateUpToDate). */
const TEMPLATE = 't1';

interface StateProps {
  kube: k8s.KubeWorld;
}
type State = RecordOf<StateProps>;
const State = Record<StateProps>({ kube: k8s.emptyWorld() }, 'Capi13649State');

type Code = 'v1.13.2' | 'v1.14.0';

/** The MachineSets the MachineDeployment controls whose template is its own (FindNewAndOldMachineSets' candidates for "new"). */
const forTemplate = (machineSets: readonly k8s.KubeObject[]) =>
  machineSets.filter((ms) => k8s.controllerOf(ms) === MD && ms.spec.get('template') === TEMPLATE);

function machineDeploymentController(code: Code): k8s.ControllerConfig<State> {
  return {
    name: 'machineDeploymentController',
    manager: 'capi',
    watches: [
      { kind: 'MachineDeployment' },
      // Owns(&MachineSet{}): EnqueueRequestForOwner, the controller reference.
      { kind: 'MachineSet', map: (o) => [k8s.controllerOf(o)].filter((k) => k === MD) as k8s.ObjectKey[] },
    ],
    // v1.14.0: the reconciler wrapper's consistency store (PR #13720).
    waitForOwnWrites: code === 'v1.14.0',
    docs: {
      reconcile:
        'Reconcile -> reconcile: a cached Get of the MachineDeployment; getAndAdoptMachineSetsForDeployment 493-547 (a cached List, 500); rolloutPlanner.init 84-158: FindNewAndOldMachineSets (112) finds the MachineSet for the template, or none.',
      create:
        'createOrUpdateMachineSetsAndSyncMachineDeploymentRevision 374-378: the new MachineSet (a random name, computeNewMachineSetName 102-109) created by server-side apply.',
      waitForCache:
        'v1.13.2 389-394: WaitForObjectsToBeAddedToTheCache, cached Gets for about 10 s (client.go 40-45, 148-227); on a timeout, the error is returned and the key requeued.',
    },
    reconcile: (r) => {
      const md = r.cached(r.key);
      if (md === undefined || k8s.isDeleting(md)) return r.done(); // deletion is out of scope
      // A MachineSet for the template exists: it is the new one; scaling it is out of scope.
      if (forTemplate(r.list('MachineSet')).length > 0) return r.done();
      return r.goto('create', { md });
    },
    steps: {
      create: (r) => {
        const md = r.local<k8s.KubeObject>('md');
        // The client draws the name (apirand.String(5) after `md-`); the server's generateName
        // draws it the same way, and either way it is a name nothing holds.
        const res = r.create(
          k8s.object({
            kind: 'MachineSet',
            name: '',
            generateName: 'md-',
            ownerReferences: [k8s.ownerReference(md, { controller: true, blockOwnerDeletion: true })],
            spec: { template: TEMPLATE, replicas: md.spec.get('replicas') ?? 1 },
          }),
        );
        if (!('object' in res)) return r.requeue();
        // v1.14.0: DeferNextReconcileUntilCacheUpToDate (399), recorded by waitForOwnWrites; the pass goes on.
        return code === 'v1.14.0' ? r.done() : r.goto('waitForCache', { name: k8s.keyOf(res.object) });
      },
      // v1.13.2 only. The poll's last try: whether the cache has caught up by then is the interleaving's choice.
      ...(code === 'v1.13.2'
        ? { waitForCache: (r: k8s.StepContext<State>) => (r.cached(r.local<k8s.ObjectKey>('name')) !== undefined ? r.done() : r.requeue()) }
        : {}),
    },
  };
}

function variant(code: Code, expectedViolations: string[], faults: k8s.KubeFaults = {}): Variant<State> {
  const kube = k8s.kubernetes<State>({
    world: { get: (s) => s.kube, set: (s, w) => s.set('kube', w) },
    servers: ['main'],
    managers: [{ name: 'capi', server: 'main', kinds: ['MachineDeployment', 'MachineSet'] }],
    controllers: [machineDeploymentController(code)],
    uids: true,
    faults,
  });
  const machineSets = (s: State) => kube.list(s, 'main', 'MachineSet');
  // A MachineDeployment just created (by a user or the topology controller), not yet reconciled.
  const md = k8s.object({ kind: 'MachineDeployment', name: 'md', spec: { template: TEMPLATE, replicas: 2 } });
  const worlds = kube.initialWorlds({ main: [{ versions: [md], reconciled: false }] }, { cacheLag: 'any' });
  const scaleUp = action<State>('user.scaleUp', {
    doc: 'kubectl scale machinedeployment md --replicas=3, once, at any moment: another MachineDeployment event, another reconcile.',
    next: (s, _, events) => {
      const o = kube.stored(s, 'main', MD);
      if (o === undefined || o.spec.get('replicas') !== 2) return undefined;
      return kube.request(s, 'main', (srv) => k8s.mergePatch(srv, MD, { spec: { replicas: 3 } }), events).state;
    },
  });
  return {
    name: faults.timeTravel ? `${code}.timeTravel` : faults.restarts ? `${code}.faults` : code,
    description:
      code === 'v1.13.2'
        ? 'Cluster API v1.13.2: after creating a MachineSet, wait for the cache to show it, give up after about 10 s with an error.'
        : 'Cluster API v1.14.0 (PR #13720): after the create, the next reconcile waits until the cache has taken the write in.' +
          (faults.timeTravel
            ? ' With a restart that may reach a lagging API server: the record of writes is in memory, lost with the process.'
            : faults.restarts
              ? ' With a controller-manager restart at any point (the record of writes is lost with it).'
              : ''),
    assumptions: [
      'The MachineDeployment has just been created and not yet reconciled; a user may scale it once, at any moment (another event, another reconcile).',
      "The timed wait's outcome is the interleaving's: it returns as soon as the cache has the MachineSet, and gives up if the step runs before.",
      'Scope: the MachineDeployment is not deleted; scaling, rollouts and the cleanup of old MachineSets are left out (the MachineSet controller and its Machines too).',
      'Bound: the search does not go past two MachineSets (a state constraint); one more is already a duplicate.',
      ...(code === 'v1.14.0'
        ? [
            'The ReconcilerRateLimiting feature gate is on (Beta, on by default in v1.14.0, feature/feature.go 106): without it the wrapper runs Reconcile at once.',
          ]
        : []),
      ...kube.assumptions,
    ],
    init: () => worlds.map((w) => State({ kube: w })),
    actions: [scaleUp, ...kube.actions],
    constraint: (s) => machineSets(s).length <= 2,
    properties: [
      invariant<State>(
        'OneMachineSetPerTemplate',
        'The MachineDeployment never controls two MachineSets for its template: a duplicate brings up a second set of Machines.',
        (s) => forTemplate(machineSets(s)).length <= 1,
      ),
      liveness<State>(
        'AMachineSetIsEventuallyCreated',
        'The MachineDeployment eventually has a MachineSet for its template.',
        eventually((s) => forTemplate(machineSets(s)).length > 0),
      ),
      ...kube.properties,
    ],
    ...kube.variantFields,
    checkDeadlock: false,
    expectedViolations,
  };
}

export default defineModel({
  name: 'capi-13649',
  description:
    'kubernetes-sigs/cluster-api#13649: a MachineDeployment controller whose wait for its own MachineSet in the cache times out. ' +
    'Does the MachineDeployment ever get two MachineSets for one template, in v1.13.2 and with the stale-controller mitigation of v1.14.0?',
  reproduces: {
    issue: 'kubernetes-sigs/cluster-api#13649',
    url: 'https://github.com/kubernetes-sigs/cluster-api/issues/13649',
    mechanism:
      'The wait for the new MachineSet in the cache gives up; the retry lists a cache that still lacks it and creates a second one under a fresh name. The fix waits for the cache without a timeout; the search finds that a restart against a lagging API server, which loses the in-memory record of writes, still makes a second one.',
    uses: [
      'fresh names (generateName)',
      'UIDs and controller ownerReferences',
      'cache lag',
      'waiting for own writes (the fix)',
      'restarts (the fix)',
    ],
    buggy: ['v1.13.2'],
    fixed: ['v1.14.0', 'v1.14.0.faults', 'v1.14.0.timeTravel'],
  },
  variants: [
    variant('v1.13.2', ['OneMachineSetPerTemplate']),
    variant('v1.14.0', []),
    variant('v1.14.0', [], { restarts: 1 }),
    // A finding of the search (an independent review confirmed the trace against the code): the
    // mitigation lasts one process. Restarted against an API server that lags, the controller
    // lists without the MachineSet it created and creates another. Whether a restarted informer's
    // first list can be that stale (RV "0", served from the API server's watch cache) in the
    // Kubernetes versions v1.14.0 supports is not verified here.
    variant('v1.14.0', ['OneMachineSetPerTemplate'], { restarts: 1, timeTravel: true }),
  ],
});
