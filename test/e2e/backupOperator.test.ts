// models/examples/backupOperator.ts, the walk-through of docs/kubernetes.md ("A controller that
// creates objects"): every variant run through the CLI, with its verdict, the exact set of
// violated properties, the exact counterexamples and the state counts.
//
// The state counts are regression figures: they come from the runs these assertions were written
// against (2026-12-04, one thread; no other tool has checked this model). A change to the model,
// the library or the engine that moves them must say why.
//
// The counterexamples were read against the model by hand.
// trustCachedJob, the stale-cache bug (12 steps):
//   1 reconcile        the cache holds the new Backup without our finalizer -> addFinalizer
//   2 addFinalizer     PATCH finalizers [ours]: 200, resourceVersion 2
//   3 user.delete      the Backup keeps our finalizer, so it gets a deletionTimestamp (rv 3)
//   4 sync             the cache takes in rv 2 (finalizer, not deleting); queued again
//   5 reconcile        finalizer, not deleting, no Job in the cache -> createJob
//   6 sync             the cache takes in rv 3 (deleting); queued again
//   7 createJob        CREATE Job: 201; its ADDED event waits in the informer
//   8 reconcile        deleting, our finalizer, and no Job in the cache -> removeFinalizer (the bug)
//   9 sync             the cache takes in the Job's ADDED event; queued again
//  10 removeFinalizer  PATCH finalizers []: the Backup is removed from storage; the Job stays
//  11 sync, 12 reconcile: the DELETED event and a reconcile that finds no Backup; at rest, the Job
//                      is an orphan. The liveness counterexample is the same path, stuck there.
// ownerReferenceWithoutGC (6 steps): the user's DELETE removes the Backup at once (no finalizer);
// a reconcile that read the Backup before the cache took in its DELETED event creates the Job,
// owned by a Backup that is gone; nothing ever deletes it. With the garbage collector
// (ownerReference) the same Job is deleted in the background, and the variant is proved.
import { describeExampleVariant } from '../helpers/moveVariant.ts';

const MODEL = 'models/examples/backupOperator.ts';

const staleCache = [
  null,
  'backupController.reconcile(Backup/nightly)',
  'backupController.addFinalizer(Backup/nightly)',
  'user.deleteBackup',
  'operatorCache.sync(Backup/nightly)',
  'backupController.reconcile(Backup/nightly)',
  'operatorCache.sync(Backup/nightly)',
  'backupController.createJob(Backup/nightly)',
  'backupController.reconcile(Backup/nightly)',
  'operatorCache.sync(Job/nightly-backup)',
  'backupController.removeFinalizer(Backup/nightly)',
  'operatorCache.sync(Backup/nightly)',
  'backupController.reconcile(Backup/nightly)',
];

const orphanedByCreate = [
  null,
  'user.deleteBackup',
  'backupController.reconcile(Backup/nightly)',
  'operatorCache.sync(Backup/nightly)',
  'backupController.createJob(Backup/nightly)',
  'operatorCache.sync(Job/nightly-backup)',
  'backupController.reconcile(Backup/nightly)',
];

describeExampleVariant(MODEL, 'finalizer', {
  verdict: 'proved',
  counts: { distinct: 53, generated: 90, depth: 16 },
  traces: {},
});

describeExampleVariant(MODEL, 'trustCachedJob', {
  verdict: 'violated',
  counts: { distinct: 54, generated: 89, depth: 17 },
  traces: { NoOrphanJobAtRest: staleCache, DeletedBackupLeavesNoJob: staleCache },
  // The lasso stutters in its last state: no fair step can change it there (cycleFairness says which).
  lassos: { DeletedBackupLeavesNoJob: { loop: 12, loopAction: null } },
});

describeExampleVariant(MODEL, 'ownerReference', {
  verdict: 'proved',
  counts: { distinct: 26, generated: 49, depth: 8 },
  traces: {},
});

describeExampleVariant(MODEL, 'ownerReferenceWithoutGC', {
  verdict: 'violated',
  counts: { distinct: 19, generated: 29, depth: 7 },
  traces: { NoOrphanJobAtRest: orphanedByCreate, DeletedBackupLeavesNoJob: orphanedByCreate },
  lassos: { DeletedBackupLeavesNoJob: { loop: 6, loopAction: null } },
});
