// kubernetes-sigs/cluster-api#8946, "no new finalizers" error in rapidly deleted clusters, and its
// fix, PR #8949 ("all: only set finalizers if deletionTimestamp is not set", commit cef1cf1d93,
// first released in v1.5.0). A Cluster deleted before the Cluster controller gave it its finalizer
// (`cluster.cluster.x-k8s.io`) while another controller's finalizer still holds it: the v1.4
// controller adds its finalizer before it looks at the deletionTimestamp, the API server refuses
// the patch (422, apimachinery ValidateNoNewFinalizers), the reconcile returns the error and is
// requeued, and so on for ever; its reconcileDelete, which would delete the infrastructure object,
// never runs, so a controller waiting for that cleanup never removes its own finalizer, and the
// Cluster is never gone. The search is told none of this: it is given the controller as the code
// is written, a user who deletes the Cluster at any moment, and the question whether a deleted
// Cluster is eventually gone.
//
// Code followed (kubernetes-sigs/cluster-api):
// - v1.4.4 (commit 00dbf7b9f6322d7ebd06ae2efa703b23354dd37d), internal/controllers/cluster/
//   cluster_controller.go: Reconcile 101-157 (cached Get 105-116; the deferred patch 130-143;
//   the finalizer first, 144-148; the deletion branch after it, 150-153); reconcileDelete 217-337
//   (the infrastructure object 303-332: external.Get, then a Delete and return 319-330; the
//   finalizer removed 334); SetupWithManager 80-99 (For Cluster, an event filter that passes an
//   unpaused Cluster); cluster_controller_phases.go reconcileExternal 126 (the ObjectTracker's
//   watch on the infrastructure kind, EnqueueRequestForOwner Cluster); controllers/external/
//   util.go Get 34-47 (an unstructured Get); main.go 358-365 (the default client does not cache
//   unstructured objects: external.Get is a live read); util/patch/patch.go Patch 84-145 and
//   patch 148-157 (metadata as client.MergeFrom, without optimistic lock).
// - v1.5.0 (commit 4abf44cd85c4590602e4c10543d53cd4ec914845), the same file: the deletion branch
//   first, 146-147, then the finalizer, 152-155; reconcileDelete's external.Get now goes through
//   r.UnstructuredCachingClient (306), which main.go 407-412 and 474 build over the manager's
//   cache (Unstructured: true): the infrastructure object is read from the cache.
// - kubernetes-sigs/controller-runtime v0.14.5 (ffb74e54a5), pkg/client/split.go
//   delegatingReader.Get 126-133 and shouldBypassCache 104-123: an unstructured object is read
//   from the API server, not the cache.
import { Record, type RecordOf } from 'immutable';
import { action, defineModel, k8s, leadsTo, liveness, type Variant } from 'modelcheck';

const CLUSTER = k8s.objectKey('Cluster', 'c1');
const INFRA = k8s.objectKey('DockerCluster', 'c1');
/** api/v1beta1/cluster_types.go 36 (v1.4.4). */
const CLUSTER_FINALIZER = 'cluster.cluster.x-k8s.io';
/** Another controller's finalizer, removed once the infrastructure is gone (an assumption: see OTHER). */
const OTHER_FINALIZER = 'example.com/wait-for-infrastructure';

interface StateProps {
  kube: k8s.KubeWorld;
}
type State = RecordOf<StateProps>;
const State = Record<StateProps>({ kube: k8s.emptyWorld() }, 'Capi8946State');

type Ordering = 'v1.4.4' | 'v1.5.0';

/** The Cluster controller of `ordering`, its steps one request each. */
function clusterController(ordering: Ordering): k8s.ControllerConfig<State> {
  /**
   * reconcileDelete 217-337, from its first request: no descendants and no control plane here
   * (the model's scope). It works on the copy Reconcile read: its finalizers go along.
   */
  const reconcileDelete = (r: k8s.StepContext<State>, cluster: k8s.KubeObject) => {
    if (ordering === 'v1.4.4') return r.goto('getInfrastructure', { finalizers: cluster.finalizers });
    // v1.5.0, 306: external.Get through the caching client, in this step; found: its Delete next.
    if (r.cached(INFRA) !== undefined) return r.goto('deleteInfrastructure');
    return k8s.hasFinalizer(cluster, CLUSTER_FINALIZER) ? r.goto('removeFinalizer', { finalizers: cluster.finalizers }) : r.done();
  };
  return {
    name: 'clusterController',
    manager: 'capi',
    watches: [
      { kind: 'Cluster' }, // For(&clusterv1.Cluster{})
      // reconcileExternal 126: the ObjectTracker watches the infrastructure kind, EnqueueRequestForOwner(Cluster).
      { kind: 'DockerCluster', map: (o) => o.ownerReferences.filter((k) => k.startsWith('Cluster/')) },
    ],
    docs: {
      reconcile:
        ordering === 'v1.4.4'
          ? 'Reconcile 101-157 (v1.4.4): client.Get from the cache; the finalizer first (144-148: AddFinalizer on the copy, return, and the deferred patch sends it), then the deletion branch (150-153).'
          : 'Reconcile (v1.5.0): client.Get from the cache; the deletion branch first (146-147), then the finalizer (152-155).',
      addFinalizer:
        "The deferred patchCluster (130-143): util/patch Helper.patch 148-157, a merge patch of the metadata with the copy's finalizers plus ours (client.MergeFrom, no lock). An error is returned: the key is requeued.",
      getInfrastructure:
        'reconcileDelete 303-317 (v1.4.4): external.Get of the InfrastructureRef, an unstructured Get, read live (controller-runtime split.go 126-133); NotFound: all good. (v1.5.0 reads it from the cache, 306, in the reconcile step.)',
      deleteInfrastructure:
        'reconcileDelete 319-330: r.Client.Delete of the infrastructure object, then return nil so that the finalizer stays ("the cluster will get processed again").',
      removeFinalizer: 'reconcileDelete 334: RemoveFinalizer on the copy; the deferred patch sends it (merge patch).',
    },
    reconcile: (r) => {
      const cluster = r.cached(r.key);
      if (cluster === undefined) return r.done(); // 106-111: NotFound, return
      const deleting = k8s.isDeleting(cluster);
      const missing = !k8s.hasFinalizer(cluster, CLUSTER_FINALIZER);
      if (ordering === 'v1.4.4') {
        if (missing) return r.goto('addFinalizer', { finalizers: cluster.finalizers }); // 144-148
        if (deleting) return reconcileDelete(r, cluster); // 150-153
      } else {
        if (deleting) return reconcileDelete(r, cluster); // 146-147
        if (missing) return r.goto('addFinalizer', { finalizers: cluster.finalizers }); // 152-155
      }
      return r.done(); // 155-156: the normal reconcile, outside the model's scope
    },
    steps: {
      addFinalizer: (r) => k8s.addFinalizerStep(r, r.local('finalizers'), CLUSTER_FINALIZER),
      getInfrastructure: (r) => {
        if (r.get(INFRA).code === 200) return r.goto('deleteInfrastructure');
        // 306-308: NotFound, all good; 334: RemoveFinalizer on the copy Reconcile read, which the
        // deferred patch sends only if that changed the copy.
        const finalizers = r.local<k8s.KubeObject['finalizers']>('finalizers');
        return k8s.hasFinalizer(finalizers, CLUSTER_FINALIZER) ? r.goto('removeFinalizer', { finalizers }) : r.done();
      },
      deleteInfrastructure: (r) => {
        const res = r.delete(INFRA);
        return res.code === 200 || res.code === 404 ? r.done() : r.requeue();
      },
      removeFinalizer: (r) => k8s.removeFinalizerStep(r, r.local('finalizers'), CLUSTER_FINALIZER),
    },
  };
}

/**
 * The other holder of a finalizer on the Cluster, which the issue does not name (its reporter's
 * Cluster stayed "deleting" for ever, which needs one): a controller that removes its finalizer
 * once the Cluster is being deleted and its infrastructure object is gone, as a controller
 * guarding a resource outside the Cluster API objects would. Its own manager, its own cache.
 */
const OTHER: k8s.ControllerConfig<State> = {
  name: 'otherController',
  manager: 'other',
  watches: [{ kind: 'Cluster' }, { kind: 'DockerCluster', map: (o) => o.ownerReferences.filter((k) => k.startsWith('Cluster/')) }],
  docs: {
    reconcile: 'Assumed: a Cluster being deleted, with our finalizer, waits for its infrastructure object to be gone.',
    checkInfrastructure: 'Assumed: a live Get of the infrastructure object; gone, the finalizer goes.',
    removeFinalizer: "Assumed: a merge patch of the copy's finalizers less ours.",
  },
  reconcile: (r) => {
    const cluster = r.cached(r.key);
    if (cluster === undefined || !k8s.isDeleting(cluster) || !k8s.hasFinalizer(cluster, OTHER_FINALIZER)) return r.done();
    return r.goto('checkInfrastructure', { finalizers: cluster.finalizers });
  },
  steps: {
    checkInfrastructure: (r) => (r.get(INFRA).code === 404 ? r.goto('removeFinalizer', { finalizers: r.local('finalizers') }) : r.done()),
    removeFinalizer: (r) => k8s.removeFinalizerStep(r, r.local('finalizers'), OTHER_FINALIZER),
  },
};

function variant(ordering: Ordering, expectedViolations: string[], faults: k8s.KubeFaults = {}): Variant<State> {
  const kube = k8s.kubernetes<State>({
    world: { get: (s) => s.kube, set: (s, w) => s.set('kube', w) },
    servers: ['workload'],
    managers: [
      // The ObjectTracker's watch runs an informer on the infrastructure kind (v1.4.4's external.Get reads live all the same; v1.5.0's reads this cache).
      { name: 'capi', server: 'workload', kinds: ['Cluster', 'DockerCluster'] },
      { name: 'other', server: 'workload', kinds: ['Cluster', 'DockerCluster'] },
    ],
    controllers: [clusterController(ordering), OTHER],
    faults,
  });
  const cluster = (s: State) => kube.stored(s, 'workload', CLUSTER);
  // kubectl delete cluster c1, at any moment, once: registry/store.go Delete keeps an object that
  // has finalizers, with a deletionTimestamp.
  const deleteCluster = action<State>('user.deleteCluster', {
    doc: 'kubectl delete cluster c1 (DELETE, no preconditions), once, at any moment.',
    next: (s, _, events) => {
      const c = cluster(s);
      if (c === undefined || k8s.isDeleting(c)) return undefined;
      return kube.request(s, 'workload', (srv) => k8s.delete(srv, CLUSTER), events).state;
    },
  });
  // Just created, with the other controller's finalizer and none of Cluster API's yet; its
  // infrastructure object exists, owned by it. The caches hold each object or have its ADDED
  // event to take in.
  const created = k8s.object({ kind: 'Cluster', name: 'c1', finalizers: [OTHER_FINALIZER], spec: { infrastructureRef: INFRA } });
  const infra = k8s.object({ kind: 'DockerCluster', name: 'c1', ownerReferences: [CLUSTER] });
  const worlds = kube.initialWorlds(
    {
      workload: [
        { versions: [created], reconciled: false },
        { versions: [infra], reconciled: false },
      ],
    },
    { cacheLag: 'any' },
  );
  return {
    name: faults.restarts ? `${ordering}.faults` : ordering,
    description:
      (ordering === 'v1.4.4'
        ? 'Cluster API v1.4.4: the Cluster controller adds its finalizer before it looks at the deletionTimestamp.'
        : 'Cluster API v1.5.0 (PR #8949): the deletion branch first; a Cluster being deleted is never given the finalizer.') +
      (faults.restarts ? ' With faults: a controller-manager restart at any point, informers that coalesce events and resync.' : ''),
    assumptions: [
      'A user deletes the Cluster once, at any moment, from its creation on.',
      `Another controller holds a finalizer (${OTHER_FINALIZER}) on the Cluster from its creation and removes it once the Cluster is being deleted and its infrastructure object is gone (the issue does not say which controller held the reporter's Cluster).`,
      'Scope: the Cluster has no descendants (Machines, MachinePools) and no control plane object; its infrastructure object has no finalizer; the status patch of the deferred patchCluster is left out (it is a request of its own and changes no finalizer).',
      "The ObjectTracker's watch on the infrastructure kind is in place from the start (the controller sets it up on its first normal reconcile).",
      ...kube.assumptions,
    ],
    init: () => worlds.map((w) => State({ kube: w })),
    actions: [deleteCluster, ...kube.actions],
    properties: [
      liveness<State>(
        'DeletedClusterIsEventuallyGone',
        'A Cluster that has been deleted is eventually gone from the API server.',
        leadsTo(
          (s) => cluster(s) !== undefined && k8s.isDeleting(cluster(s)!),
          (s) => cluster(s) === undefined,
        ),
      ),
      ...kube.properties,
    ],
    ...kube.variantFields,
    checkDeadlock: false,
    expectedViolations,
  };
}

export default defineModel({
  name: 'capi-8946',
  description:
    'kubernetes-sigs/cluster-api#8946: a Cluster deleted before the Cluster controller gave it its finalizer, while another finalizer holds it. ' +
    'Is a deleted Cluster eventually gone, with the v1.4.4 controller and with the v1.5.0 one (PR #8949)?',
  reproduces: {
    issue: 'kubernetes-sigs/cluster-api#8946',
    url: 'https://github.com/kubernetes-sigs/cluster-api/issues/8946',
    mechanism:
      'A Cluster deleted before the Cluster controller gave it its finalizer: the controller adds the finalizer first, the API server answers 422 (no new finalizers), and the requeued reconcile never reaches reconcileDelete.',
    uses: [
      'finalizers',
      'the 422 for a new finalizer on a deleting object',
      'cache lag',
      'live and cached reads',
      'liveness under fairness',
      'restarts, coalescing, resync (the fix)',
    ],
    buggy: ['v1.4.4'],
    fixed: ['v1.5.0', 'v1.5.0.faults'],
  },
  variants: [
    variant('v1.4.4', ['DeletedClusterIsEventuallyGone']),
    variant('v1.5.0', []),
    // The fix under the library's faults: a restart loses work in flight, coalesced events and
    // resyncs hand the controllers other sequences of versions.
    variant('v1.5.0', [], { restarts: 1, coalesce: true, resync: true }),
  ],
});
