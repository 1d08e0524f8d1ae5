// models/examples/appController.ts, the Kubernetes library's worked example (docs/kubernetes.md):
// every variant run through the CLI, with its verdict, the exact set of violated properties, the
// exact counterexamples and the state counts.
//
// The state counts are regression figures: they come from the runs these assertions were written
// against (2026-12-04, one thread; no other tool has checked this model). A change to the model,
// the library or the engine that moves them must say why.
//
// The counterexamples were read against the model by hand. Both bugs are reached by the same ten
// steps, for different reasons:
//   1 reconcile       the cache holds the new App without our finalizer -> addFinalizer
//   2 addFinalizer    PATCH finalizers [ours]: 200, resourceVersion 2; the reconcile returns
//   3 user.deleteApp  DELETE: the App keeps our finalizer, so it gets a deletionTimestamp (rv 3)
//   4 sync            the cache takes in rv 2 (finalizer, not deleting); App/a1 queued again
//   5 reconcile       finalizer, not deleting, no BucketReady -> ensureBucket
//   6 sync            the cache takes in rv 3 (deleting); App/a1 queued again (it is being reconciled)
//   7 ensureBucket    the bucket is created, on an App that is already being deleted
//   8 patchStatus     PATCH BucketReady=True: 200, rv 4; its event waits
//   9 reconcile       the cache shows rv 3: deleting, our finalizer, no BucketReady
//  10 removeFinalizer PATCH finalizers []: the App is removed from storage; the bucket exists
// In removeFinalizerFirst, step 9 goes to removeFinalizer because that variant always does; the
// bucket would be deleted by the next step. In trustCachedStatus it goes there because the cached
// copy lacks BucketReady (rv 4 has not been taken in): the stale-cache bug. That reconcile returns
// after the patch, so the bucket stays for good; the settled-state counterexample adds the cache
// taking in rv 4 before the patch and the DELETED event and its reconcile (NotFound) after it.
import { describeExampleVariant } from '../helpers/moveVariant.ts';

const MODEL = 'models/examples/appController.ts';

const toLeak = [
  null,
  'appController.reconcile(App/a1)',
  'appController.addFinalizer(App/a1)',
  'user.deleteApp',
  'managerCache.sync(App/a1)',
  'appController.reconcile(App/a1)',
  'managerCache.sync(App/a1)',
  'appController.ensureBucket(App/a1)',
  'appController.patchStatus(App/a1)',
  'appController.reconcile(App/a1)',
  'appController.removeFinalizer(App/a1)',
];

describeExampleVariant(MODEL, 'correct', {
  verdict: 'proved',
  counts: { distinct: 52, generated: 76, depth: 16 },
  traces: {},
});

describeExampleVariant(MODEL, 'correctWithFaults', {
  verdict: 'proved',
  counts: { distinct: 113, generated: 223, depth: 16 },
  traces: {},
});

describeExampleVariant(MODEL, 'removeFinalizerFirst', {
  verdict: 'violated',
  counts: { distinct: 54, generated: 81, depth: 15 },
  traces: { BucketNeverLeaked: toLeak },
});

describeExampleVariant(MODEL, 'trustCachedStatus', {
  verdict: 'violated',
  counts: { distinct: 54, generated: 78, depth: 17 },
  traces: {
    BucketNeverLeaked: toLeak,
    SettledAllGone: [
      ...toLeak.slice(0, 10),
      'managerCache.sync(App/a1)',
      'appController.removeFinalizer(App/a1)',
      'managerCache.sync(App/a1)',
      'appController.reconcile(App/a1)',
    ],
  },
});
