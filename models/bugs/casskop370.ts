// Orange-OpenSource/casskop#370, "Casskop fails to clean up PVC and refuses to handle user
// requests after crash and restart" (found by Sieve), and its fix, PR #377 (commit b1a6a14f,
// "fix: update cc status if StatusFinalizing"). Scaling a rack down from two Cassandra nodes to
// one, the operator decommissions the last node and, once the node has left the ring, sets its
// pod operation to Finalizing in memory, scales the StatefulSet down, and writes the status only
// at the end of the reconcile. A crash between the StatefulSet's update and the status write
// leaves the stored status at Ongoing while the StatefulSet controller deletes the pod; every
// later reconcile then fails to get the pod, and the PVC is never deleted. The search is given
// the operator as written, a user who asks for one node at any moment, the StatefulSet
// controller, the Cassandra node, at most one operator crash, and the question whether the
// scale-down eventually completes.
//
// Code followed (Orange-OpenSource/casskop, pkg/controller/cassandracluster/):
// - commit 82bcb0c90757f49909ab4768323f6ce89ab8ed18 (the fix's parent): cassandracluster_controller.go
//   Reconcile 85-157 (a cached Get 97; the status copied into a local 125; updateCassandraStatus
//   deferred 128; ReconcileRack 145; RequeueAfter 5 s); cassandra_status.go updateCassandraStatus
//   38-63 (no write if the status did not change, else Client.Update of the whole object 58: the
//   CRD has no status subresource); reconcile.go ReconcileRack 441-571 (the StatefulSet 471,
//   getNextCassandraClusterStatus 481, handlePodOperation 486, on "break" with an action under way
//   return before the StatefulSet 494-505, ensureCassandraStatefulSet 527); pod_operation.go
//   ensureDecommission 320-427 (Finalizing 337-348: pod gone, deletePodPVC, else wait; Ongoing
//   350-411: any error getting the pod, NotFound included, breaks with an error 357-360; the node
//   DECOMMISSIONED: Finalizing in memory 401-406; Done 414-419: the action's status to Continue),
//   ensureDecommissionToDo 432-512 (the last pod 439; a node leaving or gone: break 479-482; the
//   pod's labels updated 484-492; Ongoing in memory 494-497; the decommission started in a
//   goroutine 501-509), deletePodPVC 516-552; statefulset.go CreateOrUpdateStatefulSet 277-281
//   (the action's status ToDo to Ongoing in memory) and UpdateStatefulSet 89-117 (Client.Update 91).
// - commit b1a6a14f7844b962217ca08cc5f2af6041695124 (PR #377): pod_operation.go 406-408, the
//   status written at once after Finalizing is set, before the StatefulSet is updated.
import { Record, type RecordOf } from 'immutable';
import { action, defineModel, k8s, leadsTo, liveness, weakFairness, type Variant } from 'modelcheck';

const CC = k8s.objectKey('CassandraCluster', 'cc');
const STS = k8s.objectKey('StatefulSet', 'cc-dc1-rack1');
const POD = k8s.objectKey('Pod', 'cc-dc1-rack1-1');
const PVC = k8s.objectKey('PersistentVolumeClaim', 'data-cc-dc1-rack1-1');

/** The Cassandra node of the last pod, as Jolokia reports it (NodeOperationMode). */
type Mode = 'NORMAL' | 'LEAVING' | 'DECOMMISSIONED';

interface StateProps {
  kube: k8s.KubeWorld;
  mode: Mode;
}
type State = RecordOf<StateProps>;
const State = Record<StateProps>({ kube: k8s.emptyWorld(), mode: 'NORMAL' }, 'Casskop370State');

/** The rack's status, as the operator keeps it in memory during a pass: the last action and the pod operation. */
interface RackStatus {
  readonly lastAction: string; // CassandraLastAction.Name/Status: 'None', or 'ScaleDown:' + status
  readonly podOp: string; // PodLastOperation.Status: 'None', 'ToDo', 'Ongoing', 'Finalizing', 'Done'
}

const statusOf = (cc: k8s.KubeObject): RackStatus => ({
  lastAction: String(cc.status.get('lastAction') ?? 'None'),
  podOp: String(cc.status.get('podOperation') ?? 'None'),
});
const withStatus = (cc: k8s.KubeObject, st: RackStatus) =>
  cc.set('status', cc.status.set('lastAction', st.lastAction).set('podOperation', st.podOp));
/** cassandra_util.go weAreScalingDown: ScaleDown with ToDo, Ongoing or Continue. */
const scalingDown = (st: RackStatus) => ['ScaleDown:ToDo', 'ScaleDown:Ongoing', 'ScaleDown:Continue'].includes(st.lastAction);

type Code = '82bcb0c9' | 'b1a6a14f';

function casskop(code: Code): k8s.ControllerConfig<State> {
  /** The deferred updateCassandraStatus, then RequeueAfter 5 s (without time: the key goes back). */
  const end = (r: k8s.StepContext<State>, cc: k8s.KubeObject, st: RackStatus) =>
    r.goto('updateStatus', { cc, status: withStatus(cc, st).status });
  return {
    name: 'casskop',
    manager: 'casskop',
    watches: [{ kind: 'CassandraCluster' }],
    docs: {
      reconcile:
        'Reconcile 85-157: the CassandraCluster from the cache, its status copied (125); ReconcileRack: getNextCassandraClusterStatus (481), then ensureDecommission on the in-memory pod operation (320-427).',
      labelPod:
        'ensureDecommissionToDo 484-492: UpdatePodLabel of the last pod (operation-name decommission, operation-status Ongoing); then Ongoing in memory (494-497).',
      startDecommission: 'ensureDecommissionToDo 501-509: the Jolokia decommission started in a goroutine; break.',
      writeStatusNow: 'PR #377, pod_operation.go 406-408: updateCassandraStatus at once, with Finalizing (an error returns).',
      updateStatefulSet:
        'ensureCassandraStatefulSet -> CreateOrUpdateStatefulSet: the action Ongoing in memory (277-281), then UpdateStatefulSet: Client.Update with replicas = nodesPerRacks (91).',
      deletePVC: 'deletePodPVC 516-552: the PVC from the cache, deleted; then Done in memory (the StatefulSet ready).',
      updateStatus:
        'The deferred updateCassandraStatus 38-63: nothing if the status is unchanged, else Client.Update of the whole object (58; its error ignored); RequeueAfter 5 s.',
    },
    reconcile: (r) => {
      const cc = r.cached(r.key);
      if (cc === undefined) return r.done();
      const sts = r.cached(STS);
      if (sts === undefined) return r.requeue();
      const nodes = Number(cc.spec.get('nodesPerRacks'));
      const replicas = Number(sts.spec.get('replicas'));
      let st = statusOf(cc);
      // getNextCassandraClusterStatus: UpdateStatusIfActionEnded (ScaleDown 389-400): under way,
      // the StatefulSet at the size asked (its status.replicas: the pod gone), and the STORED
      // pod operation Done: the action is Done.
      if (
        (st.lastAction === 'ScaleDown:Ongoing' || st.lastAction === 'ScaleDown:Continue') &&
        nodes === replicas &&
        r.cached(POD) === undefined &&
        statusOf(cc).podOp === 'Done'
      ) {
        st = { ...st, lastAction: 'ScaleDown:Done' };
      }
      // No action under way: UpdateStatusIfScaling (304-325) -> setDecommissionStatus: ScaleDown/ToDo, pod operation ToDo.
      if (!scalingDown(st) && nodes < replicas) st = { lastAction: 'ScaleDown:ToDo', podOp: 'ToDo' };
      if (!scalingDown(st)) return end(r, cc, st); // no pod operation; the StatefulSet already as asked
      switch (st.podOp) {
        case 'ToDo': {
          const pod = r.cached(POD);
          if (pod === undefined || k8s.isDeleting(pod)) return end(r, cc, st); // 439-458: an error, break
          const mode = r.state.mode; // Jolokia NodeOperationMode (470)
          if (mode !== 'NORMAL') return end(r, cc, st); // 479-482: leaving or gone, break
          return r.goto('labelPod', { cc, pod, status: withStatus(cc, st).status });
        }
        case 'Ongoing': {
          if (r.cached(POD) === undefined) return end(r, cc, st); // 357-360: Get fails (NotFound too), break with the error
          if (r.state.mode !== 'DECOMMISSIONED') return end(r, cc, st); // 377-399, 409-411: waiting
          st = { ...st, podOp: 'Finalizing' }; // 401-406, in memory
          if (code === 'b1a6a14f') return r.goto('writeStatusNow', { cc, status: withStatus(cc, st).status });
          return r.goto('updateStatefulSet', { cc, status: withStatus(cc, st).status });
        }
        case 'Finalizing': {
          if (r.cached(POD) !== undefined) return end(r, cc, st); // 337-348: the pod still there, waiting (break)
          // deletePodPVC: the PVC from the cache; gone already, Done at once.
          if (r.cached(PVC) !== undefined) return r.goto('deletePVC', { cc, status: withStatus(cc, st).status });
          return end(r, cc, { ...st, podOp: 'Done' });
        }
        case 'Done':
          return end(r, cc, { ...st, lastAction: 'ScaleDown:Continue' }); // 414-419
        default:
          return end(r, cc, st);
      }
    },
    steps: {
      labelPod: (r) => {
        const pod = r.local<k8s.KubeObject>('pod');
        r.update(pod.set('annotations', pod.annotations.set('operation-status', 'Ongoing')));
        return r.goto('startDecommission', {
          cc: r.local('cc'),
          status: r.local<k8s.KubeObject['status']>('status').set('podOperation', 'Ongoing'),
        });
      },
      startDecommission: (r) => {
        r.effect((s) => (s.mode === 'NORMAL' ? s.set('mode', 'LEAVING') : s));
        return r.goto('updateStatus', { cc: r.local('cc'), status: r.local('status') });
      },
      writeStatusNow: (r) => {
        const cc = r.local<k8s.KubeObject>('cc');
        const status = r.local<k8s.KubeObject['status']>('status');
        const res = r.update(cc.set('status', status));
        // 406-408: an error returns (continueResyncLoop, err), which ReconcileRack logs and goes on
        // with the StatefulSet all the same (486-494, 527); on success the copy has the new version.
        const next = res.code === 200 ? cc.set('status', status).set('resourceVersion', cc.resourceVersion + 1) : cc;
        return r.goto('updateStatefulSet', { cc: next, status });
      },
      updateStatefulSet: (r) => {
        const cc = r.local<k8s.KubeObject>('cc');
        const status = r.local<k8s.KubeObject['status']>('status');
        const sts = r.cached(STS)!;
        r.update(sts.set('spec', sts.spec.set('replicas', Number(cc.spec.get('nodesPerRacks')))));
        // CreateOrUpdateStatefulSet 277-281: ToDo -> Ongoing, in memory, before the Update.
        const lastAction = status.get('lastAction') === 'ScaleDown:ToDo' ? 'ScaleDown:Ongoing' : status.get('lastAction');
        return r.goto('updateStatus', { cc, status: status.set('lastAction', lastAction as string) });
      },
      deletePVC: (r) => {
        r.delete(PVC);
        return r.goto('updateStatus', {
          cc: r.local('cc'),
          status: r.local<k8s.KubeObject['status']>('status').set('podOperation', 'Done'),
        });
      },
      updateStatus: (r) => {
        const cc = r.local<k8s.KubeObject>('cc');
        const status = r.local<k8s.KubeObject['status']>('status');
        if (!status.equals(cc.status)) r.update(cc.set('status', status)); // its error ignored (deferred)
        return r.requeueAfter('5s'); // Reconcile 155: requeue5, nil (ReconcileRack's errors are only logged here)
      },
    },
  };
}

function variant(code: Code, expectedViolations: string[], faults: k8s.KubeFaults = {}): Variant<State> {
  const kube = k8s.kubernetes<State>({
    world: { get: (s) => s.kube, set: (s, w) => s.set('kube', w) },
    servers: ['main'],
    managers: [{ name: 'casskop', server: 'main', kinds: ['CassandraCluster', 'StatefulSet', 'Pod', 'PersistentVolumeClaim'] }],
    controllers: [casskop(code)],
    // deploy/crds/db.orange.com_cassandraclusters.yaml declares no subresources: an Update writes the status.
    withoutStatusSubresource: ['CassandraCluster'],
    faults,
  });
  const stored = (s: State, key: k8s.ObjectKey) => kube.stored(s, 'main', key);
  const scaleDown = action<State>('user.scaleDown', {
    doc: 'kubectl apply of the CassandraCluster with nodesPerRacks 1 (a merge patch of the spec), once, at any moment.',
    next: (s, _, events) => {
      const cc = stored(s, CC);
      if (cc === undefined || cc.spec.get('nodesPerRacks') !== 2) return undefined;
      return kube.request(s, 'main', (srv) => k8s.mergePatch(srv, CC, { spec: { nodesPerRacks: 1 } }), events).state;
    },
  });
  // The StatefulSet controller (kube-controller-manager): replicas below the pods, the highest ordinal deleted; its PVC kept.
  const deletePod = action<State>('statefulSetController.scaleDown', {
    doc: 'kube-controller-manager StatefulSet controller: replicas 1, so pod 1 is deleted (its PVC is kept, as a StatefulSet does).',
    next: (s, _, events) => {
      const sts = stored(s, STS);
      if (sts === undefined || Number(sts.spec.get('replicas')) > 1 || stored(s, POD) === undefined) return undefined;
      return kube.request(s, 'main', (srv) => k8s.delete(srv, POD), events).state;
    },
  });
  const leaveRing = action<State>('cassandra.leaveRing', {
    doc: 'The Cassandra node of pod 1 finishes its decommission: LEAVING, then DECOMMISSIONED.',
    next: (s) => (s.mode === 'LEAVING' ? s.set('mode', 'DECOMMISSIONED') : undefined),
  });
  const worlds = kube.initialWorlds(
    {
      main: [
        k8s.object({ kind: 'CassandraCluster', name: 'cc', spec: { nodesPerRacks: 2 } }),
        k8s.object({ kind: 'StatefulSet', name: 'cc-dc1-rack1', spec: { replicas: 2 }, ownerReferences: [CC] }),
        k8s.object({ kind: 'Pod', name: 'cc-dc1-rack1-1', ownerReferences: [STS] }),
        k8s.object({ kind: 'PersistentVolumeClaim', name: 'data-cc-dc1-rack1-1' }),
      ].map((o) => ({ versions: [o], reconciled: o.kind !== 'CassandraCluster' })),
    },
    { cacheLag: 'none' },
  );
  const asked = (s: State) => stored(s, CC)?.spec.get('nodesPerRacks') === 1;
  const completed = (s: State) =>
    stored(s, CC)?.status.get('lastAction') === 'ScaleDown:Done' &&
    stored(s, PVC) === undefined &&
    stored(s, STS)?.spec.get('replicas') === 1;
  return {
    name: faults.restarts ? `${code}.crash` : code,
    description:
      (code === '82bcb0c9'
        ? 'casskop at 82bcb0c9: Finalizing is written with the rest of the status, after the StatefulSet is scaled down.'
        : 'casskop with PR #377 (b1a6a14f): Finalizing is written at once, before the StatefulSet is scaled down.') +
      (faults.restarts ? ' The operator may crash and restart once, at any point.' : ''),
    assumptions: [
      'One rack of two nodes; the user asks for one node once, at any moment. The StatefulSet controller deletes pod 1 once replicas is 1 and keeps its PVC; the Cassandra node, once asked to decommission, leaves the ring.',
      'A decommission the operator started goes on if the operator crashes (the Jolokia call was accepted by the node).',
      'Scope: the Jolokia timer that asks again after 120 s without progress, the rack phase and the pods of other ordinals are left out; the StatefulSet is read as ready once the pod is gone.',
      ...kube.assumptions,
    ],
    init: () => worlds.map((w) => State({ kube: w })),
    actions: [scaleDown, deletePod, leaveRing, ...kube.actions],
    properties: [
      // The state #370 reports: every later reconcile fails to get the pod (357-360) and nothing moves.
      liveness<State>(
        'OngoingOnAGonePodIsResolved',
        'Whenever the stored status says a decommission is under way (Ongoing) on a pod that is gone, it eventually says Finalizing or Done.',
        leadsTo(
          (s) => stored(s, CC)?.status.get('podOperation') === 'Ongoing' && stored(s, POD) === undefined,
          (s) => ['Finalizing', 'Done'].includes(String(stored(s, CC)?.status.get('podOperation'))),
        ),
      ),
      liveness<State>(
        'ScaleDownCompletes',
        "Once the user has asked for one node, the scale-down eventually completes: the rack's action Done, the PVC of pod 1 deleted, the StatefulSet at one replica.",
        leadsTo(asked, completed),
      ),
      ...kube.properties,
    ],
    ...kube.variantFields,
    fairness: [
      ...kube.fairness,
      weakFairness('statefulSetController', ['statefulSetController.scaleDown']),
      weakFairness('cassandra', ['cassandra.leaveRing']),
    ],
    checkDeadlock: false,
    expectedViolations,
  };
}

export default defineModel({
  name: 'casskop-370',
  description:
    'Orange-OpenSource/casskop#370: a rack scaled down from two Cassandra nodes to one, with the operator crashing at any point. Does the scale-down complete, in the code as it was and with PR #377? ' +
    'Finding: PR #377 makes the state the issue reports unreachable (OngoingOnAGonePodIsResolved holds), but the scale-down still strands after a crash in two other places. ' +
    'In both versions, between the start of the decommission and the write of Ongoing: after the restart the pod operation is still ToDo, and ensureDecommissionToDo (pod_operation.go 479-482) finds the node leaving or gone and breaks without a write, for ever (the shortest counterexample). ' +
    "Only with the fix, between its new write of Finalizing (406-408) and the StatefulSet's update: the pod is still there, so the Finalizing branch waits (337-348) and ReconcileRack, its action still ToDo, returns before the StatefulSet (494-505), for ever. " +
    'This rests on the stated assumption that a decommission the node accepted goes on when the operator dies.',
  reproduces: {
    issue: 'Orange-OpenSource/casskop#370',
    url: 'https://github.com/Orange-OpenSource/casskop/issues/370',
    mechanism:
      'Finalizing is set in memory, the StatefulSet scaled down, and the status written only at the end of the reconcile: a crash between the two leaves Ongoing stored on a pod that is gone, and every later reconcile fails to get it. The fix closes that window; the search finds others: a crash after the decommission starts and before Ongoing is written (both versions), and one after the fix writes Finalizing and before the StatefulSet is updated.',
    uses: [
      'restarts',
      'an update that writes the status (no status subresource)',
      'liveness under fairness',
      'actors outside the operator',
    ],
    buggy: ['82bcb0c9.crash'],
    fixed: ['b1a6a14f.crash'],
  },
  variants: [
    variant('82bcb0c9', []),
    variant('82bcb0c9', ['OngoingOnAGonePodIsResolved', 'ScaleDownCompletes'], { restarts: 1 }),
    variant('b1a6a14f', []),
    // A finding: with PR #377 the state #370 reports is gone (OngoingOnAGonePodIsResolved holds),
    // but a crash after the decommission starts and before Ongoing is written still strands the
    // scale-down, in both versions (ensureDecommissionToDo 479-482 breaks without a write on a
    // node that is leaving or gone).
    variant('b1a6a14f', ['ScaleDownCompletes'], { restarts: 1 }),
  ],
});
