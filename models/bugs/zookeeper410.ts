// pravega/zookeeper-operator#410, "Unexpected resource creation when the ZookeeperCluster is
// already deleted" (filed by the Sieve authors, reproduced by Sieve as its "indirect bug 1"), and
// the fix proposed in PR #530 (commit ea2812bc, head d383afb5; open, not merged, as of the
// mirror's master 462635bc). The operator's Reconcile runs its steps in a fixed order, the
// finalizer's first: on a ZookeeperCluster being deleted it deletes the PVCs and removes its
// finalizer, and then goes on with the other steps, which read their objects from the cache
// and create the ones they do not find. Once the garbage collector has deleted the cluster's
// ConfigMap and StatefulSet and the cache has seen it, the same pass creates them again, owned
// by a cluster that is gone. The search is given the operator as written, a user who deletes
// the cluster at any moment and the garbage collector, and asked whether anything is ever
// created owned by a ZookeeperCluster that is gone.
//
// Code followed (pravega/zookeeper-operator):
// - commit 5c46a5c1aab4fda55b561b6852d9636372add0c6 (master when the issue was filed; tags
//   v0.2.14 and v0.2.15 and master 462635bc have the same code in controllers/), file
//   pkg/controller/zookeepercluster/zookeepercluster_controller.go: the watches 73-103 (the
//   cluster, EnqueueRequestForObject, and its StatefulSets, EnqueueRequestForOwner IsController,
//   both with GenerationChangedPredicate); Reconcile 122-176 (a cached Get 130-141; the steps in
//   order 160-173, stopping at the first error; RequeueAfter ReconcileTime 175);
//   reconcileFinalizers 731-755 (on a deleting cluster with the finalizer: cleanUpAllPVCs, then
//   the finalizer removed with a full Update, then return nil, 754); reconcileConfigMap 549-581
//   and reconcileStatefulSet 217-306 (a cached Get; NotFound: Create with the cluster as
//   controller owner; found: Update); reconcileClusterStatus 583-647 (Status().Update of the
//   cluster); cleanUpAllPVCs 790-826 (a cached List by label, a Delete each); pkg/utils/
//   finalizer_utils.go 19 (the finalizer's name).
// - PR #530, commit ea2812bc, the same file in controllers/ (head d383afb5): reconcileFinalizers
//   is called before the step loop (107-112) and returns ErrFinalizerDone on any cluster being
//   deleted, which Reconcile turns into success without a requeue.
import { Record, type RecordOf } from 'immutable';
import { action, actionProperty, defineModel, k8s, type Variant } from 'modelcheck';

/** pkg/utils/finalizer_utils.go 19. */
const FINALIZER = 'cleanUpZookeeperPVC';

interface StateProps {
  kube: k8s.KubeWorld;
}
type State = RecordOf<StateProps>;
const State = Record<StateProps>({ kube: k8s.emptyWorld() }, 'Zookeeper410State');

type Code = '5c46a5c1' | 'pr530';

/** controller-runtime's predicate.GenerationChangedPredicate: an update passes only if the generation changed. */
const generationChanged = (e: k8s.HandlerEvent): boolean =>
  e.type !== 'MODIFIED' || e.old === undefined || e.old.generation !== e.object.generation;

/** The objects a pass makes for cluster `name` (zk.MakeConfigMap, zk.MakeStatefulSet), the cluster their controller owner. */
const configMap = (name: string) =>
  k8s.object({ kind: 'ConfigMap', name: `${name}-configmap`, ownerReferences: [k8s.objectKey('ZookeeperCluster', name)] });
const statefulSet = (name: string) =>
  k8s.object({ kind: 'StatefulSet', name, ownerReferences: [k8s.objectKey('ZookeeperCluster', name)], spec: { replicas: 1 } });
/**
 * The PVC the StatefulSet's pod claimed, with the labels getPVCList selects on (790-801: `app`,
 * the cluster's name, and `uid`, its UID; '' here, where objects carry no UIDs).
 */
const pvc = (zk: k8s.KubeObject) =>
  k8s.object({ kind: 'PersistentVolumeClaim', name: `data-${zk.name}-0`, labels: { app: zk.name, uid: zk.uid } });

function zookeeperController(code: Code): k8s.ControllerConfig<State> {
  /** After reconcileFinalizers: the buggy code goes on with the other steps; the fix ends the pass on a deleting cluster. */
  const afterFinalizers = (r: k8s.StepContext<State>, zk: k8s.KubeObject, deleting: boolean) =>
    code === 'pr530' && deleting ? r.done() : r.goto('reconcileConfigMap', { zk });
  /** Get, then Create if NotFound, else Update (the copy as found: its data already the one made, so the Update changes nothing). */
  const ensure = (r: k8s.StepContext<State>, make: (name: string) => k8s.KubeObject, next: string) => {
    const made = make(r.local<k8s.KubeObject>('zk').name);
    const found = r.cached(k8s.keyOf(made));
    const res = found === undefined ? r.create(made) : r.update(found);
    return res.code < 300 ? r.goto(next, { zk: r.local('zk') }) : r.requeue();
  };
  return {
    name: 'zookeeperController',
    manager: 'operator',
    watches: [
      { kind: 'ZookeeperCluster', predicate: generationChanged },
      { kind: 'StatefulSet', predicate: generationChanged, map: (o) => o.ownerReferences.filter((k) => k.startsWith('ZookeeperCluster/')) },
    ],
    docs: {
      reconcile: 'Reconcile 130-141: a cached Get of the cluster (NotFound: return); then reconcileFinalizers 731-755 on that copy.',
      deletePVC: 'cleanUpAllPVCs 790-826: a Delete of each PVC the cached List by label (app, uid) found (errors only logged).',
      removeFinalizer:
        'reconcileFinalizers 747-751: the finalizer removed from the copy, then a full Update (PUT, the cached resourceVersion).',
      reconcileConfigMap: 'reconcileConfigMap 549-581: a cached Get; NotFound: Create, owned by the cluster; found: Update.',
      reconcileStatefulSet: 'reconcileStatefulSet 217-306: a cached Get; NotFound: Create, owned by the cluster; found: Update.',
      reconcileClusterStatus:
        'reconcileClusterStatus 583-647: Status().Update of the cluster copy (404 once it is gone: an error, requeued); then RequeueAfter ReconcileTime (175).',
    },
    reconcile: (r) => {
      const zk = r.cached(r.key);
      if (zk === undefined) return r.done(); // 131-138
      const deleting = k8s.isDeleting(zk);
      // Defaults and the rolling-restart trigger (142-159) change nothing here: the cluster is made with its defaults.
      // 735-744: not being deleted (the finalizer is on; no orphan PVCs here), or deleting without the finalizer.
      if (!deleting || !k8s.hasFinalizer(zk, FINALIZER)) return afterFinalizers(r, zk, deleting);
      // 745-752: cleanUpAllPVCs, from a cached List by label (getPVCList 790-801), then the finalizer off the copy.
      const pvcs = r
        .list('PersistentVolumeClaim')
        .filter((o) => k8s.matchesLabels(o, { app: zk.name, uid: zk.uid }))
        .map((o) => k8s.keyOf(o));
      return pvcs.length > 0 ? r.goto('deletePVC', { pvc: pvcs[0], zk }) : r.goto('removeFinalizer', { zk });
    },
    steps: {
      deletePVC: (r) => {
        r.delete(r.local<k8s.ObjectKey>('pvc')); // errors only logged (cleanUpAllPVCs)
        return r.goto('removeFinalizer', { zk: r.local('zk') });
      },
      removeFinalizer: (r) => {
        const zk = r.local<k8s.KubeObject>('zk');
        const res = r.update(zk.set('finalizers', k8s.withoutFinalizer(zk, FINALIZER)));
        if (res.code !== 200) return r.requeue(); // 750-751: the error returns, the key is requeued
        return afterFinalizers(r, zk, true); // 754: return nil
      },
      reconcileConfigMap: (r) => ensure(r, configMap, 'reconcileStatefulSet'),
      reconcileStatefulSet: (r) => ensure(r, statefulSet, 'reconcileClusterStatus'),
      // The Services and the PodDisruptionBudget (409-547) follow the ConfigMap's pattern: left out.
      reconcileClusterStatus: (r) => {
        // The pass's copy: 404 once the cluster is gone, 409 if it moved on since, else nothing to write.
        const res = r.update(r.local<k8s.KubeObject>('zk'));
        // Success: RequeueAfter ReconcileTime, 30 s (48, 175); an error: requeued with backoff.
        return res.code < 300 ? r.requeueAfter('30s') : r.requeue();
      },
    },
  };
}

/**
 * `clusters`: the ZookeeperClusters, each with its ConfigMap, StatefulSet and PVC; with more than
 * one they are interchangeable, and the search folds states that differ only by which is which.
 */
function variant(
  code: Code,
  expectedViolations: string[],
  faults: k8s.KubeFaults = {},
  clusters: readonly string[] = ['zk'],
): Variant<State> {
  const kube = k8s.kubernetes<State>({
    world: { get: (s) => s.kube, set: (s, w) => s.set('kube', w) },
    servers: ['main'],
    // The manager's client reads every kind from its cache (ConfigMaps and PVCs through informers started on the first read).
    managers: [{ name: 'operator', server: 'main', kinds: ['ZookeeperCluster', 'StatefulSet', 'ConfigMap', 'PersistentVolumeClaim'] }],
    controllers: [zookeeperController(code)],
    garbageCollector: ['main'],
    faults,
  });
  const keys = clusters.map((name) => k8s.objectKey('ZookeeperCluster', name));
  const deleteCluster = action<State, k8s.ObjectKey>('user.deleteCluster', {
    doc: 'kubectl delete zookeepercluster <name> (DELETE, background propagation), once per cluster, at any moment.',
    params: () => keys,
    next: (s, key, events) => {
      const zk = kube.stored(s, 'main', key);
      if (zk === undefined || k8s.isDeleting(zk)) return undefined;
      return kube.request(s, 'main', (srv) => k8s.delete(srv, key), events).state;
    },
  });
  // Running clusters, reconciled: the finalizer on, the ConfigMap and StatefulSet made, the PVC
  // its pod claimed (labelled, no ownerReference: the StatefulSet controller made it).
  const zks = clusters.map((name) =>
    k8s.object({ kind: 'ZookeeperCluster', name, finalizers: [FINALIZER], spec: { reclaimPolicy: 'Delete' } }),
  );
  const worlds = kube.initialWorlds(
    {
      main: zks.flatMap((zk) => [zk, configMap(zk.name), statefulSet(zk.name), pvc(zk)]).map((o) => ({ versions: [o], reconciled: true })),
    },
    { cacheLag: 'any' },
  );
  const instances = zks.map((zk) => [k8s.keyOf(zk), k8s.keyOf(configMap(zk.name)), k8s.keyOf(statefulSet(zk.name)), k8s.keyOf(pvc(zk))]);
  const two = clusters.length > 1;
  return {
    name: `${code}${faults.restarts ? '.faults' : ''}${two ? `.${clusters.length}clusters` : ''}`,
    description:
      (code === '5c46a5c1'
        ? 'zookeeper-operator at 5c46a5c1 (as v0.2.14, v0.2.15 and master): the pass goes on after the finalizer is removed.'
        : 'PR #530 (ea2812bc): the pass ends once reconcileFinalizers has seen the cluster being deleted.') +
      (faults.restarts ? ' With a controller-manager restart at any point.' : '') +
      (two ? ` ${clusters.length} clusters, interchangeable (symmetry reduction).` : ''),
    assumptions: [
      two
        ? `${clusters.length} ZookeeperClusters, each with its ConfigMap, StatefulSet and PVC, treated alike by every actor: states that differ only by which is which are one (symmetry).`
        : 'One ZookeeperCluster.',
      'A user deletes each ZookeeperCluster once, at any moment; its volume reclaim policy is Delete (the finalizer guards the PVCs).',
      'Scope: one PVC, the ConfigMap and the StatefulSet stand for the objects a pass creates; the Services, the PodDisruptionBudget and the pods follow the same pattern and are left out, and nothing makes PVCs or pods again.',
      ...kube.assumptions,
    ],
    init: () => worlds.map((w) => State({ kube: w })),
    actions: [deleteCluster, ...kube.actions],
    properties: [
      actionProperty<State>(
        'NothingCreatedForAGoneCluster',
        'No step creates an object owned by a ZookeeperCluster that is gone from the API server.',
        (s, t) => {
          const before = k8s.serverIn(s.kube, 'main')!.objects;
          const after = k8s.serverIn(t.kube, 'main')!.objects;
          if (before === after) return true;
          return after.every((o, key) => before.has(key) || o.ownerReferences.every((owner) => after.has(owner)));
        },
      ),
      ...kube.properties,
    ],
    ...kube.variantFields,
    ...(two ? { symmetry: kube.symmetry('clusters', instances) } : {}),
    checkDeadlock: false,
    expectedViolations,
  };
}

export default defineModel({
  name: 'zookeeper-410',
  description:
    'pravega/zookeeper-operator#410: a reconcile that goes on after removing its finalizer from a ZookeeperCluster being deleted. ' +
    'Is anything ever created owned by a cluster that is gone, in the code as released and with PR #530?',
  reproduces: {
    issue: 'pravega/zookeeper-operator#410',
    url: 'https://github.com/pravega/zookeeper-operator/issues/410',
    mechanism:
      'The pass that removes the finalizer of a deleting cluster goes on with its other steps, which create, from the cache, the children the garbage collector has just deleted.',
    uses: [
      'finalizers',
      'the garbage collector',
      'cache lag',
      'GenerationChangedPredicate',
      'labels',
      'restarts (the fix)',
      'two clusters under symmetry',
    ],
    buggy: ['5c46a5c1'],
    fixed: ['pr530', 'pr530.faults', 'pr530.2clusters'],
  },
  variants: [
    variant('5c46a5c1', ['NothingCreatedForAGoneCluster']),
    variant('pr530', []),
    variant('pr530', [], { restarts: 1 }),
    // The fix with two clusters in one operator, under symmetry. (The buggy code with two: 813,097
    // states up to renaming, 7 min here, for the same 9-state trace as with one: left out.)
    variant('pr530', [], {}, ['zk1', 'zk2']),
  ],
});
