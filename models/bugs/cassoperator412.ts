// datastax/cass-operator#412, "PVC can be deleted mistakenly when reading stale deletionTimestamp
// information" (filed by the Sieve authors; re-filed as k8ssandra/cass-operator#118, still open;
// Sieve's stale-state bug K8SSAND-559: "storage volumes of Cassandra replicas wrongly deleted"),
// and the fix its reporters proposed (datastax PR #416, k8ssandra PR #122; neither merged). A
// CassandraDatacenter is deleted and created again under its name; the operator restarts against
// an API server whose watch cache still shows the old one being deleted, and its deletion handling
// deletes the PVCs it lists by the datacenter's name: now the new datacenter's volumes. The search
// is given the operator as written, a user who deletes and re-creates the datacenter, one restart
// that may reach a lagging API server, and asked whether a live datacenter's volume is ever deleted.
//
// Code followed:
// - datastax/cass-operator at dbd4f7a10533bb2298aed0d40ea20bfd8c133da2 (the commit Sieve tested:
//   sieve-project/sieve examples/cass-operator/config.json 3-4, docs/reprod.md 24-34), operator/pkg/:
//   controller/cassandradatacenter/cassandradatacenter_controller.go 50-56 (the watch, with
//   GenerationChangedPredicate: a relist's ADDED passes); reconciliation/handler.go Reconcile
//   211-275 (a cached Get of the datacenter, context.go 132-138), calculateReconciliationActions
//   129-177 (ProcessDeletion first, 140; then addFinalizer, 144), addFinalizer 277-290 (an Update);
//   reconciliation/reconcile_datacenter.go ProcessDeletion 20-59 (only deletionTimestamp is
//   checked, 21; deletePVCs, 38; the finalizers set to nil and an Update of the cached copy,
//   50-56), deletePVCs 61-94 (a Delete of each listed PVC, no preconditions, 83), listPVCs 96-116
//   (a cached List selected by the datacenter's name label, 99-101).
// - PR #416 (datastax, head b574dce834c12a0f089987d7521a28f10f297217): a datacenterUID label on
//   the PVCs (cassandradatacenter_types.go 28-29, 515-519) and listPVCs selecting on it too
//   (reconcile_datacenter.go 99-102).
// - Sieve's test plan bug_reproduction_test_plans/cass-operator-stale-state-1.yaml 1-45: an API
//   server paused after it sees the deletionTimestamp, the operator restarted against it when the
//   new PVC is created (sieve_server/common.go restartAndreconnectController 209-281).
import { Record, type RecordOf } from 'immutable';
import { action, actionProperty, defineModel, k8s, type Variant } from 'modelcheck';

const DC = k8s.objectKey('CassandraDatacenter', 'dc');
const PVC = k8s.objectKey('PersistentVolumeClaim', 'server-data-dc-sts-0');
/** handler.go 280. */
const FINALIZER = 'finalizer.cassandra.datastax.com';
/** api.DatacenterLabel; PR #416's DatacenterUID. */
const DATACENTER_LABEL = 'cassandra.datastax.com/datacenter';
const DATACENTER_UID_LABEL = 'cassandra.datastax.com/datacenterUID';

interface StateProps {
  kube: k8s.KubeWorld;
  /** The user's progress: 0, the first datacenter is up; 1, it has been deleted; 2, created again. */
  user: number;
  /** Ghost: the uid of the datacenter whose StatefulSet made the stored PVC ('' for none). */
  pvcFor: string;
}
type State = RecordOf<StateProps>;
const State = Record<StateProps>({ kube: k8s.emptyWorld(), user: 0, pvcFor: '' }, 'CassOperator412State');

type Code = 'dbd4f7a' | 'pr416' | 'pr416+preconditions';

/** GenerationChangedPredicate (controller-runtime v0.5.2 predicate.go 118-157): creates pass, updates only with a new generation. */
const generationChanged = (e: k8s.HandlerEvent): boolean =>
  e.type !== 'MODIFIED' || e.old === undefined || e.old.generation !== e.object.generation;

function operator(code: Code): k8s.ControllerConfig<State> {
  return {
    name: 'cassOperator',
    manager: 'operator',
    watches: [{ kind: 'CassandraDatacenter', predicate: generationChanged }],
    docs: {
      reconcile:
        'Reconcile 211-275: a cached Get of the datacenter; ProcessDeletion (21: deletionTimestamp set?), else addFinalizer 277-290.',
      addFinalizer: 'addFinalizer 280-283: the finalizer set on the cached copy, then an Update.',
      deletePVC:
        code === 'pr416+preconditions'
          ? 'deletePVCs 83, with Preconditions{UID} of the listed PVC (a design alternative of ours).'
          : 'deletePVCs 83: a Delete of the listed PVC, by name, no preconditions.',
      removeFinalizer: 'ProcessDeletion 50-56: the finalizers set to nil on the cached copy, then an Update.',
    },
    reconcile: (r) => {
      const dc = r.cached(r.key);
      if (dc === undefined) return r.done();
      if (!k8s.isDeleting(dc)) return dc.finalizers.isEmpty() ? r.goto('addFinalizer', { dc }) : r.done(); // the rest is out of scope
      // ProcessDeletion: setOperatorProgressStatus (a status merge patch) is left out; deletePVCs lists by label from the cache.
      const selector: globalThis.Record<string, string> =
        code === 'dbd4f7a' ? { [DATACENTER_LABEL]: dc.name } : { [DATACENTER_LABEL]: dc.name, [DATACENTER_UID_LABEL]: dc.uid };
      const pvcs = r.list('PersistentVolumeClaim').filter((o) => k8s.matchesLabels(o, selector));
      return pvcs.length > 0 ? r.goto('deletePVC', { pvc: pvcs[0], dc }) : r.goto('removeFinalizer', { dc });
    },
    steps: {
      addFinalizer: (r) => {
        const dc = r.local<k8s.KubeObject>('dc');
        return r.update(dc.set('finalizers', k8s.withFinalizer(dc, FINALIZER))).code === 200 ? r.done() : r.requeue();
      },
      deletePVC: (r) => {
        const pvc = r.local<k8s.KubeObject>('pvc');
        const res = code === 'pr416+preconditions' ? r.delete(k8s.keyOf(pvc), { uid: pvc.uid }) : r.delete(k8s.keyOf(pvc));
        // An error returns from ProcessDeletion (39-42): requeued. NotFound too (the Delete's error).
        return res.code === 200 ? r.goto('removeFinalizer', { dc: r.local('dc') }) : r.requeue();
      },
      removeFinalizer: (r) => {
        const dc = r.local<k8s.KubeObject>('dc');
        return r.update(dc.set('finalizers', k8s.withoutFinalizer(dc, FINALIZER))).code === 200 ? r.done() : r.requeue();
      },
    },
  };
}

function variant(code: Code, expectedViolations: string[], faults: k8s.KubeFaults): Variant<State> {
  const kube = k8s.kubernetes<State>({
    world: { get: (s) => s.kube, set: (s, w) => s.set('kube', w) },
    servers: ['main'],
    // PVCs are read through an informer the first List starts (controller-runtime v0.5.2 split.go 45-61): cached.
    managers: [{ name: 'operator', server: 'main', kinds: ['CassandraDatacenter', 'PersistentVolumeClaim'] }],
    controllers: [operator(code)],
    uids: true,
    faults,
  });
  const dcOf = (s: State) => kube.stored(s, 'main', DC);
  const dc = k8s.object({ kind: 'CassandraDatacenter', name: 'dc', spec: { size: 1 } });
  /** The PVC the StatefulSet controller makes for the datacenter `owner` (its volumeClaimTemplates' labels: the operator's). */
  const pvcFor = (owner: k8s.KubeObject) =>
    k8s.object({
      kind: 'PersistentVolumeClaim',
      name: 'server-data-dc-sts-0',
      labels: code === 'dbd4f7a' ? { [DATACENTER_LABEL]: 'dc' } : { [DATACENTER_LABEL]: 'dc', [DATACENTER_UID_LABEL]: owner.uid },
    });
  const first = dc.merge({ uid: 'CassandraDatacenter/dc#1', finalizers: dc.finalizers.push(FINALIZER) });
  const worlds = kube.initialWorlds(
    {
      main: [
        { versions: [dc, first], reconciled: true },
        { versions: [pvcFor(first)], reconciled: true },
      ],
    },
    { cacheLag: 'none' },
  );
  const deleteDatacenter = action<State>('user.deleteDatacenter', {
    doc: 'kubectl delete cassandradatacenter dc (the first one, once).',
    next: (s, _, events) => {
      if (s.user !== 0) return undefined;
      return kube.request(s, 'main', (srv) => k8s.delete(srv, DC), events).state.set('user', 1);
    },
  });
  const createDatacenter = action<State>('user.createDatacenter', {
    doc: 'kubectl apply -f cdc-1.yaml again, once the first is gone: the same name, a new UID (Sieve workload "recreate").',
    next: (s, _, events) => {
      if (s.user !== 1 || dcOf(s) !== undefined) return undefined;
      const res = kube.request(s, 'main', (srv, c) => k8s.create(srv, dc, { fresh: c.fresh() }), events);
      return res.state.set('user', 2);
    },
  });
  // The operator's StatefulSet and the StatefulSet controller, abstracted: once the operator has
  // reconciled a live datacenter (its finalizer is on), the StatefulSet's pod gets its PVC.
  const createPvc = action<State>('statefulSetController.createPVC', {
    doc: 'The StatefulSet controller creates the PVC from the volumeClaimTemplates the operator wrote for the datacenter it reconciled.',
    next: (s, _, events) => {
      const owner = dcOf(s);
      if (owner === undefined || k8s.isDeleting(owner) || !k8s.hasFinalizer(owner, FINALIZER)) return undefined;
      // Once per datacenter: a claim the operator deletes is not made again (its pod still holds it).
      if (kube.stored(s, 'main', PVC) !== undefined || s.pvcFor === owner.uid) return undefined;
      const res = kube.request(s, 'main', (srv, c) => k8s.create(srv, pvcFor(owner), { fresh: c.fresh() }), events);
      return res.state.set('pvcFor', owner.uid);
    },
  });
  const label = code === 'dbd4f7a' ? code : code === 'pr416' ? 'pr416' : 'pr416+preconditions';
  return {
    name: faults.timeTravel ? `${label}.timeTravel` : `${label}.restart`,
    description:
      (code === 'dbd4f7a'
        ? 'cass-operator at dbd4f7a (the commit Sieve tested): PVCs listed by the datacenter name label, deleted without preconditions.'
        : code === 'pr416'
          ? 'PR #416 (proposed, not merged): PVCs labelled with the datacenter UID and listed by it too.'
          : 'PR #416 and a DELETE with Preconditions{UID} of the listed PVC (a design alternative of ours, not upstream).') +
      (faults.timeTravel
        ? ' One restart, which may reach an API server whose cache lags.'
        : ' One restart, against an up-to-date API server.'),
    assumptions: [
      'A user deletes the CassandraDatacenter once and, once it is gone, creates it again under its name (Sieve workload "recreate").',
      "Scope: one rack of one pod, one PVC; the operator's StatefulSet and the StatefulSet controller are one step that creates the PVC of a reconciled datacenter, once per datacenter (a claim the operator deletes is not made again: its pod still holds it); the PVC has no finalizer (pvc-protection is left out: a Terminating volume is lost once its pod goes); the operator's status patch and the rest of its reconcile are left out.",
      'Ghost: the model records which datacenter each PVC was made for; the operator never reads it.',
      ...kube.assumptions,
    ],
    init: () => worlds.map((w) => State({ kube: w, pvcFor: 'CassandraDatacenter/dc#1' })),
    actions: [deleteDatacenter, createDatacenter, createPvc, ...kube.actions],
    properties: [
      actionProperty<State>(
        'NoVolumeOfALiveDatacenterDeleted',
        'No step deletes the PVC of a CassandraDatacenter that is stored and not being deleted.',
        (s, t) => {
          const before = kube.stored(s, 'main', PVC);
          const after = kube.stored(t, 'main', PVC);
          const deleted = before !== undefined && !k8s.isDeleting(before) && (after === undefined || k8s.isDeleting(after));
          if (!deleted) return true;
          const owner = dcOf(t);
          return owner === undefined || k8s.isDeleting(owner) || owner.uid !== s.pvcFor;
        },
      ),
      ...kube.properties,
    ],
    ...kube.variantFields,
    checkDeadlock: false,
    expectedViolations,
  };
}

export default defineModel({
  name: 'cass-operator-412',
  description:
    'datastax/cass-operator#412: a CassandraDatacenter deleted and created again, and an operator restarted against a lagging API server. ' +
    "Is a live datacenter's volume ever deleted, in the code Sieve tested and with the fix its reporters proposed?",
  reproduces: {
    issue: 'datastax/cass-operator#412',
    url: 'https://github.com/datastax/cass-operator/issues/412',
    mechanism:
      "After a restart against a lagging API server the operator sees the old datacenter being deleted and deletes the PVCs it lists by the datacenter's name: the new datacenter's. The proposed fix (a UID label) closes Sieve's scenario, where only the datacenter's watch lagged; the search finds that an API server behind on the PVCs too still lists the old claim by the old UID, and the DELETE by name removes the new one; a DELETE with a UID precondition closes that.",
    uses: ['time travel (a restart against a lagging API server)', 'UIDs', 'labels', 'DELETE preconditions (the alternative)'],
    buggy: ['dbd4f7a.timeTravel'],
    fixed: ['pr416.timeTravel', 'pr416+preconditions.timeTravel'],
  },
  variants: [
    variant('dbd4f7a', [], { restarts: 1 }),
    variant('dbd4f7a', ['NoVolumeOfALiveDatacenterDeleted'], { restarts: 1, timeTravel: true }),
    // A finding: the UID label closes Sieve's scenario (only the datacenter's watch paused), not an
    // API server behind on the PVCs too, from which the old claim is listed by the old UID and
    // the new one deleted by its name.
    variant('pr416', ['NoVolumeOfALiveDatacenterDeleted'], { restarts: 1, timeTravel: true }),
    variant('pr416+preconditions', [], { restarts: 1, timeTravel: true }),
  ],
});
