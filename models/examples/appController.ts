// A small controller that is not Cluster API, modelled with modelcheck's Kubernetes library: the
// finalizer pattern of the kubebuilder book (docs/book/src/cronjob-tutorial/testdata/
// finalizer_example.go in kubernetes-sigs/kubebuilder). An App custom resource gets our
// finalizer, then an external resource (a cloud bucket, say) and a status condition saying the
// bucket exists; once the App is being deleted, the controller deletes the bucket and then
// removes its finalizer. A user DELETEs the App at any moment. Question: is the bucket ever left
// behind once the App is gone? Documented in docs/kubernetes.md, "Modelling your own controller".
//
// Code cited: kubernetes-sigs/controller-runtime pkg/controller/controllerutil/controllerutil.go
// (AddFinalizer, RemoveFinalizer), pkg/client/patch.go (MergeFrom); kubernetes/apiserver
// pkg/registry/generic/registry/store.go (Delete, Update); kubernetes/apimachinery
// pkg/api/validation/objectmeta.go (ValidateNoNewFinalizers).
import { OrderedMap, Record, type RecordOf } from 'immutable';
import { action, defineModel, invariant, k8s, leadsTo, liveness, settledInvariant, type Variant } from 'modelcheck';

const APP = k8s.objectKey('App', 'a1');
const FINALIZER = 'apps.example.com/bucket';
const READY = 'BucketReady';

interface AppStateProps {
  kube: k8s.KubeWorld;
  /** The external resource, outside Kubernetes: whether the bucket exists. */
  bucket: boolean;
}
type AppState = RecordOf<AppStateProps>;
const AppState = Record<AppStateProps>({ kube: k8s.emptyWorld(), bucket: false }, 'AppState');

/** The bugs a variant puts in the controller; 'none' is the correct one. */
type Bug = 'none' | 'removeFinalizerFirst' | 'trustCachedStatus';

/** A step's one request: a merge patch without resourceVersion (client.Patch with client.MergeFrom). */
const patch = (r: k8s.StepContext<AppState>, body: k8s.MergePatch) => r.mergePatch(r.key, body).code === 200;

function appController(bug: Bug): k8s.ControllerConfig<AppState> {
  return {
    name: 'appController',
    manager: 'manager',
    watches: [{ kind: 'App' }], // For(&App{})
    docs: {
      reconcile: 'Reconcile: client.Get from the cache (IgnoreNotFound), then decide on that copy.',
      addFinalizer: 'controllerutil.AddFinalizer, then client.Patch (merge); the watch event requeues.',
      ensureBucket: 'Create the bucket if it does not exist (idempotent, outside Kubernetes).',
      patchStatus: 'client.Status().Patch: condition BucketReady=True.',
      deleteBucket: 'deleteExternalResources: delete the bucket if it exists (idempotent).',
      removeFinalizer: 'controllerutil.RemoveFinalizer, then client.Patch (merge).',
    },
    // client.Get reads the manager's cache, which may lag the API server.
    reconcile: (r) => {
      const app = r.cached(r.key);
      if (!app) return r.done(); // NotFound: nothing to do
      if (k8s.isDeleting(app)) {
        if (!k8s.hasFinalizer(app, FINALIZER)) return r.done();
        // Bug: the finalizer goes before the bucket (a crash between the two leaks it for good).
        if (bug === 'removeFinalizerFirst') return r.goto('removeFinalizer', { app });
        // Bug: "no BucketReady on my copy, so there is no bucket to delete", on a cached copy.
        if (bug === 'trustCachedStatus' && k8s.conditionStatus(app, READY) !== true) return r.goto('removeFinalizer', { app });
        return r.goto('deleteBucket', { app });
      }
      if (!k8s.hasFinalizer(app, FINALIZER)) return r.goto('addFinalizer', { app });
      return r.goto('ensureBucket', { ready: k8s.conditionStatus(app, READY) === true });
    },
    steps: {
      // The patch carries the cached list plus ours; the API server answers 422 if the App is
      // being deleted by now (apimachinery ValidateNoNewFinalizers), 404 if it is gone.
      addFinalizer: (r) => (patch(r, { finalizers: k8s.withFinalizer(r.local('app'), FINALIZER) }) ? r.done() : r.requeue()),
      ensureBucket: (r) => {
        r.effect((s) => s.set('bucket', true));
        return r.local<boolean>('ready') ? r.done() : r.goto('patchStatus');
      },
      patchStatus: (r) => (patch(r, { conditions: { [READY]: true } }) ? r.done() : r.requeue()),
      deleteBucket: (r) => {
        r.effect((s) => s.set('bucket', false));
        return bug === 'removeFinalizerFirst' ? r.done() : r.goto('removeFinalizer', { app: r.local('app') });
      },
      // The last finalizer off a deleting App: the API server removes it from storage at once
      // (registry/store.go Update -> ShouldDeleteDuringUpdate -> deleteWithoutFinalizers).
      removeFinalizer: (r) => {
        if (!patch(r, { finalizers: k8s.withoutFinalizer(r.local('app'), FINALIZER) })) return r.requeue();
        return bug === 'removeFinalizerFirst' ? r.goto('deleteBucket', { app: r.local('app') }) : r.done();
      },
    },
  };
}

/** What the controller reads of an App: no resourceVersion (it never sends one), so caches that differ only there are one state. */
const readByController = (o: k8s.KubeObject) =>
  k8s.KubeObject({
    kind: o.kind,
    name: o.name,
    finalizers: o.finalizers,
    deletionTimestamp: o.deletionTimestamp,
    conditions: o.conditions,
  });

function variant(name: string, description: string, bug: Bug, faults: k8s.KubeFaults, expectedViolations: string[]): Variant<AppState> {
  const kube = k8s.kubernetes<AppState>({
    world: { get: (s) => s.kube, set: (s, w) => s.set('kube', w) },
    servers: ['main'],
    managers: [{ name: 'manager', server: 'main', kinds: ['App'], view: readByController }],
    controllers: [appController(bug)],
    faults,
  });
  const app = (s: AppState) => kube.stored(s, 'main', APP);
  // kubectl delete app a1: registry/store.go Delete. With finalizers the App is kept with a
  // deletionTimestamp (updateForGracefulDeletionAndFinalizers); without, it is removed at once.
  const deleteApp = action<AppState>('user.deleteApp', {
    doc: 'kubectl delete app a1 (DELETE, no preconditions), once, at any moment.',
    next: (s, _, events) => {
      const a = app(s);
      if (a === undefined || k8s.isDeleting(a)) return undefined;
      return kube.request(s, 'main', (srv) => k8s.delete(srv, APP), events).state;
    },
  });
  // The App has just been created: no finalizer yet; the cache holds it or has its ADDED event to take in.
  const created = k8s.object({ kind: 'App', name: 'a1' });
  const worlds = kube.initialWorlds({ main: [{ versions: [created], reconciled: false }] }, { cacheLag: 'any' });
  return {
    name,
    description,
    assumptions: kube.assumptions,
    init: () => worlds.map((w) => AppState({ kube: w })),
    actions: [deleteApp, ...kube.actions],
    properties: [
      invariant<AppState>('BucketNeverLeaked', 'Once the App is gone, its bucket is gone.', (s) => app(s) !== undefined || !s.bucket),
      // The user's DELETE stays enabled until it is sent, so every settled state comes after it.
      settledInvariant<AppState>(
        'SettledAllGone',
        'When everything has come to rest, the App and its bucket are both gone.',
        (s) => app(s) === undefined && !s.bucket,
      ),
      liveness<AppState>(
        'DeletedAppEventuallyGone',
        'An App being deleted is eventually gone.',
        leadsTo(
          (s) => app(s) !== undefined && k8s.isDeleting(app(s)!),
          (s) => app(s) === undefined,
        ),
      ),
      ...kube.properties,
    ],
    // The informer and the controller's workers keep running (weak fairness per object key); the user need not act.
    fairness: kube.fairness,
    coverage: kube.coverage,
    view: (s) => kube.view(s).merge(OrderedMap<string, unknown>([['bucket', s.bucket ? 'exists' : 'absent']])),
    checkDeadlock: false,
    expectedViolations,
  };
}

export default defineModel({
  name: 'app-controller',
  description:
    'A finalizer that guards an external resource (a bucket) of an App custom resource, against a user deleting the App at any moment.',
  variants: [
    variant('correct', 'Delete the bucket, then remove the finalizer.', 'none', {}, []),
    variant(
      'correctWithFaults',
      'The same controller; one controller-manager restart, informers that may coalesce events.',
      'none',
      { restarts: 1, coalesce: true },
      [],
    ),
    variant('removeFinalizerFirst', 'Bug: remove the finalizer, then delete the bucket.', 'removeFinalizerFirst', {}, [
      'BucketNeverLeaked',
    ]),
    variant('trustCachedStatus', 'Bug: skip the bucket when the cached App has no BucketReady condition.', 'trustCachedStatus', {}, [
      'BucketNeverLeaked',
      'SettledAllGone',
    ]),
  ],
});
