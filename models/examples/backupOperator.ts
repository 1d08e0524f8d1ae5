// An operator that creates an object, modelled with the public API only: a Backup custom
// resource whose controller runs each backup as a Job it creates, and cleans that Job up when
// the Backup is deleted. A user deletes the Backup at any moment. Question: is a Job ever left
// behind once its Backup is gone? The walk-through of docs/kubernetes.md, "A controller that
// creates objects".
//
// Two ways to clean up, as real operators do:
// - a finalizer on the Backup: on deletion the controller deletes the Job, then removes the
//   finalizer (kubebuilder book, cronjob-tutorial finalizer_example.go: delete external
//   resources, then controllerutil.RemoveFinalizer and Update);
// - an ownerReference on the Job (controllerutil.SetControllerReference) and no finalizer: the
//   API server removes the Backup at once, and kube-controller-manager's garbage collector
//   deletes the Job later (garbagecollector.go attemptToDeleteItem).
//
// The controller reads through the manager's cache (client.Get, client-go informers), which may
// lag; it creates with client.Create and deletes with client.Delete, each a request to the API
// server (kubernetes-sigs/controller-runtime v0.19.3 pkg/client).
import { Record, type List, type RecordOf } from 'immutable';
import { action, defineModel, k8s, leadsTo, liveness, settledInvariant, type Variant } from 'modelcheck';

const BACKUP = k8s.objectKey('Backup', 'nightly');
const JOB = k8s.objectKey('Job', 'nightly-backup');
const FINALIZER = 'backup.example.com/job';

interface BackupStateProps {
  kube: k8s.KubeWorld;
}
type BackupState = RecordOf<BackupStateProps>;
const BackupState = Record<BackupStateProps>({ kube: k8s.emptyWorld() }, 'BackupState');

/** How the controller cleans up, and the mistake a variant makes. */
type Cleanup =
  | 'finalizer' // finalizer on the Backup; on deletion, DELETE the Job, then remove the finalizer
  | 'trustCachedJob' // the same, but the Job is deleted only if the cache shows it (bug)
  | 'ownerReference'; // no finalizer; the Job names the Backup as its owner

/** The Job a Backup runs: owned by the Backup, so that `Owns(&Job{})` maps its events back. */
const job = () => k8s.object({ kind: 'Job', name: 'nightly-backup', ownerReferences: [BACKUP], spec: { backup: 'nightly' } });

/** The steps of cleaning up with a finalizer (none when the Job's ownerReference is the only cleanup). */
const finalizerSteps: Readonly<globalThis.Record<string, k8s.Step<BackupState>>> = {
  addFinalizer: (r) => k8s.addFinalizerStep(r, r.local<List<string>>('finalizers'), FINALIZER),
  deleteJob: (r) => {
    const res = r.delete(JOB);
    if (res.code !== 200 && res.code !== 404) return r.requeue();
    return r.goto('removeFinalizer', { finalizers: r.local<List<string>>('finalizers') });
  },
  removeFinalizer: (r) => k8s.removeFinalizerStep(r, r.local<List<string>>('finalizers'), FINALIZER),
};

function backupController(cleanup: Cleanup): k8s.ControllerConfig<BackupState> {
  const usesFinalizer = cleanup !== 'ownerReference';
  return {
    name: 'backupController',
    manager: 'operator',
    watches: [
      { kind: 'Backup' }, // For(&Backup{})
      { kind: 'Job', map: (o) => o.ownerReferences }, // Owns(&Job{}): EnqueueRequestForOwner
    ],
    docs: {
      reconcile: 'Reconcile: client.Get of the Backup from the cache (NotFound: return), then decide on that copy and on the cached Job.',
      addFinalizer: 'controllerutil.AddFinalizer, then client.Patch (merge); the watch event brings the Backup back.',
      createJob: 'client.Create of the Job, owned by the Backup; an error (409 AlreadyExists) is returned, so the key is requeued.',
      deleteJob: 'client.Delete of the Job; NotFound is ignored (client.IgnoreNotFound), any other error requeues.',
      removeFinalizer: 'controllerutil.RemoveFinalizer, then client.Patch (merge); the last finalizer off lets the Backup go.',
    },
    reconcile: (r) => {
      const backup = r.cached(BACKUP);
      if (backup === undefined) return r.done();
      if (k8s.isDeleting(backup)) {
        if (!k8s.hasFinalizer(backup, FINALIZER)) return r.done();
        const finalizers = { finalizers: backup.finalizers };
        // The bug: "no Job in my cache, so there is none to delete", on a cache that may lag.
        if (cleanup === 'trustCachedJob' && r.cached(JOB) === undefined) return r.goto('removeFinalizer', finalizers);
        return r.goto('deleteJob', finalizers);
      }
      if (usesFinalizer && !k8s.hasFinalizer(backup, FINALIZER)) return r.goto('addFinalizer', { finalizers: backup.finalizers });
      if (r.cached(JOB) === undefined) return r.goto('createJob');
      return r.done();
    },
    steps: {
      createJob: (r) => (r.create(job()).code === 201 ? r.done() : r.requeue()),
      ...(usesFinalizer ? finalizerSteps : {}),
    },
  };
}

function variant(
  name: string,
  description: string,
  cleanup: Cleanup,
  garbageCollector: boolean,
  expectedViolations: string[],
): Variant<BackupState> {
  const kube = k8s.kubernetes<BackupState>({
    world: { get: (s) => s.kube, set: (s, w) => s.set('kube', w) },
    servers: ['main'],
    managers: [{ name: 'operator', server: 'main', kinds: ['Backup', 'Job'] }],
    controllers: [backupController(cleanup)],
    garbageCollector: garbageCollector ? ['main'] : [],
  });
  const stored = (s: BackupState, key: k8s.ObjectKey) => kube.stored(s, 'main', key);
  // kubectl delete backup nightly: once, at any moment (registry/store.go Delete).
  const deleteBackup = action<BackupState>('user.deleteBackup', {
    doc: 'kubectl delete backup nightly (DELETE, background propagation), once, at any moment.',
    next: (s, _, events) => {
      const backup = stored(s, BACKUP);
      if (backup === undefined || k8s.isDeleting(backup)) return undefined;
      return kube.request(s, 'main', (srv) => k8s.delete(srv, BACKUP), events).state;
    },
  });
  // The Backup has just been created; the cache holds it, or has its ADDED event to take in.
  const created = k8s.object({ kind: 'Backup', name: 'nightly', spec: { schedule: '@daily' } });
  const worlds = kube.initialWorlds({ main: [{ versions: [created], reconciled: false }] }, { cacheLag: 'any' });
  const backupGone = (s: BackupState) => stored(s, BACKUP) === undefined;
  return {
    name,
    description,
    assumptions: kube.assumptions,
    init: () => worlds.map((w) => BackupState({ kube: w })),
    actions: [deleteBackup, ...kube.actions],
    properties: [
      // The user's DELETE stays enabled until it is sent, so every settled state comes after it.
      settledInvariant<BackupState>(
        'NoOrphanJobAtRest',
        'When everything has come to rest, the Backup is gone and so is its Job.',
        (s) => backupGone(s) && stored(s, JOB) === undefined,
      ),
      liveness<BackupState>(
        'DeletedBackupLeavesNoJob',
        'Once the Backup is being deleted, eventually it and its Job are both gone.',
        leadsTo(
          (s) => backupGone(s) || k8s.isDeleting(stored(s, BACKUP)!),
          (s) => backupGone(s) && stored(s, JOB) === undefined,
        ),
      ),
      ...kube.properties,
    ],
    // The informer, the controller's workers and the collector keep running; the user need not act.
    fairness: kube.fairness,
    coverage: kube.coverage,
    view: (s) => kube.view(s),
    checkDeadlock: false,
    expectedViolations,
  };
}

export default defineModel({
  name: 'backup-operator',
  description: 'A Backup custom resource whose controller creates a Job, against a user deleting the Backup at any moment.',
  variants: [
    variant('finalizer', 'A finalizer on the Backup: delete the Job, then remove the finalizer.', 'finalizer', false, []),
    variant('trustCachedJob', 'Bug: on deletion, delete the Job only if the cache shows it.', 'trustCachedJob', false, [
      'NoOrphanJobAtRest',
      'DeletedBackupLeavesNoJob',
    ]),
    variant('ownerReference', 'No finalizer: the Job is owned by the Backup, and the garbage collector runs.', 'ownerReference', true, []),
    variant(
      'ownerReferenceWithoutGC',
      'The same controller where no garbage collector runs: ownerReferences alone delete nothing.',
      'ownerReference',
      false,
      ['NoOrphanJobAtRest', 'DeletedBackupLeavesNoJob'],
    ),
  ],
});
